// Box–box manifolds against hand-worked answers: a cube resting on a floor (overlapping and
// hovering within the margin), turned about its vertical axis, tipped onto an edge, on a
// smaller box (clipped to its outline), two sticks crossing edge to edge, and feature ids that
// hold while the cube moves a little.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numbers>
#include <set>

#include "detection/manifold_check.h"
#include "detection/sat_box_box.h"
#include "math/quat.h"
#include "support/approx.h"

using namespace collide;
using collide::test::deepest;
using collide::test::ids_distinct;
using collide::test::near_vec;
using collide::test::one_manifold;
using collide::test::point_near;

namespace {

const Shape kFloor = Aabb{{-5, -1, -5}, {5, 0, 5}};

/// A unit cube turned by `q` with its centre at `c`.
Obb cube(const Vec3& c, const Quat& q = {}) { return Obb{c, to_mat3(q), {0.5, 0.5, 0.5}}; }

std::set<std::uint32_t> ids_of(const Manifold& m) {
    std::set<std::uint32_t> s;
    for (int k = 0; k < m.count; ++k) s.insert(m.points[static_cast<std::size_t>(k)].id);
    return s;
}

} // namespace

TEST_CASE("a unit cube 1 mm into a floor box has 4 points at its bottom corners, depth 0.001, normal +y",
          "[manifold]") {
    for (const Shape& c : {Shape{Aabb{{-0.5, -0.001, -0.5}, {0.5, 0.999, 0.5}}}, Shape{cube({0, 0.499, 0})}}) {
        const Manifold m = one_manifold(kFloor, c);
        CHECK_THAT(m.normal, near_vec({0, 1, 0}, 1e-15));
        REQUIRE(m.count == 4);
        for (double x : {-0.5, 0.5})
            for (double z : {-0.5, 0.5}) {
                const int k = point_near(m, {x, -0.0005, z}, 1e-12);
                REQUIRE(k >= 0);
                CHECK(m.points[static_cast<std::size_t>(k)].depth == Approx(0.001).margin(1e-12));
            }
        CHECK(ids_distinct(m));
        CHECK(m.key == 0);
    }
}

TEST_CASE("the same cube 0.5 mm above the floor with a 1 mm margin has 4 points of depth -0.0005", "[manifold]") {
    const Shape c = cube({0, 0.5005, 0});
    const Manifold m = one_manifold(kFloor, c, 0.001);
    CHECK_THAT(m.normal, near_vec({0, 1, 0}, 1e-15));
    REQUIRE(m.count == 4);
    for (double x : {-0.5, 0.5})
        for (double z : {-0.5, 0.5}) {
            const int k = point_near(m, {x, 0.00025, z}, 1e-12);
            REQUIRE(k >= 0);
            CHECK(m.points[static_cast<std::size_t>(k)].depth == Approx(-0.0005).margin(1e-12));
        }
    // Without the margin, or with a smaller one, nothing.
    CHECK(manifolds(kFloor, c, 0, {}).status == ContactStatus::separated);
    CHECK(collide::test::all_manifolds(kFloor, c, 0.0004).query.status == ContactStatus::separated);
}

TEST_CASE("a cube turned 45 degrees about the vertical has its 4 points at its turned corners", "[manifold]") {
    const Obb c = cube({0.2, 0.499, -0.1}, quat_from_axis_degrees({0, 1, 0}, 45));
    const Manifold m = one_manifold(kFloor, c);
    CHECK_THAT(m.normal, near_vec({0, 1, 0}, 1e-15));
    REQUIRE(m.count == 4);
    const double r = std::sqrt(0.5);
    for (const Vec3& off : {Vec3{r, 0, 0}, Vec3{-r, 0, 0}, Vec3{0, 0, r}, Vec3{0, 0, -r}}) {
        const int k = point_near(m, Vec3{0.2, -0.0005, -0.1} + off, 1e-12);
        REQUIRE(k >= 0);
        CHECK(m.points[static_cast<std::size_t>(k)].depth == Approx(0.001).margin(1e-12));
    }
}

