// Shapes against meshes: the same contact as against one flat box wherever a body overlaps a
// tiled floor (no ghost normals at internal edges), real edges keep their normals, turned
// meshes, and the pairs no algorithm answers.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <random>

#include "../support/approx.h"
#include "../support/hulls.h"
#include "../support/meshes.h"
#include "detection/contact_mesh.h"
#include "detection/dispatch.h"
#include "math/quat.h"

using namespace collide;
using namespace collide::test;

namespace {
const Aabb kFloorBox{{0, -1, 0}, {10, 0, 10}}; // the same floor as grid_floor(10, 1.0), as one box
} // namespace

TEST_CASE("a sphere on a 2-triangle quad has the contact it has on a box", "[detection][mesh]") {
    const auto quad = grid_floor(1, 10.0);
    const Shape mesh = Mesh{quad.get(), identity3(), {}};
    for (const Vec3 c : {Vec3{3, 0.4, 7}, Vec3{5, 0.45, 5} /* on the diagonal */, Vec3{0.2, 0.3, 9.9}}) {
        const Sphere s{c, 0.5};
        const ContactQuery on_box = contact(Shape{s}, Shape{kFloorBox});
        const ContactQuery on_mesh = contact(Shape{s}, mesh);
        INFO("centre " << c.x << ", " << c.y << ", " << c.z);
        REQUIRE(on_mesh.status == ContactStatus::overlapping);
        CHECK_THAT(on_mesh.contact.normal, VecNear({0, -1, 0}, 1e-12)); // from the sphere (A) down to the floor (B)
        CHECK(on_mesh.contact.depth == Approx(on_box.contact.depth).margin(1e-12));
        CHECK(on_mesh.contact.depth == Approx(0.5 - c.y).margin(1e-12));
        // Swapped: the normal flips, the depth stays.
        const ContactQuery swapped = contact(mesh, Shape{s});
        CHECK_THAT(swapped.contact.normal, VecNear({0, 1, 0}, 1e-12));
    }
}

TEST_CASE("shapes overlapping a 10×10 grid across its seams get the flat box's contact", "[detection][mesh]") {
    const auto grid = grid_floor(10, 1.0);
    const Shape mesh = Mesh{grid.get(), identity3(), {}};
    // Every x across a seam at x = 3 (within 1e-4 of it, the ghost-prone spots), for a sphere, a
    // capsule lying along x, boxes and a hull, each 2 mm into the floor.
    for (const double x : {2.9999, 3.0, 3.0001, 3.5, 2.5}) {
        const std::vector<Shape> shapes{
                Sphere{{x, 0.498, 4.5}, 0.5},
                Capsule{{x - 0.4, 0.298, 4.0}, {x + 0.4, 0.298, 4.0}, 0.3},
                Aabb{{x - 0.5, -0.002, 4.2}, {x + 0.5, 0.998, 5.2}},
                Aabb{{x, -0.002, 4.2}, {x + 0.6, 0.998, 5.0}}, // its face on the seam
                Obb{{x, 0.498, 4.5}, identity3(), {0.25, 0.5, 0.25}},
                [&] { // a hull: a 0.6 m cube's corners
                    HullPoints h;
                    h.count = 8;
                    for (int c = 0; c < 8; ++c)
                        h.points[static_cast<std::size_t>(c)] = {x - 0.3 + 0.6 * (c & 1), -0.002 + 0.6 * ((c >> 1) & 1),
                                                                 4.2 + 0.6 * ((c >> 2) & 1)};
                    return Shape{test::keep_hull(h)};
                }(),
        };
        for (std::size_t k = 0; k < shapes.size(); ++k) {
            INFO("x " << x << " shape " << k);
            const ContactQuery on_box = contact(shapes[k], Shape{kFloorBox});
            const ContactQuery on_mesh = contact(shapes[k], mesh);
            REQUIRE(on_box.status == ContactStatus::overlapping);
            REQUIRE(on_mesh.status == ContactStatus::overlapping);
            CHECK_THAT(on_mesh.contact.normal, VecNear({0, -1, 0}, 1e-12));
            CHECK(on_mesh.contact.depth == Approx(0.002).margin(1e-9));
            CHECK(on_mesh.contact.depth == Approx(on_box.contact.depth).margin(1e-9));
        }
    }
}

