// `collide check` with the run's recording kept beside a golden (golden: { recording: true }):
// --update writes it, the same bytes as `sim --record` of the same run; a failing run leaves its
// recording pending, and review accepts or rejects it with the log; a scenario that stops
// keeping one, or is gone, loses it with --update.
#include <catch2/catch.hpp>

#include <filesystem>
#include <sstream>
#include <string>

#include "app/check.h"
#include "app/measure.h"
#include "app/review.h"
#include "support/project_dir.h"

using namespace collide;
using namespace collide::test;
namespace fs = std::filesystem;

namespace {

/// A ball (restitution `e`) dropped beside another onto a floor, keeping its run's recording.
std::string drop(const std::string& e, bool keep = true) {
    return "name: drop\nparams: { e: " + e + " }\n" + (keep ? "golden: { recording: true }\n" : "") +
           "world: { dt: 1/60, duration: 2, gravity: [0, -9.81, 0], detection: swept }\n"
           "bodies:\n"
           "  floor: { static: true, box: { min: [-5, -1, -5], max: [5, 0, 5] } }\n"
           "  ball: { sphere: { radius: 0.1 }, position: [0, 1.1, 0], restitution: $e }\n"
           "  other: { sphere: { radius: 0.1 }, position: [2, 1.1, 0], restitution: 0.8 }\n"
           "log:\n  - final: { body: ball }\n";
}

struct Run {
    int code;
    std::string out, err;
};

Run check(const ProjectDir& d, bool update = false, bool ci = true) {
    CheckOptions o;
    o.paths = {d / "scenarios"};
    o.expected_dir = d / "expected";
    o.update = update;
    o.ci = ci;
    std::ostringstream out, err;
    const int code = check_command(o, out, err);
    return {code, out.str(), err.str()};
}

/// `sim --record` of `yaml` (written beside the project's folders), as bytes.
std::string recorded(const ProjectDir& d, const std::string& yaml) {
    write_text(d / "drop.yaml", yaml);
    SimOptions options;
    options.record_path = d / "drop.rec";
    measure_scenario(d / "drop.yaml", options);
    return read_text(d / "drop.rec");
}

} // namespace

TEST_CASE("check --update keeps the run's recording beside the golden: sim --record's bytes",
          "[app][check][recording]") {
    const ProjectDir d("collide_check_recording");
    write_text(d / "scenarios/drop.yaml", drop("0.8"));
    const Run r = check(d, true);
    REQUIRE(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains("recorded " + (d / "expected/drop.rec")));
    // The run made again is the run the golden holds: the same bits as sim --record of it (its
    // header names the scenario file's digest, which the copy beside shares).
    CHECK(read_text(d / "expected/drop.rec") == recorded(d, drop("0.8")));
    CHECK(check(d).code == 0);

    // Removed by hand: check says how to write it again and passes; --update writes it.
    fs::remove(d / "expected/drop.rec");
    Run again = check(d);
    CHECK(again.code == 0);
    CHECK_THAT(again.out, Catch::Contains("note     drop: no recording beside its golden yet"));
    again = check(d, true);
    CHECK(again.code == 0);
    CHECK_THAT(again.out, Catch::Contains("recorded "));
    CHECK(fs::exists(d / "expected/drop.rec"));

    // The scenario stops keeping it: --update removes it; so does a scenario that is gone.
    write_text(d / "scenarios/drop.yaml", drop("0.8", false));
    again = check(d, true);
    CHECK(again.code == 0);
    CHECK_THAT(again.out, Catch::Contains("removed  " + (d / "expected/drop.rec")));
    CHECK_FALSE(fs::exists(d / "expected/drop.rec"));
    write_text(d / "scenarios/drop.yaml", drop("0.8"));
    REQUIRE(check(d, true).code == 0);
    REQUIRE(fs::exists(d / "expected/drop.rec"));
    write_text(d / "scenarios/other.yaml", drop("0.5", false));
    fs::remove(d / "scenarios/drop.yaml");
    CheckOptions o;
    o.paths = {d / "scenarios"};
    o.expected_dir = d / "expected";
    o.update = true;
    o.prune = true;
    o.ci = true;
    std::ostringstream out, err;
    CHECK(check_command(o, out, err) == 0);
    CHECK_FALSE(fs::exists(d / "expected/drop.rec"));
    CHECK_FALSE(fs::exists(d / "expected/drop.log"));
}

TEST_CASE("a failing run's recording is left pending with its log; review accepts or rejects it",
          "[app][check][recording]") {
    const ProjectDir d("collide_check_recording");
    write_text(d / "scenarios/drop.yaml", drop("0.8"));
    REQUIRE(check(d, true).code == 0);
    const std::string before = read_text(d / "expected/drop.rec");
    write_text(d / "scenarios/drop.yaml", drop("0.5"));
    REQUIRE(check(d, false, false).code == 1);
    REQUIRE(fs::exists(d / "expected/drop.rec.new"));
    CHECK(read_text(d / "expected/drop.rec.new") == recorded(d, drop("0.5")));
    ReviewOptions reject;
    reject.expected_dir = d / "expected";
    reject.mode = ReviewOptions::Mode::reject_all;
    std::istringstream none;
    std::ostringstream out, err;
    CHECK(review_command(reject, none, out, err) == 0);
    CHECK_FALSE(fs::exists(d / "expected/drop.rec.new"));
    CHECK(read_text(d / "expected/drop.rec") == before);
    REQUIRE(check(d, false, false).code == 1);
    ReviewOptions accept = reject;
    accept.mode = ReviewOptions::Mode::accept_all;
    CHECK(review_command(accept, none, out, err) == 0);
    CHECK_FALSE(fs::exists(d / "expected/drop.rec.new"));
    CHECK(read_text(d / "expected/drop.rec") == recorded(d, drop("0.5")));
    CHECK(check(d).code == 0);
}