TEST_CASE("a cube tipped 30 degrees onto an edge has 2 points at that edge's ends", "[manifold]") {
    // Turned 30° about z, its lowest edge runs along z; the centre is set so that edge is 1 mm
    // into the floor: the lowest corner lies 0.5·(cos 30° + sin 30°) below the centre.
    const double drop = 0.5 * (std::cos(std::numbers::pi / 6) + std::sin(std::numbers::pi / 6));
    const Obb c = cube({0.3, drop - 0.001, 0}, quat_from_axis_degrees({0, 0, 1}, 30));
    const Manifold m = one_manifold(kFloor, c, 0.01);
    CHECK_THAT(m.normal, near_vec({0, 1, 0}, 1e-15));
    REQUIRE(m.count == 2);
    const auto corners = corners_of(c);
    int low = 0;
    for (const Vec3& p : corners) {
        if (p.y > 0) continue;
        ++low;
        const int k = point_near(m, {p.x, -0.0005, p.z}, 1e-12);
        REQUIRE(k >= 0);
        CHECK(m.points[static_cast<std::size_t>(k)].depth == Approx(0.001).margin(1e-12));
    }
    CHECK(low == 2);
}

TEST_CASE("a cube on a smaller box is clipped to the smaller box's top face", "[manifold]") {
    // The small box's top is [-0.25, 0.25]² at y = 0; the cube spans x in [-0.2, 0.8], z in
    // [-0.3, 0.7]: the overlap is x in [-0.2, 0.25], z in [-0.25, 0.25]. Its corners are a
    // corner of the small box (0.25, 0.25), two points where the cube's edge x = -0.2 crosses
    // the small box's sides z = ±0.25, and one where the small box's edge x = 0.25 meets z = -0.25.
    const Shape small = Aabb{{-0.25, -1, -0.25}, {0.25, 0, 0.25}};
    const Shape c = Aabb{{-0.2, -0.001, -0.3}, {0.8, 0.999, 0.7}};
    const Manifold m = one_manifold(small, c);
    CHECK_THAT(m.normal, near_vec({0, 1, 0}, 1e-15));
    REQUIRE(m.count == 4);
    for (double x : {-0.2, 0.25})
        for (double z : {-0.25, 0.25}) {
            const int k = point_near(m, {x, -0.0005, z}, 1e-12);
            REQUIRE(k >= 0);
            CHECK(m.points[static_cast<std::size_t>(k)].depth == Approx(0.001).margin(1e-12));
        }
    CHECK(ids_distinct(m));
}

TEST_CASE("a turned cube on a smaller box keeps 4 of the 8 corners of their octagonal overlap", "[manifold]") {
    // The cube's bottom, turned 45°, is the diamond |x| + |z| ≤ √½; the box's top the square
    // |x|, |z| ≤ 0.4. They overlap in an octagon with corners (±0.4, ±(√½ − 0.4)) and
    // (±(√½ − 0.4), ±0.4). The reduction keeps 4 of them, spanning at least the square
    // through alternate corners (area 2·0.4·2·(√½ − 0.4)… the best of all 4-subsets, found here).
    const Shape small = Aabb{{-0.4, -1, -0.4}, {0.4, 0, 0.4}};
    const Obb c = cube({0, 0.499, 0}, quat_from_axis_degrees({0, 1, 0}, 45));
    const Manifold m = one_manifold(small, c);
    REQUIRE(m.count == 4);
    const double e = std::sqrt(0.5) - 0.4;
    const std::array<Vec3, 8> oct{Vec3{0.4, 0, e}, {e, 0, 0.4},   {-e, 0, 0.4}, {-0.4, 0, e},
                                  {-0.4, 0, -e},   {-e, 0, -0.4}, {e, 0, -0.4}, {0.4, 0, -e}};
    std::array<int, 4> which{};
    for (int k = 0; k < 4; ++k) {
        const Vec3 p = m.points[static_cast<std::size_t>(k)].point;
        CHECK(p.y == Approx(-0.0005).margin(1e-12));
        int found = -1;
        for (int i = 0; i < 8; ++i)
            if (near(Vec3{p.x, 0, p.z}, oct[static_cast<std::size_t>(i)], 1e-12)) found = i;
        REQUIRE(found >= 0);
        which[static_cast<std::size_t>(k)] = found;
    }
    std::sort(which.begin(), which.end());
    CHECK(std::adjacent_find(which.begin(), which.end()) == which.end());
    // The area of the quadrilateral kept against the best of the 70 choices of 4 corners.
    auto area = [&](std::array<int, 4> idx) {
        std::sort(idx.begin(), idx.end()); // the octagon's order is counter-clockwise
        double s = 0;
        for (int k = 0; k < 4; ++k) {
            const Vec3& p = oct[static_cast<std::size_t>(idx[static_cast<std::size_t>(k)])];
            const Vec3& q = oct[static_cast<std::size_t>(idx[static_cast<std::size_t>((k + 1) % 4)])];
            s += p.x * q.z - q.x * p.z;
        }
        return std::fabs(s) / 2;
    };
    double best = 0;
    for (int i = 0; i < 8; ++i)
        for (int j = i + 1; j < 8; ++j)
            for (int k = j + 1; k < 8; ++k)
                for (int l = k + 1; l < 8; ++l) best = std::max(best, area({i, j, k, l}));
    CHECK(area(which) >= 0.9 * best);
}

