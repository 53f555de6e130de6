// Integration of bodies that turn: the exponential map, the gyroscopic term (a torque-free body
// keeps its angular momentum) and the tennis-racket flip of a box spun about its middle axis.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "shapes/mass.h"
#include "support.h"
#include "world/integrate.h"

using namespace collide;
using namespace collide::test;
using Catch::Detail::Approx;

TEST_CASE("exp_rotation turns by |θ| about θ, and keeps a tiny angle's direction", "[world][rigid][integrate]") {
    const Quat q = exp_rotation({0, 0, std::numbers::pi / 2});
    const Vec3 x = rotate(q, {1, 0, 0});
    CHECK(x.x == Approx(0).margin(1e-15));
    CHECK(x.y == Approx(1).margin(1e-15));
    const Quat tiny = exp_rotation({1e-9, 0, 0});
    CHECK(tiny.x == Approx(0.5e-9).epsilon(1e-12));
    CHECK(tiny.w == 1);
    const Quat none = exp_rotation({0, 0, 0});
    CHECK(none == Quat{});
}

TEST_CASE("a body spun about a principal axis without gravity turns at a constant rate", "[world][rigid][integrate]") {
    // ω = 2 rad/s about y for 1 s: the box's x axis ends 2 rad round, exactly (no integration error
    // for a rotation about a fixed axis).
    WorldDef def = world_def(60, 1.0, Detection::discrete, 0);
    BodyDef box = box_at({0, 0, 0}, {0.5, 0.2, 0.1});
    box.angular_velocity = {0, 2, 0};
    const std::vector<BodyDef> bodies{box};
    World world;
    world.reset(def, bodies);
    run(world);
    const Vec3 x = rotate(world.state(0).rotation, {1, 0, 0});
    CHECK(x.x == Approx(std::cos(2.0)).margin(1e-12));
    CHECK(x.z == Approx(-std::sin(2.0)).margin(1e-12));
    CHECK(world.state(0).angular_velocity.y == Approx(2).margin(1e-12));
}

TEST_CASE("a torque-free box spun about its middle axis keeps |L| and flips (the tennis-racket effect)",
          "[world][rigid][integrate]") {
    // Half extents (0.1, 0.25, 0.5): Ix = m/3·(0.25² + 0.5²) > Iy = m/3·(0.1² + 0.5²) > Iz, so y is the
    // middle axis, and a spin about it is unstable: a small wobble grows until the box flips over,
    // again and again, while its angular momentum L (world frame) never changes.
    WorldDef def = world_def(60, 10.0, Detection::discrete, 0);
    def.sleep = false;
    BodyDef box = box_at({0, 0, 0}, {0.1, 0.25, 0.5});
    box.angular_velocity = {0.01, 5, 0.01};
    const std::vector<BodyDef> bodies{box};
    World world;
    world.reset(def, bodies);
    const Mat3 inertia = mass_properties(bodies[0].shape, 1).inertia;
    const auto momentum = [&] {
        const BodyState s = world.state(0);
        const Mat3 R = to_mat3(s.rotation);
        return R * (inertia * mul_transpose(R, s.angular_velocity));
    };
    // The kinetic energy ½·ω·L is kept too: without it the box would drift to a spin about its
    // long axis, three and a half times as fast (L = I_y·5 = I_z·17.9).
    const auto energy = [&] { return 0.5 * dot(world.state(0).angular_velocity, momentum()); };
    const Vec3 l0 = momentum();
    const double e0 = energy();
    double worst = 0, worst_energy = 0, lowest_y = 1;
    int steps = 0, flips = 0;
    bool up = true;
    while (world.frames_stepped() < def.frames) {
        world.step_frame();
        worst = std::max(worst, std::fabs(length(momentum()) - length(l0)) / length(l0));
        worst_energy = std::max(worst_energy, std::fabs(energy() - e0) / e0);
        const double y = rotate(world.state(0).rotation, {0, 1, 0}).y;
        lowest_y = std::min(lowest_y, y);
        if ((up && y < -0.9) || (!up && y > 0.9)) { // over, or back
            up = !up;
            ++flips;
        }
        ++steps;
    }
    CHECK(steps == 601);
    CHECK(worst < 1e-6);
    CHECK(worst_energy < 1e-6);
    CHECK(length(momentum() - l0) < 1e-6 * length(l0));             // L itself, not only its size
    CHECK(lowest_y < -0.9);                                         // its y axis turned over: it flipped
    CHECK(flips >= 2);                                              // … and back: over and back, again and again
    CHECK(std::fabs(world.state(0).angular_velocity.y - 5) < 0.01); // upright again, at L/I_y
}

TEST_CASE("integrate velocities, on the tables: an awake dynamic body gains g·h, a sleeping or static one nothing",
          "[world][integrate][stages]") {
    std::vector<BodyDef> bodies{ground_at({0, -1, 0}, {10, 1, 10}), ball_at({0, 5, 0}, 0.5), ball_at({3, 5, 0}, 0.5)};
    bodies[1].velocity = {1, 2, 3};
    bodies[2].velocity = {0, 0, 0};
    WorldState w;
    StepScratch scratch;
    reset_world(w, scratch, world_def(60, 1.0), bodies);
    w.bodies[2].asleep = true;
    const StepContext ctx = make_step_context(w.def, 0.01, w.up);
    integrate_velocities(ctx, w);
    CHECK(w.sims[1].velocity == Vec3{1, 2 - kG * 0.01, 3});
    CHECK(w.sims[1].start_velocity == Vec3{1, 2, 3}); // where the step's motion starts
    CHECK(w.sims[2].velocity == Vec3{});
    CHECK(w.sims[0].velocity == Vec3{});
}

TEST_CASE("integrate positions, on the tables: a body no contact pushes follows the parabola p + v·h − ½·g·h²",
          "[world][integrate][stages]") {
    std::vector<BodyDef> bodies{ball_at({0, 5, 0}, 0.5)};
    bodies[0].velocity = {2, 3, -1};
    WorldState w;
    StepScratch scratch;
    reset_world(w, scratch, world_def(60, 1.0), bodies);
    const double h = 0.05;
    const StepContext ctx = make_step_context(w.def, h, w.up);
    integrate_velocities(ctx, w);
    begin_motion(ctx, w, scratch);
    advance(w, h);
    end_motion(w);
    const Vec3 p = w.state(0).position, v = w.state(0).velocity;
    CHECK(p.x == Approx(2 * h).margin(1e-15));
    CHECK(p.y == Approx(5 + 3 * h - 0.5 * kG * h * h).margin(1e-15));
    CHECK(p.z == Approx(-h).margin(1e-15));
    CHECK(v.y == Approx(3 - kG * h).margin(1e-15));
}
