// Loading valid scenarios: values, defaults, param substitution, --set, rotation forms, log ids.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>
#include <thread>

#include "scenario/load.h"
#include "support/approx.h"

using namespace collide;
using collide::test::near_vec;

namespace {

std::string fixture(const char* name) { return std::string(COLLIDE_SOURCE_DIR) + "/tests/scenario/fixtures/" + name; }

/// Parses YAML text (a leading newline is dropped so line 1 is the first written line).
ScenarioTemplate parse(std::string_view text) {
    if (!text.empty() && text.front() == '\n') text.remove_prefix(1);
    return parse_scenario_template(text, "test.yaml");
}

Scenario load_text(std::string_view text, const std::vector<std::string>& sets = {}) {
    const ScenarioTemplate t = parse(text);
    auto ev = t.make_evaluator();
    Scenario s;
    t.instantiate(apply_sets(t, sets), ev, s);
    return s;
}

const BodyDef& body(const Scenario& s, const std::string& name) {
    for (const BodyDef& b : s.bodies)
        if (b.name == name) return b;
    FAIL("no body " << name);
    return s.bodies.front();
}

bool near_quat(const Quat& a, const Quat& b, double tol = 1e-12) {
    return std::fabs(a.w - b.w) <= tol && std::fabs(a.x - b.x) <= tol && std::fabs(a.y - b.y) <= tol &&
           std::fabs(a.z - b.z) <= tol;
}

} // namespace

TEST_CASE("the tunnel scenario loads with the values it states", "[scenario]") {
    const Scenario s = load_scenario(fixture("tunnel.yaml"));
    CHECK(s.name == "tunnel");
    CHECK(s.about == "A sphere fast enough to skip over a 10 cm wall.");
    REQUIRE(s.params.size() == 2);
    CHECK(s.params[0] == std::pair<std::string, double>{"speed", 60});
    CHECK(s.params[1] == std::pair<std::string, double>{"offset", 0});
    CHECK(s.world.dt == Approx(1.0 / 60));
    CHECK(s.world.frames == 40);
    CHECK(s.world.detection == Detection::discrete);
    CHECK(s.world.phase == 0);
    REQUIRE(s.bodies.size() == 2);
    const BodyDef& wall = s.bodies[0];
    CHECK(wall.name == "wall");
    CHECK(wall.is_static);
    CHECK(wall.mark.line == 13);
    CHECK(wall.mark.column == 3);
    REQUIRE(std::holds_alternative<Aabb>(wall.shape));
    CHECK_THAT(std::get<Aabb>(wall.shape).min, near_vec({-0.05, -2, -2}));
    CHECK_THAT(std::get<Aabb>(wall.shape).max, near_vec({0.05, 2, 2}));
    const BodyDef& bullet = s.bodies[1];
    REQUIRE(std::holds_alternative<Sphere>(bullet.shape));
    CHECK(std::get<Sphere>(bullet.shape).radius == 0.3);
    CHECK_THAT(bullet.position, near_vec({-3, 0, 0}));
    CHECK_THAT(bullet.velocity, near_vec({60, 0, 0}));
    CHECK_FALSE(bullet.is_static);
    REQUIRE(s.log.size() == 1);
    CHECK(s.log[0].id == "first_contact");
    REQUIRE(std::holds_alternative<FirstContactLog>(s.log[0].request));
    CHECK(std::get<FirstContactLog>(s.log[0].request).body == 1);
    CHECK(std::get<FirstContactLog>(s.log[0].request).with == 0);
    CHECK(s.decimals == 3);
}

