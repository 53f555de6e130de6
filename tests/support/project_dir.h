#pragma once
// A throwaway project folder for tests that run `check` or `review`: a fresh directory under
// the system temp dir with scenarios/ and expected/, removed at the end of the test; and whole-
// file reads and writes.
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <system_error>

namespace collide::test {

/// A fresh directory `<temp>/<prefix>_<pid>_<n>` holding scenarios/ and expected/.
struct ProjectDir {
    std::filesystem::path path;
    explicit ProjectDir(const std::string& prefix) {
        static int counter = 0;
        path = std::filesystem::temp_directory_path() /
               (prefix + "_" + std::to_string(getpid()) + "_" + std::to_string(counter++));
        std::filesystem::remove_all(path);
        std::filesystem::create_directories(path / "scenarios");
        std::filesystem::create_directories(path / "expected");
    }
    ~ProjectDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    ProjectDir(const ProjectDir&) = delete;
    ProjectDir& operator=(const ProjectDir&) = delete;
    /// `rel` inside the folder, as a generic path string.
    std::string operator/(const std::string& rel) const { return (path / rel).generic_string(); }
};

/// A fresh, empty directory `<temp>/<prefix>_<pid>_<n>`, removed with everything in it at the
/// end of the scope (also when a REQUIRE ends the test early).
struct ScratchDir {
    std::filesystem::path path;
    explicit ScratchDir(const std::string& prefix) {
        static int counter = 0;
        path = std::filesystem::temp_directory_path() /
               (prefix + "_" + std::to_string(getpid()) + "_" + std::to_string(counter++));
        std::filesystem::remove_all(path);
        std::filesystem::create_directories(path);
    }
    ~ScratchDir() {
        std::error_code ec;
        std::filesystem::remove_all(path, ec);
    }
    ScratchDir(const ScratchDir&) = delete;
    ScratchDir& operator=(const ScratchDir&) = delete;
};

/// Writes `text` to `path`, replacing it.
inline void write_text(const std::string& path, const std::string& text) {
    std::ofstream(path, std::ios::binary) << text;
}

/// The whole file at `path` ("" when it cannot be read).
inline std::string read_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

} // namespace collide::test
