// Coulomb friction, combine rules and kinematic bodies in the world, against closed forms:
// a block sliding down a ramp or held on it, a box sliding to a stop, a ball landing with
// friction (rolling on, or sliding to a stop when it may not turn), a crate carried by a rising
// platform.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "math/quat.h"
#include "world/world.h"

using namespace collide;
using Catch::Detail::Approx;

namespace {

constexpr double kG = 9.81;
constexpr double kPi = 3.14159265358979323846;

WorldDef world_at(double rate, double seconds, Detection detection) {
    WorldDef w;
    w.dt = 1.0 / rate;
    w.frames = static_cast<int>(std::lround(rate * seconds)) + 1; // the last frame is sampled at t = seconds
    w.gravity = {0, -kG, 0};
    w.detection = detection;
    return w;
}

BodyDef fixed(Shape shape, double friction) {
    BodyDef b;
    b.shape = shape;
    b.is_static = true;
    b.friction = friction;
    return b;
}

BodyDef moving(Shape shape, Vec3 position, Vec3 velocity, double friction) {
    BodyDef b;
    b.shape = shape;
    b.position = position;
    b.velocity = velocity;
    b.friction = friction;
    return b;
}

void step_all(World& world) {
    while (world.frames_stepped() < world.def().frames) world.step_frame();
}

/// A 10 m ramp turned `degrees` about z (its top rises towards +x) and a unit cube set on it,
/// touching, 2 m up the slope; returns how far down the slope it moved (m).
double ramp_slide(double degrees, double mu, double rate, Detection detection) {
    const double a = degrees * kPi / 180;
    const Vec3 u{std::cos(a), std::sin(a), 0}, v{-std::sin(a), std::cos(a), 0};
    const WorldDef w = world_at(rate, 1.5, detection);
    const Quat turn = quat_from_axis_degrees({0, 0, 1}, degrees);
    const Obb ramp{{0, 0, 0}, to_mat3(turn), {5, 0.5, 1}};
    const Vec3 start = u * 2.0 + v * (0.5 + 0.5);
    BodyDef block = moving(Aabb{{-0.5, -0.5, -0.5}, {0.5, 0.5, 0.5}}, start, {}, mu);
    block.rotation = turn;
    const std::vector<BodyDef> bodies{fixed(ramp, mu), block};
    World world;
    world.reset(w, bodies);
    step_all(world);
    return dot(start - world.state(1).position, u);
}

} // namespace

TEST_CASE("a block slides down a 20 degree ramp with mu 0.2 as s = g (sin - mu cos) T^2 / 2", "[world][friction]") {
    // μ 0.2 < tan 20°: it slides, without tipping (friction's torque moves its support towards
    // the front edge by μ·half height = 0.1 m, well inside its base).
    const double a = 20 * kPi / 180;
    const double exact = 0.5 * kG * (std::sin(a) - 0.2 * std::cos(a)) * 1.5 * 1.5; // 1.70 m
    for (const double rate : {30.0, 60.0, 120.0}) {
        INFO("rate " << rate);
        CHECK(ramp_slide(20, 0.2, rate, Detection::swept) == Approx(exact).epsilon(1e-4));
        CHECK(ramp_slide(20, 0.2, rate, Detection::discrete) == Approx(exact).epsilon(1e-4));
    }
}

TEST_CASE("static friction holds a block on a ramp when mu exceeds tan theta", "[world][friction]") {
    // tan 20° = 0.364 < 0.4.
    CHECK(std::abs(ramp_slide(20, 0.4, 60, Detection::swept)) <= 1e-6);
    CHECK(std::abs(ramp_slide(20, 0.4, 60, Detection::discrete)) <= 1e-6);
}

TEST_CASE("the per-contact friction model takes (1 - f) of the slide at the landing and none while resting",
          "[world][friction]") {
    // A ball that may not turn, dropped 1 m (its bottom) at 4 m/s sideways with f = 0.5: it lands
    // at t1 = sqrt(2/g) keeping 2 m/s of its slide, then slides on without friction.
    const double t1 = std::sqrt(2 / kG), T = 1.5;
    WorldDef w = world_at(60, T, Detection::swept);
    w.friction_model = FrictionModel::per_contact;
    BodyDef ball = moving(Sphere{{}, 0.5}, {0, 1.5, 0}, {4, 0, 0}, 0.5);
    ball.fixed_rotation = true;
    const std::vector<BodyDef> bodies{fixed(Aabb{{-10, -1, -2}, {50, 0, 2}}, 0.5), ball};
    World world;
    world.reset(w, bodies);
    step_all(world);
    CHECK(world.state(1).velocity.x == Approx(2).epsilon(1e-9));
    CHECK(world.state(1).position.x == Approx(4 * t1 + 2 * (T - t1)).epsilon(1e-9));
    CHECK(world.state(1).position.y == Approx(0.5).margin(1e-9));
}

