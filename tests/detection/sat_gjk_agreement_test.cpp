// The separating axis test and GJK/EPA are two routes to the same minimum translation of two
// turned boxes: they must agree wherever the minimum is unique.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>

#include "detection/contact_convex.h"
#include "detection/random_shapes.h"
#include "detection/sat_box_box.h"
#include "support/approx.h"

using namespace collide;

namespace {
// The overlap of two turned boxes' shadows on a unit axis (m); negative when they are apart.
double overlap_on(const Obb& a, const Obb& b, const Vec3& n) {
    auto radius = [&](const Obb& box) {
        return std::fabs(dot(box.axes.col[0], n)) * box.half.x + std::fabs(dot(box.axes.col[1], n)) * box.half.y +
               std::fabs(dot(box.axes.col[2], n)) * box.half.z;
    };
    return radius(a) + radius(b) - std::fabs(dot(b.centre - a.centre, n));
}

// The smallest and second-smallest overlap over the 15 candidate axes (parallel edge pairs
// skipped), so the test can keep only pairs whose minimum is unique.
std::array<double, 2> two_smallest_overlaps(const Obb& a, const Obb& b) {
    std::array<double, 2> best{1e300, 1e300};
    auto take = [&](const Vec3& axis) {
        if (length_squared(axis) < 1e-9) return;
        const double o = overlap_on(a, b, normalize(axis));
        if (o < best[0])
            best = {o, best[0]};
        else if (o < best[1])
            best[1] = o;
    };
    for (int i = 0; i < 3; ++i) take(a.axes.col[i]);
    for (int i = 0; i < 3; ++i) take(b.axes.col[i]);
    for (int i = 0; i < 3; ++i)
        for (int j = 0; j < 3; ++j) take(cross(a.axes.col[i], b.axes.col[j]));
    return best;
}
} // namespace

TEST_CASE("SAT (contact_box_box) and GJK/EPA agree on random turned boxes with a unique minimum axis") {
    std::mt19937_64 rng(4096);
    int compared = 0;
    for (int i = 0; i < 5000; ++i) {
        const Obb a = collide::test::random_obb(rng, 1.5), b = collide::test::random_obb(rng, 1.5);
        const auto sat = contact_box_box(a, b);
        const auto epa = contact_gjk_epa(a, b);
        const auto two = two_smallest_overlaps(a, b);
        if (two[0] < 1e-6 || two[1] - two[0] < 1e-6) continue; // apart, grazing, or a tie
        REQUIRE(sat);
        REQUIRE(epa);
        ++compared;
        REQUIRE(epa->depth == Approx(sat->depth).margin(1e-6));
        REQUIRE(std::fabs(dot(epa->normal, sat->normal)) == Approx(1).margin(1e-9));
        REQUIRE(dot(epa->normal, sat->normal) > 0);
    }
    CHECK(compared > 1000);
}
