// Updating the contacts at a step's end (world/contacts_update.cpp): which pairs come into and
// stay in contact, and the impulses their points carry to the next step for warm starting.
#include <catch2/catch.hpp>

#include <vector>

#include "support.h"
#include "world/contacts_update.h"

using namespace collide;
using namespace collide::test;
using Catch::Detail::Approx;

namespace {

/// The normal impulses of pair (0, 1)'s points as the last step left them, added up (N·s).
double pair_impulse(const World& world) {
    double sum = 0;
    for (const PairContact& pc : world.contacts().pairs) {
        if (pc.i != 0 || pc.j != 1) continue;
        for (const PairManifold& m : world.contacts().manifolds_of(pc))
            for (const ContactPoint& p : world.contacts().points_of(m)) sum += p.normal_impulse;
    }
    return sum;
}

} // namespace

TEST_CASE("a resting box's contact carries the impulse that holds it, m·g·dt a step, to the next step",
          "[world][contacts]") {
    // A 2 kg cube set on the floor: every step its four points together carry its weight over the
    // step, m·g·dt, and the update hands that on to the next step's warm start.
    for (const Detection detection : {Detection::discrete, Detection::swept, Detection::speculative}) {
        BodyDef cube = box_at({0, 0.5, 0}, {0.5, 0.5, 0.5}, {}, 0.5);
        cube.mass = 2;
        const std::vector<BodyDef> bodies{ground_at({0, -1, 0}, {5, 1, 5}, {}, 0.5), cube};
        WorldDef def = world_def(60, 1.0, detection);
        def.sleep = false;
        World world;
        world.reset(def, bodies);
        for (int k = 0; k < 30; ++k) world.step_frame();
        REQUIRE(world.contacts().size() == 1);
        CHECK(pair_impulse(world) == Approx(2 * kG / 60).epsilon(1e-9));
        CHECK(world.state(1).position.y == Approx(0.5).margin(1e-9));
    }
}

TEST_CASE("a pair stays in contact within the skin and leaves it beyond, and a falling pair comes in on touching",
          "[world][contacts]") {
    // A ball thrown up from the floor at 3 m/s: in contact at the start (resting on it), out of
    // contact once it is more than the skin plus its reach above, back in when it lands.
    BodyDef ball = ball_at({0, 0.5, 0}, 0.5);
    ball.velocity = {0, 3, 0};
    const std::vector<BodyDef> bodies{ground_at({0, -1, 0}, {5, 1, 5}), ball};
    WorldDef def = world_def(60, 1.0, Detection::swept);
    World world;
    world.reset(def, bodies);
    CHECK(world.contacts().size() == 1);
    bool left = false, back = false;
    while (world.frames_stepped() < def.frames) {
        world.step_frame();
        const double gap = world.state(1).position.y - 0.5;
        const bool in = world.contacts().size() == 1;
        if (!in) left = true;
        if (left && in) back = true;
        // Never in contact farther than the skin plus how far it can move in a step.
        if (in) CHECK(gap <= def.skin + (length(world.state(1).velocity) + kG / 60) / 60 + 1e-12);
        // Never out of contact touching.
        if (!in) CHECK(gap > def.skin);
    }
    CHECK(left);
    CHECK(back);
}

TEST_CASE("a pair in contact with a gap that meets at a time of impact is one contact afterwards, not two",
          "[world][contacts][continuous]") {
    // A cube set 0.5 mm above the floor is in contact from the start (within the skin) and cast
    // (a gap at every point): it lands inside the first step. The update finds the pair both
    // among the old contacts and among the step's impacts; it must keep one contact of it. Two
    // were kept before (the seam scene had such a double for 953 frames), and the solver pushed
    // on the pair twice.
    for (const double e : {0.0, 0.5}) {
        INFO("e " << e);
        const std::vector<BodyDef> bodies{ground_at({0, -1, 0}, {5, 1, 5}, {}, 0.3, e),
                                          box_at({0, 0.5005, 0}, {0.5, 0.5, 0.5}, {}, 0.3, e)};
        World world;
        world.reset(world_def(60, 0.5), bodies);
        for (int k = 0; k < 10; ++k) {
            world.step_frame();
            int pairs = 0;
            for (const PairContact& pc : world.contacts().pairs) pairs += pc.i == 0 && pc.j == 1;
            CHECK(pairs <= 1);
        }
    }
}

