// Trigger volumes (probes/trigger.h): entry and exit times against closed forms (a ball falling
// from rest through a box zone, a bullet through a thin zone within one step, a ball started by
// an impact, a kinematic zone sweeping over a ball, re-entries of a bouncing ball), discrete
// frames converging as the rate rises, and a trigger changing nobody's motion, bit for bit.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <vector>

#include "probes/scenes.h"
#include "probes/simulate.h"

using namespace collide;
using namespace collide::test;

namespace {

constexpr double g = 9.81;

/// A 0.25 m ball whose centre starts at rest at y = 3, falling (no floor) through the static
/// trigger zone y ∈ [1, 2]: it enters when its bottom reaches 2 (centre 2.25) and leaves when
/// its top passes 1 (centre 0.75).
Scenario fall_scene(Detection detection, double rate, double phase, int frames) {
    Scenario s;
    s.world.dt = 1.0 / rate;
    s.world.frames = frames;
    s.world.phase = phase;
    s.world.gravity = {0, -g, 0};
    s.world.detection = detection;
    s.bodies.push_back(make_body("ball", Sphere{{}, 0.25}, {0, 3, 0}));
    BodyDef zone = make_body("zone", Aabb{{-1, 1, -1}, {1, 2, 1}}, {}, {}, true);
    zone.trigger = true;
    s.bodies.push_back(zone);
    s.log.push_back(make_entry(TriggerLog{0, 1}));
    return s;
}

const double kEnter = std::sqrt(2 * (3 - 2.25) / g); // s
const double kLeave = std::sqrt(2 * (3 - 0.75) / g); // s

/// The frame whose step (t_{k−1}, t_k] contains `t`, t_k = (k + phase)·dt.
int frame_containing(double t, double dt, double phase) { return static_cast<int>(std::ceil(t / dt - phase - 1e-12)); }

double get(const Scenario& s, const std::vector<double>& v, const char* name) { return field(s, v, 0, name); }

struct Recorder : TraceSink {
    std::vector<BodyState> states; // every body, frame after frame
    int bodies = 0;
    void frame(int, double, std::span<const BodyState> b) override {
        bodies = static_cast<int>(b.size());
        states.insert(states.end(), b.begin(), b.end());
    }
};

/// Every frame's states of bodies [0, keep) (a trace of `s`).
std::vector<BodyState> states_of(const Scenario& s, int keep) {
    Recorder r;
    Workspace ws;
    std::vector<double> values(static_cast<std::size_t>(layout_of(s).offset.back()));
    simulate(s, values, ws, &r);
    std::vector<BodyState> out;
    for (std::size_t i = 0; i < r.states.size(); ++i)
        if (static_cast<int>(i % static_cast<std::size_t>(r.bodies)) < keep) out.push_back(r.states[i]);
    return out;
}

bool bit_identical(const std::vector<BodyState>& a, const std::vector<BodyState>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(BodyState)) == 0;
}

} // namespace

TEST_CASE("swept: a ball falling through a zone enters and leaves at sqrt(2d/g), within 1e-9 s", "[trigger]") {
    for (const double phase : {0.0, 0.3, 0.75}) {
        const Scenario s = fall_scene(Detection::swept, 60, phase, 60);
        const std::vector<double> v = simulate(s);
        INFO("phase " << phase);
        CHECK(get(s, v, "entered") == 1);
        CHECK(std::fabs(get(s, v, "enter_time") - kEnter) < 1e-9);
        CHECK(get(s, v, "enter_frame") == frame_containing(kEnter, 1.0 / 60, phase));
        CHECK(get(s, v, "exited") == 1);
        CHECK(std::fabs(get(s, v, "exit_time") - kLeave) < 1e-9);
        CHECK(get(s, v, "exit_frame") == frame_containing(kLeave, 1.0 / 60, phase));
        CHECK(get(s, v, "events") == 1);
    }
}

