// `collide diverge` (app/diverge.cpp): two runs that differ only in one body's restitution part
// at the frame after its first bounce, and only that body is named there; identical runs exit 0;
// recordings and traces are read alike; runs of different scenes are bad input.
#include <catch2/catch.hpp>

#include <cmath>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "app/diverge.h"
#include "app/measure.h"
#include "engines/bullet/need_bullet.h"
#include "support/project_dir.h"
#include "support/sample_count.h"

using namespace collide;
using namespace collide::test;

namespace {

/// A ball dropped from 1 m (its bottom; radius 0.1, swept) with restitution $e, and another
/// beside it with 0.8 always, 2 s at 60 Hz: the example README runs.
const std::string kDrop = std::string(COLLIDE_SOURCE_DIR) + "/examples/diverge/drop.yaml";

/// Runs `scenario` (with `sets`) into the recording `path` and returns the path.
std::string record(const std::string& scenario, const std::string& path, std::vector<std::string> sets = {}) {
    SimOptions options;
    options.sets = std::move(sets);
    options.record_path = path;
    measure_scenario(scenario, options);
    return path;
}

int diverge(const DivergeRequest& request, std::string& out, std::string& err) {
    std::ostringstream o, e;
    const int code = diverge_command(request, o, e);
    out = o.str();
    err = e.str();
    return code;
}

} // namespace

TEST_CASE("diverge: a restitution 1e-7 apart parts at the frame after the first bounce, naming that body alone",
          "[app][diverge]") {
    // The ball touches the floor at t = √(2·1 m / g) = 0.4515 s, inside frame 28 (27/60 = 0.45 s
    // to 28/60 = 0.4667 s): its bounce is the first thing that can tell e from e + 1e-7, so the
    // runs are the same bit for bit through frame 27 and differ at frame 28, in `ball` only.
    const ScratchDir dir("collide_diverge");
    const std::string& scenario = kDrop;
    const int bounce_frame = static_cast<int>(std::ceil(std::sqrt(2 * 1.0 / 9.81) * 60));
    REQUIRE(bounce_frame == 28);
    std::string out, err;
    DivergeRequest two_ways;
    two_ways.files = {scenario};
    two_ways.set = "e=0.8,0.8000001";
    CHECK(diverge(two_ways, out, err) == 1);
    CHECK(err.empty());
    CHECK_THAT(out, Catch::Contains("first difference at frame 28 (t = 0.4666666666666667 s): 1 of 3 bodies differ\n"
                                    "  ball: position by "));
    CHECK(out.find("  other:") == std::string::npos);
    CHECK(out.find("  floor:") == std::string::npos);
    // The same from files: two recordings, two traces, and one of each.
    SimOptions a, b;
    a.record_path = (dir.path / "a.rec").string();
    a.trace_path = (dir.path / "a.csv").string();
    b.sets = {"e=0.8000001"};
    b.record_path = (dir.path / "b.rec").string();
    b.trace_path = (dir.path / "b.csv").string();
    measure_scenario(scenario, a);
    measure_scenario(scenario, b);
    for (const auto& [x, y] : {std::pair{a.record_path, b.record_path}, std::pair{a.trace_path, b.trace_path},
                               std::pair{a.record_path, b.trace_path}}) {
        INFO(x << " against " << y);
        DivergeRequest files;
        files.files = {x, y};
        CHECK(diverge(files, out, err) == 1);
        CHECK_THAT(out, Catch::Contains("first difference at frame 28 "));
    }
    // Within a tolerance larger than the difference ever gets (it stays below 1e-5 m and m/s).
    DivergeRequest loose;
    loose.files = {a.record_path, b.record_path};
    loose.tolerance = 1e-3;
    CHECK(diverge(loose, out, err) == 0);
    CHECK_THAT(out, Catch::Contains("the same over all 121 frames, within 0.001"));
}

TEST_CASE("diverge: identical runs exit 0, and a recording and a trace of one run are the same", "[app][diverge]") {
    const ScratchDir dir("collide_diverge_same");
    const std::string& scenario = kDrop;
    std::string out, err;
    DivergeRequest twice;
    twice.files = {scenario};
    twice.set = "e=0.8,0.8";
    CHECK(diverge(twice, out, err) == 0);
    CHECK_THAT(out, Catch::Contains("the same over all 121 frames, bit for bit"));
    SimOptions a;
    a.record_path = (dir.path / "a.rec").string();
    a.trace_path = (dir.path / "a.csv").string();
    measure_scenario(scenario, a);
    DivergeRequest files;
    files.files = {a.record_path, a.trace_path};
    CHECK(diverge(files, out, err) == 0);
}

