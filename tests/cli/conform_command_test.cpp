// `collide conform` end to end, as a user runs it: the table on stdout, the JSON report to a
// file, --strict, the exit codes; collide holds every expectation of the classic
// engine-comparison scenes it ships (incline, box-slide, elastic-pile, far-stack, mass-ratio);
// an engine plugin (--engine PATH) is scored as any engine.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>

#include "support/project_dir.h"
#include "support/run_command.h"

using collide::test::run_collide;
namespace fs = std::filesystem;

TEST_CASE("conform prints the table of scenarios × engines and a summary, and exits 0") {
    const auto r = run_collide("conform scenarios/bouncing.yaml scenarios/tunnel.yaml --engine collide");
    INFO(r.out << r.err);
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    CHECK(r.out.rfind("conform: 2 scenarios × 1 engine; each cell: ", 0) == 0);
    CHECK(r.out.find("\nscenario  collide\n") != std::string::npos);
    CHECK(r.out.find("\nbouncing  15/15  ") != std::string::npos);
    CHECK(r.out.find("\ntunnel    no expectations\n") != std::string::npos);
    CHECK(r.out.find("\n  collide  held 15 of 15 expectations in 1 scenario, ") != std::string::npos);
}

TEST_CASE("conform --format json -o FILE writes the report there, nothing on stdout") {
    const collide::test::ProjectDir dir("collide_conform_cli");
    const std::string file = (dir.path / "report.json").string();
    const auto r = run_collide("conform scenarios/ramp.yaml --engine collide --format json -o '" + file + "'");
    REQUIRE(r.exit_code == 0);
    CHECK(r.out.empty());
    const auto doc = nlohmann::json::parse(collide::test::read_text(file));
    const auto& cell = doc["scenarios"][0]["cells"][0];
    CHECK(cell["engine"] == "collide");
    CHECK(cell["held"] == 9);
    // ramp.yaml's first expectation: the ball rolled to x = −0.9961937 (its closed form) within 1e-4.
    CHECK(cell["expectations"][0]["expected"].get<double>() == -0.9961937);
    CHECK(cell["expectations"][0]["error"].get<double>() <= 1e-4);
}

TEST_CASE("conform --strict exits 1 when an expectation failed; bad input is 2 with a located error") {
    const collide::test::ProjectDir dir("collide_conform_cli");
    const std::string wrong = (dir.path / "scenarios/wrong.yaml").string();
    // Free fall for 1 s (frame 50 at 50 Hz) from 10 m: y = 10 − 9.81/2 = 5.095, not 5.
    collide::test::write_text(wrong, "world: { rate: 50, frames: 51, gravity: [0, -9.81, 0] }\n"
                                     "bodies:\n  b: { sphere: { radius: 0.2 }, position: [0, 10, 0] }\n"
                                     "log:\n  - final: { body: b }\n"
                                     "expect:\n  - { value: final.y, equals: 5, tolerance: 1e-3 }\n");
    const auto lax = run_collide("conform '" + wrong + "' --engine collide");
    CHECK(lax.exit_code == 0);
    CHECK(lax.out.find("0/1  0.095 m  ") != std::string::npos);
    const auto strict = run_collide("conform '" + wrong + "' --engine collide --strict");
    CHECK(strict.exit_code == 1);
    const auto bad = run_collide("conform --format yaml");
    CHECK(bad.exit_code == 2);
    const std::string broken = (dir.path / "scenarios/broken.yaml").string();
    collide::test::write_text(broken, "world: { rate: 0 }\n");
    const auto located = run_collide("conform '" + broken + "' --engine collide");
    CHECK(located.exit_code == 2);
    CHECK(located.out.empty());
    CHECK(located.err == broken + ":1:16: error: world.rate must be > 0, got 0\n");
}

TEST_CASE("collide holds every expectation of the classic engine-comparison scenes it ships") {
    const auto r = run_collide("conform --engine collide --strict --format json scenarios/incline.yaml "
                               "scenarios/box-slide.yaml scenarios/elastic-pile.yaml scenarios/far-stack.yaml "
                               "scenarios/mass-ratio.yaml scenarios/bouncing.yaml scenarios/bowling.yaml");
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const auto doc = nlohmann::json::parse(r.out);
    REQUIRE(doc["scenarios"].size() == 7);
    for (const auto& s : doc["scenarios"]) {
        INFO(s["name"]);
        CHECK(s["cells"][0]["status"] == "ran");
        CHECK(s["cells"][0]["held"] == s["cells"][0]["checked"]);
    }
}

TEST_CASE("conform scores an engine plugin beside collide's own world, the plugin given by its path") {
    // The example plugin (examples/engine-plugin/bounce.c: semi-implicit Euler) under its own name.
    const auto r = run_collide(std::string("conform scenarios/bouncing.yaml --format json --engine 'collide,") +
                               COLLIDE_BOUNCE_PLUGIN + "'");
    INFO(r.err);
    REQUIRE(r.exit_code == 0);
    const auto doc = nlohmann::json::parse(r.out);
    REQUIRE(doc["engines"].size() == 2);
    CHECK(doc["engines"][1]["name"] == "bounce");
    const auto& cell = doc["scenarios"][0]["cells"][1];
    CHECK(cell["engine"] == "bounce");
    REQUIRE(cell["status"] == "ran");
    const auto& first = cell["expectations"][0]; // swept_0_5.apex_1 equals h·e² = 2·0.5² = 0.5
    CHECK(first["field"] == "swept_0_5.apex_1");
    CHECK(first["expected"].get<double>() == Approx(0.5).margin(1e-12));
    const double error = first["error"].get<double>();
    CHECK(error == Approx(std::fabs(first["value"].get<double>() - 0.5)).margin(1e-15));
    // Euler at τ = 1/60 s from 2 m misses h·e² by at most (e² + e)·V·τ/2 + g·τ²/8, V = √(2gH) + g·τ
    // (README, Your engine): more than the 1e-6 m collide's exact integrator holds, less than 4.1 cm.
    const double g = 9.81, tau = 1.0 / 60, e = 0.5, V = std::sqrt(2 * g * 2) + g * tau;
    CHECK(error > 1e-6);
    CHECK(error < (e * e + e) * V * tau / 2 + g * tau * tau / 8);
    CHECK(first["held"] == false);
}
