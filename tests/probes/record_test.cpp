// Recording a run (probes/record.h): every sampled frame's time and every body's state, in body
// order, frame after frame — checked against free flight in closed form — and the contacts found,
// the first one at the touch time a swept ball reaches a wall, solved by hand.
#include <catch2/catch.hpp>

#include <cmath>

#include "probes/probe_run.h"

using namespace collide;
using namespace collide::test;

TEST_CASE("a recording holds every frame's time and every body's state, frame-major", "[probes]") {
    const Scenario s = scenario_from("world: { rate: 20, frames: 12, phase: 0.5, gravity: [0, -9.81, 0] }\n"
                                     "bodies:\n"
                                     "  post: { static: true, box: { min: [-1, 0, -1], max: [1, 1, 1] }, "
                                     "position: [10, 0, 0] }\n"
                                     "  ball: { sphere: { radius: 0.2 }, position: [0, 5, 0], velocity: [1, 2, 3] }\n"
                                     "log:\n  - final: { body: ball }\n");
    std::vector<double> values(layout_of(s).fields.size());
    const Recording rec = simulate_recorded(s, values);
    REQUIRE(rec.body_count == 2);
    REQUIRE(rec.frame_count() == 12);
    CHECK(rec.states.size() == 24);
    int checked = 0;
    for (std::size_t k = 0; k < rec.frame_count(); ++k) {
        INFO("frame " << k);
        const double t = (static_cast<double>(k) + 0.5) / 20;
        CHECK(rec.frames[k] == static_cast<int>(k));
        CHECK(rec.times[k] == Approx(t).margin(1e-12));
        const std::span<const BodyState> at = rec.at(k);
        REQUIRE(at.size() == 2);
        CHECK(at[0].position.x == 10); // the static post never moves
        CHECK(at[0].velocity.y == 0);
        CHECK(at[1].position.x == Approx(t).margin(1e-9));
        CHECK(at[1].position.y == Approx(5 + 2 * t - 0.5 * 9.81 * t * t).margin(1e-9));
        CHECK(at[1].position.z == Approx(3 * t).margin(1e-9));
        CHECK(at[1].velocity.y == Approx(2 - 9.81 * t).margin(1e-9));
        CHECK(at[1].rotation == Quat{});
        ++checked;
    }
    CHECK(checked == 12);
    // The log is measured as without a recording.
    CHECK(values == simulate(s));
}

TEST_CASE("a recording's contacts begin with a swept ball's touch of a wall, at the time solved by hand", "[probes]") {
    // The ball (radius 0.5, from x = −5 at 4 m/s) touches the wall's face x = 1 at t = 1.375 s,
    // in frame 83; the normal points from the wall (body 0) to the ball (body 1): −x.
    const Scenario s = scenario_from("world: { rate: 60, frames: 90, gravity: [0, 0, 0], detection: swept }\n"
                                     "bodies:\n"
                                     "  wall: { static: true, box: { min: [1, -2, -2], max: [2, 2, 2] } }\n"
                                     "  ball: { sphere: { radius: 0.5 }, position: [-5, 0, 0], velocity: [4, 0, 0] }\n"
                                     "log:\n  - final: { body: ball }\n");
    std::vector<double> values(layout_of(s).fields.size());
    RecordingSink sink;
    CHECK(sink.wants_contacts());
    Workspace ws;
    simulate(s, values, ws, &sink);
    Recording rec = sink.take();
    CHECK(sink.recording().frames.empty()); // taken out
    REQUIRE(!rec.contacts.empty());
    const TraceContact& c = rec.contacts.front();
    CHECK(c.frame == 83);
    CHECK(c.time == Approx(1.375).margin(1e-9));
    CHECK(c.a == 0);
    CHECK(c.b == 1);
    CHECK(c.normal.x == Approx(-1).margin(1e-9));
    CHECK(c.depth == 0); // a swept touch
    for (const TraceContact& later : rec.contacts) CHECK(later.time >= c.time);
}