TEST_CASE("the scenario example of README.md loads as written there", "[scenario]") {
    // README.md's example scenario, character for character except the comment after `frames: 40`
    // (it is also tests/scenario/fixtures/tunnel.yaml).
    const Scenario s = load_text(R"(
name: tunnel
about: A sphere fast enough to skip over a 10 cm wall.
params:            # named numbers; --set / --vary override them
  speed: 60        # m/s
  offset: 0        # fraction of a frame's stride: where the frames land
world:
  rate: 60         # Hz (or dt: seconds)
  frames: 40
  gravity: [0, 0, 0]
  detection: discrete          # discrete | swept
  phase: $offset               # frames are sampled at t = (k + phase)·dt
bodies:
  wall:   { static: true, box: { min: [-0.05, -2, -2], max: [0.05, 2, 2] } }
  bullet: { sphere: { radius: 0.3 }, position: [-3, 0, 0], velocity: [$speed, 0, 0],
            restitution: 0, friction: 0 }
log:
  - first_contact: { body: bullet, with: wall }
)");
    CHECK(s.bodies.size() == 2);
    CHECK(s.log.size() == 1);
    CHECK(s.world.frames == 40);
}

TEST_CASE("every section and option of a scenario is read into the model", "[scenario]") {
    const Scenario s = load_scenario(fixture("full.yaml"));
    CHECK(s.name == "everything");
    CHECK(s.decimals == 4);
    CHECK(s.tolerance_abs == 1e-6);
    CHECK(s.tolerance_rel == 1e-4);
    CHECK(s.world.dt == 0.01);
    CHECK(s.world.frames == 150); // 1.5 s / 0.01 s
    CHECK_THAT(s.world.gravity, near_vec({0, -9.81, 0}));
    CHECK(s.world.detection == Detection::swept);
    CHECK(s.world.phase == 0.25);
    CHECK(s.world.skin == 0.002);
    CHECK(s.world.integrator == Integrator::euler);
    CHECK(s.world.rest_speed == 0.02);
    CHECK(s.world.rest_time == 0.5);
    CHECK(s.world.character_iterations == 6);

    const BodyDef& floor = body(s, "floor");
    REQUIRE(std::holds_alternative<Plane>(floor.shape));
    CHECK_THAT(std::get<Plane>(floor.shape).normal, near_vec({0, 1, 0})); // [0, 2, 0] normalised
    const BodyDef& ball = body(s, "ball");
    CHECK_THAT(std::get<Sphere>(ball.shape).centre, near_vec({0, 0.1, 0}));
    CHECK_THAT(ball.position, near_vec({0, 2, 0}));
    CHECK_THAT(ball.velocity, near_vec({3, 0, -1}));
    CHECK(ball.restitution == 0.5);
    CHECK(ball.friction == 0.25);
    CHECK(ball.mass == 2);
    CHECK(ball.ccd);
    const BodyDef& crate = body(s, "crate");
    REQUIRE(std::holds_alternative<Obb>(crate.shape));
    const Obb& obb = std::get<Obb>(crate.shape);
    CHECK_THAT(obb.centre, near_vec({1, 0, 0}));
    CHECK_THAT(obb.half, near_vec({0.5, 0.5, 0.5}));
    const double c = std::cos(std::numbers::pi / 6), sn = std::sin(std::numbers::pi / 6);
    CHECK_THAT(obb.axes.col[0], near_vec({c, 0, -sn}, 1e-12)); // x turned 30° about y
    CHECK(near_quat(crate.rotation, quat_from_axis_degrees({0, 0, 1}, 10)));
    const BodyDef& feet = body(s, "feet");
    REQUIRE(std::holds_alternative<Capsule>(feet.shape));
    CHECK(std::get<Capsule>(feet.shape).radius == 0.3);
    CHECK(feet.character);
    CHECK(feet.slope_limit == 50);
    REQUIRE(std::holds_alternative<Triangle>(body(s, "ramp").shape));
    const BodyDef& rock = body(s, "rock");
    REQUIRE(std::holds_alternative<Hull>(rock.shape));
    CHECK(std::get<Hull>(rock.shape).count() == 4);
    CHECK_THAT(std::get<Hull>(rock.shape).point(3), near_vec({0, 0, 1}));
    CHECK(near_quat(rock.rotation, Quat{})); // [2, 0, 0, 0] normalised

    REQUIRE(s.log.size() == 14);
    const auto& apex = std::get<ApexLog>(s.log[0].request);
    CHECK(apex.body == 1);
    CHECK(apex.bounces == 2);
    CHECK(apex.drop_height == 2);
    CHECK(apex.floor == 0);
    CHECK(s.log[1].label == "ball lands");
    const auto& push = std::get<PushOutLog>(s.log[4].request);
    CHECK(push.has_from);
    CHECK(push.skin == 0.002); // the world's skin
    const auto& split = std::get<SplitLog>(s.log[5].request);
    CHECK_THAT(split.normal, near_vec({-0.5, std::sqrt(3.0) / 2, 0}, 1e-12));
    const auto& respond = std::get<RespondLog>(s.log[6].request);
    CHECK(respond.restitution == 0.2);
    CHECK(respond.friction == 0.3);
    CHECK(std::get<SlopeLog>(s.log[7].request).limit == 46);
    CHECK(s.log[9].decimals == 2);
    CHECK(std::holds_alternative<MaxOverlapLog>(s.log[11].request));
    const auto& ray = std::get<RaycastLog>(s.log[12].request);
    CHECK(s.log[12].id == "down");
    CHECK(s.log[12].note == "straight down");
    CHECK_THAT(ray.direction, near_vec({0, -1, 0}));
    CHECK(ray.targets == std::vector<BodyIndex>{1, 2});
    CHECK(ray.max_distance == 100);
    CHECK(s.log[13].id == "first_contact_2");

    REQUIRE(s.expect.size() == 4);
    CHECK(s.expect[0].value == "first_contact.hit");
    CHECK(s.expect[0].op == ExpectOp::equals);
    CHECK(s.expect[0].number == 1);
    CHECK(s.expect[0].text == "first_contact.hit = true");
    CHECK(s.expect[1].other == "apex.analytic_1");
    CHECK(s.expect[1].tolerance == 1e-6);
    CHECK(s.expect[2].op == ExpectOp::at_most);
    CHECK(s.expect[2].number == 0.001);
    CHECK(s.expect[2].text == "max_overlap.depth <= 0.001");
    CHECK(s.expect[3].op == ExpectOp::at_least);
    CHECK(s.expect[3].number == 1);
}

