// Ray casts: the slab test's enter/exit by hand, every shape against hand-solved distances,
// points and normals, and a hitscan shot through a character's hitboxes.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>
#include <random>
#include <vector>

#include "queries/raycast.h"
#include "support/approx.h"

using namespace collide;
using collide::test::near_vec;

namespace {
const Aabb kBox{{1, -1, -1}, {3, 1, 1}};
const double kFar = 1e9;
} // namespace

TEST_CASE("slab test: enter and exit in units of the direction's length") {
    const SlabResult unit = slab_ray_aabb({0, 0, 0}, {1, 0, 0}, kBox);
    CHECK(unit.hit);
    CHECK(unit.enter == 1.0);
    CHECK(unit.exit == 3.0);
    CHECK_FALSE(unit.started_inside);

    const SlabResult doubled = slab_ray_aabb({0, 0, 0}, {2, 0, 0}, kBox);
    CHECK(doubled.hit);
    CHECK(doubled.enter == 0.5);
    CHECK(doubled.exit == 1.5);

    // Diagonal: the x slab allows t in [1, 3], the y slab (from y = −0.5) allows [−0.5, 1.5].
    const SlabResult diagonal = slab_ray_aabb({0, -0.5, 0}, {1, 1, 0}, kBox);
    CHECK(diagonal.hit);
    CHECK(diagonal.enter == 1.0);
    CHECK(diagonal.exit == 1.5);
}

TEST_CASE("slab test: an origin inside the box is reported as started inside") {
    const SlabResult in = slab_ray_aabb({2, 0, 0}, {1, 0, 0}, kBox);
    CHECK(in.hit);
    CHECK(in.started_inside);
    CHECK(in.enter == -1.0);
    CHECK(in.exit == 1.0);
}

TEST_CASE("slab test: a box behind the ray misses") {
    const SlabResult behind = slab_ray_aabb({4, 0, 0}, {1, 0, 0}, kBox);
    CHECK_FALSE(behind.hit);
    CHECK_FALSE(behind.started_inside);
}

TEST_CASE("slab test: a ray parallel to a slab misses outside it and hits inside it") {
    CHECK_FALSE(slab_ray_aabb({0, 2, 0}, {1, 0, 0}, kBox).hit);
    CHECK_FALSE(slab_ray_aabb({0, 0, -1.5}, {1, -0.0, 0}, kBox).hit);
    const SlabResult inside = slab_ray_aabb({0, 0.5, 0}, {1, 0, 0}, kBox);
    CHECK(inside.hit);
    CHECK(inside.enter == 1.0);
    // Exactly in a face plane (0·∞ = NaN inside the test): the closed box is touched.
    const SlabResult face = slab_ray_aabb({0, 1, 0}, {1, -0.0, 0}, kBox);
    CHECK(face.hit);
    CHECK(face.enter == 1.0);
    CHECK(face.exit == 3.0);
}

TEST_CASE("ray against an axis-aligned box: distance, point and face normal") {
    const auto side = raycast_aabb({{0, 0.5, 0.25}, {5, 0, 0}}, kBox, kFar);
    REQUIRE(side);
    CHECK(side->distance == Approx(1.0).margin(1e-12));
    CHECK_THAT(side->point, near_vec({1, 0.5, 0.25}));
    CHECK_THAT(side->normal, near_vec({-1, 0, 0}));
    CHECK_FALSE(side->started_inside);

    const auto top = raycast_aabb({{2, 5, 0}, {0, -1, 0}}, kBox, kFar);
    REQUIRE(top);
    CHECK(top->distance == Approx(4.0).margin(1e-12));
    CHECK_THAT(top->point, near_vec({2, 1, 0}));
    CHECK_THAT(top->normal, near_vec({0, 1, 0}));

    const auto far_side = raycast_aabb({{5, 0, 0}, {-1, 0, 0}}, kBox, kFar);
    REQUIRE(far_side);
    CHECK_THAT(far_side->normal, near_vec({1, 0, 0}));
}

TEST_CASE("ray against a box: max_distance cuts the ray short") {
    CHECK_FALSE(raycast_aabb({{0, 0, 0}, {1, 0, 0}}, kBox, 0.5));
    CHECK(raycast_aabb({{0, 0, 0}, {1, 0, 0}}, kBox, 1.0));
}

