// The recording on disk (probes/record_file.cpp): every frame's state of every body comes back
// bit for bit, with the contacts; a trace reads back to the same numbers; a recording cut short,
// or a file that is neither, is refused at its place.
#include <catch2/catch.hpp>

#include <bit>
#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <string>

#include "app/measure.h"
#include "model/diagnostic.h"
#include "probes/record.h"
#include "probes/record_file.h"
#include "support/project_dir.h"
#include "support/run_command.h"

using namespace collide;
using namespace collide::test;

namespace {

const std::string kDir = COLLIDE_SOURCE_DIR;

/// True when every number of the two states has the same bits.
bool same_bits(const BodyState& a, const BodyState& b) {
    const double x[13] = {a.position.x,         a.position.y,         a.position.z,        a.velocity.x, a.velocity.y,
                          a.velocity.z,         a.rotation.w,         a.rotation.x,        a.rotation.y, a.rotation.z,
                          a.angular_velocity.x, a.angular_velocity.y, a.angular_velocity.z};
    const double y[13] = {b.position.x,         b.position.y,         b.position.z,        b.velocity.x, b.velocity.y,
                          b.velocity.z,         b.rotation.w,         b.rotation.x,        b.rotation.y, b.rotation.z,
                          b.angular_velocity.x, b.angular_velocity.y, b.angular_velocity.z};
    for (int k = 0; k < 13; ++k)
        if (std::bit_cast<std::uint64_t>(x[k]) != std::bit_cast<std::uint64_t>(y[k])) return false;
    return true;
}

} // namespace

TEST_CASE("a recording reads back every frame and contact of the run bit for bit, and so does its trace",
          "[probes][record]") {
    // The tumbling crate: bodies that turn, contacts, 1e-17-sized residues whose bits matter.
    const ScratchDir dir("collide_record");
    const std::string rec = (dir.path / "run.rec").string(), csv = (dir.path / "run.csv").string();
    SimOptions options;
    options.record_path = rec;
    options.trace_path = csv;
    options.plot_path = (dir.path / "run.svg").string(); // (the plot's in-memory recording: the reference)
    const MeasuredScenario m = measure_scenario(kDir + "/scenarios/tumble.yaml", options);
    REQUIRE(m.recording);
    const Recording& want = *m.recording;
    for (const std::string& path : {rec, csv}) {
        INFO(path);
        RunReader reader(path);
        RunFrame f;
        std::size_t k = 0, contacts = 0;
        while (reader.next(f)) {
            REQUIRE(k < want.frame_count());
            CHECK(f.frame == want.frames[k]);
            CHECK(f.time == want.times[k]);
            REQUIRE(f.bodies.size() == static_cast<std::size_t>(want.body_count));
            for (std::size_t b = 0; b < f.bodies.size(); ++b) CHECK(same_bits(f.bodies[b], want.at(k)[b]));
            for (const TraceContact& c : f.contacts) {
                REQUIRE(contacts < want.contacts.size());
                const TraceContact& w = want.contacts[contacts++];
                CHECK((c.a == w.a && c.b == w.b && c.frame == w.frame && c.depth == w.depth && c.point == w.point));
            }
            ++k;
        }
        CHECK(k == want.frame_count());
        CHECK(contacts == want.contacts.size());
        REQUIRE(reader.info().bodies.size() == m.scenario.bodies.size());
        CHECK(reader.info().bodies.front() == m.scenario.bodies.front().name);
    }
    RunReader reader(rec);
    CHECK(reader.info().scenario == "tumble");
    CHECK(reader.info().engine == "collide");
    CHECK(reader.info().digest.size() == 16);
    CHECK_FALSE(reader.info().build.empty());
}

