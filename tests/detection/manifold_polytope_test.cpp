// Manifolds of hulls and triangles against hand-worked answers: a box's 8 corners as a hull
// give the box's manifold, a hull's face is found from its points alone, a box on a triangle.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "detection/manifold_check.h"
#include "detection/manifold_clip.h"
#include "math/quat.h"
#include "support/approx.h"
#include "support/hulls.h"

using namespace collide;
using collide::test::ids_distinct;
using collide::test::near_vec;
using collide::test::one_manifold;
using collide::test::point_near;

namespace {

/// A turned box's 8 corners as a hull, in corners_of order (so its vertex numbers are the box's).
Hull hull_of(const Obb& b) {
    const auto c = corners_of(b);
    return test::keep_hull(std::span<const Vec3>(c.data(), c.size()));
}

void check_same(const Manifold& box, const Manifold& hull) {
    CHECK_THAT(hull.normal, near_vec(box.normal, 1e-12));
    REQUIRE(hull.count == box.count);
    for (int k = 0; k < box.count; ++k) {
        const ManifoldPoint& p = box.points[static_cast<std::size_t>(k)];
        const int j = point_near(hull, p.point, 1e-12);
        REQUIRE(j >= 0);
        CHECK(hull.points[static_cast<std::size_t>(j)].depth == Approx(p.depth).margin(1e-12));
        CHECK(hull.points[static_cast<std::size_t>(j)].id == p.id);
    }
}

} // namespace

TEST_CASE("a box's 8 corners as a hull give the same manifold as the box", "[manifold]") {
    const Shape floor = Aabb{{-5, -1, -5}, {5, 0, 5}};
    const Obb cubes[] = {
            Obb{{0, 0.499, 0}, identity3(), {0.5, 0.5, 0.5}},
            Obb{{0.2, 0.499, -0.1}, to_mat3(quat_from_axis_degrees({0, 1, 0}, 45)), {0.5, 0.5, 0.5}},
            Obb{{0.3, 0.5 * (std::cos(0.5) + std::sin(0.5)) - 0.002, 0},
                to_mat3(quat_from_axis_degrees({0, 0, 1}, 28.6479)),
                {0.5, 0.5, 0.5}},
            Obb{{0.1, 0.3995, 0.2}, to_mat3(quat_from_axis_degrees({1, 2, 3}, 0.01)), {0.7, 0.4, 0.3}},
    };
    for (const Obb& c : cubes) {
        const Manifold box = one_manifold(floor, c, 0.01);
        const Manifold hull = one_manifold(floor, hull_of(c), 0.01);
        check_same(box, hull);
        // And with the floor as a hull too, or the roles swapped.
        check_same(box, one_manifold(hull_of(to_obb(std::get<Aabb>(floor))), c, 0.01));
        check_same(one_manifold(c, floor, 0.01), one_manifold(hull_of(c), floor, 0.01));
    }
}

TEST_CASE("a hull's face toward a direction is found from its points alone", "[manifold]") {
    // A square pyramid: base corners at y = 0, apex at y = 1, and a point inside.
    HullPoints h;
    h.points[0] = {-1, 0, -1}, h.points[1] = {1, 0, -1}, h.points[2] = {1, 0, 1}, h.points[3] = {-1, 0, 1};
    h.points[4] = {0, 1, 0};
    h.points[5] = {0.1, 0.2, 0.1};
    h.count = 6;
    SECTION("straight down: the base, counter-clockwise seen from below") {
        const Face f = hull_face_toward(hull_of(h), {0, -1, 0});
        REQUIRE(f.count == 4);
        CHECK_THAT(f.normal, near_vec({0, -1, 0}, 1e-15));
        CHECK(f.offset == Approx(0).margin(1e-15));
        const Vec3 turn = cross(f.corners[1] - f.corners[0], f.corners[2] - f.corners[1]);
        CHECK(dot(turn, f.normal) > 0);
    }
    SECTION("a little off straight down: still the base") {
        const Face f = hull_face_toward(hull_of(h), {0.3, -1, 0.2});
        REQUIRE(f.count == 4);
        CHECK_THAT(f.normal, near_vec({0, -1, 0}, 1e-15));
    }
    SECTION("up and along +x: the side face through the apex and the +x edge") {
        const Face f = hull_face_toward(hull_of(h), {1, 0.5, 0});
        REQUIRE(f.count == 3);
        CHECK_THAT(f.normal, near_vec(normalize(Vec3{1, 1, 0}), 1e-15));
        for (int k = 0; k < 3; ++k) CHECK(f.index[static_cast<std::size_t>(k)] != 5);
    }
}

TEST_CASE("a line meets a capsule where its far root says, on the cylinder or an end ball", "[manifold]") {
    const Capsule c{{0, 0, 0}, {2, 0, 0}, 0.5};
    CHECK(*capsule_far(c, {1, 0, 0}, {0, -1, 0}) == Approx(0.5).margin(1e-15)); // across the middle
    CHECK(*capsule_far(c, {0, 0, 0}, {-1, 0, 0}) == Approx(0.5).margin(1e-15)); // out through end a
    CHECK(*capsule_far(c, {2, 0, 0}, {-1, 0, 0}) == Approx(2.5).margin(1e-15)); // the whole length
    CHECK(*capsule_far(c, {1, 3, 0}, {0, -1, 0}) == Approx(3.5).margin(1e-15)); // the far side, below
    CHECK(*capsule_far(c, {1, 3, 0}, {0, 1, 0}) == Approx(-2.5).margin(1e-15)); // behind the start
    CHECK_FALSE(capsule_far(c, {1, 3, 0}, {1, 0, 0}));                          // misses
    const Vec3 slope = normalize(Vec3{1, -1, 0});
    CHECK(*capsule_far(c, {1, 0, 0}, slope) == Approx(0.5 * std::sqrt(2.0)).margin(1e-15)); // slanted: r/sin 45°
}

