// GJK distance against hand-solved answers, and properties over random shapes.
#include <catch2/catch.hpp>

#include <cmath>

#include "detection/gjk.h"
#include "detection/shape_gen.h"
#include "support/approx.h"

using namespace collide;
using collide::test::near_vec;

TEST_CASE("gjk: spheres 5 m apart with radii 1 and 2 are 2 m apart along +x") {
    const GjkResult r = gjk_distance(Sphere{{0, 0, 0}, 1}, Sphere{{5, 0, 0}, 2});
    CHECK_FALSE(r.overlap);
    CHECK(r.distance == Approx(2).margin(1e-12));
    CHECK_THAT(r.normal, near_vec({1, 0, 0}, 1e-12));
    CHECK_THAT(r.point_a, near_vec({1, 0, 0}, 1e-12));
    CHECK_THAT(r.point_b, near_vec({3, 0, 0}, 1e-12));
}

TEST_CASE("gjk: boxes with a 2 m gap along x are 2 m apart, normal +x") {
    const GjkResult r = gjk_distance(Aabb{{-1, -1, -1}, {1, 1, 1}}, Aabb{{3, -0.5, -2}, {4, 0.5, 2}});
    CHECK_FALSE(r.overlap);
    CHECK(r.distance == Approx(2).margin(1e-12));
    CHECK_THAT(r.normal, near_vec({1, 0, 0}, 1e-12));
    CHECK(r.point_a.x == Approx(1).margin(1e-12));
    CHECK(r.point_b.x == Approx(3).margin(1e-12));
}

TEST_CASE("gjk: boxes corner to corner along the diagonal are sqrt(3) apart") {
    const GjkResult r = gjk_distance(Aabb{{0, 0, 0}, {1, 1, 1}}, Aabb{{2, 2, 2}, {3, 3, 3}});
    const double k = 1 / std::sqrt(3.0);
    CHECK(r.distance == Approx(std::sqrt(3.0)).margin(1e-12));
    CHECK_THAT(r.normal, near_vec({k, k, k}, 1e-12));
    CHECK_THAT(r.point_a, near_vec({1, 1, 1}, 1e-12));
    CHECK_THAT(r.point_b, near_vec({2, 2, 2}, 1e-12));
}

TEST_CASE("gjk: a turned box's corner against a box face") {
    // A unit cube turned 45° about z has a vertical edge at x = +sqrt(2)·0.5 when its centre is
    // at the origin; a box whose face is at x = 2 is 2 − sqrt(2)/2 away.
    const Obb turned{{0, 0, 0}, to_mat3(quat_from_axis_degrees({0, 0, 1}, 45)), {0.5, 0.5, 0.5}};
    const GjkResult r = gjk_distance(turned, Aabb{{2, -1, -1}, {3, 1, 1}});
    CHECK(r.distance == Approx(2 - std::sqrt(0.5)).margin(1e-12));
    CHECK_THAT(r.normal, near_vec({1, 0, 0}, 1e-12));
}

TEST_CASE("gjk: skew capsules, closest points inside both segments") {
    // Core A on the x axis (−1…1), core B parallel to y at x = 0.5, z = 2: the common
    // perpendicular joins (0.5, 0, 0) and (0.5, 0, 2), length 2; radii 0.25 and 0.5.
    const GjkResult r = gjk_distance(Capsule{{-1, 0, 0}, {1, 0, 0}, 0.25}, Capsule{{0.5, -1, 2}, {0.5, 3, 2}, 0.5});
    CHECK(r.distance == Approx(1.25).margin(1e-12));
    CHECK_THAT(r.normal, near_vec({0, 0, 1}, 1e-12));
    CHECK_THAT(r.point_a, near_vec({0.5, 0, 0.25}, 1e-12));
    CHECK_THAT(r.point_b, near_vec({0.5, 0, 1.5}, 1e-12));
}