TEST_CASE("a recording's header names collide's version, the commit and the flags of the build", "[probes][record]") {
    const ScratchDir dir("collide_record_build");
    const std::string rec = (dir.path / "run.rec").string();
    SimOptions options;
    options.record_path = rec;
    measure_scenario(kDir + "/scenarios/bouncing.yaml", options);
    const std::string build = RunReader(rec).info().build;
    INFO(build);
    // The version `collide --version` prints, and its build line is this header's.
    const CommandResult version = run_collide("--version");
    REQUIRE(version.exit_code == 0);
    const std::string first = version.out.substr(0, version.out.find('\n')); // "collide 0.1.0"
    CHECK_THAT(build, Catch::StartsWith(first + " (commit "));
    CHECK_THAT(version.out, Catch::Contains("\nbuild: " + build + "\n"));
    CHECK(describe_build() == build);
    // The compiler and its version as the compiler names itself.
#if defined(__clang__)
    CHECK_THAT(build, Catch::Contains("), clang " + std::string(__clang_version__).substr(0, 4)));
#elif defined(__GNUC__)
    CHECK_THAT(build, Catch::Contains("), gcc " + std::string(__VERSION__) + ", "));
#endif
    // The commit: 40 hex digits that name a commit of this checkout, or "unknown" outside one.
    const std::size_t at = build.find("(commit ") + 8;
    const std::string commit = build.substr(at, build.find(')', at) - at);
    if (commit != "unknown") {
        REQUIRE(commit.size() == 40);
        CHECK(commit.find_first_not_of("0123456789abcdef") == std::string::npos);
        CHECK(std::system(("git -C '" + kDir + "' cat-file -e " + commit + "^{commit}").c_str()) == 0);
    } else { // no git, or not a checkout: git cannot name HEAD here either
        CHECK(std::system(("git -C '" + kDir + "' rev-parse -q --verify HEAD").c_str()) != 0);
    }
    // The flags: CMakeLists.txt adds the floating-point contract's to every build.
    CHECK_THAT(build, Catch::Contains("flags \"") && Catch::Contains("-ffp-contract=off -fno-fast-math"));
    CHECK(build.find('\n') == std::string::npos); // one header line
}

TEST_CASE("a recording cut short, a corrupt one and a file that is neither are refused at their place",
          "[probes][record]") {
    const ScratchDir dir("collide_record_bad");
    const std::string rec = (dir.path / "run.rec").string();
    SimOptions options;
    options.record_path = rec;
    measure_scenario(kDir + "/scenarios/bouncing.yaml", options);
    const std::string bytes = read_text(rec);
    REQUIRE(bytes.size() > 1000);
    const auto read_all = [](const std::string& path) {
        RunReader reader(path);
        RunFrame f;
        int n = 0;
        while (reader.next(f)) ++n;
        return n;
    };
    CHECK(read_all(rec) > 0);
    // Cut short: no end mark (an interrupted run).
    const std::string cut = (dir.path / "cut.rec").string();
    write_text(cut, bytes.substr(0, bytes.size() - 9 - 500));
    CHECK_THROWS_WITH(read_all(cut), Catch::Contains("cut short") && Catch::StartsWith(cut + ":1:"));
    // A frame's tag overwritten.
    std::string bad = bytes;
    const std::size_t header = 12 + (static_cast<unsigned char>(bytes[8]) | static_cast<unsigned char>(bytes[9]) << 8);
    bad[header] = 'X';
    const std::string corrupt = (dir.path / "corrupt.rec").string();
    write_text(corrupt, bad);
    CHECK_THROWS_WITH(read_all(corrupt),
                      Catch::Contains("byte " + std::to_string(header) + ":") && Catch::Contains("corrupt"));
    // Neither a recording nor a trace.
    CHECK_THROWS_WITH(RunReader(kDir + "/scenarios/bouncing.yaml"),
                      Catch::StartsWith(kDir + "/scenarios/bouncing.yaml:1:1: error: neither a recording"));
    CHECK_THROWS_WITH(RunReader((dir.path / "missing.rec").string()), Catch::Contains("cannot read"));
}
