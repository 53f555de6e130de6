// sim and validate as library calls: every file is tried, bad input is reported where it is and
// gives 2, and a log goes out only when every file loaded.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

#include "app/sim.h"
#include "app/validate.h"

using namespace collide;

namespace {
const std::string kDir = COLLIDE_SOURCE_DIR;
const std::string kGood = kDir + "/scenarios/mtv.yaml";
const std::string kBroken = kDir + "/tests/scenario/fixtures/broken.yaml";
} // namespace

TEST_CASE("sim measures a good file, prints its log and exits 0") {
    std::ostringstream out, err;
    SimRequest request;
    request.files = {kGood};
    CHECK(sim_command(request, out, err) == 0);
    CHECK_THAT(out.str(), Catch::StartsWith("push out along x → 5.40 m\n"));
    CHECK(err.str().empty());
}

TEST_CASE("sim reports every bad file at its place, prints no log and exits 2") {
    std::ostringstream out, err;
    SimRequest request;
    request.files = {kBroken, kGood, kBroken};
    CHECK(sim_command(request, out, err) == 2);
    CHECK(out.str().empty());
    const std::string problems = kBroken + ":4:9: error: world.rate must be > 0, got 0\n";
    CHECK_THAT(err.str(), Catch::StartsWith(problems));
    CHECK(err.str().find(problems, 1) != std::string::npos); // the second broken file too
}

TEST_CASE("sim refuses --trace with several files and an output file it cannot write") {
    std::ostringstream out, err;
    SimRequest request;
    request.files = {kGood, kGood};
    request.options.trace_path = "trace.csv";
    CHECK(sim_command(request, out, err) == 2);
    CHECK(err.str() == "collide sim: error: --trace takes exactly one scenario file\n");

    err.str("");
    request.files = {kGood};
    request.options.trace_path.clear();
    request.output = "/dev/null/sub/log.txt";
    CHECK(sim_command(request, out, err) == 2);
    CHECK_THAT(err.str(), Catch::StartsWith("collide sim: error: /dev/null/sub/log.txt: "));
    CHECK(out.str().empty());
}

TEST_CASE("validate says ok per good file and reports each bad one") {
    std::ostringstream out, err;
    CHECK(validate_command({kGood}, out, err) == 0);
    CHECK_THAT(out.str(), Catch::EndsWith(": ok (2 bodies, 3 log entries, 3 expectations)\n"));
    out.str("");
    CHECK(validate_command({kBroken, kGood}, out, err) == 2);
    CHECK_THAT(out.str(), Catch::StartsWith(kGood + ": ok"));
    CHECK_THAT(err.str(), Catch::Contains(kBroken + ":8:20: error: log[0].final.body: no body named 'bal'"));
}

TEST_CASE("sim --engine collide,bullet prints each engine's log under its name, as each alone prints it") {
    const auto run = [](const std::string& engine, LogFormat format = LogFormat::text) {
        std::ostringstream out, err;
        SimRequest request;
        request.files = {kDir + "/scenarios/bouncing.yaml"};
        request.options.engine = engine;
        request.format = format;
        const int code = sim_command(request, out, err);
        return std::pair{code, out.str() + err.str()};
    };
    if (run("bullet").first == 2) {
        SUCCEED("this build has no Bullet");
        return;
    }
    const auto [code, both] = run("collide,bullet");
    CHECK(code == 0);
    CHECK(both == "# engine collide\n" + run("collide").second + "# engine bullet\n" + run("bullet").second);
    // Named in any order, collide's own comes first.
    CHECK(run("bullet,collide").second == both);
    const auto csv = run("collide,bullet", LogFormat::csv);
    CHECK(csv.first == 2);
    CHECK(csv.second.find("several engines print text or JSON logs") != std::string::npos);
}

TEST_CASE("sim --engine collide,bullet --plot draws both runs in one picture: bullet's as ghosts") {
    const auto dir = std::filesystem::temp_directory_path() / ("collide_sim_engines_" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir);
    const auto run = [&](const std::string& engine, const std::string& plot) {
        std::ostringstream out, err;
        SimRequest request;
        request.files = {kDir + "/scenarios/bouncing.yaml"};
        request.options.engine = engine;
        request.options.plot_path = (dir / plot).string();
        const int code = sim_command(request, out, err);
        return std::pair{code, err.str()};
    };
    const auto read = [&](const std::string& name) {
        std::ifstream in(dir / name);
        return std::string(std::istreambuf_iterator<char>(in), {});
    };
    if (run("bullet", "bullet.svg").first == 2) {
        std::filesystem::remove_all(dir);
        SUCCEED("this build has no Bullet");
        return;
    }
    REQUIRE(run("collide,bullet", "both.html").first == 0);
    const std::string page = read("both.html");
    // collide's bodies solid, bullet's moving ones as ghosts in the same colours, both logs beside.
    CHECK_THAT(page, Catch::Contains("collide: ball_0_5\\ncollide: ball_0_8"));
    CHECK_THAT(page, Catch::Contains("bullet: ball_0_5"));
    CHECK_THAT(page, Catch::Contains("<g class=\"body ghost c0\" data-body=\"bullet: ball_0_5\">"));
    CHECK_THAT(page, Catch::Contains("# engine collide\n"));
    CHECK_THAT(page, Catch::Contains("# engine bullet\n"));
    CHECK_THAT(page, Catch::Contains("\"ghost_note\":\"faint: bullet's run\""));
    // The SVG alone too; --trace still follows one engine.
    REQUIRE(run("collide,bullet", "both.svg").first == 0);
    CHECK_THAT(read("both.svg"), Catch::Contains("data-body=\"bullet: ball_1\""));
    std::ostringstream out, err;
    SimRequest traced;
    traced.files = {kDir + "/scenarios/bouncing.yaml"};
    traced.options.engine = "collide,bullet";
    traced.options.trace_path = (dir / "t.csv").string();
    CHECK(sim_command(traced, out, err) == 2);
    CHECK_THAT(err.str(), Catch::Contains("--trace and --record follow one engine's run"));
    std::filesystem::remove_all(dir);
}
