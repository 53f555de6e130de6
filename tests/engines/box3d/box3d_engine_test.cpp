// The Box3D adapter (engines/box3d/box3d_engine.h) against worked-out answers: a dropped ball's
// bounce apex near h·e² within the error a step's gravity and single precision allow, a box
// resting on a floor within Box3D's linear slop, normals from A to B in either body order,
// tunneling without continuous detection and caught with it, a kinematic body turning at its
// rate, fixed rotation, triggers that never respond, the combine rules, the refusals located
// at the scenario's key, and same input, same bytes. Skipped (exit 77) in a build without Box3D.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <numbers>
#include <string>
#include <vector>

#include "engine/registry.h"
#include "engines/box3d/need_box3d.h"
#include "probes/simulate.h"
#include "scenario/load.h"

using namespace collide;
using collide::test::need_box3d;

namespace {

/// The scenario of YAML `text` (no params).
Scenario scene(const std::string& text) { return parse_scenario_template(text, "box3d.yaml").base(); }

/// The scenario's values as Box3D measures them.
std::vector<double> run_box3d(const Scenario& s) {
    Workspace ws;
    ws.use_engine("box3d");
    std::vector<double> values(static_cast<std::size_t>(layout_of(s).offset.back()));
    simulate(s, values, ws);
    return values;
}

/// Records every contact normal an engine tells, and the pair.
struct Normals final : EngineObserver {
    std::vector<Vec3> normals;
    std::vector<std::pair<int, int>> pairs;
    void on_contact(const EngineView&, const ContactEvent& e) override {
        for (const Manifold& m : e.manifolds) {
            normals.push_back(m.normal);
            pairs.emplace_back(e.a, e.b);
        }
    }
};

/// The message `refuse_unsupported` throws for scenario `text`, or "" when it accepts it.
std::string refusal(const std::string& text) {
    try {
        require_engine("box3d").refuse_unsupported(scene(text));
    } catch (const UnsupportedError& e) {
        return e.what();
    }
    return "";
}

/// Single precision's relative step, float's epsilon: what Box3D's every number carries.
constexpr double kFloatEpsilon = 1.1920928955078125e-07;

} // namespace

TEST_CASE("Box3D: a dropped ball's first apex is h·e² within what a step's gravity allows", "[box3d]") {
    need_box3d();
    // Dropped from 2 m (its bottom above the floor's top), e = 0.5: the continuum's first apex is
    // 2·0.5² = 0.5 m, from the impact speed v = √(2gh) = 6.26 m/s. Box3D applies restitution to the
    // approach speed it sees at the start of the step it lands in, within one step's gravity g·dt
    // of v, so the rebound e·v' lies within e·g·dt of e·v and the apex within
    // ((e·(v + g·dt))² − (e·v)²)/(2g) ≈ e²·v·dt = 0.026 m of 0.5; the frames sample the top within
    // g·dt²/8 (3.4 mm). Single precision adds nothing near that (float's epsilon times 2 m).
    const Scenario s = scene(R"(
world: { rate: 60, duration: 3, gravity: [0, -9.81, 0] }
bodies:
  floor: { static: true, box: { min: [-5, -1, -5], max: [5, 0, 5] } }
  ball: { sphere: { radius: 0.1 }, position: [0, 2.1, 0], restitution: 0.5 }
log:
  - apex: { body: ball, bounces: 1, drop_height: 2, floor: floor }
)");
    const std::vector<double> v = run_box3d(s);
    const double g = 9.81, dt = 1.0 / 60, e = 0.5, h = 2;
    const double impact = std::sqrt(2 * g * h);
    const double bound = (std::pow(e * (impact + g * dt), 2) - std::pow(e * impact, 2)) / (2 * g) + g * dt * dt / 8 +
                         4 * kFloatEpsilon * h;
    CHECK(v[1] == Approx(0.5).margin(1e-12)); // analytic_1, written by the probe
    CHECK(std::abs(v[0] - 0.5) < bound);      // apex_1, Box3D's
}

