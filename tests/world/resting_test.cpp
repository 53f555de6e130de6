// The resting estimate (world/resting.h): bodies set in contact at t = 0 start holding their
// weight, passed down the contacts from the top.
#include <catch2/catch.hpp>

#include <vector>

#include "support.h"

using namespace collide;
using namespace collide::test;
using Catch::Detail::Approx;

namespace {

/// The normal impulses of the contact between bodies i and j, point by point (N·s).
std::vector<double> impulses(const WorldState& w, int i, int j) {
    std::vector<double> out;
    for (const PairContact& pc : w.contacts.pairs)
        if (pc.i == i && pc.j == j)
            for (const PairManifold& m : w.contacts.manifolds_of(pc))
                for (const ContactPoint& p : w.contacts.points_of(m)) out.push_back(p.normal_impulse);
    return out;
}

} // namespace

TEST_CASE("resting estimate: a stack of two cubes starts with the weight above each contact, m·g·h a cube, shared "
          "by its four corners",
          "[world][resting]") {
    // Unit cubes of 1 kg on a ground box; the first step is dt = 1/60 s. The top contact carries
    // one cube's weight over the step, the bottom one two, each in equal quarters (the corners are
    // symmetric about the centre, so the least-squares balance shares the load equally).
    const std::vector<BodyDef> bodies{ground_at({0, -1, 0}, {10, 1, 10}), box_at({0, 0.5, 0}, {0.5, 0.5, 0.5}),
                                      box_at({0, 1.5, 0}, {0.5, 0.5, 0.5})};
    WorldState w;
    StepScratch scratch;
    const WorldDef def = world_def(60, 1.0);
    reset_world(w, scratch, def, bodies);
    const double weight = 1.0 * kG * def.dt;
    const std::vector<double> top = impulses(w, 1, 2), bottom = impulses(w, 0, 1);
    REQUIRE(top.size() == 4);
    REQUIRE(bottom.size() == 4);
    for (const double p : top) CHECK(p == Approx(weight / 4).epsilon(1e-12));
    for (const double p : bottom) CHECK(p == Approx(2 * weight / 4).epsilon(1e-12));
}

TEST_CASE("resting estimate: nothing without gravity, nothing for bodies apart", "[world][resting]") {
    const std::vector<BodyDef> bodies{ground_at({0, -1, 0}, {10, 1, 10}), box_at({0, 0.5, 0}, {0.5, 0.5, 0.5})};
    WorldState w;
    StepScratch scratch;
    reset_world(w, scratch, world_def(60, 1.0, Detection::discrete, 0), bodies);
    for (const double p : impulses(w, 0, 1)) CHECK(p == 0);
}
