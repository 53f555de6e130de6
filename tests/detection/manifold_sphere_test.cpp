// Sphere manifolds: one point, midway between the surfaces, against every kind of shape.
#include <catch2/catch.hpp>

#include <cmath>

#include "detection/manifold_check.h"
#include "support/approx.h"
#include "support/meshes.h"

using namespace collide;
using collide::test::near_vec;
using collide::test::one_manifold;

TEST_CASE("a sphere has one point midway into anything it touches", "[manifold]") {
    const Sphere ball{{0.3, 0.499, -0.2}, 0.5}; // 1 mm into whatever has its top at y = 0
    HullPoints slab;
    const Vec3 corners[8] = {{-2, -1, -2}, {2, -1, -2}, {2, -1, 2}, {-2, -1, 2},
                             {-2, 0, -2},  {2, 0, -2},  {2, 0, 2},  {-2, 0, 2}};
    for (int k = 0; k < 8; ++k) slab.points[static_cast<std::size_t>(k)] = corners[k];
    slab.count = 8;
    auto mesh = collide::test::grid_floor(2, 2.0, -2, -2, 0);
    const Shape unders[] = {
            Aabb{{-2, -1, -2}, {2, 0, 2}},
            Obb{{0, -0.5, 0}, identity3(), {2, 0.5, 2}},
            Sphere{{0.3, -10, -0.2}, 10},
            Capsule{{-2, -0.5, -0.2}, {2, -0.5, -0.2}, 0.5},
            Triangle{{-2, 0, -2}, {0, 0, 2}, {2, 0, -2}},
            hull_of(slab),
            Plane{{0, 1, 0}, 0},
            Mesh{mesh.get(), identity3(), {}},
    };
    for (const Shape& u : unders) {
        const Manifold m = one_manifold(u, ball);
        REQUIRE(m.count == 1);
        CHECK_THAT(m.normal, near_vec({0, 1, 0}, 1e-12));
        CHECK_THAT(m.points[0].point, near_vec({0.3, -0.0005, -0.2}, 1e-9));
        CHECK(m.points[0].depth == Approx(0.001).margin(1e-9));
        // And the other way round: the normal flips, the point and depth stay.
        const Manifold r = one_manifold(ball, u);
        REQUIRE(r.count == 1);
        CHECK_THAT(r.normal, near_vec({0, -1, 0}, 1e-12));
        CHECK_THAT(r.points[0].point, near_vec(m.points[0].point, 1e-12));
        CHECK(r.points[0].depth == Approx(m.points[0].depth).margin(1e-15));
    }
}

TEST_CASE("a sphere near a box corner, apart within the margin, has its point between the closest points",
          "[manifold]") {
    const Shape box = Aabb{{-1, -1, -1}, {1, 1, 1}};
    const double gap = 0.002;
    const Vec3 dir = normalize(Vec3{1, 1, 1});
    const Shape ball = Sphere{Vec3{1, 1, 1} + dir * (0.5 + gap), 0.5};
    const Manifold m = one_manifold(box, ball, 0.005);
    REQUIRE(m.count == 1);
    CHECK_THAT(m.normal, near_vec(dir, 1e-12));
    CHECK(m.points[0].depth == Approx(-gap).margin(1e-12));
    CHECK_THAT(m.points[0].point, near_vec(Vec3{1, 1, 1} + dir * (gap / 2), 1e-12));
    CHECK(collide::test::all_manifolds(box, ball, 0.001).query.status == ContactStatus::separated);
}