TEST_CASE("Box3D: a box set on a floor rests there within Box3D's linear slop", "[box3d]") {
    need_box3d();
    // A unit cube set touching a floor box (its bottom at y = 0): Box3D's soft contacts hold it
    // with at most B3_LINEAR_SLOP (5 mm) of overlap, still, upright and where it was put.
    const Scenario s = scene(R"(
world: { rate: 60, duration: 2, gravity: [0, -9.81, 0] }
bodies:
  floor: { static: true, box: { min: [-5, -1, -5], max: [5, 0, 5] }, friction: 0.6 }
  crate: { box: { half: [0.5, 0.5, 0.5] }, position: [0.3, 0.5, -0.2], mass: 10, friction: 0.6 }
log:
  - final: { body: crate }
)");
    const std::vector<double> v = run_box3d(s);
    const double slop = 0.005;
    CHECK(v[1] <= 0.5 + 1e-6);               // y: not above where it was put
    CHECK(v[1] >= 0.5 - slop);               // … and sunk by at most the slop
    CHECK(v[0] == Approx(0.3).margin(1e-4)); // x: not slid
    CHECK(v[2] == Approx(-0.2).margin(1e-4));
    CHECK(std::hypot(v[3], v[4], v[5]) < 1e-3);      // still
    CHECK(std::abs(v[6]) == Approx(1).margin(1e-6)); // upright: the rotation it was given
}

TEST_CASE("Box3D: contact normals point from A to B whichever shape Box3D calls A", "[box3d]") {
    need_box3d();
    // A ball resting on a floor box: from the floor to the ball is +y, from the ball to the floor −y.
    for (const bool floor_first : {true, false}) {
        const std::string floor = "  floor: { static: true, box: { min: [-5, -1, -5], max: [5, 0, 5] } }\n";
        const std::string ball = "  ball: { sphere: { radius: 0.5 }, position: [0, 0.49, 0] }\n";
        const Scenario s = scene("world: { rate: 60, frames: 10, gravity: [0, -9.81, 0] }\nbodies:\n" +
                                 (floor_first ? floor + ball : ball + floor) + "log: []\n");
        const std::unique_ptr<Engine> engine = require_engine("box3d").make();
        engine->reset(s.world, s.bodies);
        Normals seen;
        engine->add_observer(seen, kOnContact);
        for (int k = 0; k < 10; ++k) engine->step_frame();
        REQUIRE(!seen.normals.empty());
        for (std::size_t k = 0; k < seen.normals.size(); ++k) {
            CHECK(seen.pairs[k] == std::pair(0, 1));
            const double up = floor_first ? 1.0 : -1.0; // from body 0 to body 1
            CHECK(seen.normals[k].y == Approx(up).margin(1e-6));
        }
    }
}

TEST_CASE("Box3D: a bullet tunnels through a thin wall without continuous detection and stops at it with it",
          "[box3d]") {
    need_box3d();
    // 60 m/s at 60 Hz: 1 m a frame. With phase 0.5 the frames put the centre at x = −2.5, −1.5,
    // −0.5, 0.5, …: the nearest to the wall (faces at ±0.05) is 0.45 m from a face, more than the
    // radius 0.3 and Box3D's 2 cm speculative margin, so no step sees it. Swept (Box3D's
    // continuous detection), it stops at the wall.
    const std::string text = R"(
world: { rate: 60, frames: 40, gravity: [0, 0, 0], detection: DETECTION, phase: 0.5 }
bodies:
  wall: { static: true, box: { min: [-0.05, -2, -2], max: [0.05, 2, 2] } }
  bullet: { sphere: { radius: 0.3 }, position: [-3, 0, 0], velocity: [60, 0, 0] }
log:
  - first_contact: { body: bullet, with: wall }
  - final: { body: bullet }
)";
    auto with = [&](const char* detection) {
        std::string t = text;
        t.replace(t.find("DETECTION"), 9, detection);
        return run_box3d(scene(t));
    };
    const std::vector<double> discrete = with("discrete");
    CHECK(discrete[0] == 0); // no contact
    CHECK(discrete[6] > 30); // final x: flown on through (−3 + 60·(39.5/60) = 36.5)
    const std::vector<double> swept = with("swept");
    CHECK(swept[0] == 1);
    CHECK(swept[6] < -0.05 - 0.3 + 0.05); // final x: on the near side, within 5 cm of touching
}

TEST_CASE("Box3D: a kinematic body turns at its angular velocity about its position", "[box3d]") {
    need_box3d();
    // Driven to exp(ω·t)·rotation at each step's end: 0.5 s at 2 rad/s about +y is 1 rad,
    // q = (cos 0.5, 0, sin 0.5, 0), its hinge staying at (2, 0, 0); each step's target is exact,
    // so what is left is Box3D's single-precision integration of one step (well under 1e-5).
    const Scenario s = scene(R"(
world: { rate: 60, frames: 31, gravity: [0, 0, 0] }
bodies:
  door: { kinematic: true, box: { min: [0, -1, -0.05], max: [1, 1, 0.05] }, position: [2, 0, 0],
          angular_velocity: [0, 2, 0] }
log:
  - final: { body: door }
)");
    const std::vector<double> v = run_box3d(s);
    CHECK(v[0] == Approx(2).margin(1e-5));
    CHECK(v[2] == Approx(0).margin(1e-5));
    CHECK(v[6] == Approx(std::cos(0.5)).margin(1e-5));
    CHECK(v[8] == Approx(std::sin(0.5)).margin(1e-5));
}