TEST_CASE("diverge: the contacts one run had at the first divergent frame and the other did not are named",
          "[app][diverge]") {
    // A ball (radius 0.5 m, centre at x = 0) slides at 2 m/s along x towards a wall whose near
    // face is at x = $near; nothing else moves. Its front reaches x = 2.51 at t = 1.005 s, inside
    // frame 61 (1 s to 1.0167 s), and x = 3 at t = 1.25 s, frame 75. The wall's size is in no
    // body's state, so the runs near = 3 and near = 2.51 are the same bit for bit through frame
    // 60 and part at frame 61: discrete detection finds the second ball 2.3 cm into the wall as
    // step 61 ends (its state still the first's: the contact is answered in step 62), so the
    // runs differ there in a contact alone.
    const ScratchDir dir("collide_diverge_contacts");
    const std::string scenario = (dir.path / "wall.yaml").string();
    write_text(scenario, "params: { near: 3 }\n"
                         "world: { rate: 60, frames: 90, gravity: [0, 0, 0], detection: discrete }\n"
                         "bodies:\n"
                         "  wall: { static: true, box: { min: [$near, -1, -1], max: [4, 1, 1] } }\n"
                         "  ball: { sphere: { radius: 0.5 }, velocity: [2, 0, 0] }\n"
                         "log:\n  - final: { body: ball }\n");
    REQUIRE(static_cast<int>(std::ceil((2.51 - 0.5) / 2 * 60)) == 61);
    std::string out, err;
    DivergeRequest request;
    request.files = {scenario};
    request.set = "near=3,2.51";
    CHECK(diverge(request, out, err) == 1);
    CHECK_THAT(out, Catch::Contains("first difference at frame 61 (t = ") &&
                            Catch::Contains("): 0 of 2 bodies differ\n") &&
                            Catch::Contains("  contacts only in A: none\n  contacts only in B: wall–ball\n"));
    request.set = "near=2.51,3";
    CHECK(diverge(request, out, err) == 1);
    CHECK_THAT(out, Catch::Contains("first difference at frame 61 (t = ") &&
                            Catch::Contains("  contacts only in A: wall–ball\n  contacts only in B: none\n"));
}

TEST_CASE("diverge FILE --engine collide,bullet parts at frame 1: the exact parabola against Euler's step",
          "[app][diverge][bullet]") {
    need_bullet();
    // Both balls fall from rest. After one step of h = 1/60 s collide's exact integrator has them
    // ½·g·h² lower, Bullet's semi-implicit Euler step (v += g·h, then x += v·h) g·h²: they differ
    // by ½·g·h² = 0.0013625 m at frame 1 (frame 0 is the start, the same in both), the floor not.
    std::string out, err;
    DivergeRequest request;
    request.files = {kDrop};
    request.engines = "collide,bullet";
    CHECK(diverge(request, out, err) == 1);
    CHECK(err.empty());
    INFO(out);
    CHECK_THAT(out,
               Catch::Contains("first difference at frame 1 (t = 0.016666666666666666 s): 2 of 3 bodies differ\n"));
    CHECK_THAT(out,
               Catch::Contains("  ball: position by 0.00136 m") && Catch::Contains("  other: position by 0.00136 m"));
    CHECK(out.find("  floor:") == std::string::npos);
}

TEST_CASE("diverge --jobs 1,2 and 1,3: one world on two thread counts never parts, frame for frame",
          "[app][diverge][threads]") {
    // The rain of 10,000 balls (a row of dominoes under the sanitizers, where the rain runs 30
    // times slower): the world's step on several threads promises the same bits as on one
    // (lib/world/parallel.h); diverge holds it to that over every frame.
    std::string out, err;
    const std::string scenario =
            std::string(COLLIDE_SOURCE_DIR) + (kSanitized ? "/scenarios/dominoes.yaml" : "/scenarios/rain.yaml");
    for (const char* jobs : {"1,2", "1,3", "2,auto"}) {
        INFO("--jobs " << jobs);
        DivergeRequest request;
        request.files = {scenario};
        request.jobs = jobs;
        CHECK(diverge(request, out, err) == 0);
        CHECK_THAT(out, Catch::Contains(std::string("run two ways: A --jobs ") + std::string(jobs).substr(0, 1)) &&
                                Catch::Contains("bit for bit"));
    }
}

