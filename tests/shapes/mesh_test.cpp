// Triangle meshes: which edges and corners are active, the errors of bad input, the hierarchy
// against brute force, determinism, and placing a mesh as a transform.
#include <catch2/catch.hpp>

#include <cmath>
#include <set>

#include "../support/meshes.h"
#include "math/quat.h"
#include "shapes/mesh.h"

using namespace collide;
using namespace collide::test;

namespace {

/// Two triangles sharing the edge (0,0,0)–(0,0,1); the second folded down by `degrees` (a convex
/// fold for a positive angle seen from +y, concave for a negative one).
std::shared_ptr<const TriangleMesh> hinge(double degrees) {
    const double a = degrees * 3.141592653589793 / 180;
    std::vector<Vec3> v{{0, 0, 0}, {0, 0, 1}, {-1, 0, 0.5}, {std::cos(a), -std::sin(a), 0.5}};
    std::vector<std::array<int, 3>> t{{0, 2, 1}, {0, 1, 3}}; // both face +y when flat
    MeshError e;
    auto m = build_mesh(v, t, "hinge", &e);
    REQUIRE(m);
    return m;
}

bool edge_active(const TriangleMesh& m, int tri, int edge) {
    return (m.features[static_cast<std::size_t>(tri)] >> edge) & 1u;
}

} // namespace

TEST_CASE("a quad's diagonal is inactive, its border edges and corners active", "[shapes][mesh]") {
    const auto m = grid_floor(1, 2.0);
    REQUIRE(m->triangles.size() == 2);
    // Triangle 0 is (0,0)-(0,1)-(1,1): edge 2 (corner 2 → corner 0) is the diagonal.
    CHECK_FALSE(edge_active(*m, 0, 2));
    CHECK(edge_active(*m, 0, 0));
    CHECK(edge_active(*m, 0, 1));
    // Triangle 1 is (0,0)-(1,1)-(1,0): edge 0 is the diagonal.
    CHECK_FALSE(edge_active(*m, 1, 0));
    for (int t = 0; t < 2; ++t)
        CHECK((m->features[static_cast<std::size_t>(t)] >> 3) == 7u); // all corners on the border
}

TEST_CASE("inside a grid every edge and corner is inactive; on its border they are active", "[shapes][mesh]") {
    const auto m = grid_floor(3, 1.0);
    int inner_corners = 0;
    for (std::size_t i = 0; i < m->triangles.size(); ++i)
        for (std::size_t k = 0; k < 3; ++k) {
            const Vec3 p = m->vertices[static_cast<std::size_t>(m->triangles[i][k])];
            const bool border = p.x == 0 || p.x == 3 || p.z == 0 || p.z == 3;
            INFO("triangle " << i << " corner " << k);
            CHECK(((m->features[i] >> (3 + k)) & 1u) == (border ? 1u : 0u));
            if (!border) ++inner_corners;
            const Vec3 q = m->vertices[static_cast<std::size_t>(m->triangles[i][(k + 1) % 3])];
            const bool border_edge = (p.x == q.x && (p.x == 0 || p.x == 3)) || (p.z == q.z && (p.z == 0 || p.z == 3));
            CHECK(((m->features[i] >> k) & 1u) == (border_edge ? 1u : 0u));
        }
    CHECK(inner_corners == 24); // 4 inner vertices, each a corner of 6 triangles
}

TEST_CASE("a hinge is active only when convex by more than 5 degrees", "[shapes][mesh]") {
    // Edge 2 of triangle 0 (corner 1 → corner 0) is the hinge; edge 0 of triangle 1.
    CHECK_FALSE(edge_active(*hinge(0), 0, 2));
    CHECK_FALSE(edge_active(*hinge(4), 0, 2));
    CHECK(edge_active(*hinge(6), 0, 2));
    CHECK(edge_active(*hinge(6), 1, 0));
    CHECK(edge_active(*hinge(90), 0, 2));
    CHECK_FALSE(edge_active(*hinge(-60), 0, 2)); // concave: the faces cover it
    CHECK(edge_active(*hinge(0), 0, 0));         // a border edge
}

