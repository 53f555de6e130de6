// Every command's outputs, end to end: an output that names an input is refused with exit 2
// before anything runs (the input unchanged), a FIFO -o is streamed to, a signal leaves no
// temporary file behind.
#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "support/project_dir.h"
#include "support/run_command.h"

using collide::test::run_collide;
namespace fs = std::filesystem;

namespace {

/// A fresh temporary folder holding a copy of scenarios/tunnel.yaml as s.yaml.
struct Work {
    fs::path dir;
    std::string scenario;
    std::string text;
    explicit Work(const std::string& name) {
        dir = fs::temp_directory_path() / (name + "_" + std::to_string(::getpid()));
        fs::remove_all(dir);
        fs::create_directories(dir);
        scenario = (dir / "s.yaml").string();
        fs::copy_file(fs::path(COLLIDE_SOURCE_DIR) / "scenarios/tunnel.yaml", scenario);
        text = collide::test::read_text(scenario);
    }
    ~Work() {
        std::error_code ec;
        fs::remove_all(dir, ec);
    }
    std::string q(const std::string& name) const { return "'" + (dir / name).string() + "'"; }
};

} // namespace

TEST_CASE("sim -o and --trace onto the scenario are refused with exit 2, the scenario intact") {
    Work w("collide_out_sim");
    for (const std::string& args :
         {"sim " + w.q("s.yaml") + " -o " + w.q("s.yaml"), "sim " + w.q("s.yaml") + " --trace " + w.q("s.yaml"),
          "sim " + w.q("s.yaml") + " -o " + w.q("./s.yaml")}) {
        const auto r = run_collide(args);
        CHECK(r.exit_code == 2);
        CHECK(r.out.empty());
        CHECK(r.err.find("names an input") != std::string::npos);
        CHECK(collide::test::read_text(w.scenario) == w.text);
    }
    const auto both = run_collide("sim " + w.q("s.yaml") + " -o " + w.q("x.csv") + " --trace " + w.q("x.csv"));
    CHECK(both.exit_code == 2);
    CHECK_FALSE(fs::exists(w.dir / "x.csv"));
}

TEST_CASE("sweep -o and merge -o onto an input are refused with exit 2") {
    Work w("collide_out_sweep");
    const auto sweep = run_collide("sweep " + w.q("s.yaml") + " --vary speed=30,60 --format csv -o " + w.q("s.yaml"));
    CHECK(sweep.exit_code == 2);
    CHECK(collide::test::read_text(w.scenario) == w.text);
    REQUIRE(run_collide("sweep " + w.q("s.yaml") + " --vary speed=30,60 --format csv -o " + w.q("a.csv")).exit_code ==
            0);
    const std::string shard = collide::test::read_text(w.dir / "a.csv");
    const auto merge = run_collide("merge " + w.q("a.csv") + " -o " + w.q("a.csv"));
    CHECK(merge.exit_code == 2);
    CHECK(merge.err.find("-o names an input") != std::string::npos);
    CHECK(collide::test::read_text(w.dir / "a.csv") == shard);
}

TEST_CASE("check --junit or --artifacts onto a scenario or a golden is refused with exit 2") {
    Work w("collide_out_check");
    fs::create_directories(w.dir / "expected");
    const auto junit =
            run_collide("check " + w.q("s.yaml") + " --expected " + w.q("expected") + " --junit " + w.q("s.yaml"));
    CHECK(junit.exit_code == 2);
    CHECK(junit.err.find("--junit names an input") != std::string::npos);
    CHECK(collide::test::read_text(w.scenario) == w.text);
    const auto artifacts = run_collide("check " + w.q("s.yaml") + " --expected " + w.q("expected") + " --artifacts " +
                                       w.q("expected"));
    CHECK(artifacts.exit_code == 2);
    CHECK(artifacts.err.find("--artifacts names an input") != std::string::npos);
}

TEST_CASE("sim -o into a FIFO streams the log to its reader; a symlink -o is refused") {
    Work w("collide_out_fifo");
    const fs::path fifo = w.dir / "pipe";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    std::string got;
    std::thread reader([&] { got = collide::test::read_text(fifo); });
    const auto r = run_collide("sim " + w.q("s.yaml") + " -o " + w.q("pipe"));
    reader.join();
    CHECK(r.exit_code == 0);
    CHECK(got == "first contact of bullet with wall → frame 3 at t = 0.050 s, centre (0.000, 0.000, 0.000) m\n"
                 "bullet against wall → tunneled: through at frame 4, t = 0.067 s, and ended beyond it\n");
    CHECK(fs::is_fifo(fs::symlink_status(fifo)));

    fs::create_symlink(w.dir / "victim", w.dir / "link.log");
    std::ofstream(w.dir / "victim") << "precious";
    const auto link = run_collide("sim " + w.q("s.yaml") + " -o " + w.q("link.log"));
    CHECK(link.exit_code == 2);
    CHECK(link.err.find("symbolic link") != std::string::npos);
    CHECK(collide::test::read_text(w.dir / "victim") == "precious");
}