TEST_CASE("a box sliding at 5 m/s with mu 0.3 stops after v^2 / (2 mu g)", "[world][friction]") {
    const double stop = 25 / (2 * 0.3 * kG); // 4.2475 m, reached at t = 5 / (0.3 g) = 1.70 s
    for (const Detection detection : {Detection::swept, Detection::discrete}) {
        for (const double rate : {30.0, 60.0, 120.0}) {
            INFO("rate " << rate << (detection == Detection::swept ? " swept" : " discrete"));
            const WorldDef w = world_at(rate, 3, detection);
            const std::vector<BodyDef> bodies{
                    fixed(Aabb{{-10, -1, -2}, {50, 0, 2}}, 0.3),
                    moving(Aabb{{-0.5, -0.5, -0.5}, {0.5, 0.5, 0.5}}, {0, 0.5, 0}, {5, 0, 0}, 0.3)};
            World world;
            world.reset(w, bodies);
            step_all(world);
            CHECK(world.state(1).position.x == Approx(stop).epsilon(1e-4));
            CHECK(world.state(1).velocity.x == Approx(0).margin(1e-9));
            CHECK(world.state(1).position.y == Approx(0.5).margin(1e-6));
        }
    }
}

TEST_CASE("a ball landing while moving sideways rolls on at 5/7 of its sideways speed", "[world][friction]") {
    // Dropped 1 m (its bottom) at 4 m/s sideways, restitution 0, μ 0.5. Friction acts at its
    // foot, so the angular momentum about the contact point, m·v·r + (2/5)·m·r²·ω, is the same
    // before the landing, through it and while it slides: it ends rolling at v = (5/7)·4 m/s.
    const double mu = 0.5;
    const WorldDef w = world_at(60, 2, Detection::swept);
    const std::vector<BodyDef> bodies{fixed(Aabb{{-10, -1, -2}, {50, 0, 2}}, mu),
                                      moving(Sphere{{}, 0.5}, {0, 1.5, 0}, {4, 0, 0}, mu)};
    World world;
    world.reset(w, bodies);
    step_all(world);
    CHECK(world.state(1).velocity.x == Approx(5.0 / 7.0 * 4).epsilon(1e-9));
    CHECK(world.state(1).angular_velocity.z * 0.5 == Approx(-5.0 / 7.0 * 4).epsilon(1e-9)); // ω × (−r·y) = −v
}

TEST_CASE("a ball that may not turn, landing while moving sideways, loses mu times its landing speed, then slides "
          "to a stop",
          "[world][friction]") {
    // As before, with fixed_rotation: the impact takes μ·|vy| off the sideways speed, then
    // kinetic friction stops it after v'² / (2μg). The step in which it stops moves it by the
    // mean of its start and end velocities (0), h·v/2, where it truly goes v²/(2μg): for
    // v ≤ μ·g·h the difference is at most μ·g·h²/8, which bounds the error.
    const double mu = 0.5, t1 = std::sqrt(2 / kG), vy = std::sqrt(2 * kG);
    const double v_after = 4 - mu * vy;
    const double x_end = 4 * t1 + v_after * v_after / (2 * mu * kG);
    const WorldDef w = world_at(60, 2, Detection::swept);
    BodyDef ball = moving(Sphere{{}, 0.5}, {0, 1.5, 0}, {4, 0, 0}, mu);
    ball.fixed_rotation = true;
    const std::vector<BodyDef> bodies{fixed(Aabb{{-10, -1, -2}, {50, 0, 2}}, mu), ball};
    World world;
    world.reset(w, bodies);
    step_all(world);
    const double h = 1.0 / 60;
    CHECK(world.state(1).position.x == Approx(x_end).margin(mu * kG * h * h / 8 + 1e-9));
    CHECK(world.state(1).velocity.x == Approx(0).margin(1e-9));
}

