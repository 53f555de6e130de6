// The world's tables (world/world_state.h): what the predicates say of a body and a pair, the
// placed shape and bounds, and the notifications every stage sends.
#include <catch2/catch.hpp>

#include <vector>

#include "support.h"

using namespace collide;
using namespace collide::test;
using Catch::Detail::Approx;

namespace {

/// Bodies of every kind: 0 static ground, 1 dynamic ball (ccd), 2 dynamic box (speculative),
/// 3 kinematic box moving, 4 kinematic box still, 5 trigger, 6 character.
std::vector<BodyDef> every_kind() {
    std::vector<BodyDef> b{ground_at({0, -1, 0}, {10, 1, 10}), ball_at({0, 1, 0}, 0.5),
                           box_at({2, 1, 0}, {0.5, 0.5, 0.5})};
    b[1].ccd = true;
    b[2].speculative = true;
    b.push_back(box_at({4, 1, 0}, {0.5, 0.5, 0.5}));
    b.back().kinematic = true;
    b.back().velocity = {1, 0, 0};
    b.push_back(box_at({6, 1, 0}, {0.5, 0.5, 0.5}));
    b.back().kinematic = true;
    b.push_back(box_at({8, 1, 0}, {0.5, 0.5, 0.5}));
    b.back().trigger = true;
    b.push_back(box_at({-4, 1, 0}, {0.3, 0.9, 0.3}));
    b.back().character = true;
    return b;
}

} // namespace

TEST_CASE("world tables: which bodies move and which pairs can touch, are swept or are speculative",
          "[world][tables]") {
    const std::vector<BodyDef> bodies = every_kind();
    WorldState w;
    StepScratch scratch;
    reset_world(w, scratch, world_def(60, 1.0, Detection::discrete), bodies);
    CHECK_FALSE(w.moves(0));
    CHECK(w.moves(1));
    CHECK(w.moves(3));       // kinematic with a velocity
    CHECK_FALSE(w.moves(4)); // kinematic, still
    w.bodies[1].asleep = true;
    CHECK_FALSE(w.moves(1)); // asleep
    w.bodies[1].asleep = false;
    CHECK(w.pair_can_touch(0, 1));
    CHECK_FALSE(w.pair_can_touch(0, 3)); // neither is dynamic
    CHECK_FALSE(w.pair_can_touch(1, 5)); // a trigger is in no pair
    CHECK(w.pair_is_swept(0, 1));        // the ball is ccd
    CHECK_FALSE(w.pair_is_swept(0, 2));
    CHECK_FALSE(w.pair_is_swept(1, 6)); // never a character
    CHECK(w.pair_is_speculative(0, 2));
    CHECK_FALSE(w.pair_is_speculative(1, 2)); // swept wins
}

TEST_CASE("world tables: a body's placed shape and bounds follow it, its state is its origin's", "[world][tables]") {
    std::vector<BodyDef> bodies{box_at({1, 2, 3}, {0.5, 0.25, 0.125})};
    WorldState w;
    StepScratch scratch;
    reset_world(w, scratch, world_def(60, 1.0), bodies);
    CHECK(w.bounds(0).min == Vec3{0.5, 1.75, 2.875});
    w.sims[0].centre += Vec3{1, 0, 0};
    w.bodies[0].dirty = true;
    const Aabb& placed = std::get<Aabb>(w.placed(0));
    CHECK(placed.min == Vec3{1.5, 1.75, 2.875});
    CHECK(placed.max == Vec3{2.5, 2.25, 3.125});
    CHECK(w.state(0).position == Vec3{2, 2, 3});
}

namespace {

/// Keeps the responses it hears of, in order.
struct Responses final : EngineObserver {
    std::vector<int> bodies;
    void on_response(const EngineView&, int body, const Vec3&, const Vec3&) override { bodies.push_back(body); }
};

} // namespace

TEST_CASE("world tables: each body a response changed is told of once, in body order", "[world][tables]") {
    // Three balls in a row, two contacts (1–2 and 2–3 by index order: 2 twice).
    std::vector<BodyDef> bodies{ball_at({0, 0, 0}, 0.5), ball_at({1, 0, 0}, 0.5), ball_at({2, 0, 0}, 0.5),
                                ball_at({3, 0, 0}, 0.5)};
    WorldState w;
    StepScratch scratch;
    reset_world(w, scratch, world_def(60, 1.0, Detection::discrete, 0), bodies);
    World view; // (what observers are shown; not read here)
    w.view = &view;
    Responses heard;
    w.listeners.push_back({&heard, kOnResponse});
    w.wanted = kOnResponse;
    std::vector<SolverContact> contacts(2);
    contacts[0].a = 2;
    contacts[0].b = 3;
    contacts[1].a = 1;
    contacts[1].b = 2;
    save_velocities(w, scratch, contacts);
    w.sims[3].velocity = {1, 0, 0};
    w.sims[2].velocity = {-1, 0, 0};
    w.sims[1].velocity = {0, 1, 0};
    tell_responses(w, scratch, contacts);
    CHECK(heard.bodies == std::vector<int>{1, 2, 3});
    heard.bodies.clear();
    save_velocities(w, scratch, contacts);
    tell_responses(w, scratch, contacts); // nothing changed since
    CHECK(heard.bodies.empty());
}
