// The persistent contacts (world/contacts.h): impulses carried from one step's points to the
// next by feature id, and by place where a point's name changed but it did not move.
#include <catch2/catch.hpp>

#include "world/contacts.h"

using namespace collide;

namespace {

/// One manifold of normal +y with points at `at` named by `ids`.
Manifold manifold_of(std::initializer_list<Vec3> at, std::initializer_list<std::uint32_t> ids) {
    Manifold m;
    m.normal = {0, 1, 0};
    auto id = ids.begin();
    for (const Vec3& p : at) m.points[static_cast<std::size_t>(m.count++)] = {p, 1e-4, *id++};
    return m;
}

} // namespace

TEST_CASE("carried impulses follow feature ids, then a renamed point in place, never a point that moved away",
          "[world][contacts]") {
    ContactSet old_set, new_set;
    const Manifold before = manifold_of({{0, 0, 0}, {1, 0, 0}, {1, 0, 1}}, {10, 11, 12});
    PairContact& from = old_set.add(0, 1, std::span(&before, 1));
    for (int k = 0; k < 3; ++k) {
        old_set.points[static_cast<std::size_t>(k)].normal_impulse = 1.0 + k;
        old_set.points[static_cast<std::size_t>(k)].tangent_impulse = {0.1 * k, 0, 0};
    }
    // Point 10 kept its name and moved a little; 11 was renamed 99 where it was (a rounding
    // chose the other edge that clipped it); 12 was renamed 98 and moved 2 mm (a new point).
    const Manifold after = manifold_of({{0, 1e-6, 0}, {1, 0, 1e-12}, {1, 0, 1.002}}, {10, 99, 98});
    PairContact& to = new_set.add(0, 1, std::span(&after, 1));
    carry_impulses(old_set, from, new_set, to, 2.0);
    CHECK(new_set.points[0].normal_impulse == 2.0);
    CHECK(new_set.points[1].normal_impulse == 4.0);
    CHECK(new_set.points[1].tangent_impulse.x == Approx(0.2));
    CHECK(new_set.points[2].normal_impulse == 0.0); // 2 mm > kCarryDistance
    STATIC_REQUIRE(kCarryDistance < 2e-3);
}

TEST_CASE("an old point gives its impulse to one new point only", "[world][contacts]") {
    ContactSet old_set, new_set;
    const Manifold before = manifold_of({{0, 0, 0}}, {7});
    PairContact& from = old_set.add(0, 1, std::span(&before, 1));
    old_set.points[0].normal_impulse = 3.0;
    // Two new points near it, neither of its name: the nearer takes it.
    const Manifold after = manifold_of({{0, 0, 4e-4}, {0, 0, 1e-4}}, {8, 9});
    PairContact& to = new_set.add(0, 1, std::span(&after, 1));
    carry_impulses(old_set, from, new_set, to, 1.0);
    CHECK(new_set.points[0].normal_impulse == 0.0);
    CHECK(new_set.points[1].normal_impulse == 3.0);
}
