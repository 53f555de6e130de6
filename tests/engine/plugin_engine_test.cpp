// The engine-plugin adapter (engine/plugin_engine.h) against what a plugin is given and what it
// answers: tests/engine/plugins/test_plugin.c's recorder keeps a copy of what `create` got, so
// every world field and every body field (kind, flags, shape, pose, velocities, the mass and
// inertia collide computes) is compared with values worked out by hand; its free flight and its
// scripted contact show the frame timing (phase·dt first), the chords, the contact's order and
// normal, and what is not a response. Refusals are located at the body or world key the plugin
// names. The example engine (examples/engine-plugin/bounce.c) bounces the shipped balls to h·e²
// within its integrator's bound, and meets a wall at the frames collide's discrete world does.
#include <catch2/catch.hpp>

#include <collide/engine_abi.h>

#include <cmath>
#include <cstring>
#include <dlfcn.h>
#include <string>
#include <vector>

#include "engine/plugin_loader.h"
#include "probes/simulate.h"
#include "scenario/load.h"
#include "support/approx.h"

using namespace collide;
using collide::test::near_vec;

namespace {

/// The scenario of YAML `text` (no params), as file `file`.
Scenario scene(const std::string& text, const std::string& file = "plugin.yaml") {
    return parse_scenario_template(text, file).base();
}

/// The recorder plugin's read-back functions (the library the loader opened: dlopen of the same
/// file gives the same one).
struct Recorder {
    const collide_world_def* (*world)() = nullptr;
    const collide_body_def* (*body)(std::int32_t) = nullptr;
    std::int32_t (*count)() = nullptr;
    Recorder() {
        (void)load_engine_plugin(COLLIDE_TEST_PLUGIN_RECORDER);
        void* handle = dlopen(COLLIDE_TEST_PLUGIN_RECORDER, RTLD_NOW | RTLD_NOLOAD);
        REQUIRE(handle != nullptr);
        *reinterpret_cast<void**>(&world) = dlsym(handle, "recorder_world");
        *reinterpret_cast<void**>(&body) = dlsym(handle, "recorder_body");
        *reinterpret_cast<void**>(&count) = dlsym(handle, "recorder_count");
        REQUIRE((world && body && count));
    }
};

/// Creates (and destroys) the recorder's world for `s`, as `check` does to learn whether it is refused.
void give_recorder(const Scenario& s) { require_engine(COLLIDE_TEST_PLUGIN_RECORDER).refuse_unsupported(s); }

Vec3 vec(const collide_vec3& v) { return {v.x, v.y, v.z}; }

/// The UnsupportedError `refuse_unsupported` of engine `engine` throws for `s` (it must throw).
Diagnostic refusal(const std::string& engine, const Scenario& s) {
    try {
        require_engine(engine).refuse_unsupported(s);
    } catch (const UnsupportedError& e) {
        REQUIRE(e.diagnostics.size() == 1);
        return e.diagnostics.front();
    }
    FAIL("not refused");
    return {};
}

/// Records what an engine tells while it steps.
struct Events final : EngineObserver {
    struct Move {
        int body;
        double tau;
        Vec3 from, chord;
    };
    std::vector<Move> moves;
    std::vector<int> responses;
    std::vector<ContactEvent> contacts;
    std::vector<std::vector<Manifold>> manifolds;
    std::vector<double> times;
    std::vector<BodyState> ball; ///< body 1 at each frame
    void on_move(const EngineView& v, int body, double tau, const Vec3&) override {
        moves.push_back({body, tau, v.state(body).position, v.state(body).velocity});
    }
    void on_response(const EngineView&, int body, const Vec3&, const Vec3&) override { responses.push_back(body); }
    void on_contact(const EngineView&, const ContactEvent& e) override {
        contacts.push_back(e);
        manifolds.emplace_back(e.manifolds.begin(), e.manifolds.end());
    }
    void on_frame(const EngineView& v, int, double time) override {
        times.push_back(time);
        ball.push_back(v.state(1));
    }
};

} // namespace