TEST_CASE("discrete: the first sampled frames inside and outside, converging on the exact times as the rate rises",
          "[trigger]") {
    double previous_error = 1;
    for (const double rate : {30.0, 60.0, 240.0, 960.0}) {
        const double dt = 1.0 / rate;
        const Scenario s = fall_scene(Detection::discrete, rate, 0, static_cast<int>(rate));
        const std::vector<double> v = simulate(s);
        // By hand: centre y(t_k) = 3 − ½·g·t_k²; inside while 0.75 < y < 2.25 (strictly: touching is not inside).
        int in = -1, out = -1;
        for (int k = 0; k < static_cast<int>(rate); ++k) {
            const double t = k * dt, y = 3 - 0.5 * g * t * t;
            const bool inside = y < 2.25 - 2 * kTouchEpsilon && y > 0.75 + 2 * kTouchEpsilon;
            if (inside && in < 0) in = k;
            if (!inside && in >= 0 && out < 0) out = k;
        }
        INFO("rate " << rate);
        REQUIRE(in >= 0);
        REQUIRE(out >= 0);
        CHECK(get(s, v, "enter_frame") == in);
        CHECK(get(s, v, "enter_time") == in * dt);
        CHECK(get(s, v, "exit_frame") == out);
        CHECK(get(s, v, "exit_time") == out * dt);
        const double error = get(s, v, "exit_time") - kLeave;
        CHECK(error >= 0);
        CHECK(error <= dt);
        CHECK(get(s, v, "enter_time") - kEnter <= dt);
        CHECK(error <= previous_error);
        previous_error = error;
    }
}

TEST_CASE("a bullet through a thin zone within one step: swept sees both, discrete never sees it", "[trigger]") {
    // A 0.3 m ball from x = −3 at 120 m/s through the zone |x| ≤ 0.05: in at x = −0.35
    // (t = 2.65/120), out at x = 0.35 (t = 3.35/120), both inside frame 2's step (1/60, 2/60].
    for (const Detection d : {Detection::swept, Detection::discrete}) {
        Scenario s;
        s.world.frames = 10;
        s.world.detection = d;
        s.bodies.push_back(make_body("bullet", Sphere{{}, 0.3}, {-3, 0, 0}, {120, 0, 0}));
        BodyDef zone = make_body("zone", Aabb{{-0.05, -2, -2}, {0.05, 2, 2}}, {}, {}, true);
        zone.trigger = true;
        s.bodies.push_back(zone);
        s.log.push_back(make_entry(TriggerLog{0, 1}));
        const std::vector<double> v = simulate(s);
        if (d == Detection::swept) {
            CHECK(get(s, v, "entered") == 1);
            CHECK(std::fabs(get(s, v, "enter_time") - 2.65 / 120) < 1e-9);
            CHECK(std::fabs(get(s, v, "exit_time") - 3.35 / 120) < 1e-9);
            CHECK(get(s, v, "enter_frame") == 2);
            CHECK(get(s, v, "exit_frame") == 2);
            CHECK(get(s, v, "events") == 1);
        } else {
            CHECK(get(s, v, "entered") == 0); // centres sampled at x = −3, −1, 1, 3, …
            CHECK(std::isnan(get(s, v, "enter_frame")));
            CHECK(get(s, v, "exited") == 0);
            CHECK(get(s, v, "events") == 0);
        }
    }
}

TEST_CASE("a ball that a swept impact sets moving enters the zone at impact time + distance / speed", "[trigger]") {
    // No gravity. Striker (0.5 m, 2 m/s) hits the resting target (0.5 m) 1 m away: impact at
    // t = 0.5 s; restitution 1 and equal masses hand the whole 2 m/s to the target, whose front
    // (x = 3.5) then reaches the zone at x = 4.05 after 0.275 s more, and its back leaves
    // x = 5.05 at t = 0.5 + 2.55 / 2 = 1.775 s. The target stands still (reports no move) until
    // the impact.
    Scenario s;
    s.world.frames = 120;
    s.world.detection = Detection::swept;
    BodyDef striker = make_body("striker", Sphere{{}, 0.5}, {1, 0, 0}, {2, 0, 0});
    striker.restitution = 1;
    BodyDef target = make_body("target", Sphere{{}, 0.5}, {3, 0, 0});
    target.restitution = 1;
    s.bodies.push_back(striker);
    s.bodies.push_back(target);
    BodyDef zone = make_body("zone", Aabb{{4.05, -1, -1}, {5.05, 1, 1}}, {}, {}, true);
    zone.trigger = true;
    s.bodies.push_back(zone);
    s.log.push_back(make_entry(TriggerLog{1, 2}));
    s.log.push_back(make_entry(TriggerLog{0, 2}));
    const std::vector<double> v = simulate(s);
    CHECK(std::fabs(field(s, v, 0, "enter_time") - 0.775) < 1e-9);
    CHECK(field(s, v, 0, "enter_frame") == 47); // 0.775 s is 46.5 steps of 1/60 s
    CHECK(std::fabs(field(s, v, 0, "exit_time") - 1.775) < 1e-9);
    CHECK(field(s, v, 0, "exit_frame") == 107);
    CHECK(field(s, v, 1, "entered") == 0); // the striker stopped at x = 2
}

