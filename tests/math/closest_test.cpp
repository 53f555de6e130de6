// Closest points on a segment and on a triangle (math/closest.h): every Voronoi region of the
// triangle by hand (three corners, three edges, the face), and on random points the property
// that defines them — no point of the segment or the triangle is nearer (counted samples).
#include <catch2/catch.hpp>

#include "math/closest.h"
#include "support/approx.h"
#include "support/splitmix.h"

using namespace collide;
using collide::test::near_vec;

TEST_CASE("closest point on a segment: the foot of the perpendicular, clamped to the ends", "[math]") {
    const Vec3 p{0, 0, 0}, q{4, 0, 0};
    CHECK_THAT(closest_point_on_segment({1, 3, 0}, p, q), near_vec({1, 0, 0}, 1e-15));
    CHECK_THAT(closest_point_on_segment({-2, 1, 1}, p, q), near_vec(p, 0));
    CHECK_THAT(closest_point_on_segment({9, -1, 0}, p, q), near_vec(q, 0));
    CHECK_THAT(closest_point_on_segment({5, 5, 5}, p, p), near_vec(p, 0)); // a point segment
}

TEST_CASE("closest point on a triangle in each of its seven Voronoi regions", "[math]") {
    // The right triangle a = (0, 0, 0), b = (4, 0, 0), c = (0, 4, 0) in the plane z = 0.
    const Vec3 a{0, 0, 0}, b{4, 0, 0}, c{0, 4, 0};
    struct Case {
        const char* region;
        Vec3 p, nearest;
    };
    const Case cases[] = {
            {"corner a", {-1, -2, 3}, a},       {"corner b", {6, -1, 1}, b},        {"corner c", {-1, 7, -2}, c},
            {"edge ab", {2, -3, 1}, {2, 0, 0}}, {"edge ac", {-5, 1, 2}, {0, 1, 0}}, {"edge bc", {3, 3, -1}, {2, 2, 0}},
            {"face", {1, 1, 5}, {1, 1, 0}},
    };
    int checked = 0;
    for (const Case& k : cases) {
        INFO(k.region);
        CHECK_THAT(closest_point_on_triangle(k.p, a, b, c), near_vec(k.nearest, 1e-12));
        ++checked;
    }
    CHECK(checked == 7);
}

TEST_CASE("no point of a random triangle is nearer than its closest point, on random points", "[math]") {
    collide::test::SplitMix rng{7};
    int samples = 0;
    for (int i = 0; i < 2000; ++i) {
        const Vec3 a = rng.point({-2, -2, -2}, {2, 2, 2}), b = rng.point({-2, -2, -2}, {2, 2, 2}),
                   c = rng.point({-2, -2, -2}, {2, 2, 2}), p = rng.point({-4, -4, -4}, {4, 4, 4});
        const Vec3 x = closest_point_on_triangle(p, a, b, c);
        const double best = distance(p, x);
        // x lies on the triangle: its barycentric weights are all ≥ 0 (to rounding).
        const Vec3 n = cross(b - a, c - a);
        CHECK(std::fabs(dot(x - a, n)) <= 1e-9 * length(n));
        for (int k = 0; k < 50; ++k) { // 50 points of the triangle, none nearer
            double u = rng.unit(), v = rng.unit();
            if (u + v > 1) u = 1 - u, v = 1 - v;
            const Vec3 q = a + (b - a) * u + (c - a) * v;
            CHECK(best <= distance(p, q) + 1e-12);
        }
        ++samples;
    }
    CHECK(samples == 2000);
}