TEST_CASE("A plugin is given the world settings field by field", "[engine][plugin]") {
    const Recorder recorder;
    give_recorder(scene(R"(
world: { rate: 50, frames: 10, phase: 0.25, gravity: [0, -10, 0.5], detection: swept, integrator: euler,
         skin: 0.002, rest_speed: 0.05, rest_time: 0.5, sleep: false, velocity_iterations: 12,
         velocity_tolerance: 1e-6, position_iterations: 5, friction_model: per_contact, friction_combine: min,
         restitution_combine: multiply }
bodies:
  ball: { sphere: { radius: 0.5 } }
)"));
    const collide_world_def& w = *recorder.world();
    CHECK(w.struct_size == sizeof(collide_world_def));
    CHECK(w.body_def_size == sizeof(collide_body_def));
    CHECK(w.dt == 1.0 / 50);
    CHECK(w.frames == 10);
    CHECK(w.phase == 0.25);
    CHECK_THAT(vec(w.gravity), near_vec({0, -10, 0.5}));
    CHECK(w.detection == COLLIDE_DETECTION_SWEPT);
    CHECK(w.integrator == COLLIDE_INTEGRATOR_EULER);
    CHECK(w.skin == 0.002);
    CHECK(w.rest_speed == 0.05);
    CHECK(w.rest_time == 0.5);
    CHECK(w.sleep == 0);
    CHECK(w.velocity_iterations == 12);
    CHECK(w.velocity_tolerance == 1e-6);
    CHECK(w.position_iterations == 5);
    CHECK(w.friction_model == COLLIDE_FRICTION_PER_CONTACT);
    CHECK(w.friction_combine == COLLIDE_COMBINE_MIN);
    CHECK(w.restitution_combine == COLLIDE_COMBINE_MULTIPLY);
}

TEST_CASE("A plugin is given each body: kind, flags, shape, pose, velocities, mass and inertia", "[engine][plugin]") {
    const Recorder recorder;
    give_recorder(scene(R"(
world: { frames: 2 }
bodies:
  floor: { static: true, box: { min: [-5, -1, -4], max: [5, 0, 6] } }
  ball: { sphere: { radius: 0.5, centre: [0, 0.1, 0] }, position: [1, 2, 3], velocity: [4, 5, 6],
          angular_velocity: [0, 0, 2], mass: 2, restitution: 0.75, friction: 0.125, ccd: true }
  crate: { box: { half: [0.5, 1, 1.5], rotation: { axis: [0, 1, 0], degrees: 90 } }, density: 100,
           fixed_rotation: true }
  lift: { kinematic: true, box: { min: [0, 0, 0], max: [1, 1, 1] }, velocity: [0, 1, 0] }
  zone: { static: true, trigger: true, sphere: { radius: 1 } }
  gem: { hull: { points: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]] }, position: [5, 5, 5], mass: 3 }
  pill: { static: true, capsule: { a: [0, 0, 0], b: [0, 1, 0], radius: 0.25 } }
  tri: { static: true, triangle: { a: [0, 0, 0], b: [1, 0, 0], c: [0, 0, 1] } }
  ground: { static: true, plane: { normal: [0, 1, 0], offset: -2 } }
  level: { static: true, mesh: { vertices: [[0, 0, 0], [1, 0, 0], [0, 0, 1]], triangles: [[0, 2, 1]] },
           position: [0, -3, 0] }
  eager: { ccd: speculative, sphere: { radius: 1 }, position: [20, 0, 0] }
)"));
    REQUIRE(recorder.count() == 11);
    const auto body = [&](int i) -> const collide_body_def& { return *recorder.body(i); };
    const auto inertia = [&](int i, int r, int c) { return body(i).inertia[3 * r + c]; };
    const double h = std::sqrt(0.5); // cos 45° = sin 45°

    // An axis-aligned box: its centre and half-size, the identity rotation; static: no mass.
    CHECK(std::string(body(0).name) == "floor");
    CHECK(body(0).kind == COLLIDE_BODY_STATIC);
    CHECK(body(0).shape.kind == COLLIDE_SHAPE_BOX);
    CHECK_THAT(vec(body(0).shape.centre), near_vec({0, -0.5, 1}));
    CHECK_THAT(vec(body(0).shape.half), near_vec({5, 0.5, 5}));
    CHECK(body(0).shape.rotation.w == 1);
    CHECK(body(0).mass == 0);

    // A dynamic sphere: 2/5·m·r² = 0.2 kg·m² about its centre, which is its centre of mass.
    CHECK(body(1).kind == COLLIDE_BODY_DYNAMIC);
    CHECK(body(1).flags == COLLIDE_BODY_CCD);
    CHECK(body(1).shape.kind == COLLIDE_SHAPE_SPHERE);
    CHECK(body(1).shape.radius == 0.5);
    CHECK_THAT(vec(body(1).shape.centre), near_vec({0, 0.1, 0}));
    CHECK_THAT(vec(body(1).position), near_vec({1, 2, 3}));
    CHECK(body(1).rotation.w == 1);
    CHECK_THAT(vec(body(1).velocity), near_vec({4, 5, 6}));
    CHECK_THAT(vec(body(1).angular_velocity), near_vec({0, 0, 2}));
    CHECK(body(1).mass == 2);
    CHECK_THAT(vec(body(1).centre_of_mass), near_vec({0, 0.1, 0}));
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) CHECK(inertia(1, r, c) == Approx(r == c ? 0.2 : 0.0).margin(1e-12));
    CHECK(body(1).restitution == 0.75);
    CHECK(body(1).friction == 0.125);

    // A turned box of 1 × 2 × 3 m at 100 kg/m³: 600 kg; m/12·(b² + c²) about its own axes is 650,
    // 500, 250 kg·m², and turned 90° about y its x axis lies along −z: 250, 500, 650 in the body frame.
    CHECK(body(2).flags == COLLIDE_BODY_FIXED_ROTATION);
    CHECK_THAT(vec(body(2).shape.half), near_vec({0.5, 1, 1.5}));
    CHECK(body(2).shape.rotation.w == Approx(h));
    CHECK(body(2).shape.rotation.x == Approx(0).margin(1e-15));
    CHECK(body(2).shape.rotation.y == Approx(h));
    CHECK(body(2).shape.rotation.z == Approx(0).margin(1e-15));
    CHECK(body(2).mass == Approx(600));
    CHECK(inertia(2, 0, 0) == Approx(250));
    CHECK(inertia(2, 1, 1) == Approx(500));
    CHECK(inertia(2, 2, 2) == Approx(650));
    CHECK(inertia(2, 0, 2) == Approx(0).margin(1e-9));

    // Kinematic: its velocity, no mass. A static trigger: the flag.
    CHECK(body(3).kind == COLLIDE_BODY_KINEMATIC);
    CHECK_THAT(vec(body(3).velocity), near_vec({0, 1, 0}));
    CHECK(body(3).mass == 0);
    CHECK(body(4).flags == COLLIDE_BODY_TRIGGER);

    // The unit tetrahedron of 3 kg: centre of mass (¼, ¼, ¼); about it the inertia's diagonal is
    // 3m/40 and its off-diagonal m/80 (∫xxᵀ dm = m/20·(I + 11ᵀ) about the origin, moved to the centre).
    CHECK(body(5).shape.kind == COLLIDE_SHAPE_HULL);
    REQUIRE(body(5).shape.point_count == 4);
    CHECK_THAT(vec(body(5).shape.points[3]), near_vec({0, 0, 1}));
    CHECK_THAT(vec(body(5).position), near_vec({5, 5, 5}));
    CHECK_THAT(vec(body(5).centre_of_mass), near_vec({0.25, 0.25, 0.25}));
    CHECK(inertia(5, 0, 0) == Approx(3 * 3.0 / 40));
    CHECK(inertia(5, 1, 1) == Approx(3 * 3.0 / 40));
    CHECK(inertia(5, 0, 1) == Approx(3.0 / 80));
    CHECK(inertia(5, 1, 2) == Approx(3.0 / 80));

    CHECK(body(6).shape.kind == COLLIDE_SHAPE_CAPSULE);
    CHECK_THAT(vec(body(6).shape.b), near_vec({0, 1, 0}));
    CHECK(body(6).shape.radius == 0.25);
    CHECK(body(7).shape.kind == COLLIDE_SHAPE_TRIANGLE);
    CHECK_THAT(vec(body(7).shape.c), near_vec({0, 0, 1}));
    CHECK(body(8).shape.kind == COLLIDE_SHAPE_PLANE);
    CHECK_THAT(vec(body(8).shape.normal), near_vec({0, 1, 0}));
    CHECK(body(8).shape.offset == -2);
    CHECK(body(9).shape.kind == COLLIDE_SHAPE_MESH);
    CHECK(body(9).shape.vertex_count == 3);
    REQUIRE(body(9).shape.triangle_count == 1);
    CHECK(body(9).shape.triangles[0] == 0);
    CHECK(body(9).shape.triangles[1] == 2);
    CHECK(body(9).shape.triangles[2] == 1);
    CHECK_THAT(vec(body(9).shape.vertices[1]), near_vec({1, 0, 0}));
    CHECK_THAT(vec(body(9).position), near_vec({0, -3, 0}));
    CHECK(body(10).flags == COLLIDE_BODY_SPECULATIVE);
}

