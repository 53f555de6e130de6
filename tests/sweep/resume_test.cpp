// Shards that resume (sweep/checkpoint.h), with real processes: a sweep killed with SIGKILL
// at random points and run again with the same arguments writes, byte for byte, what an
// uninterrupted run writes; a chunk folder of another sweep, or one in use, is refused.
#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <random>
#include <spawn.h>
#include <string>
#include <sys/wait.h>
#include <thread>
#include <vector>

#include "support/project_dir.h"
#include "support/run_command.h"
#include "support/sample_count.h"

extern char** environ;

namespace fs = std::filesystem;
using collide::test::read_text;

namespace {

/// `collide ARGS` started from the source folder, not waited for; its process id.
pid_t start_collide(const std::vector<std::string>& args) {
    std::vector<std::string> all = {COLLIDE_EXE};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char*> argv;
    for (std::string& a : all) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0); // reading nothing we need
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0);
    pid_t pid = -1;
    const int rc = posix_spawn(&pid, COLLIDE_EXE, &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    REQUIRE(rc == 0);
    return pid;
}

/// The rows the whole chunks in `folder` hold (0 when there is none).
std::uint64_t rows_in_chunks(const fs::path& folder) {
    std::uint64_t rows = 0;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(folder, ec)) {
        const std::string name = e.path().filename().string();
        if (name.rfind("rows-", 0) == 0) rows += std::stoull(name.substr(18, 12));
    }
    return rows;
}

/// The arguments of the test's sweep, writing `out`.
std::vector<std::string> sweep_args(const std::string& out) {
    return {"sweep",        std::string(COLLIDE_SOURCE_DIR) + "/scenarios/tunnel.yaml",
            "--vary",       "speed=10:300:2",
            "--vary",       "offset=0:0.995:0.005",
            "--detection",  "both",
            "--format",     "csv",
            "--jobs",       "1",
            "--checkpoint", "0",
            "-o",           out};
}

std::string quoted(const std::vector<std::string>& args) {
    std::string s;
    for (const std::string& a : args) s += "'" + a + "' ";
    return s;
}

} // namespace

TEST_CASE("a sweep killed with SIGKILL at 20 random points and run again writes the uninterrupted CSV",
          "[sweep][resume][heavy]") {
    const collide::test::ProjectDir dir("collide_resume");
    const std::string reference = dir / "reference.csv", out = dir / "out.csv";
    const auto start = std::chrono::steady_clock::now();
    REQUIRE(collide::test::run_collide(quoted(sweep_args(reference))).exit_code == 0);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const std::string expected = read_text(reference);
    const std::uint64_t rows = 146 * 200 * 2; // 146 speeds × 200 offsets × 2 modes
    REQUIRE(std::count(expected.begin(), expected.end(), '\n') == static_cast<long>(rows + 2));

    std::mt19937_64 rng(2020);
    std::uniform_real_distribution<double> when(0.0, seconds);
    int partial = 0; // kills that left some rows done, but not all
    const int kills = collide::test::kSanitized ? 6 : 20;
    for (int kill = 0; kill < kills; ++kill) {
        fs::remove(out);
        fs::remove_all(out + ".chunks");
        const pid_t pid = start_collide(sweep_args(out));
        std::this_thread::sleep_for(std::chrono::duration<double>(when(rng)));
        ::kill(pid, SIGKILL);
        int status = 0;
        REQUIRE(::waitpid(pid, &status, 0) == pid);
        const std::uint64_t done = rows_in_chunks(out + ".chunks");
        if (done > 0 && done < rows) ++partial;
        INFO("kill " << kill << ": " << done << " rows were done");
        const collide::test::CommandResult r = collide::test::run_collide(quoted(sweep_args(out)));
        REQUIRE(r.exit_code == 0);
        CHECK(read_text(out) == expected);
        CHECK_FALSE(fs::exists(out + ".chunks"));
        if (done > 0 && WIFSIGNALED(status) && fs::exists(out + ".chunks"))
            CHECK(r.err.find("resuming") != std::string::npos);
    }
    CHECK(partial >= kills / 4); // the kills landed in the middle of the work, not only before or after it

    // Killed again and again on the same output: each run goes on after the one before.
    fs::remove(out);
    for (int kill = 0; kill < 4; ++kill) {
        const pid_t pid = start_collide(sweep_args(out));
        std::this_thread::sleep_for(std::chrono::duration<double>(seconds / 5));
        ::kill(pid, SIGKILL);
        ::waitpid(pid, nullptr, 0);
    }
    REQUIRE(collide::test::run_collide(quoted(sweep_args(out))).exit_code == 0);
    CHECK(read_text(out) == expected);
    for (const auto& e : fs::directory_iterator(dir.path))
        CHECK(e.path().filename().string().find(".tmp.") == std::string::npos); // no temporary left behind
}