TEST_CASE("gjk: skew capsules, closest point clamped to an end") {
    // Core B parallel to y at x = 3, z = 1 is beyond A's end (1, 0, 0): the gap joins (1, 0, 0)
    // and (3, 0, 1), length sqrt(5); radii 0.1 and 0.2.
    const GjkResult r = gjk_distance(Capsule{{-1, 0, 0}, {1, 0, 0}, 0.1}, Capsule{{3, -1, 1}, {3, 1, 1}, 0.2});
    CHECK(r.distance == Approx(std::sqrt(5.0) - 0.3).margin(1e-12));
    CHECK_THAT(r.normal, near_vec(normalize(Vec3{2, 0, 1}), 1e-12));
}

TEST_CASE("gjk: a point above a triangle's face, beyond an edge, and beyond a corner") {
    const Triangle tri{{0, 0, 0}, {2, 0, 0}, {0, 2, 0}};
    const GjkResult face = gjk_distance(Sphere{{0.5, 0.5, 3}, 0}, tri);
    CHECK(face.distance == Approx(3).margin(1e-12));
    CHECK_THAT(face.normal, near_vec({0, 0, -1}, 1e-12));
    CHECK_THAT(face.point_b, near_vec({0.5, 0.5, 0}, 1e-12));
    // (3, 3, 1) projects onto the hypotenuse x + y = 2 at (1, 1, 0): sqrt(2² + 2² + 1) = 3.
    const GjkResult edge = gjk_distance(Sphere{{3, 3, 1}, 0}, tri);
    CHECK(edge.distance == Approx(3).margin(1e-12));
    CHECK_THAT(edge.point_b, near_vec({1, 1, 0}, 1e-12));
    const GjkResult corner = gjk_distance(Sphere{{-1, -2, 0}, 0}, tri);
    CHECK(corner.distance == Approx(std::sqrt(5.0)).margin(1e-12));
    CHECK_THAT(corner.point_b, near_vec({0, 0, 0}, 1e-12));
}

TEST_CASE("gjk: overlapping boxes report overlap with zero distance") {
    const GjkResult r = gjk_distance(Aabb{{-1, -1, -1}, {1, 1, 1}}, Aabb{{0.5, 0.5, 0.5}, {2, 2, 2}});
    CHECK(r.overlap);
    CHECK(r.cores_overlap);
    CHECK(r.distance == 0);
}

TEST_CASE("gjk: spheres whose gap is smaller than their radii overlap without the cores overlapping") {
    const GjkResult r = gjk_distance(Sphere{{0, 0, 0}, 1}, Sphere{{1.5, 0, 0}, 1});
    CHECK(r.overlap);
    CHECK_FALSE(r.cores_overlap);
    CHECK(r.core_distance == Approx(1.5).margin(1e-12));
    CHECK(r.distance == 0);
}

TEST_CASE("gjk: the distance is at most that of any pair of surface points and is symmetric") {
    collide::test::ShapeGen gen(11);
    for (int i = 0; i < 2000; ++i) {
        const Shape a = gen.any();
        Shape b = translate(gen.any(), gen.point(4.0));
        const GjkResult ab = gjk_distance(a, b);
        const GjkResult ba = gjk_distance(b, a);
        REQUIRE(ab.iterations <= kGjkMaxIterations);
        REQUIRE(ab.distance == Approx(ba.distance).margin(1e-9));
        if (ab.overlap) continue;
        // The closest points realise the distance, and no support pair gets closer.
        REQUIRE(distance(ab.point_a, ab.point_b) == Approx(ab.distance).margin(1e-9));
        REQUIRE_THAT(ba.normal, near_vec(-ab.normal, 1e-6));
        for (int k = 0; k < 20; ++k) {
            const Vec3 d = gen.point(1.0);
            if (length_squared(d) == 0) continue;
            // Every point of B lies at least `distance` beyond A along the normal's plane test:
            // min over B of n·x − max over A of n·x equals the distance for the right n only,
            // and is ≤ distance for any n.
            const Vec3 n = normalize(d);
            const double gap = dot(n, support(b, -n)) - dot(n, support(a, n));
            REQUIRE(gap <= ab.distance + 1e-9);
        }
        const double gap_n = dot(ab.normal, support(b, -ab.normal)) - dot(ab.normal, support(a, ab.normal));
        REQUIRE(gap_n == Approx(ab.distance).margin(1e-9));
    }
}
