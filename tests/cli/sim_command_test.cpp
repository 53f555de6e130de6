// `collide sim` and `collide validate` end to end, as a user runs them: the bundled scenarios'
// figures on stdout, exit codes as diff(1), one FILE:LINE:COLUMN line per problem on stderr.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "support/project_dir.h"
#include "support/run_command.h"
#include "support/sample_count.h"

using collide::test::run_collide;
namespace fs = std::filesystem;

TEST_CASE("sim prints the figures of scenarios/mtv.yaml and exits 0") {
    const auto r = run_collide("sim scenarios/mtv.yaml");
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("push out along y → 0.30 m  // the shallowest, so this is the way out\n") != std::string::npos);
    CHECK(r.out.find("(0.000, 0.901, 0.000) m") != std::string::npos);
    CHECK(r.err.empty());
}

TEST_CASE("sim --set moves where the frames land: the tunnel's bullet is missed at offset 0.5") {
    // 60 m/s from x = −3 at 60 Hz: a metre a frame. Offset 0: frame 3 lands its centre on the
    // wall's middle (caught), and it is pushed out beyond the wall (through at frame 4); offset
    // 0.5: the frames land at x = −0.5 and 0.5, never inside, and it is through at frame 3.
    const auto hit = run_collide("sim scenarios/tunnel.yaml");
    CHECK(hit.out == "first contact of bullet with wall → frame 3 at t = 0.050 s, centre (0.000, 0.000, 0.000) m\n"
                     "bullet against wall → tunneled: through at frame 4, t = 0.067 s, and ended beyond it\n");
    const auto miss = run_collide("sim scenarios/tunnel.yaml --set offset=0.5");
    CHECK(miss.exit_code == 0);
    CHECK(miss.out == "first contact of bullet with wall → none in 40 frames\n"
                      "bullet against wall → tunneled: through at frame 3, t = 0.058 s, and ended beyond it\n");
}

TEST_CASE("sim --detection swept catches the bullet one radius from the wall") {
    const auto r = run_collide("sim scenarios/tunnel.yaml --set offset=0.5 --detection swept");
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("centre (-0.350, 0.000, 0.000) m") != std::string::npos);
    CHECK(r.out.find("bullet against wall → held: stopped, on its near side\n") != std::string::npos);
}

TEST_CASE("sim reads a scenario from stdin") {
    const auto r = run_collide("sim -", "log:\n  - slope: { surface_degrees: 50, limit: 46 }\n");
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("50.000°, too steep to stand on, over the 46° limit") != std::string::npos);
}

TEST_CASE("sim --format json gives full-precision numbers, in a list even for one file") {
    const auto r = run_collide("sim scenarios/bouncing.yaml --format json");
    REQUIRE(r.exit_code == 0);
    const auto doc = nlohmann::json::parse(r.out);
    REQUIRE(doc.is_array());
    REQUIRE(doc.size() == 1);
    CHECK(doc[0]["entries"][7]["fields"]["speed"].get<double>() == Approx(3.5).margin(1e-12));
}

TEST_CASE("sim of several files: one CSV header with a scenario column, a JSON list, JSON Lines") {
    const std::string files = "sim scenarios/tunnel.yaml scenarios/mtv.yaml";
    const auto csv = run_collide(files + " --format csv");
    REQUIRE(csv.exit_code == 0);
    CHECK(csv.out.rfind("scenario,entry,field,value,unit\ntunnel,first_contact,hit,true,\n", 0) == 0);
    CHECK(csv.out.find("scenario,", 1) == std::string::npos); // one header
    CHECK(csv.out.find("\nmtv,") != std::string::npos);
    const auto json = run_collide(files + " --format json");
    REQUIRE(json.exit_code == 0);
    const auto doc = nlohmann::json::parse(json.out);
    REQUIRE(doc.size() == 2);
    CHECK(doc[1]["scenario"] == "mtv");
    const auto jsonl = run_collide(files + " --format jsonl");
    REQUIRE(jsonl.exit_code == 0);
    std::istringstream lines(jsonl.out);
    std::vector<std::string> names;
    for (std::string line; std::getline(lines, line);) names.push_back(nlohmann::json::parse(line)["scenario"]);
    CHECK(names == std::vector<std::string>{"tunnel", "mtv"});
}

