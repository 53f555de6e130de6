// Stacking and sleep: a pyramid of cubes stands and falls asleep; a sleeping body wakes when
// something moving touches it.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "support.h"
#include "world/sleep.h"

using namespace collide;
using namespace collide::test;

namespace {

/// A pyramid of unit cubes in the x–y plane, `base` on the bottom row, 1 cm apart, on a ground
/// box (the bullet_rigid peer's scene): ground first, then the cubes row by row.
std::vector<BodyDef> pyramid(int base) {
    std::vector<BodyDef> bodies{ground_at({0, -1, 0}, {100, 1, 100}, {}, 0.6)};
    for (int row = 0; row < base; ++row)
        for (int i = 0; i < base - row; ++i)
            bodies.push_back(box_at({(i - (base - row - 1) * 0.5) * 1.01, 0.5 + row, 0}, {0.5, 0.5, 0.5}, {}, 0.6));
    return bodies;
}

} // namespace

TEST_CASE("a 20-row pyramid of 210 cubes stands 10 s, every cube within 1 cm of its start, and sleeps",
          "[world][rigid][sleep]") {
    const std::vector<BodyDef> bodies = pyramid(20);
    REQUIRE(bodies.size() == 211);
    World world;
    world.reset(world_def(60, 10.0, Detection::discrete), bodies);
    run(world);
    double worst = 0;
    int asleep = 0;
    for (int k = 1; k < world.body_count(); ++k) {
        worst = std::max(worst, length(world.state(k).position - bodies[static_cast<std::size_t>(k)].position));
        asleep += world.is_asleep(k) ? 1 : 0;
    }
    INFO("worst drift " << worst << " m");
    CHECK(worst < 0.01);
    CHECK(asleep == 210);
}

TEST_CASE("a sleeping box wakes when a ball lands on it", "[world][rigid][sleep]") {
    // The box sits on the floor from t = 0 and sleeps after rest_time (0.25 s); the ball, dropped
    // from 3 m above it, lands at t = √(2·(3 − 1.25)/g) ≈ 0.6 s and wakes it.
    std::vector<BodyDef> bodies{ground_at({0, -1, 0}, {5, 1, 5}), box_at({0, 0.5, 0}, {0.5, 0.5, 0.5}),
                                ball_at({0.3, 4, 0}, 0.25, 0, 0.5)};
    World world;
    world.reset(world_def(60, 1.0, Detection::discrete), bodies);
    bool slept = false, woke = false;
    while (world.frames_stepped() < world.def().frames) {
        world.step_frame();
        if (world.is_asleep(1)) slept = true;
        if (slept && !world.is_asleep(1)) woke = true;
    }
    CHECK(slept);
    CHECK(woke);
}

TEST_CASE("with world.sleep false nothing sleeps", "[world][rigid][sleep]") {
    std::vector<BodyDef> bodies{ground_at({0, -1, 0}, {5, 1, 5}), box_at({0, 0.5, 0}, {0.5, 0.5, 0.5})};
    WorldDef def = world_def(60, 1.0, Detection::discrete);
    def.sleep = false;
    World world;
    world.reset(def, bodies);
    run(world);
    CHECK_FALSE(world.is_asleep(1));
}

TEST_CASE("update sleep, on the tables: a still body on the ground sleeps after rest_time, one in flight never",
          "[world][sleep][stages]") {
    // Ball 1 rests on the ground (in contact from the start); ball 2 floats, as slow, touching
    // nothing (no gravity: nothing changes but what update_sleep does).
    std::vector<BodyDef> bodies{ground_at({0, -1, 0}, {10, 1, 10}), ball_at({0, 0.5, 0}, 0.5), ball_at({5, 3, 0}, 0.5)};
    bodies[1].velocity = bodies[2].velocity = {0.001, 0, 0}; // slower than rest_speed (0.01 m/s)
    WorldDef def = world_def(60, 1.0, Detection::discrete, 0);
    WorldState w;
    StepScratch scratch;
    reset_world(w, scratch, def, bodies);
    REQUIRE(w.contacts.size() == 1);
    const StepContext ctx = make_step_context(w.def, def.rest_time / 4, w.up);
    for (int k = 0; k < 3; ++k) update_sleep(ctx, w, scratch);
    CHECK_FALSE(w.bodies[1].asleep); // still for 3/4 of rest_time
    update_sleep(ctx, w, scratch);
    CHECK(w.bodies[1].asleep);
    CHECK(w.sims[1].velocity == Vec3{}); // a sleeping body's velocity is zeroed
    CHECK_FALSE(w.bodies[2].asleep);     // in free flight: its drift goes on
    CHECK(w.sims[2].velocity == Vec3{0.001, 0, 0});
}