TEST_CASE("A plugin steps phase·dt first, then dt; moves are chords; its contacts are manifolds from a to b",
          "[engine][plugin]") {
    const Scenario s = scene(R"(
world: { rate: 50, frames: 4, phase: 0.5, gravity: [0, -10, 0] }
bodies:
  floor: { static: true, box: { min: [-5, -1, -5], max: [5, 0, 5] } }
  ball: { sphere: { radius: 0.5 }, position: [0, 2, 0], velocity: [1, 0, 0], angular_velocity: [0, 0, 3] }
)");
    const std::unique_ptr<Engine> engine = require_engine(COLLIDE_TEST_PLUGIN_RECORDER).make();
    engine->reset(s.world, s.bodies);
    Events events;
    engine->add_observer(events, kOnMove | kOnResponse | kOnContact | kOnFrame);
    for (int k = 0; k < s.world.frames; ++k) engine->step_frame();

    // The recorder's free flight, semi-implicit Euler: v += g·h, then x += v·h, with h = 0.01 s
    // for frame 0 (phase 0.5 of 0.02 s) and 0.02 s after.
    Vec3 p{0, 2, 0}, v{1, 0, 0};
    double t = 0;
    REQUIRE(events.times.size() == 4);
    REQUIRE(events.moves.size() == 4); // the ball's only: the floor is static
    for (int k = 0; k < 4; ++k) {
        const double step = k == 0 ? 0.01 : 0.02;
        const Vec3 from = p;
        v.y += -10 * step;
        p = p + v * step;
        t += step;
        CHECK(events.times[static_cast<std::size_t>(k)] == Approx((k + 0.5) * 0.02));
        const Events::Move& m = events.moves[static_cast<std::size_t>(k)];
        CHECK(m.body == 1);
        CHECK(m.tau == Approx(step));
        CHECK_THAT(m.from, near_vec(from));
        CHECK_THAT(m.chord, near_vec((p - from) * (1 / step)));
        const BodyState& now = events.ball[static_cast<std::size_t>(k)];
        CHECK_THAT(now.position, near_vec(p));
        CHECK_THAT(now.velocity, near_vec(v));
        // Turned about z at 3 rad/s for t s: (cos 1.5t, 0, 0, sin 1.5t).
        CHECK(now.rotation.w == Approx(std::cos(1.5 * t)).margin(1e-12));
        CHECK(now.rotation.z == Approx(std::sin(1.5 * t)).margin(1e-12));
    }
    CHECK_THAT(engine->state(0).position, near_vec({0, 0, 0})); // static: where it was put
    // A velocity changed by gravity alone is no response, though the ball is in a contact.
    CHECK(events.responses.empty());
    // One contact a step, at the step's end: bodies 0 < 1, the normal made unit, both points.
    REQUIRE(events.contacts.size() == 4);
    CHECK(events.contacts[0].a == 0);
    CHECK(events.contacts[0].b == 1);
    CHECK(events.contacts[0].time == Approx(0.01));
    REQUIRE(events.manifolds[0].size() == 1);
    const Manifold& m = events.manifolds[0][0];
    CHECK_THAT(m.normal, near_vec({0, 1, 0}));
    REQUIRE(m.count == 2);
    CHECK_THAT(m.points[1].point, near_vec({4, 5, 6}));
    CHECK(m.points[0].depth == 0.25);
    CHECK(m.points[1].depth == 0.5);
}