TEST_CASE("a chunk folder of another sweep is refused, and so is one in use", "[sweep][resume]") {
    const collide::test::ProjectDir dir("collide_resume_other");
    const std::string out = dir / "out.csv";
    std::vector<std::string> args = sweep_args(out);
    const pid_t pid = start_collide(args);
    // Wait for the first chunk, then try the same sweep again while this one runs.
    for (int i = 0; i < 2000 && rows_in_chunks(out + ".chunks") == 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    const collide::test::CommandResult busy = collide::test::run_collide(quoted(args));
    ::kill(pid, SIGKILL);
    ::waitpid(pid, nullptr, 0);
    CHECK(busy.exit_code == 2);
    CHECK_THAT(busy.err, Catch::Contains("another collide sweep is writing it now"));
    REQUIRE(rows_in_chunks(out + ".chunks") > 0);
    // Another grid onto the same output: its rows would not be these.
    args[3] = "speed=10:300:4";
    const collide::test::CommandResult other = collide::test::run_collide(quoted(args));
    CHECK(other.exit_code == 2);
    CHECK_THAT(other.err, Catch::Contains("holds the finished rows of another sweep"));
    CHECK_FALSE(fs::exists(out));
}

TEST_CASE("a resumable sweep stopped by SIGTERM keeps its finished rows; one that rejects a cell keeps none",
          "[sweep][resume]") {
    const collide::test::ProjectDir dir("collide_resume_term");
    const std::string reference = dir / "reference.csv", out = dir / "out.csv";
    REQUIRE(collide::test::run_collide(quoted(sweep_args(reference))).exit_code == 0);
    // SIGTERM (a Slurm preemption or scancel sends it first): exit 143, the chunks stay.
    const pid_t pid = start_collide(sweep_args(out));
    for (int i = 0; i < 2000 && rows_in_chunks(out + ".chunks") == 0; ++i)
        std::this_thread::sleep_for(std::chrono::milliseconds(5));
    ::kill(pid, SIGTERM);
    int status = 0;
    REQUIRE(::waitpid(pid, &status, 0) == pid);
    REQUIRE(WIFEXITED(status));
    CHECK(WEXITSTATUS(status) == 143);
    CHECK(rows_in_chunks(out + ".chunks") > 0);
    CHECK_FALSE(fs::exists(out));
    REQUIRE(collide::test::run_collide(quoted(sweep_args(out))).exit_code == 0);
    CHECK(read_text(out) == read_text(reference));

    // A radius of −1 in the third cell: bad input, exit 2, no output and no chunk folder.
    const std::string yaml = "name: r\nparams: { r: 1 }\nworld: { rate: 60, frames: 3 }\n"
                             "bodies:\n  ball: { sphere: { radius: $r } }\nlog:\n  - final: { body: ball }\n";
    const std::string bad = dir / "bad.csv";
    const auto r =
            collide::test::run_collide("sweep - --vary r=1,0.5,-1 --format csv --checkpoint 0 -o '" + bad + "'", yaml);
    CHECK(r.exit_code == 2);
    CHECK_FALSE(fs::exists(bad));
    CHECK_FALSE(fs::exists(bad + ".chunks"));
}