TEST_CASE("a box resting on a big triangle has its 4 bottom corners, the triangle's normal", "[manifold]") {
    const Shape tri = Triangle{{-10, 0, -10}, {0, 0, 10}, {10, 0, -10}}; // wound so its normal is +y
    const Shape box = Aabb{{-0.5, -0.002, -0.5}, {0.5, 0.998, 0.5}};
    const Manifold m = one_manifold(tri, box);
    CHECK_THAT(m.normal, near_vec({0, 1, 0}, 1e-15));
    REQUIRE(m.count == 4);
    for (double x : {-0.5, 0.5})
        for (double z : {-0.5, 0.5}) {
            const int k = point_near(m, {x, -0.001, z}, 1e-12);
            REQUIRE(k >= 0);
            CHECK(m.points[static_cast<std::size_t>(k)].depth == Approx(0.002).margin(1e-12));
        }
    CHECK(ids_distinct(m));
    // A triangle is two-sided: under the box's bottom, from below, the same points.
    const Shape flipped = Triangle{{-10, 0, -10}, {10, 0, -10}, {0, 0, 10}};
    const Manifold f = one_manifold(flipped, box);
    CHECK_THAT(f.normal, near_vec({0, 1, 0}, 1e-15));
    CHECK(f.count == 4);
}

TEST_CASE("a hull wedge standing on a floor on its slanted face keeps that face's corners", "[manifold]") {
    // A wedge: a right triangle prism whose slanted face (normal (1, 1, 0)/√2) is turned down.
    HullPoints w;
    const double l = 1;
    const Vec3 tri[3] = {{0, 0, 0}, {l, 0, 0}, {0, l, 0}};
    for (int k = 0; k < 3; ++k) {
        w.points[static_cast<std::size_t>(k)] = tri[k] + Vec3{0, 0, -0.5};
        w.points[static_cast<std::size_t>(k + 3)] = tri[k] + Vec3{0, 0, 0.5};
    }
    w.count = 6;
    // Turn it so the slanted face faces −y and lift it to leave 1 mm in the floor.
    const Mat3 r = to_mat3(quat_from_axis_degrees({0, 0, 1}, -135));
    HullPoints placed = w;
    double lowest = 1e9;
    for (int k = 0; k < 6; ++k) {
        placed.points[static_cast<std::size_t>(k)] = r * w.points[static_cast<std::size_t>(k)];
        lowest = std::min(lowest, placed.points[static_cast<std::size_t>(k)].y);
    }
    for (int k = 0; k < 6; ++k) placed.points[static_cast<std::size_t>(k)].y += -lowest - 0.001;
    const Manifold m = one_manifold(Aabb{{-5, -1, -5}, {5, 0, 5}}, hull_of(placed));
    CHECK_THAT(m.normal, near_vec({0, 1, 0}, 1e-12));
    REQUIRE(m.count == 4);
    for (int k = 0; k < 4; ++k) CHECK(m.points[static_cast<std::size_t>(k)].depth == Approx(0.001).margin(1e-12));
}

TEST_CASE("a crate landing tilted 2 degrees has 1 touching and 3 speculative corners, as a box or as a hull",
          "[manifold]") {
    // Tilted about a horizontal axis through no edge; its lowest corner 0.5 mm into the floor,
    // the other bottom corners within the 5 cm margin.
    const Obb c{{0, 0, 0}, to_mat3(quat_from_axis_degrees({1, 0, 2}, 2)), {0.5, 0.5, 0.5}};
    double lowest = 1e9;
    for (const Vec3& p : corners_of(c)) lowest = std::min(lowest, p.y);
    Obb crate = c;
    crate.centre.y = -lowest - 0.0005;
    const Shape floor = Aabb{{-5, -1, -5}, {5, 0, 5}};
    const Manifold box = one_manifold(floor, crate, 0.05);
    REQUIRE(box.count == 4);
    int touching = 0;
    for (int k = 0; k < 4; ++k) touching += box.points[static_cast<std::size_t>(k)].depth > 0 ? 1 : 0;
    CHECK(touching == 1);
    CHECK(collide::test::deepest(box) == Approx(0.0005).margin(1e-12));
    check_same(box, one_manifold(floor, hull_of(crate), 0.05));
}

TEST_CASE("both clippers keep a corner just outside a side plane when its edge lies along the plane", "[manifold]") {
    // settle_on_side, before each side plane clips: distances from the plane, > 0 outside.
    std::vector<int> moved;
    const auto settle = [&](std::vector<double> dist, double slack) {
        moved.clear();
        settle_on_side(std::span(dist), slack, [&](std::size_t c) { moved.push_back(static_cast<int>(c)); });
        return dist;
    };
    // An edge along the plane (corners 1 and 2, a few ulps either side): corner 1 moves onto it.
    std::vector<double> d = settle({-0.3, 4e-16, -2e-16, 0.2}, 1e-5);
    CHECK(moved == std::vector<int>{1});
    CHECK(d == std::vector<double>{-0.3, 0, -2e-16, 0.2});
    // Both ends just outside: both move (the edge from the last corner to the first counts too).
    d = settle({3e-9, -0.5, -0.5, 2e-9}, 1e-5);
    CHECK(moved == std::vector<int>{0, 3});
    // A corner just outside but on edges that cross the plane steeply is cut as before, and so
    // is one outside by more than the slack beside a neighbour on the plane.
    settle({-0.3, 5e-6, -0.4, 0.2}, 1e-5);
    CHECK(moved.empty());
    settle({-0.3, 2e-5, -1e-9, 0.2}, 1e-5);
    CHECK(moved.empty());
}
