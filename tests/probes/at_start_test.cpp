// The probes measured on the bodies as placed at t = 0 (at_start), against values worked out by
// hand: per-axis overlaps of two boxes, the contact of a ball sunk into a floor and its push-out,
// the split and the response of a velocity, slope angles, the first separating axis of two
// boxes, the nearest target of a ray; and what each writes when there is nothing to measure.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "probes/probe_run.h"

using namespace collide;
using namespace collide::test;

namespace {

/// A floor box (top at y = 0), a ball of radius 0.5 centred 0.4 m up (0.1 m into the floor), a
/// box far away, and the log entries given.
ProbeRun at_start(const std::string& log) {
    return run_probes("world: { frames: 1, gravity: [0, 0, 0] }\n"
                      "bodies:\n"
                      "  floor: { static: true, box: { min: [-5, -1, -5], max: [5, 0, 5] } }\n"
                      "  ball: { sphere: { radius: 0.5 }, position: [1, 0.4, 2] }\n"
                      "  crate: { box: { min: [1.5, 1, -1], max: [4, 3, 0.5] } }\n"
                      "  other: { box: { min: [0, 0, 0], max: [2, 2, 2] }, position: [0, 0.5, 0] }\n"
                      "log:\n" +
                      log);
}

} // namespace

TEST_CASE("axis_overlaps: how far two boxes' bounds overlap on each axis, negative where apart", "[probes]") {
    // other spans [0, 2] × [0.5, 2.5] × [0, 2], crate [1.5, 4] × [1, 3] × [−1, 0.5].
    const ProbeRun r = at_start("  - axis_overlaps: { a: other, b: crate }\n"
                                "  - axis_overlaps: { a: floor, b: crate }\n");
    CHECK(r["axis_overlaps.x"] == Approx(0.5).margin(1e-12));
    CHECK(r["axis_overlaps.y"] == Approx(1.5).margin(1e-12));
    CHECK(r["axis_overlaps.z"] == Approx(0.5).margin(1e-12));
    CHECK(r["axis_overlaps_2.y"] == Approx(-1).margin(1e-12)); // the crate floats 1 m above the floor
}

TEST_CASE("contact and push_out of a ball sunk 0.1 m into a floor, no contact where nothing touches", "[probes]") {
    const ProbeRun r = at_start("  - contact: { a: floor, b: ball }\n"
                                "  - push_out: { a: floor, b: ball }\n"
                                "  - contact: { a: ball, b: crate }\n"
                                "  - push_out: { a: ball, b: crate }\n");
    CHECK(r["contact.hit"] == 1);
    CHECK(r["contact.nx"] == Approx(0).margin(1e-12));
    CHECK(r["contact.ny"] == Approx(1).margin(1e-12));
    CHECK(r["contact.nz"] == Approx(0).margin(1e-12));
    CHECK(r["contact.depth"] == Approx(0.1).margin(1e-12));
    // Pushed out along the normal by depth + skin (1 mm).
    CHECK(r["push_out.hit"] == 1);
    CHECK(r["push_out.x"] == Approx(1).margin(1e-12));
    CHECK(r["push_out.y"] == Approx(0.501).margin(1e-12));
    CHECK(r["push_out.z"] == Approx(2).margin(1e-12));
    CHECK(r["contact_2.hit"] == 0);
    CHECK(std::isnan(r["contact_2.depth"]));
    CHECK(r["push_out_2.hit"] == 0); // the crate's position, left where it was
    CHECK(r["push_out_2.x"] == 0);
    CHECK(r["push_out_2.y"] == 0);
}

