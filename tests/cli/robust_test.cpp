// Issue 13's remaining cases end to end: text from an input never reaches a terminal, CSV, XML
// or HTML as a control or bidirectional character (refused at load with a located error, or
// shown escaped when it is a path from the command line); --trace streams to disk and a write
// error blames the trace file; --set and --vary values are read as strictly as scenario numbers;
// two `check --update` at once both succeed.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdlib>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <thread>
#include <unistd.h>

#include "support/device_node.h"
#include "support/project_dir.h"
#include "support/run_command.h"
#include "support/skip.h"

using collide::test::device_nodes_unavailable;
using collide::test::ProjectDir;
using collide::test::read_text;
using collide::test::run_collide;
using collide::test::skip_test;
using collide::test::write_text;
namespace fs = std::filesystem;

namespace {

/// A scenario with one log entry (a pure `respond`), its label, note, name and about lines as given.
std::string scenario_with(const std::string& extra_top, const std::string& extra_entry) {
    return extra_top +
           "bodies:\n  a: { sphere: { radius: 1 } }\nlog:\n"
           "  - respond: { velocity: [5, -1, 0], normal: [0, 1, 0], restitution: 0, friction: 0 }\n" +
           extra_entry;
}

/// One line, no raw control or bidirectional byte sequence: what a terminal can show as it is.
bool one_clean_line(const std::string& text) {
    if (text.empty() || text.back() != '\n') return false;
    for (std::size_t i = 0; i + 1 < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x20 || c == 0x7f) return false;
    }
    for (const char* bidi : {"\u202e", "\u2066", "\u200f", "\u0085"})
        if (text.find(bidi) != std::string::npos) return false;
    return true;
}

std::string quoted(const std::string& path) { return "'" + path + "'"; }

} // namespace

TEST_CASE("a label, note, name or about line with a control or bidi character is a located error, shown escaped") {
    struct Case {
        std::string top, entry, expected;
    };
    const Case cases[] = {
            {"", "    label: \"red\\e[31m\"\n",
             "log[0].label: \\x1b (an escape (a terminal control sequence)) at character 4"},
            {"", "    note: \"abc\\u202Edef\"\n", "log[0].note: \\u202e (a bidirectional control) at character 4"},
            {"name: \"\\u2066x\"\n", "", "name: \\u2066 (a bidirectional control) at character 1"},
            {"about: \"a\\u0085b\"\n", "", "about: \\u0085 (a control character) at character 2"},
            // yaml-cpp turns YAML's \N (U+0085) into the lone byte 0x85, which is not UTF-8.
            {"about: \"a\\Nb\"\n", "", "about: \\x85 (a byte that is not UTF-8) at character 2"},
            {"about: \"a\\x7fb\"\n", "", "about: \\x7f (a control character) at character 2"},
            {"", "    label: \"a\\rb\"\n", "log[0].label: \\r (a line break) at character 2"},
            {"", "    note: \"x\\u200Fy\"\n", "log[0].note: \\u200f (a bidirectional control)"},
            {"", "    note: \"x\\u061Cy\"\n", "log[0].note: \\u061c (a bidirectional control)"},
    };
    for (const Case& c : cases) {
        INFO(c.expected);
        const auto r = run_collide("sim -", scenario_with(c.top, c.entry));
        CHECK(r.exit_code == 2);
        CHECK(r.out.empty());
        CHECK_THAT(r.err, Catch::StartsWith("<stdin>:") && Catch::Contains(": error: " + c.expected));
        CHECK(one_clean_line(r.err));
    }
    // Tab, accents, arrows and other printable Unicode are fine.
    const auto ok = run_collide("sim -", scenario_with("name: \"café\"\n", "    label: \"a\\tb → é\"\n"));
    CHECK(ok.exit_code == 0);
    CHECK(ok.out.find("a\tb → é") != std::string::npos);
}