TEST_CASE("diverge: runs of different scenes, a bad request and a missing file are bad input (exit 2)",
          "[app][diverge]") {
    const ScratchDir dir("collide_diverge_bad");
    const std::string& scenario = kDrop;
    const std::string a = record(scenario, (dir.path / "a.rec").string());
    const std::string b =
            record(std::string(COLLIDE_SOURCE_DIR) + "/scenarios/bouncing.yaml", (dir.path / "b.rec").string());
    std::string out, err;
    DivergeRequest different;
    different.files = {a, b};
    CHECK(diverge(different, out, err) == 2);
    CHECK_THAT(err, Catch::StartsWith(b + ":1:1: error: its bodies are not those of"));
    DivergeRequest neither;
    neither.files = {scenario};
    CHECK(diverge(neither, out, err) == 2);
    CHECK_THAT(err, Catch::Contains("give --set NAME=V1,V2, --engine A,B or --jobs N1,N2"));
    DivergeRequest two_ways;
    two_ways.files = {scenario};
    two_ways.set = "e=0.8,0.9";
    two_ways.jobs = "1,2";
    CHECK(diverge(two_ways, out, err) == 2);
    CHECK_THAT(err, Catch::Contains("(one of them)"));
    for (const char* bad : {"1", "1,x", "0,2", "1,2,3", "2,"}) {
        INFO("--jobs " << bad);
        DivergeRequest jobs;
        jobs.files = {scenario};
        jobs.jobs = bad;
        CHECK(diverge(jobs, out, err) == 2);
        CHECK_THAT(err, Catch::Contains(std::string("--jobs ") + bad + ": expected two thread counts"));
    }
    DivergeRequest malformed;
    malformed.files = {scenario};
    malformed.set = "e=0.8";
    CHECK(diverge(malformed, out, err) == 2);
    CHECK_THAT(err, Catch::Contains("expected NAME=V1,V2"));
    DivergeRequest missing;
    missing.files = {a, (dir.path / "none.rec").string()};
    CHECK(diverge(missing, out, err) == 2);
    CHECK_THAT(err, Catch::Contains("none.rec") && Catch::Contains("cannot read"));
}

TEST_CASE("diverge --plot: the chart from the first divergent frame, and both runs in one 3D view",
          "[app][diverge][plot]") {
    const ScratchDir dir("collide_diverge_plot");
    std::string out, err;
    DivergeRequest svg;
    svg.files = {kDrop};
    svg.set = "e=0.8,0.8000001";
    svg.plot_path = (dir.path / "d.svg").string();
    CHECK(diverge(svg, out, err) == 1);
    CHECK_THAT(out, Catch::EndsWith("plot: " + svg.plot_path + "\n"));
    const std::string chart = read_text(svg.plot_path);
    CHECK_THAT(chart, Catch::StartsWith("<svg ") && Catch::Contains("first: frame 28, t = 0.466667 s"));
    CHECK_THAT(chart, Catch::Contains("<polyline class=\"position (m)\"") &&
                              Catch::Contains("<polyline class=\"velocity (m/s)\""));

    // Two recordings: the page needs the scenario, each run's params from its recording.
    const std::string a = record(kDrop, (dir.path / "a.rec").string(), {"e=0.8"});
    const std::string b = record(kDrop, (dir.path / "b.rec").string(), {"e=0.8000001"});
    DivergeRequest page;
    page.files = {a, b};
    page.plot_path = (dir.path / "d.html").string();
    CHECK(diverge(page, out, err) == 2);
    CHECK_THAT(err, Catch::Contains("give --scenario FILE"));
    CHECK_FALSE(std::filesystem::exists(page.plot_path));
    page.scenario = kDrop;
    CHECK(diverge(page, out, err) == 1);
    const std::string html = read_text(page.plot_path);
    CHECK_THAT(html, Catch::Contains("A: ball") && Catch::Contains("B: ball") && Catch::Contains("B: other"));
    CHECK_THAT(html, Catch::Contains("first difference at frame 28")); // the report beside the view
    // Another scenario's bodies are not these runs'.
    std::string renamed = read_text(kDrop);
    renamed.replace(renamed.find("  ball: {"), 9, "  sphere: {");
    renamed.replace(renamed.find("body: ball }"), 12, "body: sphere }");
    page.scenario = (dir.path / "renamed.yaml").string();
    write_text(page.scenario, renamed);
    CHECK(diverge(page, out, err) == 2);
    CHECK_THAT(err, Catch::Contains("its bodies are not the runs'"));

    DivergeRequest png = svg;
    png.plot_path = (dir.path / "d.png").string();
    CHECK(diverge(png, out, err) == 2);
    CHECK_THAT(err, Catch::Contains("--plot: expected a .svg file"));
    DivergeRequest same = svg;
    same.set = "e=0.8,0.8";
    same.plot_path = (dir.path / "same.svg").string();
    CHECK(diverge(same, out, err) == 0);
    CHECK_THAT(out, Catch::Contains("no plot: the runs never differ"));
    CHECK_FALSE(std::filesystem::exists(same.plot_path));
}
