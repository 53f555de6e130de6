// The ODE adapter (engines/ode/ode_engine.h) against worked-out answers: a ball's bounce apex as
// ODE's own step recurrence gives it and near h·e², a box resting within ODE's softness, normals
// from A to B in either body order, poses converted back from the centre of mass, quaternions in
// collide's order, a kinematic body turning exactly, fixed rotation, triggers that never respond,
// the combine rules, hulls, capsules and meshes as ODE's geoms, the located refusals, and same
// input, same bytes (also with another engine stepped in between). Skipped (exit 77) in a build
// without ODE.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <numbers>
#include <string>
#include <vector>

#include "engine/registry.h"
#include "engines/ode/need_ode.h"
#include "probes/simulate.h"
#include "scenario/load.h"

using namespace collide;
using collide::test::need_ode;

namespace {

/// The scenario of YAML `text` (no params).
Scenario scene(const std::string& text) { return parse_scenario_template(text, "ode.yaml").base(); }

/// The scenario's values as ODE measures them.
std::vector<double> run_ode(const Scenario& s) {
    Workspace ws;
    ws.use_engine("ode");
    std::vector<double> values(static_cast<std::size_t>(layout_of(s).offset.back()));
    simulate(s, values, ws);
    return values;
}

/// The message of the InputError that ODE's refusal of `text` throws ("" when it accepts it).
std::string refusal(const std::string& text) {
    try {
        require_engine("ode").refuse_unsupported(scene(text));
    } catch (const UnsupportedError& e) {
        return e.what();
    }
    return "";
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

/// ODE's step for a ball of radius r falling onto a floor at height 0, one row as QuickStep solves
/// it (ODE's contact joint, ode/src/joints/contact.cpp): while the ball overlaps the floor by d ≥ 0
/// at a step's start, the velocity after the step is the least one ≥ c, c = ERP·max(d − layer, 0)/h,
/// raised to −e·v when the ball comes in faster than bounce_vel; otherwise gravity alone; then
/// y += v·h (semi-implicit Euler). Returns apex_1 as the apex probe measures it (the highest bottom
/// height from the step of the first bounce to the second).
double recurrence_apex(double y, double r, double e, double g, double h, double bounce_vel) {
    double v = 0, best = -std::numeric_limits<double>::infinity();
    int bounces = 0;
    for (int step = 0; step < 1000 && bounces < 2; ++step) {
        const double d = r - y;
        const double free = v - g * h;
        double next = free;
        if (d >= 0) {
            double c = kOdeErp * std::max(d - kOdeSurfaceLayer, 0.0) / h;
            if (-v > bounce_vel) c = std::max(c, -e * v);
            next = std::max(free, c);
            if (free < 0 && next > bounce_vel && next != free) {
                if (++bounces == 2) break;
                best = y - r; // the probe starts from the pose before the bounce's step
            }
        }
        v = next;
        y += v * h;
        if (bounces == 1) best = std::max(best, y - r);
    }
    return best;
}

} // namespace

TEST_CASE("ODE: a dropped ball's first apex follows ODE's step recurrence and is near h·e²", "[ode]") {
    need_ode();
    // Dropped from 2 m (its bottom above the floor's top), e = 0.5: the continuum's first apex is
    // 2·0.5² = 0.5 m. ODE finds the contact at a step's start, up to one step late (v·h = 0.10 m deep
    // at 6.3 m/s and 60 Hz), and bounces the velocity the ball has then: the recurrence of its step
    // (above) gives the apex to rounding (QuickStep's one row converges as 0.3^iterations; CFM 1e-10
    // softens it by ~1e-8), and the continuum within (1 + e²)·v·h ≈ 0.13 m of it.
    const Scenario s = scene(R"(
world: { rate: 60, duration: 3, gravity: [0, -9.81, 0] }
bodies:
  floor: { static: true, box: { min: [-5, -1, -5], max: [5, 0, 5] } }
  ball: { sphere: { radius: 0.1 }, position: [0, 2.1, 0], restitution: 0.5 }
log:
  - apex: { body: ball, bounces: 1, drop_height: 2, floor: floor }
)");
    const std::vector<double> v = run_ode(s);
    const double h = 1.0 / 60, g = 9.81;
    const double predicted = recurrence_apex(2.1, 0.1, 0.5, g, h, std::max(0.01, g * h));
    CHECK(v[1] == Approx(0.5).margin(1e-12)); // analytic_1, written by the probe
    CHECK(v[0] == Approx(predicted).margin(1e-6));
    const double impact = std::sqrt(2 * g * 2);
    CHECK(std::abs(v[0] - 0.5) < (1 + 0.25) * impact * h);
    CHECK(v[2] == 1); // the one bounce asked for happened (the count stops at the bounces asked for)
}

TEST_CASE("ODE: a box dropped on a floor comes to rest within the contact surface layer", "[ode]") {
    need_ode();
    // Dropped 0.5 m (3.1 m/s at impact: up to 5 cm deep at first), e = 0. ODE lets a contact sink
    // kOdeSurfaceLayer (1 mm) and ERP removes 20% of any overlap beyond it each step: after 2 s
    // (120 steps) 0.8^115 of 5 cm is 4e-13 m. So the box ends 0 to 1 mm into the floor, still, level.
    const Scenario s = scene(R"(
world: { rate: 60, frames: 121, gravity: [0, -9.81, 0], sleep: false }
bodies:
  floor: { static: true, box: { min: [-5, -1, -5], max: [5, 0, 5] } }
  crate: { box: { half: [0.5, 0.5, 0.5] }, position: [0, 1, 0], friction: 0.5 }
log:
  - final: { body: crate }
)");
    const std::vector<double> v = run_ode(s);
    const double sunk = 0.5 - v[1];
    CHECK(sunk >= 0);
    CHECK(sunk <= kOdeSurfaceLayer + 1e-9);
    CHECK(std::hypot(v[3], v[4], v[5]) < 1e-6);      // still
    CHECK(std::abs(v[6]) == Approx(1).margin(1e-9)); // level: q = ±(1, 0, 0, 0)
}

TEST_CASE("ODE: contact normals point from A to B whichever body is first", "[ode]") {
    need_ode();
    // A ball resting on a floor box: from the floor to the ball is +y, from the ball to the floor −y.
    for (const bool floor_first : {true, false}) {
        const std::string floor = "  floor: { static: true, box: { min: [-5, -1, -5], max: [5, 0, 5] } }\n";
        const std::string ball = "  ball: { sphere: { radius: 0.5 }, position: [0, 0.49, 0] }\n";
        const Scenario s = scene("world: { rate: 60, frames: 10, gravity: [0, -9.81, 0] }\nbodies:\n" +
                                 (floor_first ? floor + ball : ball + floor) + "log: []\n");
        const std::unique_ptr<Engine> engine = require_engine("ode").make();
        engine->reset(s.world, s.bodies);
        Normals seen;
        engine->add_observer(seen, kOnContact);
        for (int k = 0; k < 10; ++k) engine->step_frame();
        REQUIRE(!seen.normals.empty());
        for (std::size_t k = 0; k < seen.normals.size(); ++k) {
            CHECK(seen.pairs[k] == std::pair(0, 1));
            const double up = floor_first ? 1.0 : -1.0; // from body 0 to body 1
            CHECK(seen.normals[k].y == Approx(up).margin(1e-9));
        }
    }
}

TEST_CASE("ODE: a body whose shape is off its origin turns about its centre of mass", "[ode]") {
    need_ode();
    // A ball 1 m along x from the body's origin, turning at 2 rad/s about z, no gravity: its centre
    // (the centre of mass) stays at (1, 0, 0), and after 1 s the origin is at c − R(θ)·(1, 0, 0).
    // ODE turns a body by its first-order step, q += ½·h·ω·q then normalised: each step turns it
    // by 2·atan(ω·h/2), not ω·h, so after 60 steps θ = 120·atan(1/60) (1.9998 rad, not 2).
    const Scenario s = scene(R"(
world: { rate: 60, frames: 61, gravity: [0, 0, 0], sleep: false }
bodies:
  ball: { sphere: { centre: [1, 0, 0], radius: 0.2 }, angular_velocity: [0, 0, 2] }
log:
  - final: { body: ball }
)");
    const std::vector<double> v = run_ode(s);
    const double theta = 120 * std::atan(1.0 / 60);
    CHECK(v[0] == Approx(1 - std::cos(theta)).margin(1e-12));
    CHECK(v[1] == Approx(-std::sin(theta)).margin(1e-12));
    CHECK(v[2] == Approx(0).margin(1e-12));
    CHECK(std::hypot(v[3], v[4], v[5]) < 1e-9); // the centre of mass does not move
    CHECK(v[12] == Approx(2).margin(1e-12));    // ωz, world frame
}

TEST_CASE("ODE: rotations come back as collide's (w, x, y, z)", "[ode]") {
    need_ode();
    // Turned 90° about z, given 3 rad/s about z (a principal axis), no gravity, nothing to hit:
    // after 1 s it has turned by 3 rad more.
    const Scenario s = scene(R"(
world: { rate: 60, frames: 61, gravity: [0, 0, 0], sleep: false }
bodies:
  crate: { box: { half: [0.5, 0.2, 0.3] }, rotation: { axis: [0, 0, 1], degrees: 90 }, angular_velocity: [0, 0, 3] }
log:
  - final: { body: crate }
)");
    const std::vector<double> v = run_ode(s);
    const double half = 0.5 * (std::numbers::pi / 2 + 3.0); // the half angle after 1 s
    CHECK(std::abs(v[6] * std::cos(half) + v[9] * std::sin(half)) == Approx(1).margin(1e-6));
    CHECK(v[7] == Approx(0).margin(1e-12)); // qx
    CHECK(v[8] == Approx(0).margin(1e-12)); // qy
}

TEST_CASE("ODE: fixed_rotation keeps a crate landing on its edge from turning", "[ode]") {
    need_ode();
    // Turned 30° about z and dropped on an edge: free, it tips over (turns); with fixed_rotation its
    // rotation stays the given one, (cos 15°, 0, 0, sin 15°), to the bit.
    auto drop = [&](bool fixed) {
        return run_ode(scene(std::string(R"(
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
    const Quat q = quat_from_axis_degrees({0, 0, 1}, 30);
    CHECK(fixed[6] == q.w);
    CHECK(fixed[9] == q.z);
    CHECK(fixed[1] < 0.5 + 0.5 * std::sqrt(2.0) + 1e-3);               // it landed (on its edge)
    CHECK(std::abs(free[9] - std::sin(std::numbers::pi / 12)) > 0.05); // the free one turned
}

TEST_CASE("ODE: a kinematic body turns exactly at its angular velocity about its position", "[ode]") {
    need_ode();
    const Scenario s = scene(R"(
world: { rate: 60, frames: 31, gravity: [0, 0, 0] }
bodies:
  door: { kinematic: true, box: { min: [0, -1, -0.05], max: [1, 1, 0.05] }, position: [2, 0, 0],
          angular_velocity: [0, 2, 0], velocity: [0, 0, 1] }
log:
  - final: { body: door }
)");
    const std::vector<double> v = run_ode(s);
    // 0.5 s at 2 rad/s about +y: 1 rad; q = (cos 0.5, 0, sin 0.5, 0); its hinge moves to (2, 0, 0.5).
    CHECK(v[0] == Approx(2).margin(1e-12));
    CHECK(v[2] == Approx(0.5).margin(1e-12));
    CHECK(v[6] == Approx(std::cos(0.5)).margin(1e-12));
    CHECK(v[8] == Approx(std::sin(0.5)).margin(1e-12));
    CHECK(v[5] == 1); // its velocity as given
}

TEST_CASE("ODE: a kinematic paddle pushes a ball at its own speed", "[ode]") {
    need_ode();
    // A kinematic box moving at 2 m/s along x into a resting ball (e = 0, no gravity): the ball is
    // pushed along, at least at the paddle's speed; ODE corrects each step's overlap d (at most the
    // paddle's v·h) by giving the ball ERP·d/h more, so it runs ahead at most ERP·v faster.
    const Scenario s = scene(R"(
world: { rate: 60, frames: 61, gravity: [0, 0, 0], sleep: false }
bodies:
  paddle: { kinematic: true, box: { half: [0.1, 0.5, 0.5] }, position: [-1, 0, 0], velocity: [2, 0, 0] }
  ball: { sphere: { radius: 0.2 }, position: [0, 0, 0] }
log:
  - final: { body: ball }
)");
    const std::vector<double> v = run_ode(s);
    CHECK(v[3] >= 2 - 1e-9);
    CHECK(v[3] <= 2 * (1 + kOdeErp));
    CHECK(v[0] > -1 + 2 * 1.0 + 0.1 + 0.2 - 2.0 / 60); // ahead of the paddle's face, or within a step of it
}

TEST_CASE("ODE: a trigger never responds, and its overlap is seen on ODE's poses", "[ode]") {
    need_ode();
    // A ball (r 0.2) at 6 m/s through a static trigger box x ∈ [−0.5, 0.5] from x = −2.05: frame k
    // puts it at −2.05 + 0.1·k; it overlaps once x > −0.7 (k = 14) and leaves once x > 0.7
    // (k = 28), keeping its speed.
    const Scenario s = scene(R"(
world: { rate: 60, frames: 60, gravity: [0, 0, 0] }
bodies:
  zone: { static: true, trigger: true, box: { min: [-0.5, -1, -1], max: [0.5, 1, 1] } }
  ball: { sphere: { radius: 0.2 }, position: [-2.05, 0, 0], velocity: [6, 0, 0] }
log:
  - trigger: { body: ball, volume: zone }
  - final: { body: ball }
)");
    const std::vector<double> v = run_ode(s);
    CHECK(v[0] == 1);  // entered
    CHECK(v[1] == 14); // enter_frame
    CHECK(v[3] == 1);  // exited
    CHECK(v[4] == 28); // exit_frame
    CHECK(v[7 + 3] == 6);
    CHECK(v[7 + 0] == Approx(-2.05 + 6 * 59 / 60.0).margin(1e-12));
}

TEST_CASE("ODE: friction combines by the world's rule and is Coulomb's", "[ode]") {
    need_ode();
    // A box sliding at 2 m/s on a floor; the box has μ 0, the floor μ 0.5. min: 0 (keeps sliding at
    // 2 m/s); max: 0.5 (decelerates at μg = 4.905 m/s²: after 0.25 s, 2 − 1.226 = 0.774 m/s; the
    // pyramid's two directions are each bounded by μ·N, and the slide is along one of them).
    auto slide = [&](const char* rule, int frames) {
        return run_ode(scene(std::string("world: { rate: 60, frames: ") + std::to_string(frames) +
                             ", gravity: [0, -9.81, 0], friction_combine: " + rule + R"( }
bodies:
  floor: { static: true, box: { min: [-20, -1, -5], max: [20, 0, 5] }, friction: 0.5 }
  block: { box: { min: [-0.5, 0, -0.5], max: [0.5, 1, 0.5] }, velocity: [2, 0, 0], friction: 0 }
log:
  - final: { body: block }
)"));
    };
    CHECK(slide("min", 31)[3] == Approx(2).margin(1e-9));
    CHECK(slide("max", 16)[3] == Approx(2 - 0.5 * 9.81 * 0.25).margin(0.02));
    CHECK(std::abs(slide("max", 61)[3]) < 1e-6); // stopped after 0.41 s
}

TEST_CASE("ODE: a hull rests on a plane like the box it is, and a lying capsule rests at its radius", "[ode]") {
    need_ode();
    // A cube written as a hull of its 8 corners (dCreateConvex from collide's hull faces) and a
    // capsule along x (ODE's capsule lies along its z: turned), dropped on a plane: each rests with
    // its lowest point 0 to 1 mm (the surface layer) into the plane, level.
    const Scenario s = scene(R"(
world: { rate: 60, frames: 121, gravity: [0, -9.81, 0], sleep: false }
bodies:
  ground: { static: true, plane: { normal: [0, 1, 0], offset: 0 } }
  cube: { hull: { points: [[-0.5, -0.5, -0.5], [0.5, -0.5, -0.5], [0.5, 0.5, -0.5], [-0.5, 0.5, -0.5],
                           [-0.5, -0.5, 0.5], [0.5, -0.5, 0.5], [0.5, 0.5, 0.5], [-0.5, 0.5, 0.5]] },
          position: [0, 0.8, 0] }
  pill: { capsule: { a: [-0.5, 0, 0], b: [0.5, 0, 0], radius: 0.25 }, position: [3, 0.5, 0] }
log:
  - final: { body: cube }
  - final: { body: pill }
)");
    const std::vector<double> v = run_ode(s);
    const auto pill = static_cast<std::size_t>(layout_of(s).offset[1]); // the second entry's fields
    CHECK(0.5 - v[1] >= 0);
    CHECK(0.5 - v[1] <= kOdeSurfaceLayer + 1e-6);
    CHECK(std::abs(v[6]) == Approx(1).margin(1e-6)); // level
    CHECK(0.25 - v[pill + 1] >= 0);
    CHECK(0.25 - v[pill + 1] <= kOdeSurfaceLayer + 1e-6);
    CHECK(std::abs(v[pill + 6]) == Approx(1).margin(1e-6)); // still lying along x
}

TEST_CASE("ODE: a ball bounces off a trimesh floor as off a box", "[ode]") {
    need_ode();
    // The same drop onto a two-triangle mesh at y = 0 and onto a box whose top is y = 0: sphere
    // against trimesh and sphere against box find the same overlap, so the bounce is the same.
    auto drop = [&](const std::string& floor) {
        return run_ode(scene(R"(
world: { rate: 60, duration: 2, gravity: [0, -9.81, 0] }
bodies:
)" + floor + R"(
  ball: { sphere: { radius: 0.1 }, position: [0.3, 1.1, 0.2], restitution: 0.5 }
log:
  - apex: { body: ball, bounces: 1, drop_height: 1, floor: floor }
)"));
    };
    const std::vector<double> mesh =
            drop("  floor: { static: true, mesh: { vertices: [[-5, 0, -5], [5, 0, -5], [5, 0, 5], [-5, 0, 5]], "
                 "triangles: [[0, 2, 1], [0, 3, 2]] } }");
    const std::vector<double> box = drop("  floor: { static: true, box: { min: [-5, -1, -5], max: [5, 0, 5] } }");
    CHECK(mesh[0] > 0.2);
    CHECK(mesh[0] == Approx(box[0]).margin(1e-9));
}

TEST_CASE("ODE refuses what it lacks with a located one-line error", "[ode]") {
    need_ode();
    const std::string floor = "  floor: { static: true, box: { min: [-5, -1, -5], max: [5, 0, 5] } }\n";
    CHECK(refusal("world: { rate: 60, frames: 10 }\nbodies:\n" + floor +
                  "  player: { character: true, capsule: { a: [0, 0.5, 0], b: [0, 1.5, 0], radius: 0.4 } }\nlog: "
                  "[]\n") ==
          "ode.yaml:4:3: error: --engine ode has no character controller: body 'player' is a character");
    CHECK(refusal("world: { rate: 60, frames: 10, friction_model: per_contact }\nbodies:\n" + floor + "log: []\n")
                  .rfind("ode.yaml:1:48: error: --engine ode has no per-contact friction", 0) == 0);
    // Continuous detection, at its key: the world's, then a body's.
    CHECK(refusal("world:\n  rate: 60\n  detection: swept\nbodies:\n" + floor + "log: []\n") ==
          "ode.yaml:3:3: error: --engine ode has no continuous detection: world.detection is swept (ODE collides "
          "the poses at each step's start only; use discrete)");
    CHECK(refusal("world: { rate: 60, detection: speculative }\nbodies:\n" + floor + "log: []\n")
                  .rfind("ode.yaml:1:20: error: --engine ode has no continuous detection: world.detection is "
                         "speculative",
                         0) == 0);
    CHECK(refusal("world: { rate: 60 }\nbodies:\n" + floor +
                  "  ball: { sphere: { radius: 0.1 }, position: [0, 2, 0],\n          ccd: true }\nlog: []\n") ==
          "ode.yaml:5:11: error: --engine ode has no continuous detection: body 'ball' has ccd: true (ODE collides "
          "the poses at each step's start only)");
    CHECK(refusal("world: { rate: 60 }\nbodies:\n" + floor +
                  "  ball: { sphere: { radius: 0.1 }, ccd: speculative }\nlog: []\n")
                  .rfind("ode.yaml:4:36: error: --engine ode has no continuous detection: body 'ball' has ccd: "
                         "speculative",
                         0) == 0);
    CHECK(refusal("world: { rate: 60 }\nbodies:\n" + floor +
                  "  ball: { sphere: { radius: 0.1 }, ccd: false }\nlog: []\n") == ""); // written, but off
    // Shapes it cannot collide.
    CHECK(refusal("world: { rate: 60 }\nbodies:\n" + floor +
                  "  shard: { triangle: { a: [0, 1, 0], b: [1, 1, 0], c: [0, 1, 1] }, mass: 1 }\nlog: []\n")
                  .rfind("ode.yaml:4:3: error: --engine ode has no thin plate: body 'shard' is a dynamic triangle",
                         0) == 0);
    CHECK(refusal("world: { rate: 60 }\nbodies:\n" + floor +
                  "  tile: { hull: { points: [[0, 1, 0], [1, 1, 0], [0, 1, 1], [1, 1, 1]] }, mass: 1 }\nlog: []\n")
                  .rfind("ode.yaml:4:3: error: --engine ode has no flat convex: body 'tile' is a flat hull", 0) == 0);
    CHECK(refusal("world: { rate: 60 }\nbodies:\n  level: { static: true, mesh: { vertices: [[-5, 0, -5], [5, 0, -5], "
                  "[0, 0, 5]], triangles: [[0, 2, 1]] } }\n"
                  "  rock: { hull: { points: [[0, 1, 0], [1, 1, 0], [0, 2, 0], [0, 1, 1]] } }\nlog: []\n") ==
          "ode.yaml:4:3: error: --engine ode has no convex–trimesh collider (this ODE is built without libccd): hull "
          "'rock' could meet mesh 'level'");
    // A static hull beside a static mesh never meets it: accepted.
    CHECK(refusal("world: { rate: 60 }\nbodies:\n  level: { static: true, mesh: { vertices: [[-5, 0, -5], [5, 0, -5], "
                  "[0, 0, 5]], triangles: [[0, 2, 1]] } }\n"
                  "  rock: { static: true, hull: { points: [[0, 1, 0], [1, 1, 0], [0, 2, 0], [0, 1, 1]] } }\nlog: "
                  "[]\n") == "");
}

TEST_CASE("ODE: the same scenario gives the same bits, run after run, with other engines stepped between",
          "[ode][determinism]") {
    need_ode();
    // A crate and balls tumbling onto a floor: many rows, which QuickStep reorders at random.
    // ODE's random generator is one per process: each run starts from kOdeSeed and each engine
    // keeps its own state, so another ODE engine stepped in between changes nothing.
    const Scenario s = scene(R"(
world: { rate: 60, frames: 90, gravity: [0, -9.81, 0] }
bodies:
  floor: { static: true, box: { min: [-5, -1, -5], max: [5, 0, 5] } }
  crate: { box: { half: [0.3, 0.3, 0.3] }, position: [0, 1, 0], rotation: { axis: [1, 1, 0], degrees: 30 }, friction: 0.4 }
  ball: { sphere: { radius: 0.2 }, position: [0.2, 2, 0.1], restitution: 0.5, friction: 0.4 }
  other: { sphere: { radius: 0.2 }, position: [-0.1, 2.6, -0.1], restitution: 0.2, friction: 0.4 }
log:
  - final: { body: crate }
  - final: { body: ball }
)");
    const std::vector<double> a = run_ode(s), b = run_ode(s);
    REQUIRE(a.size() == b.size());
    CHECK(std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
    CHECK(a[1] < 1); // the crate fell

    // Two engines stepped in turn, frame by frame: each gives the bits it gives alone.
    auto finals = [&](bool interleave) {
        const std::unique_ptr<Engine> one = require_engine("ode").make(), two = require_engine("ode").make();
        one->reset(s.world, s.bodies);
        two->reset(s.world, s.bodies);
        for (int k = 0; k < s.world.frames; ++k) {
            one->step_frame();
            if (interleave) two->step_frame();
        }
        return std::vector<BodyState>(one->states().begin(), one->states().end());
    };
    const std::vector<BodyState> alone = finals(false), turns = finals(true);
    REQUIRE(alone.size() == turns.size());
    CHECK(std::memcmp(alone.data(), turns.data(), alone.size() * sizeof(BodyState)) == 0);
}

TEST_CASE("ODE: a body out of ODE's range, or an error ODE raises, stops the run with an error instead of an abort",
          "[ode]") {
    need_ode();
    // 1e300 m/s: ODE's squares would overflow. The adapter stops before ODE is asked to step it.
    auto message_of = [](const std::string& text) {
        try {
            run_ode(scene(text));
        } catch (const std::runtime_error& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    const std::string floor = "  floor: { static: true, box: { min: [-5, -1, -5], max: [5, 0, 5] } }\n";
    CHECK(message_of("world: { rate: 60, frames: 30, gravity: [0, -9.81, 0] }\nbodies:\n" + floor +
                     "  b: { box: { half: [0.5, 0.5, 0.5] }, position: [0, 3, 0], velocity: [1e300, -1e300, 0] }\n"
                     "log:\n  - final: { body: b }\n") ==
          "--engine ode: body 'b' left ODE's range at frame 1: its velocity is beyond 1e+100 or not finite (ODE's "
          "step would overflow)");
    // Within range, but a sliver 2e-90 m thin, 1e300 kg, spinning at 1e90 rad/s: ODE's
    // step overflows and its own assertion fires, thrown by the adapter's handler (ODE's default
    // handler calls abort()).
    CHECK(message_of("world: { rate: 60, frames: 30, gravity: [0, -9.81, 0] }\nbodies:\n" + floor +
                     "  c: { box: { half: [1e-90, 0.5, 0.5] }, position: [2, 0.4, 0], mass: 1e300, angular_velocity: "
                     "[1e90, 2, 3] }\nlog:\n  - final: { body: c }\n")
                  .rfind("--engine ode: ODE stopped with its internal error 1: ", 0) == 0);
}