TEST_CASE("an expectation or key that quotes a control character is reported escaped, on one line") {
    const auto expect =
            run_collide("validate -", scenario_with("", "expect:\n  - { value: \"respond.vx\\e[2J\", equals: 0 }\n"));
    CHECK(expect.exit_code == 2);
    CHECK(expect.err.find("no logged value 'respond.vx\\x1b[2J'") != std::string::npos);
    CHECK(one_clean_line(expect.err));
    const auto key = run_collide("validate -", scenario_with("\"k\\e]0;x\\a\": 1\n", ""));
    CHECK(key.exit_code == 2);
    CHECK(key.err.find("k\\x1b]0;x\\x07") != std::string::npos);
    CHECK(one_clean_line(key.err));
    const auto param = run_collide("validate -", scenario_with("params: { \"a\\u202Eb\": 1 }\n", ""));
    CHECK(param.exit_code == 2);
    CHECK(param.err.find("params.a\\u202eb") != std::string::npos);
    CHECK(one_clean_line(param.err));
}

TEST_CASE("a file name with a newline, ESC or bidi character is echoed escaped in an error message") {
    ProjectDir d("collide_robust_names");
    const std::string missing = d / "a\nb.yaml";
    const auto r = run_collide("sim " + quoted(missing));
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("a\\nb.yaml") != std::string::npos);
    CHECK(one_clean_line(r.err));

    const std::string bad = d / "x\x1b[31m\u202e.yaml";
    write_text(bad, "bodies: [\n");
    const auto located = run_collide("validate " + quoted(bad));
    CHECK(located.exit_code == 2);
    CHECK(located.err.find("x\\x1b[31m\\u202e.yaml:") != std::string::npos);
    CHECK(one_clean_line(located.err));

    const auto output = run_collide("sim scenarios/mtv.yaml -o " + quoted(d / "no/such\ndir.txt"));
    CHECK(output.exit_code == 2);
    CHECK(output.err.find("no/such\\ndir.txt") != std::string::npos);
    CHECK(one_clean_line(output.err));
}

TEST_CASE("sim of several files heads each log with its path escaped; check refuses a scenario path it cannot print") {
    ProjectDir d("collide_robust_paths");
    const std::string text = read_text(std::string(COLLIDE_SOURCE_DIR) + "/scenarios/mtv.yaml");
    const std::string odd = d / "scenarios/m\x1b[2Jtv.yaml";
    write_text(odd, text);
    write_text(d / "scenarios/plain.yaml", text);
    const auto sim = run_collide("sim " + quoted(d / "scenarios/plain.yaml") + " " + quoted(odd));
    CHECK(sim.exit_code == 0);
    CHECK(sim.out.find("# " + (d / "scenarios/m\\x1b[2Jtv.yaml") + "\n") != std::string::npos);
    CHECK(sim.out.find('\x1b') == std::string::npos);

    const auto check = run_collide("check " + quoted(d / "scenarios") + " --expected " + quoted(d / "expected"));
    CHECK(check.exit_code == 2);
    CHECK(check.err.find("the scenario's path: \\x1b (an escape") != std::string::npos);
    CHECK(check.err.find('\x1b') == std::string::npos);
    CHECK(check.out.find('\x1b') == std::string::npos);

    fs::remove(odd);
    const auto expected = run_collide("check " + quoted(d / "scenarios") + " --expected " + quoted(d / "exp\u202e"));
    CHECK(expected.exit_code == 2);
    CHECK(expected.err.find("exp\\u202e: error: the golden folder's path: \\u202e") != std::string::npos);
    CHECK(one_clean_line(expected.err));
}

