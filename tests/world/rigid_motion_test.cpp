// Bodies that turn, against closed forms worked out first: a ball that rolls or slips down a
// ramp, a bowling ball that slides until it rolls, crates that land flat, boxes that tip or
// stand on an incline.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "support.h"

using namespace collide;
using namespace collide::test;
using Catch::Detail::Approx;

namespace {

constexpr double kTheta = 20 * kDegree;

/// A ramp tilted θ about z (its top surface normal n = (−sin θ, cos θ, 0)) and a ball of radius
/// r set on it touching, 2 m up the slope from the ramp's middle. Returns the start position.
Vec3 ramp_scene(std::vector<BodyDef>& bodies, double r, double mu) {
    const Vec3 n{-std::sin(kTheta), std::cos(kTheta), 0};
    const Vec3 up_slope{std::cos(kTheta), std::sin(kTheta), 0};
    bodies.push_back(ground_at({0, 0, 0}, {10, 0.5, 2}, quat_from_axis_degrees({0, 0, 1}, 20), mu));
    const Vec3 start = n * (0.5 + r) + up_slope * 2;
    bodies.push_back(ball_at(start, r, mu));
    return start;
}

/// How far body 1 moved down the slope from `start`.
double down_slope(const World& world, const Vec3& start) {
    const Vec3 down{-std::cos(kTheta), -std::sin(kTheta), 0};
    return dot(world.state(1).position - start, down);
}

/// Rolling without slipping down θ: a = (5/7)·g·sin θ, so s = ½·a·T².
double rolled(double seconds) { return 0.5 * (5.0 / 7.0) * kG * std::sin(kTheta) * seconds * seconds; }

} // namespace

TEST_CASE("a ball on a 20° ramp with μ 0.4 rolls s = ½·(5/7)·g·sin θ·T², with ω·r = v", "[world][rigid]") {
    // μ 0.4 ≥ (2/7)·tan 20° = 0.104: friction holds the contact point still, so it rolls.
    const double r = 0.5, T = 1.5;
    std::vector<BodyDef> bodies;
    const Vec3 start = ramp_scene(bodies, r, 0.4);
    World world;
    world.reset(world_def(60, T, Detection::swept), bodies);
    run(world);
    const double s = down_slope(world, start);
    CHECK(rolled(T) == Approx(2.696).margin(5e-4));
    CHECK(s == Approx(rolled(T)).epsilon(1e-4));
    const BodyState b = world.state(1);
    CHECK(length(b.angular_velocity) * r == Approx(length(b.velocity)).epsilon(1e-6)); // ω·r = v
    CHECK(b.angular_velocity.z > 0); // rolling down −x: ω = n × v / r points along +z
}

TEST_CASE("a rolling ball under discrete detection converges to the closed form as the rate rises", "[world][rigid]") {
    const double r = 0.5, T = 1.5;
    double last_error = 1;
    for (const double rate : {60.0, 120.0, 240.0}) {
        std::vector<BodyDef> bodies;
        const Vec3 start = ramp_scene(bodies, r, 0.4);
        World world;
        world.reset(world_def(rate, T, Detection::discrete), bodies);
        run(world);
        const double error = std::fabs(down_slope(world, start) - rolled(T)) / rolled(T);
        INFO("rate " << rate << " Hz: relative error " << error);
        CHECK(error < 0.01);
        CHECK(error <= last_error + 1e-12);
        last_error = error;
    }
}

TEST_CASE("a ball on a 20° ramp with μ 0.05 slips: v = g(sin θ − μ cos θ)·t, ω = 5μg cos θ·t/(2r)", "[world][rigid]") {
    // μ 0.05 < 0.104: it slides; friction μ·N at its foot spins it up at a constant rate.
    const double r = 0.5, T = 1.5, mu = 0.05;
    std::vector<BodyDef> bodies;
    ramp_scene(bodies, r, mu);
    World world;
    world.reset(world_def(60, T, Detection::swept), bodies);
    run(world);
    const BodyState b = world.state(1);
    const double v = kG * (std::sin(kTheta) - mu * std::cos(kTheta)) * T;
    const double w = 5 * mu * kG * std::cos(kTheta) * T / (2 * r);
    CHECK(length(b.velocity) == Approx(v).epsilon(1e-4));
    CHECK(length(b.angular_velocity) == Approx(w).epsilon(1e-4));
}

