// The first_contact probe against first contacts worked out by hand: swept (the touch time of
// free flight, straight or falling, solved in closed form, and the frame whose step holds it)
// and discrete (the first sampled frame whose centre lies inside), a pair never meeting, the
// pair named either way round, two moving bodies. None depends on how the world responds.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>

#include "probes/probe_run.h"

using namespace collide;
using namespace collide::test;

namespace {

/// A ball (radius 0.5, from x = −5 at 4 m/s) and a static wall (x from 1 to 2), no gravity.
std::string wall_scene(const std::string& world, const std::string& entry) {
    return "world: { rate: 60, frames: 120, gravity: [0, 0, 0]" + world +
           " }\n"
           "bodies:\n"
           "  wall: { static: true, box: { min: [1, -2, -2], max: [2, 2, 2] } }\n"
           "  ball: { sphere: { radius: 0.5 }, position: [-5, 0, 0], velocity: [4, 0, 0], restitution: 0, "
           "friction: 0 }\n"
           "log:\n  - first_contact: " +
           entry + "\n";
}

} // namespace

TEST_CASE("first_contact finds the first touch where free flight reaches it, swept and discrete", "[probes]") {
    // Swept: the ball touches when its centre is one radius short of x = 1, at t = 5.5/4 =
    // 1.375 s, in the frame whose step (t_{k−1}, t_k] holds it, t_k = (k + phase)/60.
    // Discrete: the first sampled frame whose centre is past x = 0.5.
    struct Case {
        const char* what;
        std::string world;
        double frame, time, x;
    };
    const Case cases[] = {
            {"swept, phase 0", ", detection: swept", 83, 1.375, 0.5},                 // 82.5 frames
            {"swept, phase 0.25", ", detection: swept, phase: 0.25", 83, 1.375, 0.5}, // 82.25
            {"discrete, phase 0", "", 83, 83 / 60.0, -5 + 4 * 83 / 60.0},
            {"discrete, phase 0.25", ", phase: 0.25", 83, 83.25 / 60, -5 + 4 * 83.25 / 60},
    };
    int checked = 0;
    for (const Case& c : cases) {
        INFO(c.what);
        const ProbeRun r = run_probes(wall_scene(c.world, "{ body: ball, with: wall }"));
        CHECK(r["first_contact.hit"] == 1);
        CHECK(r["first_contact.frame"] == c.frame);
        CHECK(r["first_contact.time"] == Approx(c.time).margin(1e-9));
        CHECK(r["first_contact.x"] == Approx(c.x).margin(1e-9));
        CHECK(r["first_contact.y"] == 0);
        CHECK(r["first_contact.z"] == 0);
        ++checked;
    }
    CHECK(checked == 4);
}

TEST_CASE("first_contact of a ball falling onto a floor is at t = sqrt(2·(y0 − r)/g)", "[probes]") {
    const ProbeRun r = run_probes("world: { rate: 60, frames: 60, gravity: [0, -9.81, 0], detection: swept }\n"
                                  "bodies:\n"
                                  "  floor: { static: true, box: { min: [-5, -1, -5], max: [5, 0, 5] } }\n"
                                  "  ball: { sphere: { radius: 0.5 }, position: [0.3, 3, -0.2], restitution: 0 }\n"
                                  "log:\n  - first_contact: { body: ball, with: floor }\n");
    const double t = std::sqrt(2 * 2.5 / 9.81); // 0.7139 s: 42.8 frames
    CHECK(r["first_contact.hit"] == 1);
    CHECK(r["first_contact.frame"] == 43);
    CHECK(r["first_contact.time"] == Approx(t).margin(1e-9));
    CHECK(r["first_contact.x"] == Approx(0.3).margin(1e-12));
    CHECK(r["first_contact.y"] == Approx(0.5).margin(1e-9));
    CHECK(r["first_contact.z"] == Approx(-0.2).margin(1e-12));
}

TEST_CASE("first_contact of two moving balls closing at 3.3 m/s, and of a pair named wall first", "[probes]") {
    // 6 m apart, radii 0.5 and 0.25: they touch when 6 − 3.3·t = 0.75, t = 1.5909 s (95.45 frames).
    const ProbeRun r = run_probes("world: { rate: 60, frames: 120, gravity: [0, 0, 0], detection: swept }\n"
                                  "bodies:\n"
                                  "  a: { sphere: { radius: 0.5 }, position: [-3, 1, 0], velocity: [2, 0, 0] }\n"
                                  "  b: { sphere: { radius: 0.25 }, position: [3, 1, 0], velocity: [-1.3, 0, 0] }\n"
                                  "log:\n  - first_contact: { body: a, with: b }\n"
                                  "  - first_contact: { body: b, with: a }\n");
    const double t = 5.25 / 3.3;
    CHECK(r["first_contact.frame"] == 96);
    CHECK(r["first_contact.time"] == Approx(t).margin(1e-9));
    CHECK(r["first_contact.x"] == Approx(-3 + 2 * t).margin(1e-9));
    // The same contact, the position of the body named first.
    CHECK(r["first_contact_2.time"] == r["first_contact.time"]);
    CHECK(r["first_contact_2.x"] == Approx(3 - 1.3 * t).margin(1e-9));
    CHECK(r["first_contact_2.y"] == 1);

    const ProbeRun w = run_probes(wall_scene(", detection: swept", "{ body: wall, with: ball }"));
    CHECK(w["first_contact.time"] == Approx(1.375).margin(1e-9));
    CHECK(w["first_contact.x"] == 0); // the wall's own position
}

TEST_CASE("first_contact of a pair that never meets keeps hit 0 and the rest unmeasured", "[probes]") {
    for (const char* detection : {"", ", detection: swept"}) {
        INFO("detection" << detection);
        // Moving away from the wall.
        std::string yaml = wall_scene(detection, "{ body: ball, with: wall }");
        yaml.replace(yaml.find("velocity: [4, 0, 0]"), 19, "velocity: [-4, 0, 0]");
        const ProbeRun r = run_probes(yaml);
        CHECK(r["first_contact.hit"] == 0);
        CHECK(std::isnan(r["first_contact.frame"]));
        CHECK(std::isnan(r["first_contact.time"]));
        CHECK(std::isnan(r["first_contact.x"]));
    }
}
