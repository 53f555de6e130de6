// The world: the tunnel's closed form (discrete catches only frames that land inside the wall's
// window, swept catches everything one radius from the wall), bounce apexes against h·e^(2n),
// Euler against exact integration, stacking at rest, characters gliding along walls and
// standing on (or sliding down) slopes, the t = 0 queries, determinism and warm workspaces.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <numbers>
#include <vector>

#include "probes/scenes.h"
#include "probes/simulate.h"
#include "response/response.h"
#include "support/approx.h"

using namespace collide;
using namespace collide::test;

namespace {

/// The first frame whose sampled centre lies strictly inside the window |x| < 0.35 that a
/// discrete test can see (touching within kTouchEpsilon is not a contact), or −1.
int tunnel_discrete_frame(double speed, double phase) {
    for (int k = 0; k < 40; ++k) {
        const double x = -3 + (k + phase) * speed / 60.0;
        if (std::fabs(x) < 0.35 - 2 * kTouchEpsilon) return k;
    }
    return -1;
}

struct Recorder : TraceSink {
    std::vector<int> frames;
    std::vector<double> times;
    std::vector<BodyState> states; // every body, frame after frame
    void frame(int frame, double time, std::span<const BodyState> bodies) override {
        frames.push_back(frame);
        times.push_back(time);
        states.insert(states.end(), bodies.begin(), bodies.end());
    }
};

bool bit_identical(const std::vector<double>& a, const std::vector<double>& b) {
    return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

} // namespace

TEST_CASE("discrete tunnel: caught exactly when a sampled centre lands inside the wall's 70 cm window", "[world]") {
    for (int v = 30; v <= 300; v += 15) {
        for (int p = 0; p < 20; ++p) {
            const double phase = p * 0.05;
            const Scenario s = tunnel_scene(v, phase, Detection::discrete);
            const std::vector<double> out = simulate(s);
            const int expected = tunnel_discrete_frame(v, phase);
            INFO("speed " << v << " phase " << phase);
            REQUIRE(out[0] == (expected >= 0 ? 1.0 : 0.0));
            if (expected < 0) {
                CHECK(std::isnan(out[1]));
                CHECK(std::isnan(out[3]));
                continue;
            }
            CHECK(out[1] == expected);
            CHECK(out[2] == Approx((expected + phase) / 60.0).margin(1e-12));
            CHECK(out[3] == Approx(-3 + (expected + phase) * v / 60.0).margin(1e-9));
            CHECK(out[4] == 0);
        }
    }
}

TEST_CASE("swept tunnel: every speed and offset is caught one radius from the wall", "[world]") {
    for (int v = 30; v <= 300; v += 15) {
        for (int p = 0; p < 20; ++p) {
            const double phase = p * 0.05;
            const std::vector<double> out = simulate(tunnel_scene(v, phase, Detection::swept));
            INFO("speed " << v << " phase " << phase);
            REQUIRE(out[0] == 1);
            const double t = 2.65 / v; // the centre reaches x = −0.35 then
            CHECK(out[2] == Approx(t).margin(1e-9));
            CHECK(out[3] == Approx(-0.35).margin(1e-9));
            // The frame whose step contains the impact: t_(k−1) < t ≤ t_k, or 0 when t ≤ t_0. An
            // impact landing on a frame time (to rounding) may fall to either side of it.
            int k = 0;
            while ((k + phase) / 60.0 < t - 1e-12) ++k;
            const bool on_boundary = std::fabs((k + phase) / 60.0 - t) < 1e-12;
            CHECK((out[1] == k || (on_boundary && out[1] == k + 1)));
        }
    }
}

TEST_CASE("at 60 m/s over 40 frame offsets the discrete test both catches and misses, the cast always catches",
          "[world]") {
    int caught = 0, missed = 0;
    for (int i = 0; i < 40; ++i) {
        const double phase = i / 40.0;
        const std::vector<double> d = simulate(tunnel_scene(60, phase, Detection::discrete));
        (d[0] == 1 ? caught : missed) += 1;
        CHECK(d[0] == (tunnel_discrete_frame(60, phase) >= 0 ? 1.0 : 0.0));
        const std::vector<double> w = simulate(tunnel_scene(60, phase, Detection::swept));
        CHECK(w[0] == 1);
    }
    CHECK(caught > 0);
    CHECK(missed > 0);
}

TEST_CASE("a per-body ccd flag casts that body in a discrete world", "[world]") {
    Scenario s = tunnel_scene(60, 0.5, Detection::discrete);
    REQUIRE(simulate(s)[0] == 0); // frames at x = −2.5, −1.5, −0.5, 0.5: all clear of the window
    s.bodies[1].ccd = true;
    const std::vector<double> out = simulate(s);
    CHECK(out[0] == 1);
    CHECK(out[3] == Approx(-0.35).margin(1e-9));
}

TEST_CASE("stopping early once first_contact is settled gives the same values as running every frame", "[world]") {
    for (int i = 0; i < 40; ++i) {
        for (const Detection d : {Detection::discrete, Detection::swept}) {
            const Scenario s = tunnel_scene(60 + 7 * i, i / 40.0, d);
            std::vector<double> early(layout_of(s).fields.size());
            Workspace quick;
            collide::simulate(s, early, quick);
            std::vector<double> full(early.size());
            Workspace ws;
            Recorder rec; // a trace forces every frame
            collide::simulate(s, full, ws, &rec);
            CHECK(rec.frames.size() == 40);
            CHECK(ws.frames_stepped() == 40);
            CHECK(quick.frames_stepped() >= 1);
            CHECK(quick.frames_stepped() <= 40);
            if (early[0] == 1)
                CHECK(quick.frames_stepped() == static_cast<int>(early[1]) + 1); // stops at the hit's frame
            CHECK(bit_identical(early, full));
        }
    }
}

TEST_CASE("swept bounces under exact integration reach h·e^(2n) within 1e-6", "[world]") {
    for (const double e : {0.5, 0.8, 0.95, 1.0}) {
        const Scenario s = drop_scene(2.0, e, Detection::swept, Integrator::exact, 300);
        const std::vector<double> out = simulate(s);
        INFO("restitution " << e);
        REQUIRE(field(s, out, 0, "bounces") >= 3);
        for (int n = 1; n <= 3; ++n) {
            const double expected = 2.0 * std::pow(e, 2 * n);
            const std::string k = std::to_string(n);
            CHECK(field(s, out, 0, ("apex_" + k).c_str()) == Approx(expected).margin(1e-6));
            CHECK(field(s, out, 0, ("analytic_" + k).c_str()) == Approx(expected).margin(1e-12));
        }
    }
}

TEST_CASE("swept, restitution 1 never gains height", "[world]") {
    for (const Integrator integrator : {Integrator::exact, Integrator::euler}) {
        const Scenario s = drop_scene(2.0, 1.0, Detection::swept, integrator, 300);
        const std::vector<double> out = simulate(s);
        for (int n = 1; n <= 3; ++n) CHECK(field(s, out, 0, ("apex_" + std::to_string(n)).c_str()) <= 2.0 + 1e-9);
    }
}

TEST_CASE("discrete bounces at 60 Hz are measured and within 10 % of h·e^(2n)", "[world]") {
    const Scenario s = drop_scene(2.0, 0.8, Detection::discrete, Integrator::exact, 300);
    const std::vector<double> out = simulate(s);
    REQUIRE(field(s, out, 0, "bounces") >= 3);
    for (int n = 1; n <= 3; ++n) {
        const double apex = field(s, out, 0, ("apex_" + std::to_string(n)).c_str());
        CHECK(apex == Approx(2.0 * std::pow(0.8, 2 * n)).epsilon(0.10));
    }
}

TEST_CASE("free fall: exact integration gives ½gt², Euler ½g·dt²·n(n+1)", "[world]") {
    for (const Integrator integrator : {Integrator::exact, Integrator::euler}) {
        Scenario s;
        s.world.dt = 0.1;
        s.world.frames = 11; // frame 10 at t = 1 s
        s.world.gravity = {0, -10, 0};
        s.world.integrator = integrator;
        s.bodies.push_back(make_body("stone", Sphere{{}, 0.1}, {0, 100, 0}));
        s.log.push_back(make_entry(FinalLog{0}));
        const std::vector<double> out = simulate(s);
        const int n = 10;
        const double fallen = integrator == Integrator::exact ? 0.5 * 10 * 1.0 : 0.5 * 10 * 0.01 * n * (n + 1);
        CHECK(out[1] == Approx(100 - fallen).margin(1e-9));
        CHECK(out[4] == Approx(-10.0).margin(1e-9)); // both integrators agree on the velocity
    }
}

TEST_CASE("the phase step moves bodies from t = 0 to the first frame", "[world]") {
    Scenario s;
    s.world.dt = 0.1;
    s.world.frames = 3;
    s.world.phase = 0.25;
    s.bodies.push_back(make_body("mover", Sphere{{}, 0.1}, {0, 0, 0}, {2, 0, 0}));
    s.log.push_back(make_entry(FinalLog{0}));
    Workspace ws;
    Recorder rec;
    std::vector<double> out(static_cast<std::size_t>(layout_of(s).offset.back()));
    collide::simulate(s, out, ws, &rec);
    REQUIRE(rec.frames == std::vector<int>{0, 1, 2});
    CHECK(rec.times[0] == Approx(0.025));
    CHECK(rec.times[2] == Approx(0.225));
    CHECK(rec.states[0].position.x == Approx(0.05));
    CHECK(out[0] == Approx(0.45));
}

TEST_CASE("two boxes falling on a static floor come to rest stacked, overlapping no more than the skin", "[world]") {
    const Scenario s = stack_scene(360);
    const std::vector<double> out = simulate(s);
    const double skin = s.world.skin;
    CHECK(field(s, out, 0, "depth") <= skin + 1e-4);
    CHECK(field(s, out, 1, "rested") == 1);
    CHECK(field(s, out, 2, "rested") == 1);
    CHECK(field(s, out, 1, "time") < 5.0);
    CHECK(field(s, out, 3, "y") == Approx(0.5).margin(0.01));
    CHECK(field(s, out, 4, "y") == Approx(1.5).margin(0.02));
    // Pushed up, not sideways: the top box, 0.1 m off the bottom one's centre, lands flat on it
    // and stays there (the sequential solve leaves it within a fraction of a millimetre).
    CHECK(field(s, out, 4, "x") == Approx(0.1).margin(1e-3));
    CHECK(field(s, out, 4, "tilt") < 0.05);
}

TEST_CASE("between two dynamic bodies the response and the push-out keep the momentum and the centre of mass",
          "[world]") {
    // Two balls overlapping by 0.2 m along x, closing at 2 m/s each, restitution 1, no gravity.
    // The impact is elastic: v_a' = ((m_a − m_b)·v_a + 2·m_b·v_b) / (m_a + m_b), and the same for b.
    // The push-out moves each by its inverse mass, so the centre of mass goes on at the
    // momentum's velocity: x_c(h) = x_c(0) + h·p / (m_a + m_b).
    for (const double mb : {1.0, 3.0}) {
        INFO("m_b = " << mb);
        Scenario s;
        s.world.dt = 0.01;
        s.world.frames = 2; // frame 1 is one step after the start
        s.world.gravity = {0, 0, 0};
        s.bodies.push_back(make_body("a", Sphere{{}, 0.5}, {-0.4, 0, 0}, {2, 0, 0}));
        s.bodies.push_back(make_body("b", Sphere{{}, 0.5}, {0.4, 0, 0}, {-2, 0, 0}));
        s.bodies[0].restitution = 1;
        s.bodies[1].mass = mb;
        s.log.push_back(make_entry(FinalLog{0}));
        s.log.push_back(make_entry(FinalLog{1}));
        const std::vector<double> out = simulate(s);
        const double ma = 1, va = 2, vb = -2, total = ma + mb;
        CHECK(field(s, out, 0, "vx") == Approx(((ma - mb) * va + 2 * mb * vb) / total).margin(1e-12));
        CHECK(field(s, out, 1, "vx") == Approx(((mb - ma) * vb + 2 * ma * va) / total).margin(1e-12));
        const double xa = field(s, out, 0, "x"), xb = field(s, out, 1, "x");
        const double centre0 = (ma * -0.4 + mb * 0.4) / total;
        CHECK((ma * xa + mb * xb) / total == Approx(centre0 + 0.01 * (ma * va + mb * vb) / total).margin(1e-12));
        CHECK(xb - xa > 0.8);              // pushed apart, not left overlapping as deep
        CHECK(field(s, out, 0, "y") == 0); // nothing but x
        CHECK(field(s, out, 1, "wz") == 0);
    }
}

TEST_CASE("a character running into a wall at 30° glides along it and never passes through", "[world]") {
    const int frames = 120;
    const Scenario smooth = wall_run_scene(0.0, frames);
    Workspace ws;
    Recorder rec;
    std::vector<double> out(static_cast<std::size_t>(layout_of(smooth).offset.back()));
    collide::simulate(smooth, out, ws, &rec);
    for (std::size_t k = 0; k < rec.frames.size(); ++k) CHECK(rec.states[2 * k + 1].position.x <= 0.5);
    const double t_last = (frames - 1) / 60.0;
    CHECK(out[0] == Approx(0.5 - smooth.world.skin).margin(1e-9)); // against the wall, clear by the skin
    CHECK(out[2] == Approx(5 * std::cos(std::numbers::pi / 6) * t_last).margin(1e-9)); // the full along-wall speed
    const std::vector<double> rough = simulate(wall_run_scene(0.3, frames));
    CHECK(rough[0] <= 0.5);
    CHECK(rough[2] < out[2] - 1.0);
    CHECK(rough[2] > 0.5 * out[2]);
}

TEST_CASE("a character stands on a 40° slope and slides down a 50° one under a 46° limit", "[world]") {
    const std::vector<double> stand = simulate(slope_scene(40, 120));
    const Vec3 start = surface_normal_tilted(40) * 0.501;
    CHECK(stand[0] == start.x); // lifted straight up only: never drifts down the slope
    CHECK(stand[1] == Approx(start.y).margin(0.005));
    CHECK_THAT((Vec3{stand[3], stand[4], stand[5]}), near_vec({0, 0, 0}, 1e-9));

    const std::vector<double> slide = simulate(slope_scene(50, 60));
    const Vec3 n = surface_normal_tilted(50);
    const Vec3 at{slide[0], slide[1], slide[2]};
    const Vec3 from = n * 0.501;
    CHECK(at.y < from.y - 1.0);      // slid down more than a metre in a second
    CHECK(at.x < from.x);            // downhill is −x for this tilt
    CHECK(dot(at, n) >= 0.5 - 1e-6); // still on top of the surface, never through it
    // Sliding freely it covers about ½·g·sin(50°)·t² along the slope.
    const double along = length(at - from);
    CHECK(along == Approx(0.5 * 9.81 * std::sin(50 * std::numbers::pi / 180) * std::pow(59 / 60.0, 2)).epsilon(0.1));
}

TEST_CASE("t = 0 queries reproduce the floor-and-feet push-out of scenarios/mtv.yaml", "[world]") {
    Scenario s;
    s.bodies.push_back(make_body("floor", Aabb{{-5, -1, -5}, {5, 0, 5}}, {}, {}, true));
    s.bodies.push_back(make_body("feet", Aabb{{-0.4, -0.3, -0.4}, {0.4, 1.5, 0.4}}, {}));
    s.log.push_back(make_entry(AxisOverlapsLog{0, 1}));
    s.log.push_back(make_entry(ContactLog{0, 1}));
    PushOutLog push;
    push.a = 0;
    push.b = 1;
    push.from = {0, 0.6, 0};
    push.has_from = true;
    s.log.push_back(make_entry(push));
    const std::vector<double> out = simulate(s);
    CHECK(out[0] == Approx(5.4));
    CHECK(out[1] == Approx(0.3));
    CHECK(out[2] == Approx(5.4));
    CHECK(out[3] == 1);
    CHECK_THAT((Vec3{out[4], out[5], out[6]}), near_vec({0, 1, 0}));
    CHECK(out[7] == Approx(0.3));
    CHECK(out[8] == 1);
    CHECK(out[10] == Approx(0.901).margin(1e-12));
}

TEST_CASE("split, respond and slope entries are the response functions of their inputs", "[world]") {
    Scenario s;
    s.world.gravity = {0, -9.81, 0};
    s.log.push_back(make_entry(SplitLog{{5, -1, 0}, {0, 2, 0}}));
    s.log.push_back(make_entry(RespondLog{{5, -1, 0}, {0, 1, 0}, 0, 0.3}));
    s.log.push_back(make_entry(SlopeLog{surface_normal_tilted(50), 46}));
    const std::vector<double> out = simulate(s);
    CHECK(out[0] == 1);
    CHECK(out[1] == Approx(1));
    CHECK(out[2] == Approx(5));
    CHECK_THAT((Vec3{out[3], out[4], out[5]}), near_vec({0, -1, 0}));
    CHECK_THAT((Vec3{out[6], out[7], out[8]}), near_vec({5, 0, 0}));
    CHECK(out[12] == Approx(3.5));
    CHECK(out[13] == Approx(50));
    CHECK(out[14] == 0);
}

TEST_CASE("separating_axis and raycast answer on the bodies placed at t = 0", "[world]") {
    Scenario s;
    s.bodies.push_back(make_body("a", Aabb{{-1, -1, -1}, {1, 1, 1}}, {}, {}, true));
    s.bodies.push_back(make_body("b", Aabb{{-1, -1, -1}, {1, 1, 1}}, {3, 0, 0}));
    s.bodies.push_back(make_body("c", Sphere{{}, 0.5}, {0, 0, 5}));
    s.log.push_back(make_entry(SeparatingAxisLog{0, 1}));
    RaycastLog ray;
    ray.origin = {-10, 0, 0};
    ray.direction = {2, 0, 0};
    ray.targets = {2, 1};
    s.log.push_back(make_entry(ray));
    const std::vector<double> out = simulate(s);
    CHECK(out[0] == 1);         // separated
    CHECK(out[1] == 1);         // on A's first face axis (x)
    CHECK(out[2] == 15);        // of 15 axes
    CHECK(out[3] == 0);         // A's face
    CHECK(out[6] == Approx(1)); // gap 1 m
    CHECK_THAT((Vec3{out[7], out[8], out[9]}), near_vec({1, 0, 0}));
    CHECK(out[10] == 1);
    CHECK(out[11] == 1); // body b
    CHECK(out[12] == Approx(12));
    CHECK_THAT((Vec3{out[13], out[14], out[15]}), near_vec({2, 0, 0}));
    CHECK_THAT((Vec3{out[16], out[17], out[18]}), near_vec({-1, 0, 0}));
}

TEST_CASE("a body that never slows down is not at rest, and a missed first_contact is hit 0 with the rest none",
          "[world]") {
    Scenario s = tunnel_scene(60, 0.5, Detection::discrete);
    s.log.push_back(make_entry(AtRestLog{1}));
    s.log.push_back(make_entry(AtRestLog{0}));
    s.log.push_back(make_entry(MaxOverlapLog{}));
    const std::vector<double> out = simulate(s);
    CHECK(out[0] == 0);
    for (int i = 1; i < 6; ++i) CHECK(std::isnan(out[static_cast<std::size_t>(i)]));
    CHECK(out[6] == 0);
    CHECK(std::isnan(out[7]));
    CHECK(out[9] == 1); // the static wall rests from frame 0
    CHECK(out[10] == 0);
    CHECK(out[12] == 0);
    CHECK(out[13] == -1);
    CHECK(out[14] == -1);
}

TEST_CASE("two runs of the same scenario give bit-identical values", "[world]") {
    for (const Scenario& s : {stack_scene(200), drop_scene(2.0, 0.8, Detection::swept, Integrator::exact, 200),
                              slope_scene(50, 60), tunnel_scene(75, 0.35, Detection::discrete)}) {
        CHECK(bit_identical(simulate(s), simulate(s)));
    }
}

TEST_CASE("a warmed workspace gives the same values as a fresh one", "[world]") {
    const Scenario a = stack_scene(200);
    const Scenario b = drop_scene(2.0, 0.5, Detection::swept, Integrator::exact, 150);
    const Scenario c = wall_run_scene(0.3, 50);
    Workspace warm;
    for (const Scenario* s : {&a, &b, &c, &a, &c, &b}) {
        std::vector<double> used(static_cast<std::size_t>(layout_of(*s).offset.back()));
        collide::simulate(*s, used, warm);
        CHECK(bit_identical(used, simulate(*s)));
    }
}

TEST_CASE("a swept bouncing ball comes to rest on the floor instead of chattering", "[world]") {
    Scenario s = drop_scene(2.0, 0.5, Detection::swept, Integrator::exact, 600);
    std::get<ApexLog>(s.log[0].request).bounces = 8; // more than happen: the count stops at those that do
    s.log.push_back(make_entry(AtRestLog{1}));
    const std::vector<double> out = simulate(s);
    CHECK(field(s, out, 2, "rested") == 1);
    CHECK(field(s, out, 1, "y") == Approx(0.5).margin(s.world.skin));
    CHECK(field(s, out, 1, "vy") == 0);
    // Bounces stop counting once a rebound is slower than g·dt: 6.26·0.5^n > 0.1635 for n ≤ 5.
    CHECK(field(s, out, 0, "bounces") == 5);
}

TEST_CASE("a stack in a swept world comes to rest too", "[world]") {
    Scenario s = stack_scene(360);
    s.world.detection = Detection::swept;
    const std::vector<double> out = simulate(s);
    CHECK(field(s, out, 0, "depth") <= s.world.skin + 1e-4);
    CHECK(field(s, out, 1, "rested") == 1);
    CHECK(field(s, out, 2, "rested") == 1);
    CHECK(field(s, out, 4, "y") == Approx(1.5).margin(0.01));
}