TEST_CASE("another pair's impacts splitting the step leave the exact times unchanged", "[trigger]") {
    Scenario s = fall_scene(Detection::swept, 60, 0, 60);
    // A bouncing ball beside the zone: its impacts on the floor split steps into pieces.
    s.bodies.push_back(make_body("floor", Aabb{{5, -1, -1}, {7, 0, 1}}, {}, {}, true));
    BodyDef bouncer = make_body("bouncer", Sphere{{}, 0.25}, {6, 0.6, 0});
    bouncer.restitution = 0.9;
    s.bodies.push_back(bouncer);
    const std::vector<double> v = simulate(s);
    CHECK(std::fabs(get(s, v, "enter_time") - kEnter) < 1e-9);
    CHECK(std::fabs(get(s, v, "exit_time") - kLeave) < 1e-9);
}

TEST_CASE("an overlap ended by position correction is an exit at the frame's time", "[trigger]") {
    // A ball (0.25 m) set 1 cm deep in a floor whose top is y = 0; the zone is the slab
    // −0.02 < y < −0.005 under the floor's top, followed exactly (ccd: true on the zone). The
    // ball is inside it at t = 0. The first step's position correction lifts the ball by 4
    // passes of 0.2 of its depth: 1 cm · 0.8⁴ = 4.096 mm deep, clear of the zone at frame 1's
    // time (no move took it out: the world moved it after the step).
    Scenario s;
    s.world.frames = 10;
    s.world.gravity = {0, -g, 0};
    s.bodies.push_back(make_body("floor", Aabb{{-5, -1, -5}, {5, 0, 5}}, {}, {}, true));
    BodyDef zone = make_body("zone", Aabb{{-1, -0.02, -1}, {1, -0.005, 1}}, {}, {}, true);
    zone.trigger = true;
    zone.ccd = true;
    s.bodies.push_back(zone);
    s.bodies.push_back(make_body("ball", Sphere{{}, 0.25}, {0, 0.24, 0}));
    s.log.push_back(make_entry(TriggerLog{2, 1}));
    s.log.push_back(make_entry(FinalLog{2}));
    const std::vector<double> v = simulate(s);
    CHECK(get(s, v, "enter_frame") == 0);
    CHECK(get(s, v, "enter_time") == 0);
    CHECK(get(s, v, "exit_frame") == 1);
    CHECK(get(s, v, "exit_time") == 1.0 / 60);
    CHECK(get(s, v, "events") == 1);
    CHECK(field(s, v, 1, "y") > 0.25 - 0.005); // and it stays out, resting on the floor
}

TEST_CASE("a kinematic zone sweeping over a still ball, and a trigger ball through a trigger zone", "[trigger]") {
    // Zone [0, 1]³ moving at 2 m/s in x over a static 0.5 m ball at (2, 0.5, 0.5): the zone's
    // front x = 1 + 2t reaches 1.5 at t = 0.25, its back x = 2t passes 2.5 at t = 1.25.
    for (const Detection d : {Detection::swept, Detection::discrete}) {
        Scenario s;
        s.world.frames = 100;
        s.world.detection = d;
        s.bodies.push_back(make_body("ball", Sphere{{}, 0.5}, {2, 0.5, 0.5}, {}, true));
        BodyDef zone = make_body("zone", Aabb{{0, 0, 0}, {1, 1, 1}}, {0, 0, 0}, {2, 0, 0});
        zone.kinematic = true;
        zone.trigger = true;
        s.bodies.push_back(zone);
        s.log.push_back(make_entry(TriggerLog{0, 1}));
        const std::vector<double> v = simulate(s);
        const double tolerance = d == Detection::swept ? 1e-9 : 1.0 / 60;
        CHECK(std::fabs(get(s, v, "enter_time") - 0.25) <= tolerance);
        CHECK(std::fabs(get(s, v, "exit_time") - 1.25) <= tolerance);
        CHECK(get(s, v, "events") == 1);
    }
    // Both triggers: the overlap is reported, neither responds (the ball falls as if alone).
    Scenario s = fall_scene(Detection::swept, 60, 0, 60);
    s.bodies[0].trigger = true;
    const std::vector<double> v = simulate(s);
    CHECK(std::fabs(get(s, v, "enter_time") - kEnter) < 1e-9);
    CHECK(std::fabs(get(s, v, "exit_time") - kLeave) < 1e-9);
}

