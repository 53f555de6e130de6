// `collide check` with frame hashes kept beside a golden (golden: { frame_hashes: true }): a run
// whose restitution moved by 1e-7 fails naming frame 28, its first bounce, and the ball; a move
// of one ulp that the log's tolerance hides still fails on the frames; --artifacts keeps the run's
// recording, which `diverge` parts from the golden run's at the same frame; missing and damaged
// hashes are bad input, hashes the scenario no longer keeps are stale, and --update writes and
// removes them.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <sstream>
#include <string>

#include "app/check.h"
#include "app/diverge.h"
#include "app/measure.h"
#include "app/review.h"
#include "support/project_dir.h"

using namespace collide;
using namespace collide::test;
namespace fs = std::filesystem;

namespace {

/// examples/diverge/drop.yaml, keeping frame hashes, with the ball's restitution `e`: a ball
/// dropped from 1 m (its bottom) onto a floor, another beside it, 2 s at 60 Hz, swept.
std::string drop(const std::string& e) {
    return "name: drop\nparams: { e: " + e +
           " }\ngolden: { frame_hashes: true }\n"
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

Run check(const ProjectDir& d, bool update = false, const std::string& artifacts = "", bool ci = true) {
    CheckOptions o;
    o.paths = {d / "scenarios"};
    o.expected_dir = d / "expected";
    o.update = update;
    o.artifacts_dir = artifacts;
    o.ci = ci;
    std::ostringstream out, err;
    const int code = check_command(o, out, err);
    return {code, out.str(), err.str()};
}

} // namespace

TEST_CASE("check with frame hashes names the first frame a run parts from its golden, and the body",
          "[app][check][frame_hashes]") {
    const ProjectDir d("collide_check_frames");
    write_text(d / "scenarios/drop.yaml", drop("0.8"));
    Run r = check(d, true);
    REQUIRE(r.code == 0);
    CHECK(fs::exists(d / "expected/drop.frames"));
    // 121 frames (2 s at 60 Hz: t = 0 … 2) and 3 bodies, 8 bytes each, a 16-byte head and an
    // 8-byte digest.
    CHECK(fs::file_size(d / "expected/drop.frames") == 16 + 8 * (121 + 3) + 8);
    CHECK(check(d).code == 0);

    // The ball touches the floor at t = √(2·1 m / g) = 0.4515 s, inside frame 28: nothing before
    // its bounce can tell e from e + 1e-7.
    REQUIRE(static_cast<int>(std::ceil(std::sqrt(2 / 9.81) * 60)) == 28);
    write_text(d / "scenarios/drop.yaml", drop("0.8000001"));
    r = check(d, false, d / "artifacts");
    CHECK(r.code == 1);
    CHECK_THAT(r.out, Catch::Contains("frame hashes: the run parts from the golden's at frame 28 (t = 0.466667 s)"));
    // Over the whole run the other ball moves otherwise too, later on (diverge shows it by frame 92):
    // the position passes stop once no contact of the world is deeper than touching, so one
    // ball's contact can give the other's one pass more. Named as such: the motion over the run.
    CHECK_THAT(r.out, Catch::Contains("; 2 of 3 bodies move otherwise over the run: ball, other (" +
                                      d / "expected/drop.frames"));
    // The failing run's recording: diverge finds the same frame against a recording of the
    // golden's run (e = 0.8), and names the ball alone there.
    REQUIRE(fs::exists(d / "artifacts/drop.rec"));
    write_text(d / "golden_run.yaml", drop("0.8"));
    SimOptions golden_run;
    golden_run.record_path = d / "golden.rec";
    measure_scenario(d / "golden_run.yaml", golden_run);
    DivergeRequest request;
    request.files = {d / "golden.rec", d / "artifacts/drop.rec"};
    std::ostringstream out, err;
    CHECK(diverge_command(request, out, err) == 1);
    CHECK_THAT(out.str(), Catch::Contains("first difference at frame 28 (t = 0.4666666666666667 s): 1 of 3 bodies "
                                          "differ\n  ball: position by "));
}

TEST_CASE("check with frame hashes fails on one ulp of restitution that the log's tolerance hides",
          "[app][check][frame_hashes]") {
    const ProjectDir d("collide_check_frames");
    write_text(d / "scenarios/drop.yaml", drop("0.8"));
    REQUIRE(check(d, true).code == 0);
    // 0.8000000000000002 is the double after 0.8: the ball's end state moves by about 1e-15,
    // far inside the golden's 1e-9, but its bounce is another bit pattern.
    REQUIRE(std::nextafter(0.8, 1.0) == 0.8000000000000002);
    write_text(d / "scenarios/drop.yaml", drop("0.8000000000000002"));
    const Run r = check(d);
    CHECK(r.code == 1);
    CHECK_THAT(r.out, Catch::Contains("scenario drop ("));
    CHECK_THAT(r.out, !Catch::Contains("final.y: expected"));
    CHECK_THAT(r.out, Catch::Contains("the run parts from the golden's at frame 28"));
    CHECK_THAT(r.out, Catch::Contains("(1 differ)"));
}

TEST_CASE("check: frame hashes missing or damaged are bad input, hashes no longer kept are stale",
          "[app][check][frame_hashes]") {
    const ProjectDir d("collide_check_frames");
    write_text(d / "scenarios/drop.yaml", drop("0.8"));
    REQUIRE(check(d, true).code == 0);
    const std::string frames = read_text(d / "expected/drop.frames");

    fs::remove(d / "expected/drop.frames");
    Run r = check(d);
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::Contains("drop.frames: error: missing: the scenario keeps frame hashes"));
    CHECK_THAT(r.err, Catch::Contains("`collide check --expected " + (d / "expected") + " --update " +
                                      (d / "scenarios/drop.yaml") + "` writes them"));