TEST_CASE("a bare $name and an expression of params are substituted", "[scenario]") {
    const Scenario s = load_text(R"(
params: { speed: 30, offset: 0.5 }
world: { phase: $offset }
bodies:
  bullet: { sphere: { radius: 0.3 }, position: ["-3 + $offset * $speed / 60", 0, 0], velocity: [$speed, 0, 0] }
)");
    CHECK(s.world.phase == 0.5);
    CHECK_THAT(s.bodies[0].position, near_vec({-3 + 0.5 * 30 / 60.0, 0, 0}));
    CHECK_THAT(s.bodies[0].velocity, near_vec({30, 0, 0}));
}

TEST_CASE("instantiate with other params moves positions and velocities", "[scenario]") {
    const ScenarioTemplate t = parse(R"(
params: { speed: 30, offset: 0 }
bodies:
  bullet: { sphere: { radius: 0.3 }, position: ["-3 + $offset * $speed / 60", 0, 0], velocity: [$speed, 0, 0] }
)");
    auto ev = t.make_evaluator();
    Scenario s;
    for (const double speed : {30.0, 90.0, 300.0})
        for (const double offset : {0.0, 0.25, 0.95}) {
            const double params[] = {speed, offset};
            t.instantiate(params, ev, s);
            CHECK_THAT(s.bodies[0].position, near_vec({-3 + offset * speed / 60, 0, 0}, 1e-12));
            CHECK_THAT(s.bodies[0].velocity, near_vec({speed, 0, 0}));
            CHECK(s.params[0].second == speed);
            CHECK(s.params[1].second == offset);
        }
    CHECK(t.depends_on(0));
    CHECK(t.depends_on(1));
    CHECK(t.param_index("offset") == 1);
    CHECK(t.param_index("nope") == -1);
}