TEST_CASE("a mesh with bad input is refused with the reason", "[shapes][mesh]") {
    MeshError e;
    CHECK_FALSE(build_mesh({{0, 0, 0}, {1, 0, 0}, {0, 0, 1}}, {{0, 1, 3}}, "t", &e));
    CHECK(e.message == "triangle 0 has corner index 3, but there are 3 vertices (0 to 2)");
    CHECK(e.triangle == 0);
    CHECK_FALSE(build_mesh({{0, 0, 0}, {1, 0, 0}, {0, 0, 1}}, {{0, -1, 2}}, "t", &e));
    CHECK(e.triangle == 0);
    CHECK_FALSE(build_mesh({{0, 0, 0}, {1, std::nan(""), 0}, {0, 0, 1}}, {{0, 1, 2}}, "t", &e));
    CHECK(e.message == "vertex 1 has a coordinate that is not a finite number");
    CHECK_FALSE(build_mesh({{0, 0, 0}, {1, 0, 0}, {2, 0, 0}}, {{0, 1, 2}, {0, 0, 1}}, "t", &e));
    CHECK(e.message.find("degenerate") != std::string::npos);
    CHECK_FALSE(build_mesh({{0, 0, 0}}, {}, "t", &e));
    CHECK(e.message == "the mesh has no triangles");
    // A degenerate triangle among good ones is dropped.
    const auto m = build_mesh({{0, 0, 0}, {1, 0, 0}, {0, 0, 1}, {2, 0, 0}}, {{0, 1, 3}, {0, 2, 1}}, "t", &e);
    REQUIRE(m);
    CHECK(m->triangles.size() == 1);
}

TEST_CASE("the hierarchy finds exactly the triangles whose bounds touch a box (brute force, random meshes)",
          "[shapes][mesh]") {
    std::mt19937_64 rng(7);
    auto u = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
    for (int seed = 1; seed <= 5; ++seed) {
        const auto m = random_soup(static_cast<std::uint64_t>(seed), 500, 10, 1.5);
        for (int q = 0; q < 50; ++q) {
            const Vec3 c{u(-11, 11), u(-11, 11), u(-11, 11)}, h{u(0, 3), u(0, 3), u(0, 3)};
            const Aabb box{c - h, c + h};
            std::set<int> walked, brute;
            for_each_triangle_near(*m, box, [&](int i, const Triangle&) {
                walked.insert(i);
                return true;
            });
            for (int i = 0; i < static_cast<int>(m->triangles.size()); ++i)
                if (boxes_touch(bounds_of(Shape{m->triangle(i)}), box)) brute.insert(i);
            INFO("seed " << seed << " query " << q);
            CHECK(walked == brute);
        }
    }
}

TEST_CASE("the same input builds the same hierarchy", "[shapes][mesh]") {
    const auto a = random_soup(3, 1000, 10, 1);
    const auto b = random_soup(3, 1000, 10, 1);
    REQUIRE(a->nodes.size() == b->nodes.size());
    CHECK(a->order == b->order);
    for (std::size_t i = 0; i < a->nodes.size(); ++i) {
        CHECK(a->nodes[i].lo == b->nodes[i].lo);
        CHECK(a->nodes[i].hi == b->nodes[i].hi);
        CHECK(a->nodes[i].first == b->nodes[i].first);
        CHECK(a->nodes[i].count == b->nodes[i].count);
    }
}

TEST_CASE("placing a mesh composes its transform; its bounds hold every placed corner", "[shapes][mesh]") {
    const auto data = grid_floor(2, 1.0);
    const Shape local = Mesh{data.get(), identity3(), {}};
    const Quat q = quat_from_axis_degrees({0, 0, 1}, 30);
    const Shape placed = place(local, {1, 2, 3}, q);
    REQUIRE(kind_of(placed) == ShapeKind::mesh);
    CHECK(std::string(shape_kind_name(ShapeKind::mesh)) == "mesh");
    const Mesh& m = std::get<Mesh>(placed);
    CHECK(m.data == data.get());
    const Aabb b = bounds_of(placed);
    for (const Vec3& v : data->vertices) {
        const Vec3 p = rotate(q, v) + Vec3{1, 2, 3};
        CHECK(p.x >= b.min.x - 1e-12);
        CHECK(p.x <= b.max.x + 1e-12);
        CHECK(p.y >= b.min.y - 1e-12);
        CHECK(p.y <= b.max.y + 1e-12);
    }
    // Turned 30° about z, the 2 m floor rises 2·sin 30° = 1 m over x, from y = 2.
    CHECK(b.min.y == Approx(2.0).margin(1e-12));
    CHECK(b.max.y == Approx(3.0).margin(1e-12));
    const Shape moved = translate(placed, {0, 1, 0});
    CHECK(std::get<Mesh>(moved).position.y == Approx(3.0));
    // The farthest corner along +x is the placed (2, 0, z) corner.
    CHECK(support(placed, {1, 0, 0}).x == Approx(1 + 2 * std::cos(3.141592653589793 / 6)).margin(1e-12));
}