TEST_CASE("a bowling ball slides, spins up and rolls on at 5/7 of its speed from t* = 2·v0/(7·μ·g)", "[world][rigid]") {
    const double r = 0.5, v0 = 5, mu = 0.2, rate = 60;
    std::vector<BodyDef> bodies{ground_at({0, -1, 0}, {100, 1, 5}, {}, mu)};
    BodyDef b = ball_at({0, r, 0}, r, mu);
    b.velocity = {v0, 0, 0};
    bodies.push_back(b);
    World world;
    world.reset(world_def(rate, 2.0, Detection::swept), bodies);
    const double t_star = 2 * v0 / (7 * mu * kG);
    CHECK(t_star == Approx(0.728).margin(5e-4));
    double rolling_from = -1;
    while (world.frames_stepped() < world.def().frames) {
        world.step_frame();
        const BodyState s = world.state(1);
        const double slip = s.velocity.x + s.angular_velocity.z * r; // the foot's speed: v + ω × (−r·y)
        if (rolling_from < 0 && std::fabs(slip) < 1e-9) rolling_from = (world.frame() + 0.0) / rate;
    }
    CHECK(rolling_from >= t_star - 1e-9);
    CHECK(rolling_from <= t_star + 1 / rate); // within one step
    CHECK(world.state(1).velocity.x == Approx(5.0 / 7.0 * v0).epsilon(1e-4));
    CHECK(world.state(1).velocity.x == Approx(3.5714).margin(1e-4));
}

TEST_CASE("a crate turned 30° about z, dropped from 1.5 m, comes to rest flat", "[world][rigid]") {
    for (const Quat q : {quat_from_axis_degrees({0, 0, 1}, 30), quat_from_axis_degrees({1, 2, 3}, 41)}) {
        std::vector<BodyDef> bodies{ground_at({0, -1, 0}, {5, 1, 5}, {}, 0.5),
                                    box_at({0, 1.5, 0}, {0.5, 0.5, 0.5}, q, 0.5, 0.1)};
        World world;
        world.reset(world_def(60, 3.0, Detection::discrete), bodies);
        double still_from = -1;
        while (world.frames_stepped() < world.def().frames) {
            world.step_frame();
            if (world.fastest_speed(1) < world.def().rest_speed) {
                if (still_from < 0) still_from = world.frame() / 60.0;
            } else {
                still_from = -1;
            }
        }
        INFO("rotation (" << q.w << ", " << q.x << ", " << q.y << ", " << q.z << ")");
        CHECK(world.state(1).position.y == Approx(0.5).margin(1e-3));
        CHECK(tilt_degrees(world, 1) < 0.1);
        CHECK(still_from >= 0); // at rest by 3 s
    }
}

TEST_CASE("on a 30° incline with μ 0.8 a cube stands and a tall box tips: tan θ > half width / half height",
          "[world][rigid]") {
    // Static friction holds both (μ 0.8 > tan 30° = 0.577); the cube's weight stays over its
    // base (0.5/0.5 = 1 > 0.577), the tall box's does not (0.2/1 = 0.2 < 0.577).
    const double theta = 30 * kDegree;
    const Quat tilt = quat_from_axis_degrees({0, 0, 1}, 30);
    const Vec3 n{-std::sin(theta), std::cos(theta), 0};
    std::vector<BodyDef> bodies{ground_at({0, 0, 0}, {10, 0.5, 10}, tilt, 0.8)};
    bodies.push_back(box_at(n * (0.5 + 0.5) + Vec3{0, 0, -3}, {0.5, 0.5, 0.5}, tilt, 0.8));
    bodies.push_back(box_at(n * (0.5 + 1.0) + Vec3{0, 0, 3}, {0.2, 1, 0.2}, tilt, 0.8));
    World world;
    world.reset(world_def(60, 3.0, Detection::discrete), bodies);
    const Vec3 cube0 = world.state(1).position;
    run(world);
    CHECK(length(world.state(1).position - cube0) < 1e-3);
    // The cube still sits at the incline's angle; the tall box has fallen over (its long axis
    // no longer along the incline's normal).
    const Vec3 cube_axis = rotate(world.state(1).rotation, {0, 1, 0});
    const Vec3 tall_axis = rotate(world.state(2).rotation, {0, 1, 0});
    CHECK(dot(cube_axis, n) > std::cos(0.5 * kDegree));
    CHECK(std::fabs(dot(tall_axis, n)) < std::cos(45 * kDegree));
}
