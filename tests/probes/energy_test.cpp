// The energy probe against closed forms: a thrown ball's ½·m·v² + m·g·h kept by the exact
// integrator; a box spinning about each of its principal axes, turned, with I from its sizes;
// a centre of mass off the body's origin; a ball that lands dead losing m·g·(h − r); static and
// kinematic bodies left out.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "probes/energy.h"
#include "probes/probe_run.h"

using namespace collide;
using namespace collide::test;

TEST_CASE("energy of a thrown ball is ½·m·|v|² + m·g·h at the start and stays so in flight", "[probes]") {
    // m 2 kg at y 3 m moving (1, 2, 0) m/s: 2·9.81·3 + ½·2·(1 + 4) = 58.86 + 5 = 63.86 J.
    const ProbeRun r = run_probes("world: { rate: 60, frames: 31, gravity: [0, -9.81, 0] }\n"
                                  "bodies:\n  b: { sphere: { radius: 0.2 }, mass: 2, position: [0, 3, 0], "
                                  "velocity: [1, 2, 0] }\nlog:\n  - energy: {}\n");
    CHECK(r["energy.start"] == Approx(63.86).margin(1e-12));
    CHECK(r["energy.end"] == Approx(63.86).margin(1e-9));
    CHECK(r["energy.change"] == Approx(0).margin(1e-9));
    CHECK(r["energy.drift"] == Approx(0).margin(1e-9));
}

TEST_CASE("energy of a turned box spinning about one of its axes is ½·I·ω² with I of that axis", "[probes]") {
    // A 1 × 0.5 × 0.2 m box of 3 kg, no gravity, ω = 2 rad/s about world z. Turned 90° about x,
    // its own y axis lies along world z: I_yy = m·(1² + 0.2²)/12 = 0.26 kg·m², E = ½·0.26·4 = 0.52 J.
    // Unturned, about its own z: I_zz = m·(1² + 0.5²)/12 = 0.3125, E = 0.625 J.
    const std::string box = "box: { half: [0.5, 0.25, 0.1] }, mass: 3, angular_velocity: [0, 0, 2]";
    const ProbeRun turned = run_probes("world: { rate: 60, frames: 61 }\nbodies:\n  b: { " + box +
                                       ", rotation: { axis: [1, 0, 0], degrees: 90 } }\nlog:\n  - energy: {}\n");
    CHECK(turned["energy.start"] == Approx(0.52).margin(1e-12));
    CHECK(turned["energy.end"] == Approx(0.52).margin(1e-9)); // a spin about a principal axis is kept
    const ProbeRun plain =
            run_probes("world: { rate: 60, frames: 61 }\nbodies:\n  b: { " + box + " }\nlog:\n  - energy: {}\n");
    CHECK(plain["energy.start"] == Approx(0.625).margin(1e-12));
}

TEST_CASE("energy counts gravity at the centre of mass, not at the body's origin", "[probes]") {
    // A 1 kg ball whose centre sits 1 m above the body's origin at y 2: 9.81·3 = 29.43 J.
    const ProbeRun r = run_probes("world: { rate: 60, frames: 2, gravity: [0, -9.81, 0] }\n"
                                  "bodies:\n  b: { sphere: { radius: 0.5, centre: [0, 1, 0] }, position: [0, 2, 0] }\n"
                                  "log:\n  - energy: {}\n");
    CHECK(r["energy.start"] == Approx(29.43).margin(1e-12));
}

TEST_CASE("a ball that lands dead loses m·g·(h − r); static and kinematic bodies are not counted", "[probes]") {
    // 1 kg, r 0.25, dropped from y 2 onto a floor at y 0 with restitution 0: it ends resting at
    // y 0.25, 9.81·0.25 = 2.4525 J, having lost 9.81·1.75 = 17.1675 J. The floor and a kinematic
    // box (moving, but driven) add nothing.
    const ProbeRun r = run_probes("world: { rate: 60, duration: 2, gravity: [0, -9.81, 0] }\n"
                                  "bodies:\n  floor: { static: true, box: { min: [-5, -1, -5], max: [5, 0, 5] } }\n"
                                  "  ball: { sphere: { radius: 0.25 }, position: [0, 2, 0] }\n"
                                  "  cart: { kinematic: true, box: { half: [0.5, 0.5, 0.5] }, position: [0, 5, 3], "
                                  "velocity: [3, 0, 0] }\n"
                                  "log:\n  - energy: {}\n  - final: { body: ball }\n");
    REQUIRE(r["final.y"] == Approx(0.25).margin(1e-6));
    CHECK(r["energy.start"] == Approx(9.81 * 2).margin(1e-12));
    CHECK(r["energy.end"] == Approx(9.81 * 0.25).margin(1e-5));
    CHECK(r["energy.change"] == Approx(-9.81 * 1.75).margin(1e-5));
    CHECK(r["energy.drift"] == Approx(9.81 * 1.75).margin(1e-5)); // it only ever lost
}

TEST_CASE("mechanical_energy turns the angular velocity into the body's frame", "[probes]") {
    // I = diag(1, 2, 3) in the body frame; turned 90° about z, world x is the body's −y: ω = (1, 0, 0)
    // in the world is 1 rad/s about the body's y axis, ½·2·1 = 1 J (not ½·1·1 about x).
    BodyInertia b;
    b.mass = 0;
    b.inertia = Mat3{{Vec3{1, 0, 0}, Vec3{0, 2, 0}, Vec3{0, 0, 3}}};
    BodyState s;
    s.rotation = Quat{std::cos(0.25 * 3.141592653589793), 0, 0, std::sin(0.25 * 3.141592653589793)};
    s.angular_velocity = {1, 0, 0};
    CHECK(mechanical_energy(b, s, {0, -9.81, 0}) == Approx(1).margin(1e-12));
}
