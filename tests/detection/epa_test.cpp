// EPA depth and normal against hand-solved overlaps, and the contact properties over random
// convex pairs (GJK + EPA through contact_gjk_epa).
#include <catch2/catch.hpp>

#include <cmath>

#include "detection/contact_convex.h"
#include "detection/epa.h"
#include "detection/shape_gen.h"
#include "support/approx.h"

using namespace collide;
using collide::test::near_vec;

namespace {
EpaResult run_epa(const Shape& a, const Shape& b) {
    const GjkResult g = gjk_distance(a, b);
    REQUIRE(g.cores_overlap);
    return epa_penetration(a, b, g.simplex);
}
} // namespace

TEST_CASE("epa: overlapping axis-aligned boxes give the minimum translation along x") {
    // Overlaps: x 1 − 0.7 = 0.3, y 1 − (−0.2) = 1.2, z 2: the MTV is 0.3 along +x.
    const EpaResult r = run_epa(Aabb{{-1, -1, -1}, {1, 1, 1}}, Aabb{{0.7, -0.2, -5}, {2.7, 1.8, 5}});
    CHECK(r.converged);
    CHECK(r.depth == Approx(0.3).margin(1e-12));
    CHECK_THAT(r.normal, near_vec({1, 0, 0}, 1e-12));
}

TEST_CASE("epa: a box sunk 0.25 into a box below it is pushed up by 0.25") {
    const EpaResult r = run_epa(Aabb{{-2, -1, -2}, {2, 0, 2}}, Aabb{{-0.5, -0.25, -0.5}, {0.5, 0.75, 0.5}});
    CHECK(r.depth == Approx(0.25).margin(1e-12));
    CHECK_THAT(r.normal, near_vec({0, 1, 0}, 1e-12));
}

TEST_CASE("epa: a sphere whose centre is inside a box leaves through the nearest face plus its radius") {
    // Centre 0.4 from the +x face, radius 0.2: depth 0.6 along +x (box → sphere).
    const EpaResult r = run_epa(Aabb{{-1, -1, -1}, {1, 1, 1}}, Sphere{{0.6, 0.1, 0}, 0.2});
    CHECK(r.depth == Approx(0.6).margin(1e-12));
    CHECK_THAT(r.normal, near_vec({1, 0, 0}, 1e-12));
}

TEST_CASE("epa: crossing capsule cores give the radii as depth across both segments") {
    // Segments along x and y cross at the origin: the cores' difference is a flat square, so
    // the depth is 0.3 + 0.2 across it, along ±z (both centres coincide, so either sign).
    const EpaResult r = run_epa(Capsule{{-1, 0, 0}, {1, 0, 0}, 0.3}, Capsule{{0, -1, 0}, {0, 1, 0}, 0.2});
    CHECK(r.flat);
    CHECK(r.depth == Approx(0.5).margin(1e-12));
    CHECK(std::fabs(r.normal.z) == Approx(1).margin(1e-12));
}

TEST_CASE("epa: concentric spheres give the sum of radii and a finite unit normal") {
    const EpaResult r = run_epa(Sphere{{1, 2, 3}, 0.5}, Sphere{{1, 2, 3}, 0.25});
    CHECK(r.depth == Approx(0.75).margin(1e-12));
    CHECK(length(r.normal) == Approx(1).margin(1e-12));
}

TEST_CASE("contact_gjk_epa: overlapping spheres give r1 + r2 − d along the centre line") {
    const auto c = contact_gjk_epa(Sphere{{0, 0, 0}, 1}, Sphere{{1.2, 1.6, 0}, 1.5});
    REQUIRE(c);
    CHECK(c->depth == Approx(0.5).margin(1e-12));
    CHECK_THAT(c->normal, near_vec({0.6, 0.8, 0}, 1e-12));
}

TEST_CASE("contact_gjk_epa: boxes exactly touching face to face are not a contact") {
    CHECK_FALSE(contact_gjk_epa(Aabb{{0, 0, 0}, {1, 1, 1}}, Aabb{{1, 0, 0}, {2, 1, 1}}));
}

TEST_CASE("contact_gjk_epa: swapping A and B flips the normal and keeps the depth") {
    collide::test::ShapeGen gen(2024);
    int contacts = 0;
    for (int i = 0; i < 3000; ++i) {
        const Shape a = gen.any();
        const Shape b = gen.any();
        const auto ab = contact_gjk_epa(a, b);
        const auto ba = contact_gjk_epa(b, a);
        REQUIRE(ab.has_value() == ba.has_value());
        if (!ab) continue;
        ++contacts;
        REQUIRE(ab->depth == Approx(ba->depth).margin(1e-9));
        REQUIRE(length(ab->normal) == Approx(1).margin(1e-12));
        REQUIRE_THAT(ba->normal, near_vec(-ab->normal, 1e-6));
    }
    CHECK(contacts > 1000);
}

TEST_CASE("contact_gjk_epa: moving B by normal·(depth + 1e-7) leaves them 1e-7 apart") {
    collide::test::ShapeGen gen(77);
    int contacts = 0, through_epa = 0;
    for (int i = 0; i < 3000; ++i) {
        const Shape a = gen.any();
        const Shape b = gen.any();
        const auto c = contact_gjk_epa(a, b);
        if (!c) continue;
        ++contacts;
        if (gjk_distance(a, b).cores_overlap) ++through_epa;
        const GjkResult after = gjk_distance(a, translate(b, c->normal * (c->depth + 1e-7)));
        REQUIRE_FALSE(after.overlap);
        REQUIRE(after.distance == Approx(1e-7).margin(1e-9));
    }
    CHECK(contacts > 1000);
    CHECK(through_epa > 500);
}

TEST_CASE("contact_gjk_epa: the depth is the least push-out among random directions") {
    // Moving B by (depth − 1e-7) along any direction must leave them overlapping: EPA's depth is
    // the minimum over all directions, so no random direction separates them with less.
    collide::test::ShapeGen gen(5);
    int pairs = 0, directions = 0;
    for (int i = 0; i < 1000; ++i) {
        const Shape a = gen.any();
        const Shape b = gen.any();
        const auto c = contact_gjk_epa(a, b);
        if (!c || c->depth < 1e-6) continue;
        ++pairs;
        for (int k = 0; k < 10; ++k) {
            const Vec3 d = normalize(gen.point(1.0));
            if (length_squared(d) == 0) continue;
            ++directions;
            const double gap = dot(d, support(b, -d)) - dot(d, support(a, d));
            // −gap is the push along d that separates them: never less than the depth.
            REQUIRE(-gap >= c->depth - 1e-9);
        }
    }
    // Measured 409 pairs deeper than 1e-6 of 1000, and all 10 directions of each checked.
    REQUIRE(pairs >= 200);
    REQUIRE(directions >= 2000);
}

TEST_CASE("contact_gjk_epa: pairs 1 km from the origin give the same depth and normal as at the origin") {
    collide::test::ShapeGen gen(606);
    const Vec3 far{1000, -500, 2000};
    int contacts = 0;
    for (int i = 0; i < 1000; ++i) {
        const Shape a = gen.any(), b = gen.any();
        const auto near_origin = contact_gjk_epa(a, b);
        const auto far_away = contact_gjk_epa(translate(a, far), translate(b, far));
        if (!near_origin || near_origin->depth < 1e-6) continue;
        ++contacts;
        REQUIRE(far_away);
        REQUIRE(far_away->depth == Approx(near_origin->depth).margin(1e-9));
        REQUIRE_THAT(far_away->normal, near_vec(near_origin->normal, 1e-6));
    }
    CHECK(contacts > 300);
}