TEST_CASE("update reach, on the tables: |v|·h + ½·g·h² (+ |ω|·ρ·h for a body that turns), 0 for a static body",
          "[world][contacts][stages]") {
    std::vector<BodyDef> bodies{ground_at({0, -1, 0}, {10, 1, 10}), ball_at({0, 5, 0}, 0.5),
                                box_at({3, 5, 0}, {0.5, 0.2, 0.1})};
    bodies[1].velocity = {3, 4, 0}; // |v| = 5
    bodies[2].velocity = {0, 0, 2};
    bodies[2].angular_velocity = {0, 0, 6};
    WorldState w;
    StepScratch scratch;
    reset_world(w, scratch, world_def(60, 1.0), bodies);
    const double h = 0.1, fall = 0.5 * kG * h * h;
    update_reach(w, h);
    CHECK(w.reach[0] == 0);
    CHECK(w.reach[1] == Approx(5 * h + fall).epsilon(1e-15)); // a ball's turn moves no point of it
    CHECK(w.reach[2] == Approx(2 * h + fall + 6 * std::sqrt(0.5 * 0.5 + 0.2 * 0.2 + 0.1 * 0.1) * h).epsilon(1e-15));
}

TEST_CASE(
        "update contacts, on the tables: two overlapping balls come into contact, normal from the first to the second",
        "[world][contacts][stages]") {
    std::vector<BodyDef> bodies{ball_at({0, 5, 0}, 0.5), ball_at({0.9, 5, 0}, 0.5)};
    WorldState w;
    StepScratch scratch;
    WorldDef def = world_def(60, 1.0, Detection::discrete, 0);
    reset_world(w, scratch, def, bodies);
    REQUIRE(w.contacts.size() == 1); // overlapping at the start (0.1 m deep)
    w.contacts.clear();
    const StepContext ctx = make_step_context(w.def, def.dt, w.up);
    update_reach(w, def.dt);
    update_contacts(ctx, w, scratch, false);
    REQUIRE(w.contacts.size() == 1);
    const PairContact& pc = w.contacts.pairs[0];
    CHECK(pc.i == 0);
    CHECK(pc.j == 1);
    CHECK(pc.overlapping);
    const PairManifold& m = w.contacts.manifolds_of(pc)[0];
    CHECK(m.normal.x == Approx(1).margin(1e-15));
    CHECK(w.contacts.points_of(m)[0].found.depth == Approx(0.1).margin(1e-12));
}

TEST_CASE("on several threads the contact update places the frozen contacts among the found ones as one thread does",
          "[world][contacts][threads]") {
    // 3,000 balls side by side on a floor, touching their neighbours; every third asleep. A
    // sleeping ball's contact with the floor is frozen (neither body moves): it stays as it was,
    // in its place among the candidates' contacts, which span several of the walk's blocks.
    std::vector<BodyDef> bodies{ground_at({1500, -0.5, 0}, {1600, 0.5, 2})};
    for (int k = 0; k < 3000; ++k) bodies.push_back(ball_at({static_cast<double>(k), 0.5, 0}, 0.5));
    const WorldDef def = world_def(60, 1.0, Detection::discrete);
    const auto update = [&](int threads) {
        WorldState w;
        StepScratch scratch;
        w.threads.set_threads(threads);
        reset_world(w, scratch, def, bodies);
        for (int k = 1; k < w.body_count(); k += 3) w.body(k).asleep = true;
        const StepContext ctx = make_step_context(w.def, def.dt, w.up);
        update_reach(w, def.dt);
        update_contacts(ctx, w, scratch, false);
        return w.contacts;
    };
    const ContactSet one = update(1);
    REQUIRE(one.size() > 4000); // 3,000 on the floor, 2,999 between neighbours
    std::size_t frozen = 0;
    for (const PairContact& pc : one.pairs) frozen += pc.i == 0 && (pc.j - 1) % 3 == 0 ? 1 : 0;
    REQUIRE(frozen == 1000);
    for (const int threads : {2, 3, 8}) {
        INFO(threads << " threads");
        const ContactSet got = update(threads);
        REQUIRE(got.size() == one.size());
        std::size_t differ = 0;
        for (std::size_t k = 0; k < one.size(); ++k) {
            const PairContact &a = one.pairs[k], &b = got.pairs[k];
            differ += a.i != b.i || a.j != b.j || a.count != b.count || a.first != b.first ? 1 : 0;
        }
        CHECK(differ == 0);
        REQUIRE(got.manifolds.size() == one.manifolds.size());
        REQUIRE(got.points.size() == one.points.size());
        for (std::size_t k = 0; k < one.points.size(); ++k) {
            differ += one.points[k].found.point == got.points[k].found.point ? 0 : 1;
            differ += one.points[k].found.depth == got.points[k].found.depth ? 0 : 1;
        }
        CHECK(differ == 0);
    }
}