TEST_CASE("A plugin's refusal is located at the body it names, or at the world key, or at world:", "[engine][plugin]") {
    const std::string recorder = COLLIDE_TEST_PLUGIN_RECORDER;
    const Diagnostic body = refusal(recorder, scene("world: { frames: 3 }\n"
                                                    "bodies:\n"
                                                    "  a: { sphere: { radius: 1 } }\n"
                                                    "  refuse_me: { sphere: { radius: 1 }, position: [5, 0, 0] }\n",
                                                    "refuse.yaml"));
    CHECK(body.file == "refuse.yaml");
    CHECK(body.line == 4);
    CHECK(body.column == 3);
    CHECK(body.message == "--engine recorder cannot run body 'refuse_me' (restitution): asked to refuse it");
    const Diagnostic key = refusal(recorder, scene("world: { frames: 7 }\nbodies:\n  a: { sphere: { radius: 1 } }\n"));
    CHECK(key.line == 1);
    CHECK(key.column == 18); // the value of frames
    CHECK(key.message == "--engine recorder cannot run world.frames: seven frames are too many");
    const Diagnostic world =
            refusal(recorder, scene("name: w\nworld: { frames: 8 }\nbodies:\n  a: { sphere: { radius: 1 } }\n"));
    CHECK(world.line == 2);
    CHECK(world.column == 1);
    CHECK(world.message == "--engine recorder cannot run this world: eight frames are too many");
    const Diagnostic ccd =
            refusal(recorder, scene("world: { frames: 3 }\n"
                                    "bodies:\n"
                                    "  a: { sphere: { radius: 1 } }\n"
                                    "  no_ccd: { sphere: { radius: 1 }, position: [5, 0, 0], ccd: true }\n"));
    CHECK(ccd.line == 4);
    CHECK(ccd.column == 57); // the key ccd
    CHECK(ccd.message == "--engine recorder cannot run body 'no_ccd' (ccd): no continuous detection");
    // The world's detection: at its value when the file writes it; nowhere in the file when
    // --detection sets it (the command line's: measure and sweep clear detection_mark).
    Scenario speculative =
            scene("world: { frames: 3, detection: speculative }\nbodies:\n  a: { sphere: { radius: 1 } }\n");
    const Diagnostic written = refusal(recorder, speculative);
    CHECK(written.line == 1);
    CHECK(written.column == 32);
    CHECK(written.message == "--engine recorder cannot run world.detection: no speculative contacts");
    speculative.detection_mark = {};
    const Diagnostic given = refusal(recorder, speculative);
    CHECK(given.file.empty());
    CHECK(given.line == 0);
    CHECK(given.message == "--engine recorder cannot run world.detection: no speculative contacts (world.detection "
                           "as --detection sets it)");
    Scenario plain = scene("world: { frames: 3 }\nbodies:\n  a: { sphere: { radius: 1 } }\n");
    plain.world.detection = Detection::speculative;
    CHECK(refusal(recorder, plain).line == 0);
    const Diagnostic character =
            refusal(recorder,
                    scene("bodies:\n  floor: { static: true, plane: { normal: [0, 1, 0] } }\n"
                          "  walker: { character: true, capsule: { a: [0, 0.5, 0], b: [0, 1.5, 0], radius: 0.5 } }\n"));
    CHECK(character.line == 3);
    CHECK(character.message ==
          "--engine recorder has no character controller (the engine ABI has none): body 'walker' is a character");
}