TEST_CASE("ray starting inside a box: distance 0, normal against the direction") {
    const auto in = raycast_aabb({{2, 0, 0}, {0, 3, 4}}, kBox, kFar);
    REQUIRE(in);
    CHECK(in->started_inside);
    CHECK(in->distance == 0.0);
    CHECK_THAT(in->point, near_vec({2, 0, 0}));
    CHECK_THAT(in->normal, near_vec({0, -0.6, -0.8}));
}

TEST_CASE("ray starting on a box's surface and going in hits at distance 0 with the face normal") {
    const auto on = raycast_aabb({{1, 0, 0}, {1, 0, 0}}, kBox, kFar);
    REQUIRE(on);
    CHECK_FALSE(on->started_inside);
    CHECK(on->distance == 0.0);
    CHECK_THAT(on->normal, near_vec({-1, 0, 0}));
}

TEST_CASE("a zero direction hits nothing") {
    CHECK_FALSE(raycast_aabb({{2, 0, 0}, {0, 0, 0}}, kBox, kFar));
    CHECK_FALSE(raycast_sphere({{0, 0, 0}, {0, 0, 0}}, Sphere{{0, 0, 0}, 1}, kFar));
}

TEST_CASE("ray against a sphere: head-on, off-centre, tangent, behind, inside") {
    const Sphere s{{5, 0, 0}, 1};
    const auto head_on = raycast_sphere({{0, 0, 0}, {2, 0, 0}}, s, kFar);
    REQUIRE(head_on);
    CHECK(head_on->distance == Approx(4.0).margin(1e-12));
    CHECK_THAT(head_on->normal, near_vec({-1, 0, 0}));

    // y = 0.6 meets the surface where x = 5 − √(1 − 0.36) = 4.2.
    const auto off = raycast_sphere({{0, 0.6, 0}, {1, 0, 0}}, s, kFar);
    REQUIRE(off);
    CHECK(off->distance == Approx(4.2).margin(1e-12));
    CHECK_THAT(off->point, near_vec({4.2, 0.6, 0}));
    CHECK_THAT(off->normal, near_vec({-0.8, 0.6, 0}));

    const auto tangent = raycast_sphere({{0, 1, 0}, {1, 0, 0}}, s, kFar);
    REQUIRE(tangent);
    CHECK(tangent->distance == Approx(5.0).margin(1e-12));
    CHECK_THAT(tangent->normal, near_vec({0, 1, 0}));

    CHECK_FALSE(raycast_sphere({{0, 1.01, 0}, {1, 0, 0}}, s, kFar));
    CHECK_FALSE(raycast_sphere({{0, 0, 0}, {-1, 0, 0}}, s, kFar));

    const auto inside = raycast_sphere({{5.5, 0, 0}, {1, 0, 0}}, s, kFar);
    REQUIRE(inside);
    CHECK(inside->started_inside);
    CHECK(inside->distance == 0.0);
}

TEST_CASE("ray against a turned box hits the face along its own axis") {
    // Turned 45° about z: u = (1, 1, 0)/√2. A ray along u from −5·(1, 1, 0) meets the face u = −1.
    const Obb box{{0, 0, 0}, to_mat3(quat_from_axis_degrees({0, 0, 1}, 45)), {1, 1, 1}};
    const double h = 1 / std::sqrt(2.0);
    const auto hit = raycast_obb({{-5, -5, 0}, {1, 1, 0}}, box, kFar);
    REQUIRE(hit);
    CHECK(hit->distance == Approx(5 * std::sqrt(2.0) - 1).margin(1e-12));
    CHECK_THAT(hit->point, near_vec({-h, -h, 0}));
    CHECK_THAT(hit->normal, near_vec({-h, -h, 0}));
    // Along x the turned box's extent is √2, not 1.
    const auto across = raycast_obb({{-5, 0, 0}, {1, 0, 0}}, box, kFar);
    REQUIRE(across);
    CHECK(across->distance == Approx(5 - std::sqrt(2.0)).margin(1e-12));
}