TEST_CASE("derived values follow their params: rate, duration, rotation, surface and box", "[scenario]") {
    const ScenarioTemplate t = parse(R"(
params: { hz: 50, seconds: 2, angle: 90, tilt: 0, h: 1, skin: 0.01 }
world: { rate: $hz, duration: $seconds, skin: $skin }
bodies:
  a: { box: { centre: [0, $h, 0], half: [$h, 1, 1] }, rotation: { axis: [0, 1, 0], degrees: $angle } }
  b: { sphere: { radius: 1 } }
log:
  - slope: { surface_degrees: $tilt }
  - push_out: { a: a, b: b }
)");
    auto ev = t.make_evaluator();
    Scenario s;
    const double params[] = {100, 3, 180, 90, 2, 0.05};
    t.instantiate(params, ev, s);
    CHECK(s.world.dt == 0.01);
    CHECK(s.world.frames == 301); // 3 s at 100 Hz: t = 0, 0.01, …, 3
    CHECK(s.world.skin == 0.05);
    CHECK(near_quat(s.bodies[0].rotation, {0, 0, 1, 0}));
    const Aabb& box = std::get<Aabb>(s.bodies[0].shape);
    CHECK_THAT(box.min, near_vec({-2, 1, -1}));
    CHECK_THAT(box.max, near_vec({2, 3, 1}));
    CHECK_THAT(std::get<SlopeLog>(s.log[0].request).normal, near_vec({-1, 0, 0}, 1e-12));
    CHECK(std::get<PushOutLog>(s.log[1].request).skin == 0.05);
    CHECK_FALSE(t.depends_on(99));
}

TEST_CASE("instantiating twice into the same scenario gives the same result as once", "[scenario]") {
    const ScenarioTemplate t = load_scenario_template(fixture("full.yaml"));
    auto ev = t.make_evaluator();
    Scenario reused, fresh;
    const double first[] = {1, 2, 3};
    const double second[] = {20, 45, 4};
    t.instantiate(first, ev, reused);
    t.instantiate(second, ev, reused);
    auto ev2 = t.make_evaluator();
    t.instantiate(second, ev2, fresh);
    CHECK_THAT(reused.bodies[1].position, near_vec(fresh.bodies[1].position));
    CHECK_THAT(reused.bodies[1].velocity, near_vec({5, 0, -1}));
    CHECK(reused.expect[3].number == 3);
    CHECK_THAT(std::get<Obb>(reused.bodies[2].shape).axes.col[0],
               near_vec({std::sqrt(0.5), 0, -std::sqrt(0.5)}, 1e-12)); // x turned tilt = 45° about y
}

TEST_CASE("a new or emptied scenario is filled in full, even where one was filled before", "[scenario]") {
    // instantiate skips copying the base into the scenario its evaluator filled last; a new
    // one at the same address (a loop's local) or one the caller emptied must not be skipped.
    const ScenarioTemplate t = load_scenario_template(fixture("full.yaml"));
    auto ev = t.make_evaluator();
    const double p[] = {1, 2, 3};
    for (int k = 0; k < 3; ++k) {
        Scenario s;
        t.instantiate(p, ev, s);
        CHECK(s.bodies.size() == t.base().bodies.size());
        CHECK(s.log.size() == t.base().log.size());
        CHECK(s.name == t.base().name);
    }
    Scenario s;
    t.instantiate(p, ev, s);
    s = Scenario{};
    t.instantiate(p, ev, s);
    CHECK(s.bodies.size() == t.base().bodies.size());
    CHECK(s.expect.size() == t.base().expect.size());
}