TEST_CASE("a pair's restitution combines by the world's rule", "[world][friction]") {
    struct Rebound : EngineObserver {
        double vy = 0;
        void on_response(const EngineView&, int body, const Vec3&, const Vec3& after) override {
            if (body == 1 && vy == 0) vy = after.y;
        }
    };
    const double landing = std::sqrt(2 * kG); // after a 1 m fall
    const std::pair<Combine, double> rules[] = {
            {Combine::max, 0.8}, {Combine::min, 0.2}, {Combine::average, 0.5}, {Combine::multiply, 0.16}};
    for (const auto& [rule, e] : rules) {
        WorldDef w = world_at(60, 1, Detection::swept);
        w.restitution_combine = rule;
        BodyDef floor = fixed(Aabb{{-5, -1, -5}, {5, 0, 5}}, 0);
        floor.restitution = 0.2;
        BodyDef ball = moving(Sphere{{}, 0.5}, {0, 1.5, 0}, {}, 0);
        ball.restitution = 0.8;
        const std::vector<BodyDef> bodies{floor, ball};
        World world;
        world.reset(w, bodies);
        Rebound r;
        world.add_observer(r, kOnResponse);
        step_all(world);
        CHECK(r.vy == Approx(e * landing).epsilon(1e-9));
    }
}

TEST_CASE("combine rules", "[world][friction]") {
    CHECK(combine_coefficients(Combine::max, 0.2, 0.6) == 0.6);
    CHECK(combine_coefficients(Combine::min, 0.2, 0.6) == 0.2);
    CHECK(combine_coefficients(Combine::average, 0.2, 0.6) == Approx(0.4));
    CHECK(combine_coefficients(Combine::multiply, 0.2, 0.6) == Approx(0.12));
}

TEST_CASE("a kinematic platform rising at 1 m/s carries a resting crate", "[world][kinematic]") {
    for (const Detection detection : {Detection::swept, Detection::discrete}) {
        INFO((detection == Detection::swept ? "swept" : "discrete"));
        const WorldDef w = world_at(60, 1, detection);
        BodyDef platform = fixed(Aabb{{-2, -0.25, -2}, {2, 0.25, 2}}, 0.5);
        platform.is_static = false;
        platform.kinematic = true;
        platform.velocity = {0, 1, 0};
        const double rest = 0.25 + 0.5; // set on it, touching
        const std::vector<BodyDef> bodies{platform,
                                          moving(Aabb{{-0.5, -0.5, -0.5}, {0.5, 0.5, 0.5}}, {0, rest, 0}, {}, 0.5)};
        World world;
        world.reset(w, bodies);
        step_all(world);
        CHECK(world.state(0).position.y == Approx(1.0).epsilon(1e-12)); // the platform's motion is exact
        CHECK(world.state(0).velocity.y == 1.0);
        CHECK(world.state(1).velocity.y == Approx(1.0).epsilon(1e-9));
        CHECK(world.state(1).position.y == Approx(1.0 + rest).epsilon(1e-6));
    }
}

TEST_CASE("a kinematic body is not moved by what it hits", "[world][kinematic]") {
    // A kinematic slab moving at 2 m/s along x meets a free ball and pushes it; the slab keeps
    // its velocity exactly.
    const WorldDef w = world_at(60, 1, Detection::swept);
    BodyDef slab = fixed(Aabb{{-0.1, -1, -1}, {0.1, 1, 1}}, 0);
    slab.is_static = false;
    slab.kinematic = true;
    slab.velocity = {2, 0, 0};
    WorldDef flat = w;
    flat.gravity = {};
    const std::vector<BodyDef> bodies{slab, moving(Sphere{{}, 0.3}, {1, 0, 0}, {}, 0)};
    World world;
    world.reset(flat, bodies);
    step_all(world);
    CHECK(world.state(0).velocity.x == 2.0);
    CHECK(world.state(0).position.x == Approx(2.0));
    CHECK(world.state(1).velocity.x == Approx(2.0).epsilon(1e-9)); // restitution 0: it rides on the slab
    CHECK(world.state(1).position.x > world.state(0).position.x + 0.1 + 0.3 - 1e-6);
}