TEST_CASE("ray against a capsule: the cylinder, the end cap head-on and off-centre") {
    const Capsule c{{0, 0, 0}, {0, 2, 0}, 0.5};
    const auto side = raycast_capsule({{-3, 1, 0}, {1, 0, 0}}, c, kFar);
    REQUIRE(side);
    CHECK(side->distance == Approx(2.5).margin(1e-12));
    CHECK_THAT(side->normal, near_vec({-1, 0, 0}));

    const auto cap = raycast_capsule({{0, 5, 0}, {0, -1, 0}}, c, kFar);
    REQUIRE(cap);
    CHECK(cap->distance == Approx(2.5).margin(1e-12));
    CHECK_THAT(cap->normal, near_vec({0, 1, 0}));

    // y = 2.3 is 0.3 above the top end: x = −√(0.25 − 0.09) = −0.4.
    const auto shoulder = raycast_capsule({{-3, 2.3, 0}, {1, 0, 0}}, c, kFar);
    REQUIRE(shoulder);
    CHECK(shoulder->distance == Approx(2.6).margin(1e-12));
    CHECK_THAT(shoulder->normal, near_vec({-0.8, 0.6, 0}));

    CHECK_FALSE(raycast_capsule({{-3, 2.6, 0}, {1, 0, 0}}, c, kFar));
    // Along the axis from inside the segment's extent but outside the radius.
    CHECK_FALSE(raycast_capsule({{0.6, -3, 0}, {0, 1, 0}}, c, kFar));
    const auto along = raycast_capsule({{0.3, -3, 0}, {0, 1, 0}}, c, kFar);
    REQUIRE(along);
    CHECK(along->distance == Approx(3 - 0.4).margin(1e-12));
}