TEST_CASE("a misspelt command or option is named with the closest match, exit 2") {
    const auto command = run_collide("simm scenarios/tunnel.yaml");
    CHECK(command.exit_code == 2);
    CHECK_THAT(command.err, Catch::Contains("unknown command 'simm'; did you mean 'sim'?"));
    const auto option = run_collide("sim scenarios/tunnel.yaml --formt json");
    CHECK(option.exit_code == 2);
    CHECK_THAT(option.err, Catch::Contains("unknown option '--formt'; did you mean '--format'?"));
    const auto far = run_collide("xyzzy");
    CHECK(far.exit_code == 2);
    CHECK_THAT(far.err, Catch::Contains("unknown command 'xyzzy'"));
    CHECK(far.err.find("did you mean") == std::string::npos);
}

TEST_CASE("check --help shows --color's words, not the transformer's table") {
    const auto r = run_collide("check --help");
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::Contains("--color auto|always|never"));
    CHECK(r.out.find("->") == std::string::npos);
}

TEST_CASE("sim --trace writes every body's state per frame and -o writes the log to a file") {
    const collide::test::ScratchDir scratch("collide_sim_trace_test");
    const fs::path& dir = scratch.path;
    const auto r = run_collide("sim scenarios/tunnel.yaml --trace " + (dir / "t.csv").string() + " -o " +
                               (dir / "log.txt").string());
    CHECK(r.exit_code == 0);
    CHECK(r.out.empty());
    std::ifstream trace(dir / "t.csv");
    std::string line;
    int rows = 0;
    std::getline(trace, line);
    CHECK(line == "frame,time,kind,body,with,x,y,z,vx,vy,vz,qw,qx,qy,qz,nx,ny,nz,depth,wx,wy,wz");
    while (std::getline(trace, line)) rows += line.find(",state,") != std::string::npos ? 1 : 0;
    CHECK(rows == 40 * 2);
    std::stringstream log;
    log << std::ifstream(dir / "log.txt").rdbuf();
    CHECK(log.str().find("first contact of bullet with wall") == 0);
}

TEST_CASE("sim --trace - writes the trace alone to stdout, with contacts and rotations") {
    const auto r = run_collide("sim scenarios/tunnel.yaml --set offset=0.5 --detection swept --trace -");
    CHECK(r.exit_code == 0);
    CHECK(r.out.rfind("frame,time,kind,body,with,", 0) == 0);
    CHECK(r.out.find("first contact") == std::string::npos);
    // The swept bullet touches the wall's face at frame 3: normal from the wall to the bullet, −x.
    CHECK(r.out.find("3,0.04416666666666667,contact,wall,bullet,") != std::string::npos);
    CHECK(r.out.find(",-1,0,0,0,,,\n") != std::string::npos);
    CHECK(r.out.find("0,0.008333333333333333,state,bullet,,-2.5,0,0,60,0,0,1,0,0,0,,,,,0,0,0\n") != std::string::npos);
}

TEST_CASE(
        "sim --trace gives each body's angular velocity: a torque-free box keeps |L|, so it ends spinning at 5 rad/s") {
    // scenarios/spin.yaml: I_y·ω_y = L along world y from the start, ω = (0.01, 5, 0.01) rad/s;
    // upside down at 4.5 s between its flips, spinning about +y at 5 rad/s again.
    const auto r = run_collide("sim scenarios/spin.yaml --trace -");
    REQUIRE(r.exit_code == 0);
    std::istringstream rows(r.out);
    std::string line, first, last;
    std::getline(rows, line);
    while (std::getline(rows, line))
        if (line.find(",state,box,") != std::string::npos) (first.empty() ? first : last) = line;
    const auto omega = [](const std::string& row) {
        std::vector<double> v;
        std::size_t at = 0;
        for (int comma = 0; comma < 19; ++comma) at = row.find(',', at) + 1; // past depth
        std::istringstream rest(row.substr(at));
        for (std::string f; std::getline(rest, f, ',');) v.push_back(std::stod(f));
        return v;
    };
    const std::vector<double> w0 = omega(first), w1 = omega(last);
    REQUIRE(w0.size() == 3);
    REQUIRE(w1.size() == 3);
    CHECK(w0[0] == Approx(0.01).margin(1e-3));
    CHECK(w0[1] == Approx(5).margin(1e-3));
    CHECK(w1[1] == Approx(5).margin(1e-3));
    CHECK(std::hypot(w1[0], w1[2]) < 0.05);
}