TEST_CASE("A plugin that reports a pair out of order stops the run with an error naming it", "[engine][plugin]") {
    const Scenario s = scene("world: { frames: 3 }\nbodies:\n  a: { sphere: { radius: 1 } }\n"
                             "  bad_pair: { sphere: { radius: 1 }, position: [5, 0, 0] }\n");
    const std::unique_ptr<Engine> engine = require_engine(COLLIDE_TEST_PLUGIN_RECORDER).make();
    engine->reset(s.world, s.bodies);
    engine->step_frame(); // frame 0: phase 0, no step
    try {
        engine->step_frame();
        FAIL("no throw");
    } catch (const std::runtime_error& e) {
        CHECK(std::string(e.what()) == "engine 'recorder' broke the engine ABI at frame 1: a contact between bodies 1 "
                                       "and 1 (expected a < b < 2)");
    }
}

TEST_CASE("bounce, the example plugin: each shipped ball's first apex is h·e² within its integrator's bound",
          "[engine][plugin]") {
    const Scenario s = load_scenario(std::string(COLLIDE_SOURCE_DIR) + "/scenarios/bouncing.yaml");
    const EngineSpec& bounce = require_engine(COLLIDE_BOUNCE_PLUGIN);
    bounce.refuse_unsupported(s); // it runs it
    CHECK(bounce.header(s).front() ==
          "engine → bounce 1.0, spheres on boxes and planes (collide's example plugin, engine ABI 1)");
    Workspace ws;
    ws.use_engine(bounce.name);
    const Layout layout = layout_of(s);
    std::vector<double> values(layout.fields.size()), again(layout.fields.size());
    simulate(s, values, ws);
    simulate(s, again, ws);
    CHECK(std::memcmp(values.data(), again.data(), values.size() * sizeof(double)) == 0); // same bits
    // Semi-implicit Euler at τ = 1/60 s from H = 2 m: the impact speed V = g·τ·(n+1) of the step that
    // reaches the floor has |V² − 2gH| < g·τ·V, so V < √(2gH) + g·τ; the rebound u = e·V samples an
    // apex within u·τ/2 + g·τ²/8 of u²/2g (scripts/check-engine-plugin.sh works it out), so
    // |apex − h·e²| < (e² + e)·V·τ/2 + g·τ²/8 — 4 to 11 cm here, a tenth of collide's own golden.
    const double g = 9.81, tau = 1.0 / 60, H = 2, V = std::sqrt(2 * g * H) + g * tau;
    for (const auto& [id, e] :
         {std::pair{"swept_0_5", 0.5}, std::pair{"swept_0_8", 0.8}, std::pair{"swept_0_95", 0.95},
          std::pair{"swept_1", 1.0}, std::pair{"discrete_0_5", 0.5}, std::pair{"discrete_0_8", 0.8}}) {
        INFO(id);
        const int field = layout.find(s, std::string(id) + ".apex_1");
        REQUIRE(field >= 0);
        const double apex = values[static_cast<std::size_t>(field)];
        const double bound = (e * e + e) * V * tau / 2 + g * tau * tau / 8;
        CHECK(std::fabs(apex - H * e * e) < bound);
    }
}

