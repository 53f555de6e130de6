// The probes read after the last frame (at_end): final against the closed form of free flight
// (exact integration) and against the semi-implicit Euler recurrence stepped by hand; character
// footing in the air and standing on a floor; max_overlap of two kinematic balls that pass
// through each other (never pushed), of bodies that never touch, and of static bodies (not counted).
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "probes/probe_run.h"

using namespace collide;
using namespace collide::test;

TEST_CASE("final is where exact free flight puts a body at the last frame's time", "[probes]") {
    // 40 frames at 50 Hz, phase 0.25: the last frame is at T = 39.25/50 = 0.785 s.
    const ProbeRun r =
            run_probes("world: { rate: 50, frames: 40, phase: 0.25, gravity: [0, -9.81, 0] }\n"
                       "bodies:\n  b: { sphere: { radius: 0.2 }, position: [1, 2, 3], velocity: [2, 5, -1] }\n"
                       "log:\n  - final: { body: b }\n");
    const double t = 0.785;
    CHECK(r["final.x"] == Approx(1 + 2 * t).margin(1e-9));
    CHECK(r["final.y"] == Approx(2 + 5 * t - 0.5 * 9.81 * t * t).margin(1e-9));
    CHECK(r["final.z"] == Approx(3 - t).margin(1e-9));
    CHECK(r["final.vx"] == Approx(2).margin(1e-12));
    CHECK(r["final.vy"] == Approx(5 - 9.81 * t).margin(1e-9));
    CHECK(r["final.vz"] == Approx(-1).margin(1e-12));
}

TEST_CASE("final under integrator: euler is the semi-implicit Euler recurrence, step by step", "[probes]") {
    // The world steps phase·dt to the first frame, then dt per frame: v += g·h, then p += v·h.
    const ProbeRun r =
            run_probes("world: { rate: 30, frames: 25, phase: 0.5, gravity: [0, -9.81, 0], "
                       "integrator: euler }\n"
                       "bodies:\n  b: { sphere: { radius: 0.2 }, position: [0, 10, 0], velocity: [1, 2, 0] }\n"
                       "log:\n  - final: { body: b }\n");
    double x = 0, y = 10, vx = 1, vy = 2;
    int steps = 0;
    for (int k = 0; k < 25; ++k) {
        const double h = k == 0 ? 0.5 / 30 : 1.0 / 30;
        vy += -9.81 * h;
        x += vx * h;
        y += vy * h;
        ++steps;
    }
    CHECK(steps == 25);
    CHECK(r["final.x"] == Approx(x).margin(1e-12));
    CHECK(r["final.y"] == Approx(y).margin(1e-12));
    CHECK(r["final.vy"] == Approx(vy).margin(1e-12));
    // The exact parabola is higher than Euler's by ½·g·h per unit time: they differ.
    const double t = 24.5 / 30;
    CHECK(std::fabs(r["final.y"] - (10 + 2 * t - 0.5 * 9.81 * t * t)) > 1e-3);
}

TEST_CASE("character footing: not grounded in the air, grounded on a floor with its normal", "[probes]") {
    const ProbeRun air = run_probes("world: { rate: 60, frames: 20, gravity: [0, -9.81, 0] }\n"
                                    "bodies:\n  c: { sphere: { radius: 0.4 }, position: [0, 50, 0], character: true }\n"
                                    "log:\n  - character: { body: c }\n");
    CHECK(air["character.grounded"] == 0);
    CHECK(std::isnan(air["character.nx"]));
    CHECK(std::isnan(air["character.ny"]));
    CHECK(air["character.steps"] == 0);

    const ProbeRun floor = run_probes("world: { rate: 60, frames: 30, gravity: [0, -9.81, 0] }\n"
                                      "bodies:\n"
                                      "  ground: { static: true, box: { min: [-5, -1, -5], max: [5, 0, 5] } }\n"
                                      "  c: { sphere: { radius: 0.4 }, position: [0, 0.4005, 0], character: true }\n"
                                      "log:\n  - character: { body: c }\n");
    CHECK(floor["character.grounded"] == 1);
    CHECK(floor["character.nx"] == Approx(0).margin(1e-9));
    CHECK(floor["character.ny"] == Approx(1).margin(1e-9));
    CHECK(floor["character.nz"] == Approx(0).margin(1e-9));
    CHECK(floor["character.steps"] == 0);
}

TEST_CASE("max_overlap: the deepest pair at the end, none when nothing touches or only static bodies do", "[probes]") {
    // Kinematic balls (never pushed) of radius 0.5 closing at 2 m/s from 4 m apart: after 18
    // frames at 10 Hz (1.8 s) their centres are 0.4 m apart, overlapping by 0.6 m.
    const ProbeRun through = run_probes("world: { rate: 10, frames: 19, gravity: [0, 0, 0] }\n"
                                        "bodies:\n"
                                        "  far: { sphere: { radius: 0.5 }, position: [0, 30, 0] }\n"
                                        "  a: { sphere: { radius: 0.5 }, position: [-2, 0, 0], velocity: [1, 0, 0], "
                                        "kinematic: true }\n"
                                        "  b: { sphere: { radius: 0.5 }, position: [2, 0, 0], velocity: [-1, 0, 0], "
                                        "kinematic: true }\n"
                                        "log:\n  - max_overlap: {}\n");
    CHECK(through["max_overlap.depth"] == Approx(0.6).margin(1e-9));
    CHECK(through["max_overlap.a"] == 1);
    CHECK(through["max_overlap.b"] == 2);

    const ProbeRun apart = run_probes("world: { rate: 10, frames: 5, gravity: [0, 0, 0] }\n"
                                      "bodies:\n"
                                      "  a: { sphere: { radius: 0.5 }, position: [-2, 0, 0] }\n"
                                      "  b: { sphere: { radius: 0.5 }, position: [2, 0, 0] }\n"
                                      "  w1: { static: true, box: { min: [0, 5, 0], max: [2, 7, 2] } }\n"
                                      "  w2: { static: true, box: { min: [1, 6, 1], max: [3, 8, 3] } }\n"
                                      "log:\n  - max_overlap: {}\n");
    CHECK(apart["max_overlap.depth"] == 0);
    CHECK(apart["max_overlap.a"] == -1);
    CHECK(apart["max_overlap.b"] == -1);
}
