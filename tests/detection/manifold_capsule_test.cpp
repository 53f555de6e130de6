// Capsule manifolds against hand-worked answers: lying on a box (two points at its ends' feet),
// standing (one), slanted a little (the high end's foot on the cylinder), two capsules side by
// side (two points) and crossing (one).
#include <catch2/catch.hpp>

#include <cmath>

#include "detection/manifold_check.h"
#include "support/approx.h"

using namespace collide;
using collide::test::near_vec;
using collide::test::one_manifold;
using collide::test::point_near;
using collide::test::signed_distance;

namespace {
const Shape kFloor = Aabb{{-5, -1, -5}, {5, 0, 5}};
} // namespace

TEST_CASE("a capsule lying on a box has 2 points at its ends' feet", "[manifold]") {
    const Shape c = Capsule{{-0.5, 0.299, 0.1}, {0.5, 0.299, 0.1}, 0.3};
    const Manifold m = one_manifold(kFloor, c);
    CHECK_THAT(m.normal, near_vec({0, 1, 0}, 1e-15));
    REQUIRE(m.count == 2);
    for (double x : {-0.5, 0.5}) {
        const int k = point_near(m, {x, -0.0005, 0.1}, 1e-12);
        REQUIRE(k >= 0);
        CHECK(m.points[static_cast<std::size_t>(k)].depth == Approx(0.001).margin(1e-12));
    }
    CHECK(m.points[0].id != m.points[1].id);
    // Hanging over the box's edge at x = 0.2: the far end's foot is clipped to the edge.
    const Shape box = Aabb{{-5, -1, -5}, {0.2, 0, 5}};
    const Manifold over = one_manifold(box, c);
    REQUIRE(over.count == 2);
    CHECK(point_near(over, {-0.5, -0.0005, 0.1}, 1e-12) >= 0);
    CHECK(point_near(over, {0.2, -0.0005, 0.1}, 1e-12) >= 0);
}

TEST_CASE("a standing capsule has 1 point under its lower end", "[manifold]") {
    const Shape c = Capsule{{0.2, 0.299, 0}, {0.2, 1.299, 0}, 0.3};
    const Manifold m = one_manifold(kFloor, c, 0.01);
    CHECK_THAT(m.normal, near_vec({0, 1, 0}, 1e-15));
    REQUIRE(m.count == 1);
    CHECK_THAT(m.points[0].point, near_vec({0.2, -0.0005, 0}, 1e-12));
    CHECK(m.points[0].depth == Approx(0.001).margin(1e-12));
    // Upside down, the same.
    const Manifold u = one_manifold(kFloor, Capsule{{0.2, 1.299, 0}, {0.2, 0.299, 0}, 0.3}, 0.01);
    REQUIRE(u.count == 1);
    CHECK_THAT(u.points[0].point, near_vec({0.2, -0.0005, 0}, 1e-12));
}

TEST_CASE("a capsule slanted 2 degrees on a box: the low end's foot is its deepest, the high end's on its cylinder",
          "[manifold]") {
    const double a = 2.0 * 3.14159265358979323846 / 180;
    const double r = 0.3;
    const Vec3 low{-0.5, r - 0.001, 0};
    const Vec3 high = low + Vec3{std::cos(a), std::sin(a), 0};
    const Shape c = Capsule{low, high, r};
    const Manifold m = one_manifold(kFloor, c, 0.05);
    REQUIRE(m.count == 2);
    const int k = point_near(m, {low.x, -0.0005, 0}, 1e-12);
    REQUIRE(k >= 0);
    CHECK(m.points[static_cast<std::size_t>(k)].depth == Approx(0.001).margin(1e-12));
    const ManifoldPoint& hp = m.points[static_cast<std::size_t>(1 - k)];
    // The high end's foot: straight below the end, where the cylinder's bottom line is,
    // r/cos(a) below the axis: depth = r/cos(a) − (high.y).
    CHECK(hp.depth == Approx(r / std::cos(a) - high.y).margin(1e-12));
    CHECK(hp.point.x == Approx(high.x).margin(1e-12));
    CHECK(signed_distance(hp.point - m.normal * (hp.depth / 2), c) == Approx(0).margin(1e-12));
}

TEST_CASE("two capsules side by side have 2 points, crossed ones 1", "[manifold]") {
    const Shape a = Capsule{{-1, 0, 0}, {1, 0, 0}, 0.25};
    const Shape side = Capsule{{-0.5, 0.499, 0}, {1.5, 0.499, 0}, 0.25};
    const Manifold m = one_manifold(a, side);
    CHECK_THAT(m.normal, near_vec({0, 1, 0}, 1e-15));
    REQUIRE(m.count == 2);
    // b's segment clipped to a's ends: x in [-0.5, 1].
    for (double x : {-0.5, 1.0}) {
        const int k = point_near(m, {x, 0.2495, 0}, 1e-12);
        REQUIRE(k >= 0);
        CHECK(m.points[static_cast<std::size_t>(k)].depth == Approx(0.001).margin(1e-12));
    }
    const Shape cross = Capsule{{0.3, 0.499, -1}, {0.3, 0.499, 1}, 0.25};
    const Manifold x = one_manifold(a, cross);
    REQUIRE(x.count == 1);
    CHECK_THAT(x.points[0].point, near_vec({0.3, 0.2495, 0}, 1e-12));
    CHECK(x.points[0].depth == Approx(0.001).margin(1e-12));
}