TEST_CASE("a --set value takes a number or arithmetic only: no comma operator, assignment, params or overflow") {
    struct Case {
        const char* set;
        const char* says;
    };
    const Case cases[] = {
            {"speed=0,5", "did you mean 0.5?"},
            {"speed=a=5", "'=' is not allowed"},
            {"speed=$offset", "the value is not a number"},
            {"speed=nope", "the value is not a number"},
            {"speed=1e999", "must be a finite number"},
            {"speed=1e308*10", "must be a finite number"},
            {"speed=1>0", "'>' is not allowed"},
    };
    for (const Case& c : cases) {
        INFO(c.set);
        const auto r = run_collide(std::string("sim scenarios/tunnel.yaml --set ") + quoted(c.set));
        CHECK(r.exit_code == 2);
        CHECK(r.out.empty());
        CHECK(r.err.find("--set ") != std::string::npos);
        CHECK(r.err.find(c.says) != std::string::npos);
        CHECK(one_clean_line(r.err));
    }
    // Arithmetic is fine: 120/2 is the shipped speed, so the log is the shipped one.
    CHECK(run_collide("sim scenarios/tunnel.yaml --set speed=120/2").out ==
          run_collide("sim scenarios/tunnel.yaml").out);
    // An over-long value is not echoed whole.
    const auto long_set = run_collide("sim scenarios/tunnel.yaml --set speed=" + std::string(100000, '1') + "+/");
    CHECK(long_set.exit_code == 2);
    CHECK(long_set.err.size() < 400);
}

TEST_CASE("a --vary value takes plain numbers only: no expression, assignment, param or overflow") {
    for (const char* vary : {"speed=a=5", "speed=$offset", "speed=1e999", "speed=10:1e999:1", "speed=0x10", "speed=1+1",
                             "speed=10,20,nan"}) {
        INFO(vary);
        const auto r = run_collide(std::string("sweep scenarios/tunnel.yaml --vary ") + quoted(vary));
        CHECK(r.exit_code == 2);
        CHECK(r.out.empty());
        CHECK(r.err.find("--vary ") != std::string::npos);
        CHECK(one_clean_line(r.err));
    }
    // An over-long value or name is not echoed whole.
    for (const std::string& vary : {"speed=" + std::string(100000, '1') + "x", std::string(100000, 'e') + "=1",
                                    "speed=1:" + std::string(100000, '2') + "y:1"}) {
        const auto r = run_collide("sweep scenarios/tunnel.yaml --vary " + quoted(vary));
        CHECK(r.exit_code == 2);
        CHECK(r.err.size() < 500);
        CHECK(one_clean_line(r.err));
    }
}

TEST_CASE("sim --trace streams a 200,000-frame run to disk with one row per frame") {
    ProjectDir d("collide_robust_trace_long");
    write_text(d / "scenarios/long.yaml", "world: { rate: 1000, frames: 200000, gravity: [0, 0, 0] }\n"
                                          "bodies:\n  b: { sphere: { radius: 0.5 }, velocity: [1, 0, 0] }\n"
                                          "log:\n  - final: { body: b }\n");
    const auto r = run_collide("sim " + quoted(d / "scenarios/long.yaml") + " --trace " + quoted(d / "t.csv"));
    REQUIRE(r.exit_code == 0);
    std::ifstream trace(d / "t.csv");
    std::string line, last;
    std::size_t rows = 0;
    std::getline(trace, line);
    CHECK(line == "frame,time,kind,body,with,x,y,z,vx,vy,vz,qw,qx,qy,qz,nx,ny,nz,depth,wx,wy,wz");
    while (std::getline(trace, line)) {
        ++rows;
        last = line;
    }
    CHECK(rows == 200000);
    CHECK(last.rfind("199999,", 0) == 0);
    // The log still comes out, after the run: x = 1 m/s × 200 s (to a frame's step, 1 mm).
    REQUIRE(r.out.rfind("b at the end → position (", 0) == 0);
    const double x = std::strtod(r.out.c_str() + r.out.find('(') + 1, nullptr);
    CHECK(x == Approx(200).margin(0.0015));
}

TEST_CASE("a trace that cannot be written blames the trace file, not the scenario") {
    if (const std::string why = device_nodes_unavailable(); !why.empty()) skip_test(why);
    ProjectDir d("collide_robust_trace_full");
    const std::string full = d / "full";
    REQUIRE(::mknod(full.c_str(), S_IFCHR | 0666, makedev(1, 7)) == 0); // /dev/full: every write fails with ENOSPC
    const auto r = run_collide("sim scenarios/bouncing.yaml --trace " + quoted(full));
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::StartsWith("collide sim: error: " + full + ": cannot write"));
    CHECK(r.err.find("bouncing.yaml:1:1") == std::string::npos);
    CHECK(one_clean_line(r.err));
}

