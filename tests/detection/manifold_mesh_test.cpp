// Manifolds against triangle meshes: a box on a floor of 2×2 quads gives one manifold of its
// 4 corners with the face normal (no ghost normal from the internal edges), wherever it sits
// on the seams; the same box against a mesh turned and moved; ids that survive sliding.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <set>
#include <vector>

#include "detection/manifold_check.h"
#include "math/quat.h"
#include "support/approx.h"
#include "support/meshes.h"

using namespace collide;
using collide::test::all_manifolds;
using collide::test::near_vec;
using collide::test::point_near;

TEST_CASE("a box on a floor of 2x2 quads gives one manifold of its 4 corners with the face normal", "[manifold]") {
    auto floor = collide::test::grid_floor(2, 1.0, -1, -1, 0); // [-1, 1]², 8 triangles, seams at x = 0, z = 0
    const Shape mesh = Mesh{floor.get(), identity3(), {}};
    const Aabb box{{-0.4, -0.001, -0.45}, {0.6, 0.999, 0.55}}; // over all four quads
    const auto r = all_manifolds(mesh, box);
    REQUIRE(r.query.status == ContactStatus::overlapping);
    REQUIRE(r.query.count == 1);
    const Manifold& m = r.m[0];
    CHECK_THAT(m.normal, near_vec({0, 1, 0}, 1e-15));
    REQUIRE(m.count == 4);
    for (double x : {-0.4, 0.6})
        for (double z : {-0.45, 0.55}) {
            const int k = point_near(m, {x, -0.0005, z}, 1e-12);
            REQUIRE(k >= 0);
            CHECK(m.points[static_cast<std::size_t>(k)].depth == Approx(0.001).margin(1e-12));
        }
    CHECK(collide::test::ids_distinct(m));
    // The box as A: the normal points from the box to the mesh.
    const auto s = all_manifolds(box, mesh);
    REQUIRE(s.query.count == 1);
    CHECK_THAT(s.m[0].normal, near_vec({0, -1, 0}, 1e-15));
    CHECK(s.m[0].count == 4);
}

TEST_CASE("a box sliding over the seams of a tiled floor only ever meets the face normal", "[manifold]") {
    auto floor = collide::test::grid_floor(4, 0.5, -1, -1, 0);
    const Shape mesh = Mesh{floor.get(), identity3(), {}};
    int checked = 0;
    std::set<std::uint32_t> first_ids;
    for (int i = 0; i <= 40; ++i) {
        const double x = -0.45 + 0.0225 * i; // across the seams at -0.5, 0 and 0.5 (the box is 0.3 wide)
        for (const Shape& box :
             {Shape{Aabb{{x - 0.15, -0.002, -0.2}, {x + 0.15, 0.298, 0.1}}},
              Shape{Obb{{x, 0.198, -0.05}, to_mat3(quat_from_axis_degrees({0, 1, 0}, 30)), {0.15, 0.2, 0.15}}}}) {
            const auto r = all_manifolds(box, mesh, 0.001);
            REQUIRE(r.query.count == 1);
            const Manifold& m = r.m[0];
            CHECK_THAT(m.normal, near_vec({0, -1, 0}, 1e-15));
            CHECK(m.count == 4);
            for (int k = 0; k < m.count; ++k)
                CHECK(m.points[static_cast<std::size_t>(k)].depth == Approx(0.002).margin(1e-12));
            ++checked;
        }
    }
    CHECK(checked == 82);
}

TEST_CASE("the ids of a box's corners on a tiled floor survive its sliding from triangle to triangle", "[manifold]") {
    auto floor = collide::test::grid_floor(4, 0.5, -1, -1, 0);
    const Shape mesh = Mesh{floor.get(), identity3(), {}};
    std::set<std::uint32_t> ids0;
    for (int i = 0; i <= 20; ++i) {
        const double x = -0.3 + 0.03 * i;
        const auto r = all_manifolds(Aabb{{x - 0.1, -0.002, -0.2}, {x + 0.1, 0.298, 0.1}}, mesh);
        REQUIRE(r.query.count == 1);
        std::set<std::uint32_t> ids;
        for (int k = 0; k < r.m[0].count; ++k) ids.insert(r.m[0].points[static_cast<std::size_t>(k)].id);
        if (i == 0) ids0 = ids;
        CHECK(ids == ids0);
    }
}