TEST_CASE("bounce meets the tunnel's wall at the frames collide's discrete world does (no gravity: Euler is exact)",
          "[engine][plugin]") {
    const ScenarioTemplate t = parse_scenario_template(
            R"(
params: { speed: 60, offset: 0 }
world: { rate: 60, frames: 40, phase: $offset }
bodies:
  wall:   { static: true, box: { min: [-0.05, -2, -2], max: [0.05, 2, 2] } }
  bullet: { sphere: { radius: 0.3 }, position: [-3, 0, 0], velocity: [$speed, 0, 0] }
log:
  - first_contact: { body: bullet, with: wall }
)",
            "tunnel.yaml");
    Workspace own, bounce;
    bounce.use_engine(require_engine(COLLIDE_BOUNCE_PLUGIN).name);
    ScenarioTemplate::Evaluator evaluator = t.make_evaluator();
    Scenario s;
    int hits = 0;
    for (const double speed : {30.0, 45.0, 60.0, 75.0, 90.0, 135.0})
        for (const double offset : {0.0, 0.3, 0.6, 0.9}) {
            const double params[] = {speed, offset};
            t.instantiate(params, evaluator, s);
            std::vector<double> a(layout_of(s).fields.size()), b(a.size());
            simulate(s, a, own);
            simulate(s, b, bounce);
            INFO("speed " << speed << ", offset " << offset);
            CHECK(a[FirstContactLog::hit] == b[FirstContactLog::hit]);
            CHECK((a[FirstContactLog::frame] == b[FirstContactLog::frame] ||
                   (std::isnan(a[FirstContactLog::frame]) && std::isnan(b[FirstContactLog::frame]))));
            hits += a[FirstContactLog::hit] != 0;
        }
    CHECK(hits > 0);
    CHECK(hits < 24); // some cells tunnel, some do not: the comparison says something
}