TEST_CASE("two sticks crossing edge to edge meet at one point between their edges", "[manifold]") {
    // A stick along x with a diamond section reaching 0.1·√2 above its axis, and one along z
    // whose diamond reaches as far below its axis at height h: their edges overlap by 0.2·√2 − h.
    const double s = std::sqrt(0.5);
    const Obb x_stick{{0, 0, 0}, Mat3{{{1, 0, 0}, {0, s, s}, {0, -s, s}}}, {2, 0.1, 0.1}};
    const double h = 0.28;
    const Obb z_stick{{0, h, 0}, Mat3{{{s, s, 0}, {0, 0, 1}, {s, -s, 0}}}, {0.1, 2, 0.1}};
    const Manifold m = one_manifold(x_stick, z_stick);
    REQUIRE(m.count == 1);
    const double depth = 0.2 * std::sqrt(2.0) - h;
    CHECK_THAT(m.normal, near_vec({0, 1, 0}, 1e-12));
    CHECK(m.points[0].depth == Approx(depth).margin(1e-12));
    CHECK_THAT(m.points[0].point, near_vec({0, 0.1 * std::sqrt(2.0) - depth / 2, 0}, 1e-12));
    const auto c = contact_box_box(x_stick, z_stick);
    REQUIRE(c);
    CHECK_THAT(m.normal, near_vec(c->normal, 1e-15));
    CHECK(m.points[0].depth == Approx(c->depth).margin(1e-12));
}

TEST_CASE("feature ids stay while the resting cube moves by 1e-5 m and turns by 1e-5 rad", "[manifold]") {
    const double turn = 1e-5 * 180 / std::numbers::pi;
    struct Case {
        Shape under;
        Obb top;
    };
    const Case cases[] = {
            {kFloor, cube({0, 0.499, 0})},
            {kFloor, cube({0.2, 0.499, -0.1}, quat_from_axis_degrees({0, 1, 0}, 45))},
            {Aabb{{-0.25, -1, -0.25}, {0.25, 0, 0.25}}, cube({0.3, 0.499, 0.2})},
            {Shape{cube({0, -0.5, 0})}, cube({0.5, 0.499, 0})}, // half over the edge of an equal cube
    };
    int checked = 0;
    for (const Case& c : cases)
        for (const Vec3& axis : {Vec3{1, 0, 0}, Vec3{0, 1, 0}, Vec3{0, 0, 1}, Vec3{1, 1, 1}})
            for (double sign : {-1.0, 1.0}) {
                const Manifold before = one_manifold(c.under, c.top);
                Obb moved = c.top;
                moved.centre += normalize(axis) * (1e-5 * sign);
                moved.axes = to_mat3(quat_from_axis_degrees(axis, sign * turn)) * moved.axes;
                const Manifold after = one_manifold(c.under, moved);
                CHECK(after.count == before.count);
                CHECK(ids_of(after) == ids_of(before));
                CHECK(ids_distinct(after));
                ++checked;
            }
    CHECK(checked == 32);
}

TEST_CASE("a cube on an equal cube: ids and points do not depend on which face is the reference", "[manifold]") {
    // Two equal cubes stacked with the upper one offset: either's face could be the reference.
    // Swapping the arguments, turning the upper one a hair either way: the same points and ids.
    const Obb lower = cube({0, -0.5, 0});
    for (double angle : {-1e-7, 0.0, 1e-7}) {
        const Obb upper = cube({0.3, 0.499, -0.2}, quat_from_axis_degrees({1, 0, 1}, angle));
        const Manifold ab = one_manifold(lower, upper);
        const Manifold ba = one_manifold(upper, lower);
        REQUIRE(ab.count == 4);
        REQUIRE(ba.count == 4);
        CHECK_THAT(ba.normal, near_vec(-ab.normal, 1e-15));
        for (int k = 0; k < 4; ++k) {
            const ManifoldPoint& p = ab.points[static_cast<std::size_t>(k)];
            const int j = point_near(ba, p.point, 1e-12);
            REQUIRE(j >= 0);
            CHECK(ba.points[static_cast<std::size_t>(j)].depth == Approx(p.depth).margin(1e-15));
        }
        CHECK(deepest(ab) == Approx(0.001).margin(1e-6));
    }
}