TEST_CASE("a --set overrides a param's default", "[scenario]") {
    const Scenario s = load_scenario(fixture("tunnel.yaml"), {"speed=120", "offset = 0.5"});
    CHECK_THAT(s.bodies[1].velocity, near_vec({120, 0, 0}));
    CHECK(s.world.phase == 0.5);
    CHECK(s.params[0].second == 120);
}

TEST_CASE("a --set takes an arithmetic expression of numbers and a leading $", "[scenario]") {
    const ScenarioTemplate t = load_scenario_template(fixture("tunnel.yaml"));
    const std::vector<double> v = apply_sets(t, {"$speed=2*45", "offset=1/4"});
    CHECK(v == std::vector<double>{90, 0.25});
}

TEST_CASE("the three ways to write a rotation agree", "[scenario]") {
    const Scenario s = load_text(R"(
bodies:
  by_axis:  { sphere: { radius: 1 }, rotation: { axis: [0, 1, 0], degrees: 90 } }
  by_euler: { sphere: { radius: 1 }, rotation: { euler: [0, 90, 0] } }
  by_quat:  { sphere: { radius: 1 }, rotation: { quaternion: [0.7071067811865476, 0, 0.7071067811865476, 0] } }
  by_long_axis: { sphere: { radius: 1 }, rotation: { axis: [0, 5, 0], degrees: 90 } }
)");
    const Quat expected{std::cos(std::numbers::pi / 4), 0, std::sin(std::numbers::pi / 4), 0};
    for (const BodyDef& b : s.bodies) {
        INFO(b.name);
        CHECK(near_quat(b.rotation, expected));
    }
}

TEST_CASE("Euler angles turn about x, then y, then z", "[scenario]") {
    const Scenario s = load_text(R"(
bodies:
  a: { sphere: { radius: 1 }, rotation: { euler: [90, 90, 0] } }
)");
    // x first: y → z; then y: z → x. So the body's y axis ends up along world x.
    CHECK_THAT(rotate(s.bodies[0].rotation, {0, 1, 0}), near_vec({1, 0, 0}, 1e-12));
}

TEST_CASE("log ids default to the kind, then kind_2, kind_3, skipping ids taken explicitly", "[scenario]") {
    const Scenario s = load_text(R"(
bodies:
  a: { sphere: { radius: 1 } }
log:
  - final: { body: a }
  - final: { body: a }
    id: final_2
  - final: { body: a }
  - at_rest: { body: a }
  - max_overlap: {}
    id: final
)");
    REQUIRE(s.log.size() == 5);
    CHECK(s.log[0].id == "final_3");
    CHECK(s.log[1].id == "final_2");
    CHECK(s.log[2].id == "final_4");
    CHECK(s.log[3].id == "at_rest");
    CHECK(s.log[4].id == "final");
}

TEST_CASE("defaults: name from the file stem, 60 Hz, 60 frames, identity rotation", "[scenario]") {
    const ScenarioTemplate t =
            parse_scenario_template("bodies: { a: { sphere: { radius: 1 } } }\n", "dir/drop_ball.yaml");
    const Scenario& s = t.base();
    CHECK(s.name == "drop_ball");
    CHECK(s.file == "dir/drop_ball.yaml");
    CHECK(s.world.dt == Approx(1.0 / 60));
    CHECK(s.world.frames == 60);
    CHECK(s.bodies[0].rotation == Quat{});
    CHECK(s.bodies[0].mass == 1);
    CHECK(parse_scenario_template("bodies: {}\n", "-").base().name == "stdin");
}

