// Degenerate shapes (a zero-size box, a zero-radius sphere, a capsule whose segment is a point, a
// triangle without area, hulls of 1, 2 and 3 points) against every kind give finite manifolds
// or none, never NaN, and keep the swap symmetry (also against one another, centred alike).
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "detection/manifold_check.h"
#include "detection/shape_gen.h"

using namespace collide;
using collide::test::all_manifolds;
using collide::test::point_near;

namespace {

std::vector<Shape> degenerate_shapes() {
    HullPoints one, two, three;
    one.points[0] = {0.1, 0.2, 0.3};
    one.count = 1;
    two.points[0] = {-0.5, 0, 0}, two.points[1] = {0.5, 0.1, 0};
    two.count = 2;
    three.points[0] = {-0.5, 0, 0}, three.points[1] = {0.5, 0, 0}, three.points[2] = {0, 0, 0.5};
    three.count = 3;
    return {Aabb{{0, 0, 0}, {0, 0, 0}},
            Aabb{{-1, 0, -1}, {1, 0, 1}}, // a flat box
            Obb{{0, 0, 0}, identity3(), {0.5, 0, 0.5}},
            Sphere{{0, 0, 0}, 0},
            Capsule{{0, 0, 0}, {0, 0, 0}, 0.3},
            Capsule{{-1, 0, 0}, {1, 0, 0}, 0},
            Triangle{{-1, 0, 0}, {0, 0, 0}, {1, 0, 0}},
            Triangle{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}},
            test::keep_hull(one),
            test::keep_hull(two),
            test::keep_hull(three)};
}

bool finite(const Manifold& m) {
    if (!is_finite(m.normal)) return false;
    for (int k = 0; k < m.count; ++k)
        if (!is_finite(m.points[static_cast<std::size_t>(k)].point) ||
            !std::isfinite(m.points[static_cast<std::size_t>(k)].depth))
            return false;
    return true;
}

} // namespace

TEST_CASE("degenerate shapes give finite manifolds or none against every kind, symmetric under a swap", "[manifold]") {
    collide::test::ShapeGen gen(20260807);
    const std::vector<Shape> odd = degenerate_shapes();
    int checked = 0, touching = 0;
    for (std::size_t i = 0; i < odd.size(); ++i)
        for (int s = 0; s < 60; ++s) {
            const Shape& d = odd[i];
            // Every tenth against another degenerate shape (all of them centred at the origin);
            // not against itself, which no rule can make flip its normal when swapped.
            const std::size_t j = static_cast<std::size_t>(s / 10) % odd.size();
            if (s % 10 == 9 && j == i) continue;
            const Shape other = s % 10 == 9 ? odd[j] : gen.any();
            const auto r = all_manifolds(d, other, 0.05);
            const auto w = all_manifolds(other, d, 0.05);
            REQUIRE(r.query.status != ContactStatus::unsupported);
            REQUIRE(r.query.count == w.query.count);
            ++checked;
            if (r.query.count == 0) continue;
            ++touching;
            const Manifold& m = r.m[0];
            INFO("degenerate kind " << int(kind_of(d)) << " other kind " << int(kind_of(other)) << " sample " << s
                                    << " centres " << centre_of(d).x << " " << centre_of(d).y << " " << centre_of(d).z
                                    << " / " << centre_of(other).x << " " << centre_of(other).y << " "
                                    << centre_of(other).z);
            CHECK(finite(m));
            CHECK(m.count >= 1);
            CHECK(std::fabs(length(m.normal) - 1) <= 1e-12);
            CHECK(near(w.m[0].normal, -m.normal, 1e-12));
            REQUIRE(w.m[0].count == m.count);
            for (int k = 0; k < m.count; ++k)
                CHECK(point_near(w.m[0], m.points[static_cast<std::size_t>(k)].point, 1e-12) >= 0);
        }
    CHECK(checked == 654); // 11 × 60, less the 6 pairs of a shape with itself
    CHECK(touching > 150);
}
