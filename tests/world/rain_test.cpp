// Correctness at scale: the rain of bench/rain.h (1,000 spheres in a 10 × 10 × 10 grid, 0.5 m
// apart, dropped from 1 m onto a floor box, 120 frames at 60 Hz: landed, stacked and asleep), loaded from its
// arrays and run.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <vector>

#include "probes/simulate.h"
#include "rain.h"
#include "scenario/load.h"
#include "support/project_dir.h"

using namespace collide;

TEST_CASE("in the rain the lowest sphere rests on the floor and no overlap deeper than 1 cm is left", "[world][rain]") {
    const ScenarioTemplate t = parse_scenario_template(collide::bench::rain_yaml(1000, 120), "rain.yaml");
    auto ev = t.make_evaluator();
    Scenario s;
    t.instantiate(apply_sets(t, {}), ev, s);
    REQUIRE(s.bodies.size() == 1001);
    CHECK(s.bodies[1].position.y == 1); // s0: the grid's corner, bottom layer
    const std::vector<double> v = simulate(s);
    // final: { body: s0 } → x y z vx vy vz qw qx qy qz wx wy wz spin down tilt; then max_overlap → depth a b.
    CHECK(v[1] >= 0.2 - 0.005); // resting on the floor's top (y = 0) at its radius
    CHECK(v[1] <= 0.2 + 0.005);
    CHECK(v[4] == Approx(0).margin(1e-6)); // at rest
    CHECK(v[16] <= 0.01);
}

TEST_CASE("in the rain onto a 20,000-triangle mesh floor the lowest sphere rests on it, not sunk", "[world][rain]") {
    // Bullet's mesh floor lets the lowest sphere sink to 0.10–0.15 (../shared/peers/README.md).
    const test::ProjectDir dir("collide_rain_mesh");
    const std::filesystem::path obj = dir.path / "floor.obj";
    std::ofstream(obj) << collide::bench::rain_floor_obj();
    const ScenarioTemplate t = parse_scenario_template(collide::bench::rain_yaml(1000, 120, obj.string()), "rain.yaml");
    auto ev = t.make_evaluator();
    Scenario s;
    t.instantiate(apply_sets(t, {}), ev, s);
    REQUIRE(s.bodies.size() == 1001);
    REQUIRE(std::holds_alternative<Mesh>(s.bodies[0].shape));
    const std::vector<double> v = simulate(s);
    CHECK(v[1] >= 0.2 - 0.005);
    CHECK(v[1] <= 0.2 + 0.005);
    CHECK(v[4] == Approx(0).margin(1e-6));
    CHECK(v[16] <= 0.01);
}
