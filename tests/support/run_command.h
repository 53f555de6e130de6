#pragma once
/// \file
/// Running the built `collide` executable from tests, capturing stdout, stderr and the exit code.

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <system_error>
#include <unistd.h>

namespace collide::test {

/// What a command printed and how it exited.
struct CommandResult {
    int exit_code = -1; ///< the process's exit status (−1 if it did not exit normally)
    std::string out;    ///< standard output
    std::string err;    ///< standard error
};

/// Run `collide ARGS` through the shell from the source folder (so scenarios/ resolves), with
/// optional text on standard input. With a `time_limit` (s) above 0, the run is killed when it
/// lasts longer (coreutils' timeout: exit code 124), so a test of "promptly" has a bound.
inline CommandResult run_collide(const std::string& args, const std::string& stdin_text = "", double time_limit = 0) {
    namespace fs = std::filesystem;
    static int counter = 0;
    // One scratch folder per process, removed again when the tests end.
    struct Scratch {
        fs::path path;
        ~Scratch() {
            std::error_code ec;
            fs::remove_all(path, ec);
        }
    };
    static const Scratch scratch{fs::temp_directory_path() / ("collide_cli_" + std::to_string(::getpid()))};
    const fs::path& dir = scratch.path;
    fs::create_directories(dir);
    const std::string n = std::to_string(counter++);
    const fs::path in = dir / ("in" + n), out = dir / ("out" + n), err = dir / ("err" + n);
    std::ofstream(in) << stdin_text;
    const std::string limit = time_limit > 0 ? "timeout -k 2 " + std::to_string(time_limit) + " " : "";
    const std::string cmd = std::string("cd '") + COLLIDE_SOURCE_DIR + "' && " + limit + "'" + COLLIDE_EXE + "' " +
                            args + " <'" + in.string() + "' >'" + out.string() + "' 2>'" + err.string() + "'";
    const int status = std::system(cmd.c_str());
    CommandResult r;
    r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    std::stringstream so, se;
    so << std::ifstream(out).rdbuf();
    se << std::ifstream(err).rdbuf();
    r.out = so.str();
    r.err = se.str();
    fs::remove(in);
    fs::remove(out);
    fs::remove(err);
    return r;
}

} // namespace collide::test