    write_text(d / "expected/drop.frames", frames.substr(0, frames.size() - 8));
    r = check(d);
    CHECK(r.code == 2);
    CHECK_THAT(r.err, Catch::Contains("(cut short or edited)"));
    REQUIRE(check(d, true).code == 0);
    CHECK(read_text(d / "expected/drop.frames") == frames);

    // The scenario stops keeping them: the golden's hashes are stale until --update removes them.
    std::string plain = drop("0.8");
    plain.erase(plain.find("golden: { frame_hashes: true }\n"), std::string("golden: { frame_hashes: true }\n").size());
    write_text(d / "scenarios/drop.yaml", plain);
    r = check(d);
    CHECK(r.code == 1);
    CHECK_THAT(r.out, Catch::Contains("is there, but the scenario keeps none"));
    CHECK(check(d, true).code == 0);
    CHECK_FALSE(fs::exists(d / "expected/drop.frames"));
    CHECK(check(d).code == 0);
}

TEST_CASE("check leaves a failing run's frame hashes pending beside its log, and review accepts or rejects them",
          "[app][check][frame_hashes]") {
    const ProjectDir d("collide_check_frames");
    write_text(d / "scenarios/drop.yaml", drop("0.8"));
    REQUIRE(check(d, true).code == 0);
    const std::string before = read_text(d / "expected/drop.frames");
    write_text(d / "scenarios/drop.yaml", drop("0.8000001"));
    REQUIRE(check(d, false, "", false).code == 1);
    REQUIRE(fs::exists(d / "expected/drop.frames.new"));
    const std::string after = read_text(d / "expected/drop.frames.new");
    CHECK(after != before);
    ReviewOptions reject;
    reject.expected_dir = d / "expected";
    reject.mode = ReviewOptions::Mode::reject_all;
    std::istringstream none;
    std::ostringstream out, err;
    CHECK(review_command(reject, none, out, err) == 0);
    CHECK_FALSE(fs::exists(d / "expected/drop.frames.new"));
    CHECK(read_text(d / "expected/drop.frames") == before);
    REQUIRE(check(d, false, "", false).code == 1);
    ReviewOptions accept = reject;
    accept.mode = ReviewOptions::Mode::accept_all;
    CHECK(review_command(accept, none, out, err) == 0);
    CHECK_FALSE(fs::exists(d / "expected/drop.frames.new"));
    CHECK(read_text(d / "expected/drop.frames") == after);
    CHECK(check(d).code == 0);
}