TEST_CASE("a duration D samples the frames in [0, D]: with phase 0 the last at t = D", "[scenario]") {
    // Frame k at t = (k + phase)·dt, D rounded to N = round(D / dt) whole steps: k = 0 … N with
    // phase 0 (the last at N·dt = D), k = 0 … N − 1 with a phase (k + phase ≤ N); at least one.
    const Scenario five = load_text("world: { rate: 60, duration: 5 }\n");
    CHECK(five.world.frames == 301);
    CHECK((five.world.frames - 1 + five.world.phase) * five.world.dt == Approx(5).epsilon(1e-15));
    CHECK(load_text("world: { rate: 60, duration: 2 }\n").world.frames == 121);
    CHECK(load_text("world: { dt: 0.1, duration: 0.01 }\n").world.frames == 1);
    CHECK(load_text("world: { dt: 0.1, duration: 0.26 }\n").world.frames == 4);             // 3 steps: t = 0 … 0.3
    CHECK(load_text("world: { rate: 60, duration: 5, phase: 0.5 }\n").world.frames == 300); // the last at 4.992 s
    CHECK(load_text("world: { dt: 0.1, duration: 0.01, phase: 0.5 }\n").world.frames == 1);
}

TEST_CASE("a duration's frames follow a phase written with a param", "[scenario]") {
    const ScenarioTemplate t = parse("params: { offset: 0 }\nworld: { rate: 60, duration: 1, phase: $offset }\n");
    auto ev = t.make_evaluator();
    Scenario s;
    const double none[] = {0}, half[] = {0.5};
    t.instantiate(none, ev, s);
    CHECK(s.world.frames == 61); // t = 0 … 1 s
    t.instantiate(half, ev, s);
    CHECK(s.world.frames == 60); // t = 0.5/60 … 59.5/60 s
    CHECK(t.base().world.frames == 61);
}

TEST_CASE("a box written by centre and half without rotation is axis-aligned", "[scenario]") {
    const Scenario s = load_text("bodies: { b: { box: { centre: [1, 2, 3], half: [0.5, 1, 1.5] } } }\n");
    REQUIRE(std::holds_alternative<Aabb>(s.bodies[0].shape));
    CHECK_THAT(std::get<Aabb>(s.bodies[0].shape).min, near_vec({0.5, 1, 1.5}));
    CHECK_THAT(std::get<Aabb>(s.bodies[0].shape).max, near_vec({1.5, 3, 4.5}));
}

TEST_CASE("a template's evaluator instantiates from many threads at once", "[scenario]") {
    const ScenarioTemplate t = load_scenario_template(fixture("tunnel.yaml"));
    std::vector<double> results(8);
    std::vector<std::thread> threads;
    for (int k = 0; k < 8; ++k)
        threads.emplace_back([&, k] {
            auto ev = t.make_evaluator();
            Scenario s;
            for (int i = 0; i < 200; ++i) {
                const double params[] = {10.0 * (k + 1), 0};
                t.instantiate(params, ev, s);
            }
            results[static_cast<std::size_t>(k)] = s.bodies[1].velocity.x;
        });
    for (auto& th : threads) th.join();
    for (int k = 0; k < 8; ++k) CHECK(results[static_cast<std::size_t>(k)] == 10.0 * (k + 1));
}

TEST_CASE("tolerance.fields gives per-field golden tolerances, named as in expect: and written ID.FIELD") {
    const auto t = parse_scenario_template("params: { t: 0.002 }\n"
                                           "tolerance: { absolute: 1e-6, fields: { swept.vx: { absolute: $t }, "
                                           "y: { relative: 0.5 } } }\n"
                                           "bodies:\n  a: { sphere: { radius: 1 } }\n"
                                           "log:\n  - final: { body: a }\n    id: swept\n",
                                           "f.yaml");
    ScenarioTemplate::Evaluator evaluator = t.make_evaluator();
    Scenario s;
    const std::vector<double> params{0.003};
    t.instantiate(params, evaluator, s);
    CHECK(s.tolerance_abs == 1e-6);
    REQUIRE(s.field_tolerances.size() == 2);
    CHECK(s.field_tolerances[0].field == "swept.vx");
    CHECK(s.field_tolerances[0].abs == 0.003);
    CHECK(s.field_tolerances[0].rel == -1);
    CHECK(s.field_tolerances[1].field == "swept.y");
    CHECK(s.field_tolerances[1].rel == 0.5);
}

