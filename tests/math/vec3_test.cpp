// Vec3 arithmetic, products, lengths and helpers against values worked out by hand.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "math/vec3.h"
#include "support/approx.h"

using namespace collide;
using collide::test::near_vec;

TEST_CASE("vec3: a default vector is zero and indexing reads and writes x, y, z", "[math]") {
    CHECK(Vec3{} == Vec3{0, 0, 0});
    Vec3 v{1, 2, 3};
    CHECK(v[0] == 1);
    CHECK(v[1] == 2);
    CHECK(v[2] == 3);
    v[0] = 7;
    v[2] = -4;
    CHECK(v == Vec3{7, 2, -4});
}

TEST_CASE("vec3: sums, differences, negation and scaling work component by component", "[math]") {
    const Vec3 a{1, 2, 3}, b{4, -5, 0.5};
    CHECK(a + b == Vec3{5, -3, 3.5});
    CHECK(a - b == Vec3{-3, 7, 2.5});
    CHECK(-a == Vec3{-1, -2, -3});
    CHECK(a * 2 == Vec3{2, 4, 6});
    CHECK(2 * a == Vec3{2, 4, 6});
    CHECK(a / 2 == Vec3{0.5, 1, 1.5});
    Vec3 c = a;
    c += b;
    CHECK(c == Vec3{5, -3, 3.5});
    c -= b;
    CHECK(c == a);
    c *= -3;
    CHECK(c == Vec3{-3, -6, -9});
}

TEST_CASE("vec3: dot product of (1, 2, 3) and (4, -5, 6) is 12", "[math]") {
    CHECK(dot({1, 2, 3}, {4, -5, 6}) == 12);
    CHECK(dot({1, 0, 0}, {0, 1, 0}) == 0);
}

TEST_CASE("vec3: cross product is right-handed and perpendicular to both factors", "[math]") {
    CHECK(cross({1, 0, 0}, {0, 1, 0}) == Vec3{0, 0, 1});
    CHECK(cross({0, 1, 0}, {0, 0, 1}) == Vec3{1, 0, 0});
    CHECK(cross({0, 0, 1}, {1, 0, 0}) == Vec3{0, 1, 0});
    CHECK(cross({0, 1, 0}, {1, 0, 0}) == Vec3{0, 0, -1});
    // (2·6 − 3·5, 3·4 − 1·6, 1·5 − 2·4) = (−3, 6, −3).
    const Vec3 a{1, 2, 3}, b{4, 5, 6};
    const Vec3 c = cross(a, b);
    CHECK(c == Vec3{-3, 6, -3});
    CHECK(dot(c, a) == 0);
    CHECK(dot(c, b) == 0);
    CHECK(cross(a, a) == Vec3{0, 0, 0});
}

TEST_CASE("vec3: (2, 3, 6) has length 7 and squared length 49; distance is the length of the difference", "[math]") {
    CHECK(length_squared({2, 3, 6}) == 49);
    CHECK(length({2, 3, 6}) == Approx(7).margin(1e-15));
    CHECK(length({0, 0, 0}) == 0);
    // (3, 4, 7) − (1, 1, 1) = (2, 3, 6).
    CHECK(distance({1, 1, 1}, {3, 4, 7}) == Approx(7).margin(1e-15));
    CHECK(distance({3, 4, 7}, {1, 1, 1}) == Approx(7).margin(1e-15));
}

TEST_CASE("vec3: normalize scales to unit length and keeps the zero vector zero", "[math]") {
    CHECK_THAT(normalize({0, 3, 4}), near_vec({0, 0.6, 0.8}, 1e-15));
    CHECK_THAT(normalize({-5, 0, 0}), near_vec({-1, 0, 0}, 1e-15));
    const double k = 1 / std::sqrt(3.0);
    CHECK_THAT(normalize({2, 2, 2}), near_vec({k, k, k}, 1e-15));
    CHECK(length(normalize({1e-3, -7, 250})) == Approx(1).margin(1e-15));
    CHECK(normalize({0, 0, 0}) == Vec3{0, 0, 0});
}

TEST_CASE("vec3: min, max, abs and clamp act per component", "[math]") {
    const Vec3 a{1, -2, 3}, b{-1, 5, 3};
    CHECK(min(a, b) == Vec3{-1, -2, 3});
    CHECK(max(a, b) == Vec3{1, 5, 3});
    CHECK(abs({-1.5, 0, 2}) == Vec3{1.5, 0, 2});
    CHECK(clamp({-2, 0.5, 9}, {-1, -1, -1}, {1, 1, 1}) == Vec3{-1, 0.5, 1});
    CHECK(clamp({0.25, -0.25, 0}, {-1, -1, -1}, {1, 1, 1}) == Vec3{0.25, -0.25, 0});
}

TEST_CASE("vec3: is_finite is false for any NaN or infinite component", "[math]") {
    constexpr double inf = std::numeric_limits<double>::infinity();
    const double nan = std::numeric_limits<double>::quiet_NaN();
    CHECK(is_finite({1, -2, 1e300}));
    CHECK_FALSE(is_finite({nan, 0, 0}));
    CHECK_FALSE(is_finite({0, inf, 0}));
    CHECK_FALSE(is_finite({0, 0, -inf}));
}

TEST_CASE("vec3: near compares each component within an absolute tolerance", "[math]") {
    CHECK(near({1, 2, 3}, {1.05, 1.95, 3}, 0.1));
    CHECK_FALSE(near({1, 2, 3}, {1, 2, 3.2}, 0.1));
    CHECK_FALSE(near({1, 2, 3}, {0.8, 2, 3}, 0.1));
    CHECK(near({1, 2, 3}, {1, 2, 3}, 0));
}

TEST_CASE("vec3: any_perpendicular gives a unit vector at right angles to the input", "[math]") {
    const double k = 1 / std::sqrt(3.0);
    const Vec3 inputs[] = {{1, 0, 0},
                           {0, 1, 0},
                           {0, 0, 1},
                           {-1, 0, 0},
                           {k, k, k},
                           {-k, k, -k},
                           normalize({0.3, -0.2, 0.9}),
                           normalize({0.57, 0.8, 0.1})};
    for (const Vec3& n : inputs) {
        INFO("n = " << Catch::StringMaker<Vec3>::convert(n));
        const Vec3 p = any_perpendicular(n);
        CHECK(length(p) == Approx(1).margin(1e-12));
        CHECK(dot(p, n) == Approx(0).margin(1e-12));
    }
    // Deterministic: the same input gives the same answer.
    CHECK(any_perpendicular({0, 0, 1}) == any_perpendicular({0, 0, 1}));
}