TEST_CASE("sim --plot draws the run as SVG or as an HTML page, and refuses other files") {
    const collide::test::ScratchDir scratch("collide_sim_plot_test");
    const fs::path& dir = scratch.path;
    auto r = run_collide("sim scenarios/bouncing.yaml --plot " + (dir / "b.svg").string());
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("apex") != std::string::npos); // the log still goes to stdout
    std::stringstream svg;
    svg << std::ifstream(dir / "b.svg").rdbuf();
    CHECK(svg.str().rfind("<svg", 0) == 0);
    CHECK(svg.str().find("data-view=\"xz\"") != std::string::npos);
    r = run_collide("sim scenarios/bouncing.yaml --view zy --plot " + (dir / "b.html").string());
    CHECK(r.exit_code == 0);
    std::stringstream html;
    html << std::ifstream(dir / "b.html").rdbuf();
    CHECK(html.str().rfind("<!DOCTYPE html>", 0) == 0);
    CHECK(html.str().find("data-view=\"zy\"") != std::string::npos);
    CHECK(html.str().find("data-view=\"xy\"") == std::string::npos);
    r = run_collide("sim scenarios/bouncing.yaml --plot " + (dir / "b.png").string());
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("expected a file ending in .svg or .html") != std::string::npos);
    CHECK(!fs::exists(dir / "b.png"));
}

TEST_CASE("bad input exits 2 with FILE:LINE:COLUMN: error lines and no output file") {
    const collide::test::ScratchDir scratch("collide_sim_bad_test");
    const fs::path& dir = scratch.path;
    const fs::path bad = dir / "bad.yaml";
    std::ofstream(bad) << "bodies:\n  ball: { sphere: { radius: -1 } }\n";
    const auto r = run_collide("sim " + bad.string() + " -o " + (dir / "out.log").string());
    CHECK(r.exit_code == 2);
    CHECK(r.err.rfind(bad.string() + ":2:", 0) == 0);
    CHECK(r.err.find(": error: ") != std::string::npos);
    CHECK_FALSE(fs::exists(dir / "out.log"));
}

TEST_CASE("a missing file, an unknown option and an unknown --set param all exit 2") {
    CHECK(run_collide("sim no/such/file.yaml").exit_code == 2);
    CHECK(run_collide("sim scenarios/tunnel.yaml --bogus").exit_code == 2);
    CHECK(run_collide("sim scenarios/tunnel.yaml --set nope=1").exit_code == 2);
    CHECK(run_collide("sim scenarios/tunnel.yaml --detection sideways").exit_code == 2);
    CHECK(run_collide("").exit_code == 2);
}

TEST_CASE("collide --help and --version exit 0") {
    CHECK(run_collide("--help").exit_code == 0);
    CHECK(run_collide("--version").exit_code == 0);
    CHECK(run_collide("sim --help").exit_code == 0);
}

TEST_CASE("validate checks every shipped scenario without running it") {
    std::string files;
    for (const auto& e : fs::directory_iterator(fs::path(COLLIDE_SOURCE_DIR) / "scenarios"))
        if (e.path().extension() == ".yaml") files += " scenarios/" + e.path().filename().string();
    const auto r = run_collide("validate" + files);
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
}

TEST_CASE("validate reports an unknown key with its line and column and exits 2") {
    const auto r = run_collide("validate -", "name: x\nworld: { rat: 60 }\n");
    CHECK(r.exit_code == 2);
    CHECK(r.err.rfind("<stdin>:2:10: error:", 0) == 0);
}

TEST_CASE("sim prints a failed expectation with its values and exits 1, after printing the log") {
    const auto r = run_collide("sim -", "log:\n  - slope: { surface_degrees: 50, limit: 46 }\n"
                                        "expect:\n  - { value: slope.walkable, equals: true }\n");
    CHECK(r.exit_code == 1);
    CHECK(r.out.find("too steep to stand on") != std::string::npos);
    CHECK(r.err.find("<stdin>:4:5") != std::string::npos);
    CHECK(r.err.find("slope.walkable") != std::string::npos);
}

TEST_CASE("every shipped scenario's expectations hold under sim") {
    for (const auto& e : fs::directory_iterator(fs::path(COLLIDE_SOURCE_DIR) / "scenarios")) {
        if (e.path().extension() != ".yaml") continue;
        INFO(e.path().filename().string());
        const auto r = run_collide("sim scenarios/" + e.path().filename().string());
        CHECK(r.exit_code == 0);
        CHECK(r.err.empty());
    }
}

