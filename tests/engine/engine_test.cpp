// The engine interface (engine/engine.h): collide's world behind CollideEngine gives the probes
// exactly what the World gives, state for state and event for event.
#include <catch2/catch.hpp>

#include <vector>

#include "engine/engine.h"
#include "probes/simulate.h"
#include "scenario/load.h"

using namespace collide;

namespace {

/// A ball at 2 m/s towards a box 1 m away (gap 0.5 m after its radius and the box's half).
const char* kScene = R"(
name: engine
world: { rate: 60, frames: 60, gravity: [0, 0, 0], detection: swept }
bodies:
  wall: { static: true, box: { min: [-0.25, -1, -1], max: [0.25, 1, 1] } }
  ball: { sphere: { radius: 0.25 }, position: [-1, 0, 0], velocity: [2, 0, 0], restitution: 1 }
log:
  - first_contact: { body: ball, with: wall }
  - final: { body: ball }
)";

/// Records the frames and contacts an engine tells, through its view.
struct Events final : EngineObserver {
    std::vector<double> seen;
    void on_contact(const EngineView& view, const ContactEvent& e) override {
        seen.insert(seen.end(), {double(e.a), double(e.b), e.time, e.manifolds[0].normal.x, view.state(1).position.x});
    }
    void on_frame(const EngineView& view, int frame, double time) override {
        seen.insert(seen.end(), {double(frame), time, view.state(1).position.x, view.state(1).velocity.x});
    }
};

} // namespace

TEST_CASE("CollideEngine tells what the World tells, bit for bit", "[engine]") {
    const Scenario s = parse_scenario_template(kScene, "engine.yaml").base();
    World world;
    world.reset(s.world, s.bodies);
    Events direct;
    world.add_observer(direct, kOnContact | kOnFrame);
    CollideEngine engine;
    engine.reset(s.world, s.bodies);
    Events through;
    engine.add_observer(through, kOnContact | kOnFrame);
    for (int k = 0; k < s.world.frames; ++k) {
        world.step_frame();
        engine.step_frame();
    }
    REQUIRE(direct.seen.size() > 4 * 60); // every frame and at least the impact
    CHECK(direct.seen == through.seen);
    // The impact: the ball's surface meets the wall's face at x = −0.25 − 0.25 = −0.5, after 0.25 s.
    CHECK(engine.state(1).velocity.x == Approx(-2).margin(1e-9)); // restitution 1 sends it back
    CHECK(engine.name() == "collide");
    CHECK(engine.exact_moves());
}

TEST_CASE("A Workspace runs collide's own engine unless told otherwise", "[engine]") {
    const Scenario s = parse_scenario_template(kScene, "engine.yaml").base();
    Workspace ws;
    CHECK(ws.engine().name() == "collide");
    std::vector<double> values(simulate(s).size());
    simulate(s, values, ws);
    CHECK(values[0] == 1); // hit
    CHECK(values[2] ==
          Approx(0.25).margin(1e-9)); // the centre from −1 to −0.5 (touching the face at −0.25): 0.5 m at 2 m/s
    ws.use_engine("collide");
    CHECK(ws.engine().name() == "collide");
    CHECK_THROWS_AS(ws.use_engine("no-such-engine"), InputError);
}