TEST_CASE("Box3D: fixed_rotation keeps a crate landing on its edge from turning", "[box3d]") {
    need_box3d();
    // Turned 30° about z and dropped on an edge: free, it tips over (turns); with fixed_rotation
    // its rotation stays the given one, (cos 15°, 0, 0, sin 15°), to float precision.
    auto drop = [&](bool fixed) {
        return run_box3d(scene(std::string(R"(
world: { rate: 60, frames: 61, gravity: [0, -9.81, 0] }
bodies:
  floor: { static: true, box: { min: [-5, -1, -5], max: [5, 0, 5] } }
  crate: { box: { half: [0.5, 0.5, 0.5] }, position: [0, 1.2, 0], rotation: { axis: [0, 0, 1], degrees: 30 }, fixed_rotation: )") +
                               (fixed ? "true" : "false") + R"( }
log:
  - final: { body: crate }
)"));
    };
    const std::vector<double> fixed = drop(true), free = drop(false);
    CHECK(fixed[6] == Approx(std::cos(std::numbers::pi / 12)).margin(4 * kFloatEpsilon));
    CHECK(fixed[9] == Approx(std::sin(std::numbers::pi / 12)).margin(4 * kFloatEpsilon));
    CHECK(std::abs(free[9] - std::sin(std::numbers::pi / 12)) > 0.05); // the free one turned
}

TEST_CASE("Box3D: a trigger never responds, and its overlap is seen on Box3D's poses", "[box3d]") {
    need_box3d();
    // A ball (r 0.2) at 6 m/s through a static trigger box x ∈ [−0.5, 0.5] from x = −2.05: frame k
    // puts it at −2.05 + 0.1·k; it overlaps once x > −0.7 (k = 14, x = −0.65) and leaves once
    // x > 0.7 (k = 28, x = 0.75), keeping its speed.
    const Scenario s = scene(R"(
world: { rate: 60, frames: 60, gravity: [0, 0, 0] }
bodies:
  zone: { static: true, trigger: true, box: { min: [-0.5, -1, -1], max: [0.5, 1, 1] } }
  ball: { sphere: { radius: 0.2 }, position: [-2.05, 0, 0], velocity: [6, 0, 0] }
log:
  - trigger: { body: ball, volume: zone }
  - final: { body: ball }
)");
    const std::vector<double> v = run_box3d(s);
    CHECK(v[0] == 1);                                              // entered
    CHECK(v[1] == 14);                                             // enter_frame
    CHECK(v[3] == 1);                                              // exited
    CHECK(v[4] == 28);                                             // exit_frame
    CHECK(v[7 + 3] == Approx(6).margin(1e-6));                     // vx unchanged (6 is a float exactly)
    CHECK(v[7 + 0] == Approx(-2.05 + 6 * 59 / 60.0).margin(1e-4)); // 59 steps of float sums
}

TEST_CASE("Box3D: friction combines by the world's rule", "[box3d]") {
    need_box3d();
    // A box sliding at 2 m/s on a floor; the box has μ 0, the floor μ 0.5. min: 0 (keeps sliding at
    // 2 m/s); max: 0.5 (decelerates at μg ≈ 4.9 m/s², stopped within 0.5 s).
    auto slide = [&](const char* rule) {
        return run_box3d(scene(
                std::string("world: { rate: 60, frames: 31, gravity: [0, -9.81, 0], friction_combine: ") + rule + R"( }
bodies:
  floor: { static: true, box: { min: [-20, -1, -5], max: [20, 0, 5] }, friction: 0.5 }
  block: { box: { min: [-0.5, 0, -0.5], max: [0.5, 1, 0.5] }, velocity: [2, 0, 0], friction: 0 }
log:
  - final: { body: block }
)"));
    };
    CHECK(slide("min")[3] == Approx(2).margin(1e-3));
    CHECK(std::abs(slide("max")[3]) < 0.05);
}

TEST_CASE("Box3D refuses what it lacks with a one-line error at the scenario's key", "[box3d]") {
    need_box3d();
    CHECK(refusal(R"(
world: { rate: 60, frames: 10 }
bodies:
  floor: { static: true, box: { min: [-5, -1, -5], max: [5, 0, 5] } }
  player: { character: true, capsule: { a: [0, 0.5, 0], b: [0, 1.5, 0], radius: 0.4 } }
log: []
)") == "box3d.yaml:5:3: error: --engine box3d has no character controller: body 'player' is a character");
    CHECK(refusal(R"(
world: { rate: 60, frames: 10,
         friction_model: per_contact }
bodies:
  floor: { static: true, box: { min: [-5, -1, -5], max: [5, 0, 5] } }
log: []
)") == "box3d.yaml:3:26: error: --engine box3d has no per-contact friction: world.friction_model is per_contact "
       "(Box3D's friction is Coulomb's)");
    CHECK(refusal(R"(
world: { rate: 60, frames: 10 }
bodies:
  ground: { static: true, plane: { normal: [0, 1, 0], offset: 0 } }
log: []
)") == "box3d.yaml:4:3: error: --engine box3d has no plane shape: body 'ground' is a plane (a large static box is "
       "Box3D's ground)");
    CHECK(refusal(R"(
world: { rate: 60, frames: 10 }
bodies:
  shard: { triangle: { a: [0, 0, 0], b: [1, 0, 0], c: [0, 0, 1] }, mass: 1 }
log: []
)") == "box3d.yaml:4:3: error: --engine box3d has static triangles only (meshes): body 'shard' is a triangle that "
       "moves");
    CHECK(refusal(R"(
world: { rate: 60, frames: 10 }
bodies:
  tile: { hull: { points: [[0, 0, 0], [1, 0, 0], [0, 0, 1], [1, 0, 1]] }, mass: 1 }
log: []
)") == "box3d.yaml:4:3: error: --engine box3d cannot make a hull of body 'tile': Box3D's hulls need 4 or more "
       "points around a volume");
    CHECK(refusal(R"(
world: { rate: 60, frames: 10 }
bodies:
  far: { sphere: { radius: 1 }, position: [200000, 0, 0] }
log: []
)") == "box3d.yaml:4:3: error: --engine box3d keeps its bodies within 100000 m of the origin: body 'far' is "
       "beyond");
    // What it has, it runs: a static triangle (a mesh both ways round), a hull with a volume.
    CHECK(refusal(R"(
world: { rate: 60, frames: 10 }
bodies:
  tile: { static: true, triangle: { a: [0, 0, 0], b: [1, 0, 0], c: [0, 0, 1] } }
  tetra: { hull: { points: [[0, 1, 0], [1, 1, 0], [0, 1, 1], [0, 2, 0]] }, mass: 1 }
log: []
)") == "");
}

TEST_CASE("Box3D: a static triangle stops a ball from either side", "[box3d]") {
    need_box3d();
    // Box3D's triangles collide on their front only; the adapter gives a static triangle both
    // fronts. A ball dropped onto it from above and one thrown up at it from below both stop at it.
    const Scenario s = scene(R"(
world: { rate: 60, frames: 90, gravity: [0, 0, 0] }
bodies:
  tile: { static: true, triangle: { a: [-5, 0, -5], b: [5, 0, -5], c: [0, 0, 5] } }
  above: { sphere: { radius: 0.25 }, position: [0, 1, 0], velocity: [0, -2, 0] }
  below: { sphere: { radius: 0.25 }, position: [1, -1, 0], velocity: [0, 2, 0] }
log:
  - final: { body: above }
  - final: { body: below }
)");
    const std::vector<double> v = run_box3d(s);
    const std::size_t second = v.size() / 2;
    CHECK(v[1] > 0.25 - 0.005);           // above: on top, within the slop
    CHECK(v[second + 1] < -0.25 + 0.005); // below: underneath
}

TEST_CASE("Box3D: the same scenario gives the same bits, run after run", "[box3d][determinism]") {
    need_box3d();
    const Scenario s = scene(R"(
world: { rate: 60, frames: 90, gravity: [0, -9.81, 0] }
bodies:
  floor: { static: true, box: { min: [-5, -1, -5], max: [5, 0, 5] } }
  crate: { box: { half: [0.3, 0.3, 0.3] }, position: [0, 1, 0], rotation: { axis: [1, 1, 0], degrees: 30 } }
  ball: { sphere: { radius: 0.2 }, position: [0.2, 2, 0.1], restitution: 0.5 }
  rod: { capsule: { a: [-0.4, 0, 0], b: [0.4, 0, 0], radius: 0.1 }, position: [0.1, 3, -0.1] }
log:
  - final: { body: crate }
  - final: { body: ball }
  - final: { body: rod }
)");
    const std::vector<double> a = run_box3d(s), b = run_box3d(s);
    REQUIRE(a.size() == b.size());
    CHECK(std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
    CHECK(a[1] < 1); // the crate fell (and lies on the floor, its centre below its start)
}