TEST_CASE("two check --update at once on the same project both succeed and leave the right goldens") {
    ProjectDir d("collide_robust_update_race");
    const std::vector<std::string> names = {"mtv", "tunnel", "bouncing", "stack", "slide"};
    for (const std::string& n : names)
        fs::copy_file(std::string(COLLIDE_SOURCE_DIR) + "/scenarios/" + n + ".yaml", d / ("scenarios/" + n + ".yaml"));
    const std::string check = "'" + std::string(COLLIDE_EXE) + "' check " + quoted(d / "scenarios") + " --expected " +
                              quoted(d / "expected") + " --update";
    for (int round = 0; round < 5; ++round) {
        INFO("round " << round);
        fs::remove_all(d.path / "expected");
        fs::create_directories(d.path / "expected");
        if (round % 2 == 1) write_text(d / "expected/mtv.log", "stale\n"); // an update, not only creations
        const std::string both = "(" + check + " >" + quoted(d / "o1") + " 2>&1; echo $? >" + quoted(d / "rc1") +
                                 ") & (" + check + " >" + quoted(d / "o2") + " 2>&1; echo $? >" + quoted(d / "rc2") +
                                 ") & wait";
        REQUIRE(std::system(both.c_str()) == 0);
        CHECK(read_text(d / "rc1") == "0\n");
        CHECK(read_text(d / "rc2") == "0\n");
        INFO(read_text(d / "o1") << read_text(d / "o2"));
        for (const std::string& n : names) {
            INFO(n);
            CHECK(read_text(d / ("expected/" + n + ".log")) ==
                  read_text(std::string(COLLIDE_SOURCE_DIR) + "/expected/" + n + ".log"));
            CHECK(read_text(d / ("expected/" + n + ".values")) ==
                  read_text(std::string(COLLIDE_SOURCE_DIR) + "/expected/" + n + ".values"));
        }
        std::size_t files = 0, kept_frames = 0; // stack keeps frame hashes: its third file
        for (const std::string& n : names) {
            const std::string frames = std::string(COLLIDE_SOURCE_DIR) + "/expected/" + n + ".frames";
            if (!fs::exists(frames)) continue;
            ++kept_frames;
            CHECK(read_text(d / ("expected/" + n + ".frames")) == read_text(frames));
        }
        CHECK(kept_frames == 1);
        for (const auto& e : fs::directory_iterator(d.path / "expected")) files += e.is_regular_file() ? 1 : 0;
        CHECK(files == 2 * names.size() + kept_frames); // no temporary, no pending file left
    }
}

TEST_CASE("an unknown command, option or bad option value from the command line is echoed escaped") {
    const auto command = run_collide("'sim\x1b[2J'");
    CHECK(command.exit_code == 2);
    CHECK(command.err.find("unknown command 'sim\\x1b[2J'") != std::string::npos);
    CHECK(command.err.find('\x1b') == std::string::npos);
    const auto option = run_collide("sim scenarios/mtv.yaml '--fo\u202Ermat'");
    CHECK(option.exit_code == 2);
    CHECK(option.err.find("--fo\\u202ermat") != std::string::npos);
    const auto value = run_collide("sim scenarios/mtv.yaml --format 'js\x1b[31mon'");
    CHECK(value.exit_code == 2);
    CHECK(value.err.find('\x1b') == std::string::npos);
}

