// The apex probe on frictionles balls dropped onto a floor with swept detection: after bounce
// k the ball ries to h·e^(2k) (its speed after the k-th bounce is e^k·√(2gh)), which the
// probe' measured apexes and its analytic column must both give; bounces are counted while a
// rebound i faster than max(rest_speed, g·dt), up to the number asked for, and a ball that
// never bounces has no apex.
#include <catch2/catch.hpp>

#include <cmath>

#include "probes/probe_run.h"
#include "report/render.h"
#include "response/response.h"

using namespace collide;
using namespace collide::test;

TEST_CASE("apex after each bounce is h·e^(2k), measured and analytic, and bounces counts the 3 asked for of the 5",
          "[probes]") {
    // h = 2 m, e = 0.8: bounces at t = 0.639, 1.660, 2.478, 3.131, 3.655 s (each flight lasts
    // 2·e^k·√(2gh)/g), the next at 4.073 s, after the last frame (3.983 s): 5 bounces.
    const ProbeRun r = run_probes("world: { rate: 60, frames: 240, gravity: [0, -9.81, 0], detection: swept }\n"
                                  "bodies:\n"
                                  "  floor: { static: true, box: { min: [-5, -1, -5], max: [5, 0, 5] }, "
                                  "restitution: 0, friction: 0 }\n"
                                  "  ball: { sphere: { radius: 0.5 }, position: [0, 2.5, 0], restitution: 0.8, "
                                  "friction: 0 }\n"
                                  "log:\n  - apex: { body: ball, bounces: 3, drop_height: 2, floor: floor }\n");
    int checked = 0;
    for (int k = 1; k <= 3; ++k) {
        INFO("bounce " << k);
        const double expected = 2 * std::pow(0.64, k);
        CHECK(r["apex.apex_" + std::to_string(k)] == Approx(expected).margin(1e-6));
        CHECK(r["apex.analytic_" + std::to_string(k)] == Approx(expected).epsilon(1e-15));
        ++checked;
    }
    CHECK(checked == 3);
    CHECK(r["apex.bounces"] == 3); // 5 in the run; the 4th and 5th were not asked for
}

TEST_CASE("apex asked for more bounces than the run has counts those it has; the others are none", "[probes]") {
    // The scene above (5 bounces in 240 frames, the 6th at t = 4.073 s after the last frame)
    // asked for 8: apex_1 … apex_5 measured (h·e^(2k)), apex_6 … apex_8 none.
    const ProbeRun r = run_probes("world: { rate: 60, frames: 240, gravity: [0, -9.81, 0], detection: swept }\n"
                                  "bodies:\n"
                                  "  floor: { static: true, box: { min: [-5, -1, -5], max: [5, 0, 5] }, "
                                  "restitution: 0, friction: 0 }\n"
                                  "  ball: { sphere: { radius: 0.5 }, position: [0, 2.5, 0], restitution: 0.8, "
                                  "friction: 0 }\n"
                                  "log:\n  - apex: { body: ball, bounces: 8, drop_height: 2, floor: floor }\n");
    CHECK(r["apex.bounces"] == 5);
    for (int k = 1; k <= 5; ++k) { // the 5th apex at t = (3.655 + 4.073) / 2 = 3.864 s, before the end
        INFO("bounce " << k);
        CHECK(r["apex.apex_" + std::to_string(k)] == Approx(2 * std::pow(0.64, k)).margin(1e-6));
    }
    for (int k = 6; k <= 8; ++k) CHECK(std::isnan(r["apex.apex_" + std::to_string(k)]));
}

TEST_CASE("apex heights are measured above the floor body's top, and slow rebounds are not bounces", "[probes]") {
    // The floor's top at y = 1, the ball's lowest point 3 m above it, e = 0.5: rebound speeds
    // 7.672·0.5^k m/s. The fifth (0.240 m/s) is above the bounce threshold g·dt = 0.1635 m/s,
    // the sixth (0.120 m/s) below it: 5 bounces, then the ball rests (all within 2.3 s of 3 s).
    const ProbeRun r = run_probes("world: { rate: 60, frames: 180, gravity: [0, -9.81, 0], detection: swept }\n"
                                  "bodies:\n"
                                  "  floor: { static: true, box: { min: [-5, 0, -5], max: [5, 1, 5] }, "
                                  "restitution: 0, friction: 0 }\n"
                                  "  ball: { sphere: { radius: 0.5 }, position: [0, 4.5, 0], restitution: 0.5, "
                                  "friction: 0 }\n"
                                  "log:\n  - apex: { body: ball, bounces: 2, drop_height: 3, floor: floor }\n");
    CHECK(r["apex.apex_1"] == Approx(0.75).margin(1e-6));
    CHECK(r["apex.apex_2"] == Approx(0.1875).margin(1e-6));
    CHECK(r["apex.analytic_1"] == apex_after_bounces(3, 0.5, 1));
    CHECK(r["apex.bounces"] == 2); // of the 5 bounces, the 2 asked for
}

TEST_CASE("a ball that never bounces has no apex, and its analytic heights use its own restitution", "[probes]") {
    // Thrown up in free flight, no floor: no response, no bounce.
    const ProbeRun r = run_probes("world: { rate: 60, frames: 60, gravity: [0, -9.81, 0] }\n"
                                  "bodies:\n"
                                  "  ball: { sphere: { radius: 0.5 }, position: [0, 2, 0], velocity: [0, 3, 0], "
                                  "restitution: 0.6 }\n"
                                  "log:\n  - apex: { body: ball, bounces: 1, drop_height: 1.5 }\n");
    CHECK(r["apex.bounces"] == 0);
    CHECK(std::isnan(r["apex.apex_1"]));
    CHECK(r["apex.analytic_1"] == Approx(1.5 * 0.36).epsilon(1e-15));
}

TEST_CASE("apex without drop_height measures from the height the body starts at, and says so") {
    // The ball's bottom starts 1.5 m above the floor: the n-th apex is 1.5 · 0.8^(2n) m.
    const std::string yaml = "world: { rate: 240, duration: 3, gravity: [0, -9.81, 0], detection: swept }\n"
                             "bodies:\n"
                             "  floor: { static: true, box: { min: [-5, -1, -5], max: [5, 0, 5] } }\n"
                             "  ball: { sphere: { radius: 0.1 }, position: [0, 1.6, 0], restitution: 0.8 }\n"
                             "log:\n  - apex: { body: ball, bounces: 2, floor: floor }\n    id: a\n";
    const collide::test::ProbeRun r = collide::test::run_probes(yaml);
    CHECK(r["a.analytic_1"] == Approx(1.5 * 0.64).epsilon(1e-12));
    CHECK(r["a.analytic_2"] == Approx(1.5 * 0.4096).epsilon(1e-12));
    CHECK(r["a.apex_1"] == Approx(1.5 * 0.64).margin(1e-6));
    CHECK(r["a.apex_2"] == Approx(1.5 * 0.4096).margin(1e-6));
    CHECK(collide::render_text(r.scenario, collide::layout_of(r.scenario), r.values) ==
          "dropped from 1.500 m (its start) with restitution 0.8, apex after 1 and 2 bounces → 0.960 m, 0.614 m\n");
}
