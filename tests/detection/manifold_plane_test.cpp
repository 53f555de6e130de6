// Manifolds against a half-space: a box's corners below the plane, a capsule's ends, the pairs
// no algorithm answers.
#include <catch2/catch.hpp>

#include <cmath>

#include "detection/manifold_check.h"
#include "math/quat.h"
#include "support/approx.h"
#include "support/meshes.h"

using namespace collide;
using collide::test::near_vec;
using collide::test::one_manifold;
using collide::test::point_near;

TEST_CASE("a box tipped into a plane has a point at each of its corners below the plane", "[manifold]") {
    const Plane ground{normalize(Vec3{0.1, 1, 0}), 0.2};
    // Tipped about z so that one edge hangs lowest, then sunk so that edge is 3 mm deep.
    const Obb box{{0, 0, 0}, to_mat3(quat_from_axis_degrees({0, 0, 1}, 20)), {0.5, 0.3, 0.4}};
    double lowest = 1e9;
    for (const Vec3& c : corners_of(box)) lowest = std::min(lowest, dot(ground.normal, c) - ground.offset);
    Obb sunk = box;
    sunk.centre = box.centre - ground.normal * (lowest + 0.003);
    const Manifold m = one_manifold(ground, sunk);
    CHECK_THAT(m.normal, near_vec(ground.normal, 1e-15));
    int below = 0;
    for (const Vec3& c : corners_of(sunk)) {
        const double depth = ground.offset - dot(ground.normal, c);
        if (depth <= 0) continue;
        ++below;
        const int k = point_near(m, c + ground.normal * (depth / 2), 1e-12);
        REQUIRE(k >= 0);
        CHECK(m.points[static_cast<std::size_t>(k)].depth == Approx(depth).margin(1e-12));
    }
    CHECK(below == 2);
    CHECK(m.count == 2);
    // Swapped: the normal flips.
    const Manifold r = one_manifold(sunk, ground);
    CHECK_THAT(r.normal, near_vec(-ground.normal, 1e-15));
    CHECK(r.count == 2);
}

TEST_CASE("a box flat on a plane has its 4 bottom corners; a capsule lying on it its 2 ends, standing 1",
          "[manifold]") {
    const Plane ground{{0, 1, 0}, 0};
    const Manifold box = one_manifold(ground, Aabb{{-0.5, -0.001, -0.5}, {0.5, 0.999, 0.5}});
    REQUIRE(box.count == 4);
    for (int k = 0; k < 4; ++k) CHECK(box.points[static_cast<std::size_t>(k)].depth == Approx(0.001).margin(1e-12));
    const Manifold lying = one_manifold(ground, Capsule{{-1, 0.249, 0}, {1, 0.249, 0}, 0.25});
    REQUIRE(lying.count == 2);
    CHECK(point_near(lying, {-1, -0.0005, 0}, 1e-12) >= 0);
    CHECK(point_near(lying, {1, -0.0005, 0}, 1e-12) >= 0);
    const Manifold standing = one_manifold(ground, Capsule{{0, 0.249, 0}, {0, 2, 0}, 0.25}, 0.01);
    REQUIRE(standing.count == 1);
    CHECK_THAT(standing.points[0].point, near_vec({0, -0.0005, 0}, 1e-12));
}

TEST_CASE("a plane or a mesh against a plane or a mesh is unsupported", "[manifold]") {
    auto mesh = collide::test::grid_floor(1, 1.0);
    const Shape statics[] = {Plane{{0, 1, 0}, 0}, Mesh{mesh.get(), identity3(), {}}};
    for (const Shape& a : statics)
        for (const Shape& b : statics)
            CHECK(collide::test::all_manifolds(a, b, 1).query.status == ContactStatus::unsupported);
}