TEST_CASE("sim --trace into a FIFO streams the same bytes as --trace - to its reader, and sim reads a FIFO scenario") {
    ProjectDir d("collide_robust_fifo");
    const std::string fifo = d / "trace.csv";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    std::string got;
    std::thread reader([&] { // opens when sim opens the FIFO for writing; reads to its end
        const int fd = ::open(fifo.c_str(), O_RDONLY);
        if (fd < 0) return;
        char buf[4096];
        for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) got.append(buf, static_cast<std::size_t>(n));
        ::close(fd);
    });
    const auto r = run_collide("sim scenarios/bouncing.yaml --trace " + quoted(fifo));
    // Should sim never have opened the FIFO, this open releases the reader (no hang, the check fails).
    if (const int unblock = ::open(fifo.c_str(), O_WRONLY | O_NONBLOCK); unblock >= 0) ::close(unblock);
    reader.join();
    CHECK(r.exit_code == 0);
    CHECK(got == run_collide("sim scenarios/bouncing.yaml --trace -").out);
    struct stat st {};
    REQUIRE(::lstat(fifo.c_str(), &st) == 0);
    CHECK(S_ISFIFO(st.st_mode)); // written in place, never replaced

    // A scenario named on the command line may be a FIFO: read to its end, not "no such file".
    const std::string in = d / "in.yaml";
    REQUIRE(::mkfifo(in.c_str(), 0600) == 0);
    const std::string text = read_text(std::string(COLLIDE_SOURCE_DIR) + "/scenarios/mtv.yaml");
    std::thread writer([&] {
        for (int i = 0; i < 2000; ++i) { // give up after 20 s so that a failing sim cannot hang the test
            const int fd = ::open(in.c_str(), O_WRONLY | O_NONBLOCK);
            if (fd >= 0) {
                ::fcntl(fd, F_SETFL, 0);
                if (::write(fd, text.data(), text.size()) < 0) { /* the checks below fail */
                }
                ::close(fd);
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    });
    const auto sim = run_collide("sim " + quoted(in));
    writer.join();
    CHECK(sim.exit_code == 0);
    CHECK(sim.out == run_collide("sim scenarios/mtv.yaml").out);
}

TEST_CASE("review names a golden folder from the command line escaped") {
    ProjectDir d("collide_robust_review");
    const std::string odd = d / "exp\x1b[2J";
    fs::create_directories(odd);
    const auto r = run_collide("review --expected " + quoted(odd) + " --accept-all");
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("review: nothing pending in " + (d / "exp\\x1b[2J")) == 0);
    CHECK(r.out.find('\x1b') == std::string::npos);
}

TEST_CASE("an over-long command, option value or --shard is quoted shortened, on one line") {
    const std::string long_word(100000, 'a');
    for (const std::string& args : {quoted(long_word), "sim scenarios/mtv.yaml --format " + long_word,
                                    "sweep scenarios/tunnel.yaml --vary speed=1 --shard " + long_word}) {
        const auto r = run_collide(args);
        CHECK(r.exit_code == 2);
        CHECK(r.err.size() < 1000);
        CHECK(r.err.find(" characters)") != std::string::npos); // the argument (or its line) is cut
    }
}

TEST_CASE("option values collide does not take are told in collide's words, with the likely value") {
    const auto detection = run_collide("sim scenarios/mtv.yaml --detection swep");
    CHECK(detection.exit_code == 2);
    CHECK(detection.err == "collide sim: --detection swep: expected discrete, swept or speculative; did you mean "
                           "'swept'?\nRun 'collide sim --help' for the options.\n");
    const auto engines = run_collide("check scenarios/mtv.yaml --engine collide,bullet");
    CHECK(engines.exit_code == 2);
    CHECK(engines.err.find("collide check: --engine collide,bullet: expected collide, bullet, ode or box3d (one engine "
                           "at a time here; `collide sweep --engine collide,bullet` runs several side by side)") == 0);
    const auto jobs = run_collide("check --jobs 0");
    CHECK(jobs.exit_code == 2);
    CHECK(jobs.err.find("collide check: --jobs 0: expected a whole number from 1 to 1024\n") == 0);
    const auto none = run_collide("sim");
    CHECK(none.exit_code == 2);
    CHECK(none.err == "collide sim: no files given\nRun 'collide sim --help' for the options.\n");
    const auto folder = run_collide("sim scenarios");
    CHECK(folder.exit_code == 2);
    CHECK(folder.err == "scenarios: error: a folder, not a scenario file: `collide check scenarios` runs every "
                        "scenario in it\n");
}
