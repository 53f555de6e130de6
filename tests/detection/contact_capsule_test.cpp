// Capsule closed forms against hand-solved overlaps and against GJK/EPA on random pairs.
#include <catch2/catch.hpp>

#include <cmath>

#include "detection/contact_capsule.h"
#include "detection/contact_convex.h"
#include "detection/shape_gen.h"
#include "support/approx.h"

using namespace collide;
using collide::test::near_vec;

TEST_CASE("closest_points_segments: skew segments meet their common perpendicular") {
    // x axis −1…1 and the line x = 0.5, z = 2 along y: closest (0.5, 0, 0) and (0.5, 0, 2).
    const SegmentClosest c = closest_points_segments({-1, 0, 0}, {1, 0, 0}, {0.5, -1, 2}, {0.5, 3, 2});
    CHECK_THAT(c.point1, near_vec({0.5, 0, 0}));
    CHECK_THAT(c.point2, near_vec({0.5, 0, 2}));
    CHECK(c.s == Approx(0.75));
    CHECK(c.t == Approx(0.25));
}

TEST_CASE("closest_points_segments: a point against a segment clamps to the end") {
    const SegmentClosest c = closest_points_segments({3, 1, 0}, {3, 1, 0}, {0, 0, 0}, {2, 0, 0});
    CHECK_THAT(c.point2, near_vec({2, 0, 0}));
    CHECK_THAT(c.point1, near_vec({3, 1, 0}));
}

TEST_CASE("contact_capsule_capsule: skew capsules 2 m apart with radii 1.2 and 1 overlap by 0.2 along +z") {
    const auto c =
            contact_capsule_capsule(Capsule{{-1, 0, 0}, {1, 0, 0}, 1.2}, Capsule{{0.5, -1, 2}, {0.5, 3, 2}, 1.0});
    REQUIRE(c);
    CHECK(c->depth == Approx(0.2).margin(1e-12));
    CHECK_THAT(c->normal, near_vec({0, 0, 1}));
}

TEST_CASE("contact_capsule_capsule: crossing cores push apart across both, towards B") {
    const auto c =
            contact_capsule_capsule(Capsule{{-1, 0, 0}, {1, 0, 0}, 0.3}, Capsule{{0, -1, 0.1}, {0, 1, 0.1}, 0.2});
    REQUIRE(c);
    CHECK(c->depth == Approx(0.4).margin(1e-12));
    CHECK_THAT(c->normal, near_vec({0, 0, 1}));
    const auto crossing =
            contact_capsule_capsule(Capsule{{-1, 0, 0}, {1, 0, 0}, 0.3}, Capsule{{0.2, -1, 0}, {0.2, 1, 0}, 0.2});
    REQUIRE(crossing);
    CHECK(crossing->depth == Approx(0.5).margin(1e-12));
    CHECK(std::fabs(crossing->normal.z) == Approx(1).margin(1e-12));
}

TEST_CASE("contact_capsule_capsule: capsules with a gap are not a contact") {
    CHECK_FALSE(contact_capsule_capsule(Capsule{{-1, 0, 0}, {1, 0, 0}, 0.5}, Capsule{{0, -1, 2}, {0, 1, 2}, 0.5}));
    // Exactly touching (gap 2 = 1 + 1) is not a contact either.
    CHECK_FALSE(contact_capsule_capsule(Capsule{{-1, 0, 0}, {1, 0, 0}, 1}, Capsule{{0, -1, 2}, {0, 1, 2}, 1}));
}

TEST_CASE("contact_capsule_sphere: a sphere beside a standing capsule is pushed out sideways") {
    // Capsule core along y from 0 to 2, radius 0.5; sphere at (0.8, 1, 0) radius 0.5: d = 0.8.
    const auto c = contact_capsule_sphere(Capsule{{0, 0, 0}, {0, 2, 0}, 0.5}, Sphere{{0.8, 1, 0}, 0.5});
    REQUIRE(c);
    CHECK(c->depth == Approx(0.2).margin(1e-12));
    CHECK_THAT(c->normal, near_vec({1, 0, 0}));
    const auto flipped = contact_sphere_capsule(Sphere{{0.8, 1, 0}, 0.5}, Capsule{{0, 0, 0}, {0, 2, 0}, 0.5});
    REQUIRE(flipped);
    CHECK_THAT(flipped->normal, near_vec({-1, 0, 0}));
    CHECK(flipped->depth == c->depth);
}

TEST_CASE("contact_capsule_box: a capsule lying 0.1 into a box's top face") {
    const Obb box = to_obb(Aabb{{-2, -1, -2}, {2, 0, 2}});
    const auto c = contact_capsule_box(Capsule{{-1, 0.4, 0}, {1, 0.4, 0}, 0.5}, box);
    REQUIRE(c);
    CHECK(c->depth == Approx(0.1).margin(1e-12));
    CHECK_THAT(c->normal, near_vec({0, -1, 0}));
    const auto d = contact_box_capsule(box, Capsule{{-1, 0.4, 0}, {1, 0.4, 0}, 0.5});
    REQUIRE(d);
    CHECK_THAT(d->normal, near_vec({0, 1, 0}));
}

TEST_CASE("contact_capsule_capsule agrees with GJK/EPA on random capsules") {
    collide::test::ShapeGen gen(99);
    int contacts = 0;
    for (int i = 0; i < 3000; ++i) {
        const Capsule a = gen.capsule(), b = gen.capsule();
        const auto closed = contact_capsule_capsule(a, b);
        const auto generic = contact_gjk_epa(a, b);
        REQUIRE(closed.has_value() == generic.has_value());
        if (!closed) continue;
        ++contacts;
        REQUIRE(closed->depth == Approx(generic->depth).margin(1e-9));
        REQUIRE_THAT(closed->normal, near_vec(generic->normal, 1e-6));
    }
    CHECK(contacts > 1000);
}

TEST_CASE("contact_capsule_sphere agrees with GJK/EPA on random pairs") {
    collide::test::ShapeGen gen(100);
    int contacts = 0;
    for (int i = 0; i < 2000; ++i) {
        const Capsule a = gen.capsule();
        const Sphere b = gen.sphere();
        const auto closed = contact_capsule_sphere(a, b);
        const auto generic = contact_gjk_epa(a, b);
        REQUIRE(closed.has_value() == generic.has_value());
        if (!closed) continue;
        ++contacts;
        REQUIRE(closed->depth == Approx(generic->depth).margin(1e-9));
        REQUIRE_THAT(closed->normal, near_vec(generic->normal, 1e-6));
    }
    // Measured 850 contacts of 2000.
    REQUIRE(contacts >= 400);
}