TEST_CASE("a cube tipping from its face onto an edge and past 45 degrees keeps its edge corners' ids", "[manifold]") {
    // Turned about z by angle a about its pivot edge (the bottom edge at −x, corners 0 and 1 in
    // corners_of order), always 1 mm into the floor: the incident face changes from the bottom
    // to the side at 45°, but a corner is named by its vertex, not by the face it is seen through.
    std::uint32_t id4 = 0, id5 = 0;
    int checked = 0;
    for (double a : {0.0, 5.0, 30.0, 44.9, 45.1, 60.0, 85.0}) {
        Obb c = cube({0, 0, 0}, quat_from_axis_degrees({0, 0, 1}, a));
        const auto corners = corners_of(c);
        double lowest = 1e9;
        for (const Vec3& p : corners) lowest = std::min(lowest, p.y);
        c.centre.y = -lowest - 0.001;
        const auto placed = corners_of(c);
        const Manifold m = one_manifold(kFloor, c, 0.002);
        CHECK(m.count == (a == 0.0 ? 4 : 2));
        const int k4 = point_near(m, {placed[0].x, -0.0005, placed[0].z}, 1e-9);
        const int k5 = point_near(m, {placed[1].x, -0.0005, placed[1].z}, 1e-9);
        REQUIRE(k4 >= 0);
        REQUIRE(k5 >= 0);
        if (checked == 0) {
            id4 = m.points[static_cast<std::size_t>(k4)].id;
            id5 = m.points[static_cast<std::size_t>(k5)].id;
        }
        CHECK(m.points[static_cast<std::size_t>(k4)].id == id4);
        CHECK(m.points[static_cast<std::size_t>(k5)].id == id5);
        ++checked;
    }
    CHECK(checked == 7);
    CHECK(id4 != id5);
}

TEST_CASE(
        "a cube on two cubes whose back faces line up keeps its corners whichever side of the plane roundings put them",
        "[manifold]") {
    // Box3D's large_pyramid: a cube on the seam of two touching cubes, all three with their
    // z = ±0.5 faces in one plane. Its bottom face's edges along z = ±0.5 lie on the lower
    // cube's side planes; nanometres of drift put their ends either side. Cutting them would put
    // a point anywhere along the edge (2 cm from the corner, seen at 4e-16 of drift); the
    // corners must stay where they are, with their names.
    const Obb lower = cube({0, -0.5, 0});
    const Manifold still = one_manifold(lower, cube({0.5, 0.499, 0}));
    REQUIRE(still.count == 4);
    for (double dz : {-2e-9, -4e-16, 4e-16, 2e-9, 3e-6})
        for (double turn : {-1e-9, 0.0, 1e-9}) {
            const Obb upper = cube({0.5, 0.499, dz}, quat_from_axis_degrees({0, 1, 0}, turn * 180 / std::numbers::pi));
            const Manifold m = one_manifold(lower, upper);
            REQUIRE(m.count == 4);
            CHECK(ids_of(m) == ids_of(still));
            for (int k = 0; k < 4; ++k) {
                // Each point within the drift of a corner of the overlap [0, 0.5] × [−0.5, 0.5].
                const Vec3 p = m.points[static_cast<std::size_t>(k)].point;
                CHECK(std::min(std::fabs(p.x), std::fabs(p.x - 0.5)) < 1e-5);
                CHECK(std::fabs(std::fabs(p.z) - 0.5) < 1e-5);
                CHECK(std::fabs(p.z) <= 0.5); // never outside the lower cube's face
            }
        }
    // An edge that truly crosses the side (the upper cube 1 mm out in z) is cut there as before.
    const Manifold out = one_manifold(lower, cube({0.5, 0.499, 0.001}));
    REQUIRE(out.count == 4);
    for (int k = 0; k < 4; ++k) {
        const Vec3 p = out.points[static_cast<std::size_t>(k)].point;
        CHECK((p.z == Approx(0.5).margin(1e-12) || p.z == Approx(-0.499).margin(1e-12)));
    }
}