TEST_CASE("split and respond of a velocity of (3, −4, 0) m/s against the floor's normal", "[probes]") {
    const ProbeRun r = at_start("  - split: { velocity: [3, -4, 0], normal: [0, 2, 0] }\n"
                                "  - respond: { velocity: [3, -4, 0], normal: [0, 1, 0], restitution: 0.5, "
                                "friction: 0.2 }\n"
                                "  - respond: { velocity: [3, 4, 0], normal: [0, 1, 0], restitution: 0.5, "
                                "friction: 0.2 }\n");
    CHECK(r["split.heading_in"] == 1);
    CHECK(r["split.blocked"] == Approx(4).margin(1e-12));
    CHECK(r["split.sliding"] == Approx(3).margin(1e-12));
    CHECK(r["split.blocked_y"] == Approx(-4).margin(1e-12));
    CHECK(r["split.sliding_x"] == Approx(3).margin(1e-12));
    // v' = −e·(v·n)·n + (1 − f)·(v − (v·n)·n) = (2.4, 2, 0).
    CHECK(r["respond.vx"] == Approx(2.4).margin(1e-12));
    CHECK(r["respond.vy"] == Approx(2).margin(1e-12));
    CHECK(r["respond.vz"] == Approx(0).margin(1e-12));
    CHECK(r["respond.speed"] == Approx(std::sqrt(2.4 * 2.4 + 4)).margin(1e-12));
    // Leaving the surface already: left alone.
    CHECK(r["respond_2.vx"] == 3);
    CHECK(r["respond_2.vy"] == 4);
}

TEST_CASE("slope: the angle of a surface from up and whether it is walkable under the limit", "[probes]") {
    const ProbeRun r = at_start("  - slope: { surface_degrees: 30, limit: 46 }\n"
                                "  - slope: { normal: [0, 1, 1], limit: 44 }\n"
                                "  - slope: { normal: [0, 1, 0], limit: 46 }\n");
    CHECK(r["slope.angle"] == Approx(30).margin(1e-12));
    CHECK(r["slope.walkable"] == 1);
    CHECK(r["slope_2.angle"] == Approx(45).margin(1e-12));
    CHECK(r["slope_2.walkable"] == 0);
    CHECK(r["slope_3.angle"] == 0);
}

TEST_CASE("separating_axis of two boxes 0.5 m apart along x finds A's x face first, of 15 axes", "[probes]") {
    const ProbeRun r = run_probes("world: { frames: 1, gravity: [0, 0, 0] }\n"
                                  "bodies:\n"
                                  "  a: { box: { min: [0, 0, 0], max: [1, 1, 1] } }\n"
                                  "  b: { box: { min: [1.5, 0.2, 0.3], max: [2.5, 1.2, 1.3] } }\n"
                                  "  c: { box: { min: [0.5, 0.5, 0.5], max: [1.5, 1.5, 1.5] } }\n"
                                  "log:\n  - separating_axis: { a: a, b: b }\n  - separating_axis: { a: a, b: c }\n");
    CHECK(r["separating_axis.separated"] == 1);
    CHECK(r["separating_axis.axis"] == 1);
    CHECK(r["separating_axis.axes"] == 15);
    CHECK(r["separating_axis.gap"] == Approx(0.5).margin(1e-12));
    CHECK(std::fabs(r["separating_axis.nx"]) == Approx(1).margin(1e-12));
    CHECK(r["separating_axis_2.separated"] == 0); // c overlaps a by 0.5 m on every axis
}

TEST_CASE("raycast: the nearest of the targets along the ray, or none within max_distance", "[probes]") {
    const ProbeRun r = at_start("  - raycast: { from: [1, 5, 2], direction: [0, -1, 0], targets: [floor, ball] }\n"
                                "  - raycast: { from: [1, 5, 2], direction: [0, -1, 0], targets: [floor, ball], "
                                "max_distance: 4 }\n"
                                "  - raycast: { from: [1, 5, 2], direction: [0, 1, 0], targets: [floor, ball] }\n");
    // The ball's top is at y = 0.9: 4.1 m down, before the floor's top at 5 m.
    CHECK(r["raycast.hit"] == 1);
    CHECK(r["raycast.target"] == 1);
    CHECK(r["raycast.distance"] == Approx(4.1).margin(1e-12));
    CHECK(r["raycast.y"] == Approx(0.9).margin(1e-12));
    CHECK(r["raycast.ny"] == Approx(1).margin(1e-12));
    CHECK(r["raycast_2.hit"] == 0);
    CHECK(r["raycast_2.target"] == -1);
    CHECK(std::isnan(r["raycast_2.distance"]));
    CHECK(r["raycast_3.hit"] == 0);
}
