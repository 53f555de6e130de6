// Coulomb friction, combine rules and kinematic bodies in the world, against closed forms:
// a ball sliding down a ramp, a box sliding to a stop, a ball landing with spin-free friction,
// a crate carried by a rising platform.
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

/// A 10 m ramp turned `degrees` about z (its top rises towards +x) and a 0.5 m ball resting on
/// it a skin above the surface, 2 m up the slope; returns how far down the slope it moved (m).
double ramp_slide(double degrees, double mu, double rate, Detection detection, FrictionModel model) {
    const double a = degrees * kPi / 180;
    const Vec3 u{std::cos(a), std::sin(a), 0}, v{-std::sin(a), std::cos(a), 0};
    WorldDef w = world_at(rate, 1.5, detection);
    w.friction_model = model;
    const Obb ramp{{0, 0, 0}, to_mat3(quat_from_axis_degrees({0, 0, 1}, degrees)), {5, 0.5, 1}};
    const Vec3 start = u * 2.0 + v * (0.5 + 0.5 + w.skin);
    const std::vector<BodyDef> bodies{fixed(ramp, mu), moving(Sphere{{}, 0.5}, start, {}, mu)};
    World world;
    world.reset(w, bodies);
    step_all(world);
    return dot(start - world.state(1).position, u);
}

} // namespace

TEST_CASE("a ball slides down a 20 degree ramp with mu 0.2 as s = g (sin - mu cos) T^2 / 2", "[world][friction]") {
    const double a = 20 * kPi / 180;
    const double exact = 0.5 * kG * (std::sin(a) - 0.2 * std::cos(a)) * 1.5 * 1.5; // 1.70 m
    for (const double rate : {30.0, 60.0, 120.0}) {
        INFO("rate " << rate);
        CHECK(ramp_slide(20, 0.2, rate, Detection::swept, FrictionModel::coulomb) == Approx(exact).epsilon(1e-4));
        CHECK(ramp_slide(20, 0.2, rate, Detection::discrete, FrictionModel::coulomb) == Approx(exact).epsilon(0.03));
    }
}

TEST_CASE("static friction holds a ball on a ramp when mu exceeds tan theta", "[world][friction]") {
    // tan 20° = 0.364 < 0.4.
    CHECK(std::abs(ramp_slide(20, 0.4, 60, Detection::swept, FrictionModel::coulomb)) <= 1e-6);
    CHECK(std::abs(ramp_slide(20, 0.4, 60, Detection::discrete, FrictionModel::coulomb)) <= 0.002);
}

TEST_CASE("the per-contact friction model takes (1 - f) of the slide at the landing and none while resting",
          "[world][friction]") {
    // Today's model before Coulomb friction: the ball falls the skin's normal gap (a vertical
    // drop of skin / cos θ), lands with its slide scaled by 1 − f, then rests frictionless.
    const double a = 20 * kPi / 180, skin = 0.001;
    const double drop = skin / std::cos(a), t_fall = std::sqrt(2 * drop / kG), v = kG * t_fall;
    const double slide_after = v * std::sin(a) * (1 - 0.2), rest = 1.5 - t_fall;
    const double expected = drop * std::sin(a) + slide_after * rest + 0.5 * kG * std::sin(a) * rest * rest;
    CHECK(ramp_slide(20, 0.2, 60, Detection::swept, FrictionModel::per_contact) == Approx(expected).epsilon(1e-4));
}

TEST_CASE("a box sliding at 5 m/s with mu 0.3 stops after v^2 / (2 mu g)", "[world][friction]") {
    const double stop = 25 / (2 * 0.3 * kG); // 4.2475 m, reached at t = 5 / (0.3 g) = 1.70 s
    for (const Detection detection : {Detection::swept, Detection::discrete}) {
        for (const double rate : {30.0, 60.0, 120.0}) {
            INFO("rate " << rate << (detection == Detection::swept ? " swept" : " discrete"));
            const WorldDef w = world_at(rate, 3, detection);
            const std::vector<BodyDef> bodies{
                    fixed(Aabb{{-10, -1, -2}, {50, 0, 2}}, 0.3),
                    moving(Aabb{{-0.5, -0.5, -0.5}, {0.5, 0.5, 0.5}}, {0, 0.5 + w.skin, 0}, {5, 0, 0}, 0.3)};
            World world;
            world.reset(w, bodies);
            step_all(world);
            const double tolerance = detection == Detection::swept ? 1e-4 : 0.03;
            CHECK(world.state(1).position.x == Approx(stop).epsilon(tolerance));
            CHECK(world.state(1).velocity.x == Approx(0).margin(1e-9));
            CHECK(world.state(1).position.y == Approx(0.5 + w.skin).margin(1e-6));
        }
    }
}

TEST_CASE("a ball landing while moving sideways loses mu times its landing speed, then slides to a stop",
          "[world][friction]") {
    // Dropped 1 m (its bottom 1 m above the floor) at 4 m/s sideways, restitution 0, mu 0.5:
    // it lands at t1 = sqrt(2/g) with vy = -sqrt(2 g); the impact takes mu·|vy| off the
    // sideways speed, then kinetic friction stops it after v'^2 / (2 mu g).
    const double mu = 0.5, t1 = std::sqrt(2 / kG), vy = std::sqrt(2 * kG);
    const double v_after = 4 - mu * vy;
    const double x_end = 4 * t1 + v_after * v_after / (2 * mu * kG);
    const WorldDef w = world_at(60, 2, Detection::swept);
    const std::vector<BodyDef> bodies{fixed(Aabb{{-10, -1, -2}, {50, 0, 2}}, mu),
                                      moving(Sphere{{}, 0.5}, {0, 1.5, 0}, {4, 0, 0}, mu)};
    World world;
    world.reset(w, bodies);
    step_all(world);
    CHECK(world.state(1).position.x == Approx(x_end).epsilon(1e-6));
    CHECK(world.state(1).velocity.x == Approx(0).margin(1e-9));
}

TEST_CASE("a pair's restitution combines by the world's rule", "[world][friction]") {
    struct Rebound : WorldObserver {
        double vy = 0;
        void on_response(const World&, int body, const Vec3&, const Vec3& after) override {
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
        const double rest = 0.25 + 0.5 + w.skin;
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