TEST_CASE("ray against a triangle from both sides, outside it, and in its plane") {
    const Triangle t{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    const auto front = raycast_triangle({{0.25, 0.25, 2}, {0, 0, -1}}, t, kFar);
    REQUIRE(front);
    CHECK(front->distance == Approx(2.0).margin(1e-12));
    CHECK_THAT(front->point, near_vec({0.25, 0.25, 0}));
    CHECK_THAT(front->normal, near_vec({0, 0, 1}));

    const auto back = raycast_triangle({{0.25, 0.25, -3}, {0, 0, 1}}, t, kFar);
    REQUIRE(back);
    CHECK(back->distance == Approx(3.0).margin(1e-12));
    CHECK_THAT(back->normal, near_vec({0, 0, -1}));

    CHECK_FALSE(raycast_triangle({{0.75, 0.75, 2}, {0, 0, -1}}, t, kFar));
    CHECK_FALSE(raycast_triangle({{-1, 0.1, 0}, {1, 0, 0}}, t, kFar));
    CHECK(raycast_triangle({{0.5, 0.5, 1}, {0, 0, -1}}, t, kFar)); // on the edge: closed
}

TEST_CASE("ray against a half-space: from above, parallel, from inside") {
    const Plane ground{{0, 1, 0}, 0};
    const auto hit = raycast_plane({{0, 3, 0}, {1, -1, 0}}, ground, kFar);
    REQUIRE(hit);
    CHECK(hit->distance == Approx(3 * std::sqrt(2.0)).margin(1e-12));
    CHECK_THAT(hit->point, near_vec({3, 0, 0}));
    CHECK_THAT(hit->normal, near_vec({0, 1, 0}));
    CHECK_FALSE(raycast_plane({{0, 3, 0}, {1, 0, 0}}, ground, kFar));
    CHECK_FALSE(raycast_plane({{0, 3, 0}, {0, 1, 0}}, ground, kFar));
    const auto below = raycast_plane({{0, -1, 0}, {0, 1, 0}}, ground, kFar);
    REQUIRE(below);
    CHECK(below->started_inside);
    // A raised floor: offset 2 along the normal.
    const auto raised = raycast_plane({{0, 5, 0}, {0, -1, 0}}, Plane{{0, 1, 0}, 2}, kFar);
    REQUIRE(raised);
    CHECK(raised->distance == Approx(3.0).margin(1e-12));
}

TEST_CASE("ray against a tetrahedron hull hits its slanted face") {
    HullPoints tet;
    tet.points[0] = {0, 0, 0};
    tet.points[1] = {1, 0, 0};
    tet.points[2] = {0, 1, 0};
    tet.points[3] = {0, 0, 1};
    tet.count = 4;
    const auto hit = raycast_hull({{1, 1, 1}, {-1, -1, -1}}, hull_of(tet), kFar);
    REQUIRE(hit);
    const double third = 1.0 / 3.0;
    CHECK(hit->distance == Approx(2 / std::sqrt(3.0)).margin(1e-12));
    CHECK_THAT(hit->point, near_vec({third, third, third}));
    CHECK_THAT(hit->normal, near_vec(normalize(Vec3{1, 1, 1})));
    const auto inside = raycast_hull({{0.1, 0.1, 0.1}, {1, 0, 0}}, hull_of(tet), kFar);
    REQUIRE(inside);
    CHECK(inside->started_inside);
    CHECK_FALSE(raycast_hull({{1, 1, 1}, {1, 1, 1}}, hull_of(tet), kFar));
}

TEST_CASE("ray against a flat hull, a segment hull and a point hull") {
    HullPoints square;
    square.points[0] = {-1, 0, -1};
    square.points[1] = {1, 0, -1};
    square.points[2] = {1, 0, 1};
    square.points[3] = {-1, 0, 1};
    square.points[4] = {0, 0, 0}; // interior point
    square.count = 5;
    const auto top = raycast_hull({{0.9, 4, 0.9}, {0, -1, 0}}, hull_of(square), kFar);
    REQUIRE(top);
    CHECK(top->distance == Approx(4.0).margin(1e-12));
    CHECK_THAT(top->normal, near_vec({0, 1, 0}));
    CHECK_FALSE(raycast_hull({{1.1, 4, 0}, {0, -1, 0}}, hull_of(square), kFar));

    HullPoints segment;
    segment.points[0] = {-1, 0, 0};
    segment.points[1] = {1, 0, 0};
    segment.points[2] = {0.5, 0, 0};
    segment.count = 3;
    const auto through = raycast_hull({{0, 0, 5}, {0, 0, -1}}, hull_of(segment), kFar);
    REQUIRE(through);
    CHECK(through->distance == Approx(5.0).margin(1e-12));
    CHECK_FALSE(raycast_hull({{0, 0.01, 5}, {0, 0, -1}}, hull_of(segment), kFar));

    HullPoints point;
    point.points[0] = {0, 2, 0};
    point.count = 1;
    const auto dot_hit = raycast_hull({{0, 0, 0}, {0, 1, 0}}, hull_of(point), kFar);
    REQUIRE(dot_hit);
    CHECK(dot_hit->distance == Approx(2.0).margin(1e-12));
    CHECK_FALSE(raycast_hull({{0, 0, 0}, {1, 0, 0}}, Hull{}, kFar));
}

TEST_CASE("a box's corner points as a hull answer like the turned box, on random rays") {
    const Obb box{{0.3, -0.2, 0.5}, to_mat3(quat_from_euler_degrees({20, 35, -50})), {0.7, 0.4, 1.1}};
    HullPoints hull;
    const auto corners = corners_of(box);
    for (std::size_t i = 0; i < 8; ++i) hull.points[i] = corners[i];
    hull.count = 8;
    std::mt19937_64 rng(2024);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    int hits = 0;
    for (int i = 0; i < 2000; ++i) {
        const Vec3 origin{u(rng) * 4, u(rng) * 4, u(rng) * 4};
        const Vec3 aim = box.centre + Vec3{u(rng), u(rng), u(rng)} * 1.5; // about half the rays hit
        const Ray ray{origin, aim - origin};
        const auto a = raycast_obb(ray, box, kFar);
        const auto b = raycast_hull(ray, hull_of(hull), kFar);
        REQUIRE(a.has_value() == b.has_value());
        if (!a) continue;
        ++hits;
        REQUIRE(a->started_inside == b->started_inside);
        REQUIRE(a->distance == Approx(b->distance).margin(1e-9));
        REQUIRE_THAT(b->normal, near_vec(a->normal, 1e-9));
    }
    CHECK(hits > 500);
}

TEST_CASE("raycast_shape dispatches every kind to its own cast") {
    const Ray ray{{0, 0.1, -5}, {0, 0, 1}};
    HullPoints hull;
    hull.points[0] = {-1, -1, 0};
    hull.points[1] = {1, -1, 0};
    hull.points[2] = {0, 1, 0};
    hull.points[3] = {0, 0, 1};
    hull.count = 4;
    const std::vector<std::pair<Shape, double>> cases{
            {Sphere{{0, 0.1, 0}, 1}, 4.0},
            {Aabb{{-1, -1, -1}, {1, 1, 1}}, 4.0},
            {to_obb(Aabb{{-1, -1, -2}, {1, 1, 2}}), 3.0},
            {Capsule{{-2, 0.1, 0}, {2, 0.1, 0}, 0.5}, 4.5},
            {Triangle{{-1, -1, 0}, {1, -1, 0}, {0, 1, 0}}, 5.0},
            {hull_of(hull), 5.0},
            {Plane{{0, 0, -1}, 1}, 4.0},
    };
    for (const auto& [shape, expected] : cases) {
        INFO(shape_kind_name(kind_of(shape)) << " kind " << static_cast<int>(kind_of(shape)));
        const auto hit = raycast_shape(ray, shape, kFar);
        REQUIRE(hit);
        CHECK(hit->distance == Approx(expected).margin(1e-12));
        CHECK_THAT(hit->normal, near_vec({0, 0, -1}, 1e-12));
    }
}

namespace {
// A character standing at the origin facing +z: head, torso, legs and a forearm raised in
// front of the face (003: "hitboxes ... around the head, torso, and limbs").
std::vector<Shape> character(bool arm_raised) {
    std::vector<Shape> boxes{
            Sphere{{0, 1.7, 0}, 0.12},                      // 0 head
            Aabb{{-0.2, 1.0, -0.12}, {0.2, 1.55, 0.12}},    // 1 torso
            Capsule{{-0.1, 0.1, 0}, {-0.1, 0.95, 0}, 0.07}, // 2 left leg
            Capsule{{0.1, 0.1, 0}, {0.1, 0.95, 0}, 0.07},   // 3 right leg
    };
    if (arm_raised) boxes.push_back(Capsule{{-0.3, 1.7, 0.35}, {0.3, 1.7, 0.35}, 0.05}); // 4 forearm
    return boxes;
}
} // namespace

TEST_CASE("hitscan: a head shot hits the head at the sphere's surface") {
    const auto targets = character(false);
    const auto hit = raycast_nearest({{0, 1.7, 5}, {0, 0, -1}}, targets, 100);
    REQUIRE(hit);
    CHECK(hit->index == 0);
    CHECK(hit->hit.distance == Approx(5 - 0.12).margin(1e-12));
    CHECK_THAT(hit->hit.normal, near_vec({0, 0, 1}));
}

TEST_CASE("hitscan: a shot at the head behind a raised arm hits the arm first") {
    const auto targets = character(true);
    const auto hit = raycast_nearest({{0, 1.7, 5}, {0, 0, -1}}, targets, 100);
    REQUIRE(hit);
    CHECK(hit->index == 4);
    CHECK(hit->hit.distance == Approx(5 - 0.4).margin(1e-12));
}

TEST_CASE("hitscan: a chest shot hits the torso box, a low shot a leg, a wide shot nothing") {
    const auto targets = character(true);
    const auto chest = raycast_nearest({{0, 1.3, 5}, {0, 0, -1}}, targets, 100);
    REQUIRE(chest);
    CHECK(chest->index == 1);
    CHECK(chest->hit.distance == Approx(4.88).margin(1e-12));
    CHECK_THAT(chest->hit.normal, near_vec({0, 0, 1}));

    // From the side at knee height, the right leg (x = 0.1) is nearer than the left.
    const auto leg = raycast_nearest({{5, 0.5, 0}, {-1, 0, 0}}, targets, 100);
    REQUIRE(leg);
    CHECK(leg->index == 3);
    CHECK(leg->hit.distance == Approx(5 - 0.17).margin(1e-12));

    CHECK_FALSE(raycast_nearest({{0.5, 1.7, 5}, {0, 0, -1}}, targets, 100));
}

TEST_CASE("hitscan: targets beyond max_distance are not hit") {
    const auto targets = character(true);
    CHECK_FALSE(raycast_nearest({{0, 1.7, 5}, {0, 0, -1}}, targets, 4.5));
}

TEST_CASE("nearest hit: equal distances go to the lowest index") {
    const std::vector<Shape> targets{Sphere{{0, 0, 10}, 1}, Sphere{{0, 0, 3}, 1}, Sphere{{0, 0, 3}, 1},
                                     Aabb{{-1, -1, 2}, {1, 1, 4}}};
    const auto hit = raycast_nearest({{0, 0, 0}, {0, 0, 1}}, targets, 100);
    REQUIRE(hit);
    CHECK(hit->index == 1);
    CHECK(hit->hit.distance == 2.0);
    CHECK_FALSE(raycast_nearest({{0, 0, 0}, {0, 0, 1}}, std::span<const Shape>{}, 100));
}