TEST_CASE("a sphere resting across a seam gets the face normal, not the edge's", "[detection][mesh]") {
    const auto grid = grid_floor(4, 1.0);
    const Shape mesh = Mesh{grid.get(), identity3(), {}};
    // Centre over an inner vertex (the corner of 6 triangles) and over a seam, slightly beside it.
    for (const Vec3 c : {Vec3{2, 0.3, 2}, Vec3{2, 0.3, 1.5}, Vec3{1.5, 0.3, 1.5}}) {
        const ContactQuery q = contact(Shape{Sphere{c, 0.5}}, mesh);
        REQUIRE(q.status == ContactStatus::overlapping);
        CHECK_THAT(q.contact.normal, VecNear({0, -1, 0}, 1e-12));
        CHECK(q.contact.depth == Approx(0.2).margin(1e-12));
    }
}

TEST_CASE("a sphere beside a real (active) edge gets the edge's normal", "[detection][mesh]") {
    // A floor square ending at x = 0 (its border): a ball at 45° beyond the edge touches the edge only.
    const auto quad = grid_floor(1, 2.0, -2, -1);
    const Shape mesh = Mesh{quad.get(), identity3(), {}};
    const double d = 0.4; // centre distance from the edge
    const Sphere s{{d / std::sqrt(2.0), d / std::sqrt(2.0), 0}, 0.5};
    const ContactQuery q = contact(Shape{s}, mesh);
    REQUIRE(q.status == ContactStatus::overlapping);
    CHECK_THAT(q.contact.normal, VecNear(Vec3{-1, -1, 0} / std::sqrt(2.0), 1e-12));
    CHECK(q.contact.depth == Approx(0.1).margin(1e-12));
}

TEST_CASE("a turned and moved mesh gives the turned plane's contact", "[detection][mesh]") {
    const auto grid = grid_floor(4, 1.0, -2, -2);
    const Quat q = quat_from_axis_degrees({1, 0, 0}, 30);
    const Shape mesh = place(Shape{Mesh{grid.get(), identity3(), {}}}, {0, 1, 0}, q);
    const Vec3 n = rotate(q, {0, 1, 0});
    const Vec3 c = Vec3{0, 1, 0} + rotate(q, {0.3, 0, 0.2}) + n * 0.35;
    const ContactQuery hit = contact(Shape{Sphere{c, 0.5}}, mesh);
    REQUIRE(hit.status == ContactStatus::overlapping);
    CHECK_THAT(hit.contact.normal, VecNear(-n, 1e-12));
    CHECK(hit.contact.depth == Approx(0.15).margin(1e-12));
}

TEST_CASE("the nearest distance to a mesh equals brute force over its triangles", "[detection][mesh]") {
    const auto soup = random_soup(11, 300, 8, 1.5);
    const Shape mesh = Mesh{soup.get(), identity3(), {}};
    std::mt19937_64 rng(5);
    auto u = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
    for (int i = 0; i < 40; ++i) {
        const Shape s = Sphere{{u(-12, 12), u(-12, 12), u(-12, 12)}, u(0.1, 0.6)};
        double brute = std::numeric_limits<double>::infinity();
        for (int t = 0; t < static_cast<int>(soup->triangles.size()); ++t)
            brute = std::min(brute, distance(s, Shape{soup->triangle(t)}).distance);
        const DistanceResult d = distance(s, mesh);
        REQUIRE(d.supported);
        CHECK(d.distance == Approx(brute).margin(1e-9));
    }
}

TEST_CASE("a mesh against a mesh or a plane has no answer", "[detection][mesh]") {
    const auto grid = grid_floor(2, 1.0);
    const Shape mesh = Mesh{grid.get(), identity3(), {}};
    CHECK(contact(mesh, mesh).status == ContactStatus::unsupported);
    CHECK(contact(Shape{Plane{}}, mesh).status == ContactStatus::unsupported);
    CHECK(contact(mesh, Shape{Plane{}}).status == ContactStatus::unsupported);
    CHECK_FALSE(distance(mesh, Shape{Plane{}}).supported);
    CHECK_FALSE(distance(mesh, mesh).supported);
    CHECK(contact(Shape{Sphere{{1, 5, 1}, 0.5}}, mesh).status == ContactStatus::separated);
}