TEST_CASE("a bouncing ball re-enters a zone on the floor: events counts the entries", "[trigger]") {
    // Ball (0.5 m) dropped from 2.1 m (its bottom) onto a floor (top y = 0), restitution 0.8,
    // zone y ∈ [0, 1]. In when its bottom reaches 1: t = sqrt(2·1.1/g). It hits the floor at
    // t_b = sqrt(2·2.1/g) at v = g·t_b, rebounds at 0.8·v, and leaves when its bottom rises past
    // 1 (first root of 1 = u·s − ½·g·s²). Its next apex, 2.1·0.8² = 1.344 m, takes it out; it comes
    // back in (2 entries) and the apex after, 0.86 m, no longer does.
    Scenario s;
    s.world.frames = 300;
    s.world.gravity = {0, -g, 0};
    s.world.detection = Detection::swept;
    s.bodies.push_back(make_body("floor", Aabb{{-5, -1, -5}, {5, 0, 5}}, {}, {}, true));
    BodyDef ball = make_body("ball", Sphere{{}, 0.5}, {0, 2.6, 0});
    ball.restitution = 0.8;
    s.bodies.push_back(ball);
    BodyDef zone = make_body("zone", Aabb{{-1, 0, -1}, {1, 1, 1}}, {}, {}, true);
    zone.trigger = true;
    s.bodies.push_back(zone);
    s.log.push_back(make_entry(TriggerLog{1, 2}));
    const std::vector<double> v = simulate(s);
    const double tb = std::sqrt(2 * 2.1 / g), u = 0.8 * g * tb;
    const double leave = tb + (u - std::sqrt(u * u - 2 * g * 1)) / g;
    CHECK(std::fabs(field(s, v, 0, "enter_time") - std::sqrt(2 * 1.1 / g)) < 1e-9);
    CHECK(std::fabs(field(s, v, 0, "exit_time") - leave) < 1e-9);
    CHECK(field(s, v, 0, "events") == 2);
}

TEST_CASE("a trigger changes no other body's motion: every state bit for bit as without it", "[trigger]") {
    const auto with_and_without = [](Scenario s, BodyDef trigger) {
        const int keep = static_cast<int>(s.bodies.size());
        const std::vector<BodyState> alone = states_of(s, keep);
        trigger.trigger = true;
        s.bodies.push_back(trigger);
        s.log.push_back(make_entry(TriggerLog{keep - 1, keep}));
        return bit_identical(alone, states_of(s, keep));
    };
    for (const Detection d : {Detection::discrete, Detection::swept, Detection::speculative}) {
        INFO("detection " << static_cast<int>(d));
        // A static zone around the bouncing ball's path, a dynamic trigger falling onto the floor,
        // a kinematic one sweeping through the ball, a trigger on a stack.
        CHECK(with_and_without(drop_scene(2.1, 0.8, d, Integrator::exact, 120),
                               make_body("zone", Aabb{{-1, 0, -1}, {1, 1, 1}}, {}, {}, true)));
        CHECK(with_and_without(drop_scene(2.1, 0.8, d, Integrator::euler, 120),
                               make_body("crate", Aabb{{-0.5, -0.5, -0.5}, {0.5, 0.5, 0.5}}, {0, 1, 0})));
        BodyDef sweeper = make_body("sweeper", Aabb{{-0.5, -0.5, -0.5}, {0.5, 0.5, 0.5}}, {-3, 1, 0}, {3, 0, 0});
        sweeper.kinematic = true;
        CHECK(with_and_without(drop_scene(2.1, 0.8, d, Integrator::exact, 120), sweeper));
        Scenario stack = stack_scene(120);
        stack.world.detection = d;
        CHECK(with_and_without(stack, make_body("zone", Aabb{{-1, 0, -1}, {1, 3, 1}}, {}, {}, true)));
    }
    // A character gliding along a wall through a trigger crate standing in its way.
    CHECK(with_and_without(wall_run_scene(0.3, 60),
                           make_body("crate", Aabb{{-0.5, -1, 1}, {0.8, 1, 2}}, {}, {}, true)));
}

TEST_CASE("the same scenario twice, and a warmed workspace, give bit-identical trigger values", "[trigger]") {
    const Scenario s = fall_scene(Detection::swept, 60, 0.3, 60);
    const std::vector<double> a = simulate(s);
    Workspace ws;
    std::vector<double> b(a.size()), c(a.size());
    simulate(fall_scene(Detection::discrete, 30, 0, 10), std::span<double>(b.data(), 7), ws); // warm up on another
    simulate(s, b, ws);
    simulate(s, c, ws);
    CHECK(std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0);
    CHECK(std::memcmp(a.data(), c.data(), a.size() * sizeof(double)) == 0);
}