namespace {

/// Box3D's large_pyramid as scripts/make-pyramid.py writes it: `rows` rows of touching unit
/// cubes, density 100, friction 0.6, gravity −10, sleeping off.
std::string touching_pyramid(int rows, int frames) {
    std::string y = "name: pyramid\nworld: { rate: 60, frames: " + std::to_string(frames) +
                    ", gravity: [0, -10, 0], sleep: false }\nbodies:\n"
                    "  ground: { static: true, box: { min: [-400, -2, -400], max: [400, 0, 400] }, friction: 0.6 }\n";
    for (int r = 0; r < rows; ++r)
        y += "  r" + std::to_string(r) + "_: { box: { half: [0.5, 0.5, 0.5] }, position: [" +
             std::to_string(-0.5 * (rows - r - 1)) + ", " + std::to_string(0.5 + r) +
             ", 0], density: 100, friction: 0.6, array: { count: [" + std::to_string(rows - r) +
             ", 1, 1], spacing: [1, 0, 0] } }\n";
    y += "log:\n  - final: { body: r" + std::to_string(rows - 1) + "_0 }\n  - max_overlap: { }\n";
    return y;
}

/// A pile of turned crates dropped into a pen (one island of hundreds of contacts).
std::string crate_pile() {
    std::string y = "name: crates\nworld: { rate: 60, frames: 90, gravity: [0, -9.81, 0] }\nbodies:\n"
                    "  floor: { static: true, box: { min: [-4, -1, -4], max: [4, 0, 4] } }\n"
                    "  west: { static: true, box: { min: [-4, 0, -4], max: [-3, 3, 4] } }\n"
                    "  east: { static: true, box: { min: [3, 0, -4], max: [4, 3, 4] } }\n"
                    "  north: { static: true, box: { min: [-3, 0, -4], max: [3, 3, -3] } }\n"
                    "  south: { static: true, box: { min: [-3, 0, 3], max: [3, 3, 4] } }\n"
                    "  c: { box: { half: [0.3, 0.3, 0.3] }, position: [-2.45, 0.4, -2.45], friction: 0.5, "
                    "rotation: { euler: [12, 25, -17] }, array: { count: [8, 4, 8], spacing: [0.7, 0.75, 0.7] } }\n"
                    "log:\n  - final: { body: c0 }\n  - max_overlap: { }\n";
    return y;
}

} // namespace

TEST_CASE("sim --jobs 1, 2 and 3 write the same log and trace bytes: the rain, a touching pyramid, a crate pile",
          "[heavy]") {
    collide::test::ScratchDir dir("collide_sim_jobs");
    const std::string pyramid = (dir.path / "pyramid.yaml").string(), crates = (dir.path / "crates.yaml").string();
    // The large pyramid cut to 60 frames (30 rows under AddressSanitizer, where it runs 30 times slower).
    collide::test::write_text(pyramid, touching_pyramid(collide::test::kSanitized ? 30 : 100, 60));
    collide::test::write_text(crates, crate_pile());
    for (const std::string& scenario : {std::string("scenarios/rain.yaml"), pyramid, crates}) {
        std::string log1, trace1;
        for (const char* jobs : {"1", "2", "3"}) {
            INFO(scenario << " on " << jobs << " threads");
            const std::string trace = (dir.path / (std::string("trace") + jobs + ".csv")).string();
            const auto r = run_collide("sim '" + scenario + "' --jobs " + jobs + " --trace '" + trace + "'");
            REQUIRE(r.exit_code == 0);
            const std::string t = collide::test::read_text(trace);
            REQUIRE(t.size() > 1000);
            const auto log = run_collide("sim '" + scenario + "' --format json --jobs " + jobs);
            REQUIRE(log.exit_code == 0);
            if (log1.empty()) {
                log1 = log.out;
                trace1 = t;
                continue;
            }
            CHECK(log.out == log1);
            CHECK(t == trace1);
        }
    }
}

TEST_CASE("sim --jobs auto runs; a --jobs that is no count is refused with exit 2") {
    const auto ok = run_collide("sim scenarios/stack.yaml --jobs auto");
    CHECK(ok.exit_code == 0);
    CHECK(ok.out == run_collide("sim scenarios/stack.yaml").out);
    for (const char* bad : {"0", "two", "3x", "2000"}) {
        INFO(bad);
        const auto r = run_collide(std::string("sim scenarios/stack.yaml --jobs ") + bad);
        CHECK(r.exit_code == 2);
        CHECK(r.err.find("--jobs") != std::string::npos);
        CHECK(r.out.empty());
    }
}