TEST_CASE("a sweep killed by SIGINT, SIGTERM or SIGHUP exits 130, 143, 129 and leaves no temporary") {
    Work w("collide_out_signal");
    for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
        const std::string out = (w.dir / "big.csv").string();
        const std::string log = (w.dir / "stderr.txt").string();
        const pid_t child = ::fork();
        REQUIRE(child >= 0);
        if (child == 0) {
            const int err = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
            ::dup2(err, 2);
            ::execl(COLLIDE_EXE, COLLIDE_EXE, "sweep", w.scenario.c_str(), "--vary", "speed=1:200000:1", "--vary",
                    "offset=0:0.99:0.01", "--format", "csv", "--jobs", "1", "-o", out.c_str(),
                    static_cast<char*>(nullptr));
            ::_exit(127);
        }
        // Wait until the temporary exists (the sweep is running and writing it), then signal.
        bool started = false;
        for (int i = 0; i < 400 && !started; ++i) {
            std::this_thread::sleep_for(std::chrono::milliseconds(25));
            for (const auto& e : fs::directory_iterator(w.dir))
                if (e.path().filename().string().rfind(".big.csv.tmp.", 0) == 0) started = true;
        }
        CHECK(started);
        ::kill(child, sig);
        int status = 0;
        REQUIRE(::waitpid(child, &status, 0) == child);
        REQUIRE(WIFEXITED(status));
        CHECK(WEXITSTATUS(status) == 128 + sig);
        int left = 0;
        for (const auto& e : fs::directory_iterator(w.dir))
            left += e.path().filename() != "s.yaml" && e.path().filename() != "stderr.txt";
        CHECK(left == 0);
    }
}

TEST_CASE("check: a golden that is a directory is bad input (exit 2); an empty folder is an error") {
    Work w("collide_out_golden_dir");
    fs::create_directories(w.dir / "expected/s.log");
    const auto dir = run_collide("check " + w.q("s.yaml") + " --expected " + w.q("expected"));
    CHECK(dir.exit_code == 2);
    CHECK(dir.err.find("the golden is a directory") != std::string::npos);
    fs::create_directories(w.dir / "empty");
    const auto empty = run_collide("check " + w.q("empty") + " --expected " + w.q("expected"));
    CHECK(empty.exit_code == 2);
    CHECK(empty.err.find("no scenario files") != std::string::npos);
}

TEST_CASE("a body name outside [A-Za-z0-9_.-] is a located error, so it never reaches a CSV or a terminal") {
    for (const std::string name :
         {"'x,1,2'", "\"a\\e[31mred\"", "\"=cmd|x\"", "\"x,1,2\\n=cmd|' /C calc'!A0\"", "\"a\\u202Eb\""}) {
        INFO(name);
        const auto r = run_collide("validate -", "bodies:\n  " + name + ": { sphere: { radius: 1 } }\n");
        CHECK(r.exit_code == 2);
        CHECK_THAT(r.err, Catch::StartsWith("<stdin>:2:3: error: bodies: a body's name may hold letters"));
        CHECK(r.err.find('\x1b') == std::string::npos);
        CHECK(r.err.find("\u202e") == std::string::npos);
        CHECK(r.err.find('\n') == r.err.size() - 1);
    }
    CHECK(run_collide("validate -", "bodies:\n  feet-1.left_2: { sphere: { radius: 1 } }\n").exit_code == 0);
}

TEST_CASE("check reads a scenario from a FIFO named on the command line") {
    Work w("collide_out_fifo_in");
    const fs::path fifo = w.dir / "s-fifo.yaml";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    // Write once a reader opens it; give up after 20 s so that a failing check cannot hang the test.
    std::thread writer([&] {
        for (int i = 0; i < 2000; ++i) {
            const int fd = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK);
            if (fd >= 0) {
                ::fcntl(fd, F_SETFL, 0);
                if (::write(fd, w.text.data(), w.text.size()) < 0) { /* the check below fails */
                }
                ::close(fd);
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    });
    fs::create_directories(w.dir / "expected");
    const auto r = run_collide("check " + w.q("s-fifo.yaml") + " --expected " + w.q("expected"));
    writer.join();
    CHECK(r.err.find("no such scenario") == std::string::npos);
    CHECK(r.out.find("s-fifo") != std::string::npos);
}