TEST_CASE("a box against a turned and moved mesh floor gets the turned normal", "[manifold]") {
    auto floor = collide::test::grid_floor(2, 1.0, -1, -1, 0);
    const Mat3 r = to_mat3(quat_from_axis_degrees({1, 0, 0}, 90)); // the floor's +y becomes +z
    const Vec3 at{3, 4, 5};
    const Shape mesh = Mesh{floor.get(), r, at};
    const Aabb box{at + Vec3{-0.3, -0.2, -0.001}, at + Vec3{0.3, 0.2, 0.5}};
    const auto q = all_manifolds(mesh, box);
    REQUIRE(q.query.count == 1);
    CHECK_THAT(q.m[0].normal, near_vec({0, 0, 1}, 1e-15));
    REQUIRE(q.m[0].count == 4);
    CHECK(point_near(q.m[0], at + Vec3{0.3, 0.2, -0.0005}, 1e-12) >= 0);
}

TEST_CASE("a box in a valley of the mesh gets one manifold per face, each with its normal", "[manifold]") {
    // Two quads sloping up 10° either side of x = 0; the box's bottom edges dip 1 mm (measured
    // straight down) into each slope.
    const double a = 10 * 3.14159265358979323846 / 180, t = std::tan(a);
    std::vector<Vec3> v{{-1, t, -1}, {-1, t, 1}, {0, 0, -1}, {0, 0, 1}, {1, t, -1}, {1, t, 1}};
    std::vector<std::array<int, 3>> tri{{0, 1, 3}, {0, 3, 2}, {2, 3, 5}, {2, 5, 4}};
    MeshError e;
    auto valley = build_mesh(v, tri, "valley", &e);
    REQUIRE(valley);
    const Shape mesh = Mesh{valley.get(), identity3(), {}};
    const auto r = all_manifolds(mesh, Aabb{{-0.3, 0.3 * t - 0.001, -0.3}, {0.3, 0.5, 0.3}});
    REQUIRE(r.query.status == ContactStatus::overlapping);
    REQUIRE(r.query.count == 2);
    CHECK(r.m[0].key < r.m[1].key);
    CHECK_THAT(r.m[0].normal, near_vec({std::sin(a), std::cos(a), 0}, 1e-12));
    CHECK_THAT(r.m[1].normal, near_vec({-std::sin(a), std::cos(a), 0}, 1e-12));
    for (int g = 0; g < 2; ++g) {
        REQUIRE(r.m[g].count == 2);
        const double x = g == 0 ? -0.3 : 0.3;
        for (double z : {-0.3, 0.3}) {
            const Vec3 corner{x, 0.3 * t - 0.001, z};
            const int k = point_near(r.m[g], corner + r.m[g].normal * (0.0005 * std::cos(a)), 1e-12);
            REQUIRE(k >= 0);
            CHECK(r.m[g].points[static_cast<std::size_t>(k)].depth == Approx(0.001 * std::cos(a)).margin(1e-12));
        }
    }
}

TEST_CASE("asked with no room, manifolds() still says whether a shape touches a mesh or a box", "[manifold]") {
    auto floor = collide::test::grid_floor(2, 1.0, -1, -1, 0);
    const Shape mesh = Mesh{floor.get(), identity3(), {}};
    const Shape box = Aabb{{-0.3, -0.001, -0.3}, {0.3, 0.5, 0.3}};
    const ManifoldQuery m = manifolds(mesh, box, 0, {});
    CHECK(m.status == ContactStatus::overlapping);
    CHECK(m.count == 0);
    const ManifoldQuery b = manifolds(Aabb{{-1, -1, -1}, {1, 0, 1}}, box, 0, {});
    CHECK(b.status == ContactStatus::overlapping);
    CHECK(b.count == 0);
    CHECK(manifolds(mesh, Aabb{{-0.3, 0.1, -0.3}, {0.3, 0.5, 0.3}}, 0, {}).status == ContactStatus::separated);
}