TEST_CASE("ccd and character take params (0 false, 1 true), so sweeps can vary them", "[scenario]") {
    constexpr std::string_view text = R"(
params: { swept: 0, walker: 1 }
bodies:
  wall: { static: true, box: { min: [-1, -1, -1], max: [1, 1, 1] } }
  ball: { sphere: { radius: 0.5 }, ccd: $swept, character: $walker }
  crate: { sphere: { radius: 0.5 }, ccd: true, character: "1 - $walker" }
)";
    const Scenario defaults = load_text(text);
    CHECK_FALSE(body(defaults, "ball").ccd);
    CHECK(body(defaults, "ball").character);
    CHECK(body(defaults, "crate").ccd);
    CHECK_FALSE(body(defaults, "crate").character);
    const Scenario varied = load_text(text, {"swept=1", "walker=0"});
    CHECK(body(varied, "ball").ccd);
    CHECK_FALSE(body(varied, "ball").character);
    CHECK(body(varied, "crate").character);
    CHECK_THROWS(load_text(text, {"swept=0.5"})); // neither true nor false
}

TEST_CASE("trigger: true marks a body a trigger, and a trigger entry names its body and volume", "[scenario]") {
    const Scenario s = load_text(R"(
bodies:
  ball: { sphere: { radius: 0.25 }, position: [0, 3, 0] }
  zone: { box: { min: [-1, 1, -1], max: [1, 2, 1] }, static: true, trigger: true }
  mover: { sphere: { radius: 1 }, kinematic: true, trigger: false }
log:
  - trigger: { body: ball, volume: zone }
)");
    REQUIRE(s.bodies.size() == 3);
    CHECK_FALSE(s.bodies[0].trigger);
    CHECK(s.bodies[1].trigger);
    CHECK_FALSE(s.bodies[2].trigger);
    REQUIRE(s.log.size() == 1);
    const auto* t = std::get_if<TriggerLog>(&s.log[0].request);
    REQUIRE(t != nullptr);
    CHECK(t->body == 0);
    CHECK(t->volume == 1);
    CHECK(s.log[0].id == "trigger");
}

TEST_CASE("golden: { recording: true } asks check to keep the run's recording beside the golden", "[scenario]") {
    const std::string body = "world: { rate: 60, frames: 2 }\nbodies:\n  b: { sphere: { radius: 1 } }\n"
                             "log:\n  - final: { body: b }\n";
    CHECK_FALSE(load_text("name: s\n" + body).golden_recording);
    const Scenario kept = load_text("name: s\ngolden: { recording: true, frame_hashes: true }\n" + body);
    CHECK(kept.golden_recording);
    CHECK(kept.frame_hashes);
    CHECK_THROWS_WITH(load_text("name: s\ngolden: { recording: 2 }\n" + body), Catch::Contains("golden.recording"));
}

TEST_CASE("expect's plus adds a number (an expression of params) to the logged value compared with", "[scenario]") {
    const Scenario s = load_text(R"(
params: { far: 10000 }
bodies:
  near: { sphere: { radius: 1 } }
  away: { sphere: { radius: 1 }, position: [$far, 0, 0] }
log:
  - final: { body: near }
  - final: { body: away }
expect:
  - { value: final_2.x, equals: final.x, plus: $far, tolerance: 1e-6 }
  - { value: final_2.y, equals: final.y, plus: "-2 * $far" }
)");
    REQUIRE(s.expect.size() == 2);
    CHECK(s.expect[0].other == "final.x");
    CHECK(s.expect[0].plus == 10000);
    CHECK(s.expect[0].text == "final_2.x = final.x + $far within 1e-6");
    CHECK(s.expect[1].plus == -20000);
    CHECK(s.expect[1].text == "final_2.y = final.y + -2 * $far");
}
