// Shapes: bounds, support mapping, translating and placing, against hand-worked boxes and
// brute force over corners and points.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "detection/shape_gen.h"
#include "shapes/shapes.h"
#include "support/approx.h"
#include "support/hulls.h"

using namespace collide;
using collide::test::near_vec;

namespace {
const double kH = std::sqrt(0.5); // cos 45° = sin 45° = √2/2

// The 8 corners of a turned box, built here rather than through corners_of.
std::vector<Vec3> box_corners(const Obb& b) {
    std::vector<Vec3> out;
    for (const double su : {-1.0, 1.0})
        for (const double sv : {-1.0, 1.0})
            for (const double sw : {-1.0, 1.0})
                out.push_back(b.centre + b.axes.col[0] * (su * b.half.x) + b.axes.col[1] * (sv * b.half.y) +
                              b.axes.col[2] * (sw * b.half.z));
    return out;
}

std::vector<Vec3> hull_points(const Hull& h) {
    std::vector<Vec3> out;
    for (int k = 0; k < h.count(); ++k) out.push_back(h.point(k));
    return out;
}

// The largest dot(p, d) over the points.
double max_dot(const std::vector<Vec3>& points, const Vec3& d) {
    double best = -std::numeric_limits<double>::infinity();
    for (const Vec3& p : points) best = std::max(best, dot(p, d));
    return best;
}

bool is_one_of(const Vec3& p, const std::vector<Vec3>& points, double tolerance) {
    return std::any_of(points.begin(), points.end(), [&](const Vec3& q) { return near(p, q, tolerance); });
}

// Distance from p to the segment a–b (for checking capsule support points lie on the surface).
double distance_to_segment(const Vec3& p, const Vec3& a, const Vec3& b) {
    const Vec3 ab = b - a;
    const double len2 = length_squared(ab);
    const double t = len2 > 0 ? std::clamp(dot(p - a, ab) / len2, 0.0, 1.0) : 0.0;
    return distance(p, a + ab * t);
}

Hull make_hull(std::initializer_list<Vec3> points) { return test::keep_hull(points); }

Quat rot_z(double degrees) { return quat_from_axis_degrees({0, 0, 1}, degrees); }
} // namespace

TEST_CASE("shapes: kind_of follows the variant order, and both box kinds are named box", "[shapes]") {
    CHECK(kind_of(Sphere{}) == ShapeKind::sphere);
    CHECK(kind_of(Aabb{}) == ShapeKind::aabb);
    CHECK(kind_of(Obb{}) == ShapeKind::obb);
    CHECK(kind_of(Capsule{}) == ShapeKind::capsule);
    CHECK(kind_of(Triangle{}) == ShapeKind::triangle);
    CHECK(kind_of(Hull{}) == ShapeKind::hull);
    CHECK(kind_of(Plane{}) == ShapeKind::plane);
    CHECK(std::string(shape_kind_name(ShapeKind::sphere)) == "sphere");
    CHECK(std::string(shape_kind_name(ShapeKind::aabb)) == "box");
    CHECK(std::string(shape_kind_name(ShapeKind::obb)) == "box");
    CHECK(std::string(shape_kind_name(ShapeKind::capsule)) == "capsule");
    CHECK(std::string(shape_kind_name(ShapeKind::triangle)) == "triangle");
    CHECK(std::string(shape_kind_name(ShapeKind::hull)) == "hull");
    CHECK(std::string(shape_kind_name(ShapeKind::plane)) == "plane");
}

TEST_CASE("shapes: an axis-aligned box's centre, half-size and turned-box twin", "[shapes]") {
    const Aabb box{{0, -2, 1}, {2, 4, 2}};
    CHECK(centre_of(box) == Vec3{1, 1, 1.5});
    CHECK(half_of(box) == Vec3{1, 3, 0.5});
    const Obb o = to_obb(box);
    CHECK(o.centre == Vec3{1, 1, 1.5});
    CHECK(o.half == Vec3{1, 3, 0.5});
    CHECK(o.axes == identity3());
}

TEST_CASE("shapes: corners_of lists a box's corners with the w sign changing fastest", "[shapes]") {
    const auto c = corners_of(to_obb(Aabb{{0, 0, 0}, {2, 4, 6}}));
    CHECK(c[0] == Vec3{0, 0, 0});
    CHECK(c[1] == Vec3{0, 0, 6});
    CHECK(c[2] == Vec3{0, 4, 0});
    CHECK(c[3] == Vec3{0, 4, 6});
    CHECK(c[4] == Vec3{2, 0, 0});
    CHECK(c[7] == Vec3{2, 4, 6});
    // A box turned 90° about z: u = y, v = −x. Corner (−,−,−) is centre − u·1 − v·2 − w·3.
    const Obb turned{{0, 0, 0}, to_mat3(rot_z(90)), {1, 2, 3}};
    const auto t = corners_of(turned);
    CHECK_THAT(t[0], near_vec({2, -1, -3}, 1e-14));
    CHECK_THAT(t[7], near_vec({-2, 1, 3}, 1e-14));
}

TEST_CASE("shapes: centre_of gives each kind's representative centre", "[shapes]") {
    CHECK(centre_of(Shape{Sphere{{1, 2, 3}, 4}}) == Vec3{1, 2, 3});
    CHECK(centre_of(Shape{Aabb{{-1, 0, 2}, {3, 2, 4}}}) == Vec3{1, 1, 3});
    CHECK(centre_of(Shape{Obb{{5, 6, 7}, identity3(), {1, 1, 1}}}) == Vec3{5, 6, 7});
    CHECK(centre_of(Shape{Capsule{{0, 0, 0}, {2, -4, 6}, 0.5}}) == Vec3{1, -2, 3});
    CHECK_THAT(centre_of(Shape{Triangle{{0, 0, 0}, {3, 0, 0}, {0, 6, 3}}}), near_vec({1, 2, 1}, 1e-14));
    CHECK(centre_of(Shape{make_hull({{0, 0, 0}, {4, 0, 0}, {0, 4, 0}, {0, 0, 4}})}) == Vec3{1, 1, 1});
    // A plane's point nearest the origin: normal · offset.
    CHECK(centre_of(Shape{Plane{{0, 0, -1}, 2}}) == Vec3{0, 0, -2});
}

TEST_CASE("shapes: a sphere's bounds are its centre ± radius", "[shapes]") {
    const Aabb b = bounds_of(Sphere{{1, 2, 3}, 0.5});
    CHECK(b.min == Vec3{0.5, 1.5, 2.5});
    CHECK(b.max == Vec3{1.5, 2.5, 3.5});
}

TEST_CASE("shapes: an axis-aligned box is its own bounds", "[shapes]") {
    const Aabb b = bounds_of(Aabb{{-1, 2, -3}, {4, 5, 6}});
    CHECK(b.min == Vec3{-1, 2, -3});
    CHECK(b.max == Vec3{4, 5, 6});
}

TEST_CASE("shapes: a unit cube turned 45° about z reaches √2/2 along x and y, 0.5 along z", "[shapes]") {
    // The corner (0.5, 0.5) turned 45° lands at (0, √2/2); (0.5, −0.5) at (√2/2, 0).
    const Obb cube{{1, 0, 0}, to_mat3(rot_z(45)), {0.5, 0.5, 0.5}};
    const Aabb b = bounds_of(cube);
    CHECK_THAT(b.min, near_vec({1 - kH, -kH, -0.5}, 1e-14));
    CHECK_THAT(b.max, near_vec({1 + kH, kH, 0.5}, 1e-14));
}

TEST_CASE("shapes: a box with half-size (1, 2, 3) turned 90° about z has half-extent (2, 1, 3)", "[shapes]") {
    const Aabb b = bounds_of(Obb{{0, 0, 0}, to_mat3(rot_z(90)), {1, 2, 3}});
    CHECK_THAT(b.min, near_vec({-2, -1, -3}, 1e-14));
    CHECK_THAT(b.max, near_vec({2, 1, 3}, 1e-14));
}

TEST_CASE("shapes: a randomly turned box's bounds are the extremes of its corners", "[shapes]") {
    collide::test::ShapeGen gen(501);
    for (int i = 0; i < 300; ++i) {
        const Obb o = gen.obb();
        const auto corners = box_corners(o);
        Vec3 lo = corners[0], hi = corners[0];
        for (const Vec3& c : corners) {
            lo = min(lo, c);
            hi = max(hi, c);
        }
        const Aabb b = bounds_of(o);
        INFO("case " << i);
        REQUIRE_THAT(b.min, near_vec(lo, 1e-12));
        REQUIRE_THAT(b.max, near_vec(hi, 1e-12));
    }
}

TEST_CASE("shapes: a capsule's bounds are its segment's bounds grown by the radius", "[shapes]") {
    const Aabb b = bounds_of(Capsule{{0, 0, 0}, {2, -1, 3}, 0.5});
    CHECK(b.min == Vec3{-0.5, -1.5, -0.5});
    CHECK(b.max == Vec3{2.5, 0.5, 3.5});
}

TEST_CASE("shapes: a triangle's bounds are the extremes of its corners", "[shapes]") {
    const Aabb b = bounds_of(Triangle{{0, 0, 0}, {1, 2, -1}, {-3, 1, 4}});
    CHECK(b.min == Vec3{-3, 0, -1});
    CHECK(b.max == Vec3{1, 2, 4});
}

TEST_CASE("shapes: a hull's bounds are the extremes of its points, interior points included harmlessly", "[shapes]") {
    const Hull h = make_hull({{0, 0, 0}, {2, 0, 0}, {0, 3, 0}, {0, 0, -4}, {0.5, 0.5, -0.5}});
    const Aabb b = bounds_of(h);
    CHECK(b.min == Vec3{0, 0, -4});
    CHECK(b.max == Vec3{2, 3, 0});
    // Unused slots beyond count do not count, even when they hold points.
    HullPoints more = *h.data;
    more.points[10] = {100, 100, 100};
    CHECK(bounds_of(hull_of(more)).max == Vec3{2, 3, 0});
}

TEST_CASE("shapes: a plane's bounds are infinite except across an axis it is perpendicular to", "[shapes]") {
    constexpr double inf = std::numeric_limits<double>::infinity();
    // Solid side y ≤ 2.
    const Aabb up = bounds_of(Plane{{0, 1, 0}, 2});
    CHECK(up.min == Vec3{-inf, -inf, -inf});
    CHECK(up.max == Vec3{inf, 2, inf});
    // Solid side −y ≤ 2, that is y ≥ −2.
    const Aabb down = bounds_of(Plane{{0, -1, 0}, 2});
    CHECK(down.min == Vec3{-inf, -2, -inf});
    CHECK(down.max == Vec3{inf, inf, inf});
    // Solid side x ≤ −1.
    CHECK(bounds_of(Plane{{1, 0, 0}, -1}).max == Vec3{-1, inf, inf});
    // A slanted plane bounds nothing.
    const Aabb slanted = bounds_of(Plane{{kH, kH, 0}, 1});
    CHECK(slanted.min == Vec3{-inf, -inf, -inf});
    CHECK(slanted.max == Vec3{inf, inf, inf});
}

TEST_CASE("shapes: bounds are tight: every face is the support along that axis", "[shapes]") {
    collide::test::ShapeGen gen(502);
    const Vec3 axes[] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int i = 0; i < 600; ++i) {
        const Shape s = gen.any();
        const Aabb b = bounds_of(s);
        INFO(shape_kind_name(kind_of(s)) << " case " << i);
        for (std::size_t k = 0; k < 3; ++k) {
            REQUIRE(b.max[k] == Approx(dot(support(s, axes[k]), axes[k])).margin(1e-12));
            REQUIRE(b.min[k] == Approx(dot(support(s, -axes[k]), axes[k])).margin(1e-12));
        }
    }
}

TEST_CASE("shapes: a sphere's support is centre + r·d̂ for a direction of any length", "[shapes]") {
    const Sphere s{{1, 2, 3}, 2};
    CHECK_THAT(support(s, {0, 3, 4}), near_vec({1, 2 + 1.2, 3 + 1.6}, 1e-14));
    CHECK_THAT(support(s, {0, 0.03, 0.04}), near_vec({1, 3.2, 4.6}, 1e-14));
    CHECK_THAT(support(s, {-10, 0, 0}), near_vec({-1, 2, 3}, 1e-14));
    collide::test::ShapeGen gen(503);
    for (int i = 0; i < 200; ++i) {
        const Sphere r = gen.sphere();
        const Vec3 d = gen.point(5.0);
        INFO("case " << i);
        REQUIRE_THAT(support(r, d), near_vec(r.centre + d * (r.radius / length(d)), 1e-12));
    }
}

TEST_CASE("shapes: an axis-aligned box's support is the corner farthest along the direction", "[shapes]") {
    const Aabb box{{-1, 0, 2}, {3, 5, 4}};
    CHECK(support(box, {1, -1, 1}) == Vec3{3, 0, 4});
    CHECK(support(box, {-0.1, 2, -7}) == Vec3{-1, 5, 2});
    const Obb as_obb = to_obb(box);
    const auto corners = box_corners(as_obb);
    collide::test::ShapeGen gen(504);
    for (int i = 0; i < 300; ++i) {
        const Vec3 d = gen.point(1.0);
        const Vec3 p = support(box, d);
        INFO("case " << i);
        REQUIRE(is_one_of(p, corners, 1e-14));
        REQUIRE(dot(p, d) == Approx(max_dot(corners, d)).margin(1e-12));
    }
}

TEST_CASE("shapes: a turned box's support is the corner farthest along the direction", "[shapes]") {
    // Unit cube turned 45° about z, centred at the origin: along +x the farthest points are the
    // edge at x = √2/2; along (1, 0, 1) the corner (√2/2, 0, 0.5).
    const Obb cube{{0, 0, 0}, to_mat3(rot_z(45)), {0.5, 0.5, 0.5}};
    CHECK_THAT(support(cube, {1, 0, 1}), near_vec({kH, 0, 0.5}, 1e-14));
    CHECK(support(cube, {1, 0, 0}).x == Approx(kH).margin(1e-14));
    collide::test::ShapeGen gen(505);
    for (int i = 0; i < 300; ++i) {
        const Obb o = gen.obb();
        const auto corners = box_corners(o);
        const Vec3 d = gen.point(1.0);
        const Vec3 p = support(o, d);
        INFO("case " << i);
        REQUIRE(is_one_of(p, corners, 1e-12));
        REQUIRE(dot(p, d) == Approx(max_dot(corners, d)).margin(1e-12));
    }
}

TEST_CASE("shapes: a hull's support is its point farthest along the direction", "[shapes]") {
    const Hull tetra = make_hull({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}, {0.1, 0.1, 0.1}});
    CHECK(support(tetra, {1, 0.5, 0.2}) == Vec3{1, 0, 0});
    CHECK(support(tetra, {-1, -1, 2}) == Vec3{0, 0, 1});
    CHECK(support(tetra, {-1, -1, -1}) == Vec3{0, 0, 0});
    collide::test::ShapeGen gen(506);
    for (int i = 0; i < 300; ++i) {
        const Hull h = gen.hull();
        const auto points = hull_points(h);
        const Vec3 d = gen.point(1.0);
        const Vec3 p = support(h, d);
        INFO("case " << i);
        REQUIRE(is_one_of(p, points, 0));
        REQUIRE(dot(p, d) == max_dot(points, d));
    }
}

TEST_CASE("shapes: a triangle's support is its corner farthest along the direction", "[shapes]") {
    const Triangle t{{0, 0, 0}, {1, 2, -1}, {-3, 1, 4}};
    CHECK(support(t, {1, 0, 0}) == Vec3{1, 2, -1});
    CHECK(support(t, {0, 0, 1}) == Vec3{-3, 1, 4});
    CHECK(support(t, {0, -1, 0}) == Vec3{0, 0, 0});
    collide::test::ShapeGen gen(507);
    for (int i = 0; i < 300; ++i) {
        const Triangle r = gen.triangle();
        const std::vector<Vec3> corners{r.a, r.b, r.c};
        const Vec3 d = gen.point(1.0);
        const Vec3 p = support(r, d);
        INFO("case " << i);
        REQUIRE(is_one_of(p, corners, 0));
        REQUIRE(dot(p, d) == max_dot(corners, d));
    }
}

TEST_CASE("shapes: a capsule's support is the farther end pushed out by r along d̂", "[shapes]") {
    const Capsule c{{0, 0, 0}, {0, 2, 0}, 0.5};
    CHECK_THAT(support(c, {0, 1, 0}), near_vec({0, 2.5, 0}, 1e-14));
    CHECK_THAT(support(c, {0, -3, 0}), near_vec({0, -0.5, 0}, 1e-14));
    CHECK_THAT(support(c, {1, 1, 0}), near_vec({0.5 * kH, 2 + 0.5 * kH, 0}, 1e-14));
    // Across the segment both ends are equally far: either is right, and the reach is r.
    CHECK(support(c, {1, 0, 0}).x == Approx(0.5).margin(1e-14));
    collide::test::ShapeGen gen(508);
    for (int i = 0; i < 300; ++i) {
        const Capsule r = gen.capsule();
        const Vec3 d = gen.point(1.0);
        const Vec3 dn = normalize(d);
        const Vec3 p = support(r, d);
        INFO("case " << i);
        // The reach along d̂ is the farther end's plus the radius, and the point is on the surface.
        REQUIRE(dot(p, dn) == Approx(std::max(dot(r.a, dn), dot(r.b, dn)) + r.radius).margin(1e-12));
        REQUIRE(distance_to_segment(p, r.a, r.b) == Approx(r.radius).margin(1e-12));
    }
}

TEST_CASE("shapes: a plane's support is its point nearest the origin", "[shapes]") {
    CHECK(support(Plane{{0, 1, 0}, 3}, {1, 0, 0}) == Vec3{0, 3, 0});
    CHECK(support(Plane{{-1, 0, 0}, 2}, {0, 0, 1}) == Vec3{-2, 0, 0});
}

TEST_CASE("shapes: translate moves every kind's bounds by the offset", "[shapes]") {
    collide::test::ShapeGen gen(509);
    for (int i = 0; i < 300; ++i) {
        const Shape s = gen.any();
        const Vec3 offset = gen.point(10.0);
        const Shape moved = translate(s, offset);
        const Aabb before = bounds_of(s), after = bounds_of(moved);
        INFO(shape_kind_name(kind_of(s)) << " case " << i);
        REQUIRE(kind_of(moved) == kind_of(s));
        REQUIRE_THAT(after.min, near_vec(before.min + offset, 1e-12));
        REQUIRE_THAT(after.max, near_vec(before.max + offset, 1e-12));
        REQUIRE_THAT(centre_of(moved), near_vec(centre_of(s) + offset, 1e-12));
    }
}

TEST_CASE("shapes: translate moves a sphere, a capsule and a plane by hand", "[shapes]") {
    const Shape s = translate(Sphere{{1, 1, 1}, 0.5}, {2, -1, 0});
    CHECK(std::get<Sphere>(s).centre == Vec3{3, 0, 1});
    CHECK(std::get<Sphere>(s).radius == 0.5);
    const Shape c = translate(Capsule{{0, 0, 0}, {1, 0, 0}, 0.2}, {0, 0, 3});
    CHECK(std::get<Capsule>(c).a == Vec3{0, 0, 3});
    CHECK(std::get<Capsule>(c).b == Vec3{1, 0, 3});
    // The surface y = 1 moved up by 2 is y = 3; sideways moves change nothing.
    const Shape p = translate(Plane{{0, 1, 0}, 1}, {5, 2, 7});
    CHECK(std::get<Plane>(p).normal == Vec3{0, 1, 0});
    CHECK(std::get<Plane>(p).offset == 3);
}

TEST_CASE("shapes: placing with the identity rotation is translating and keeps every kind", "[shapes]") {
    const Vec3 at{1, -2, 3};
    const Shape box = place(Aabb{{0, 0, 0}, {1, 1, 1}}, at, Quat{});
    REQUIRE(kind_of(box) == ShapeKind::aabb);
    CHECK(std::get<Aabb>(box).min == Vec3{1, -2, 3});
    CHECK(std::get<Aabb>(box).max == Vec3{2, -1, 4});
    collide::test::ShapeGen gen(510);
    for (int i = 0; i < 200; ++i) {
        const Shape s = gen.any();
        const Shape placed = place(s, at, Quat{});
        INFO(shape_kind_name(kind_of(s)) << " case " << i);
        REQUIRE(kind_of(placed) == kind_of(s));
        REQUIRE(bounds_of(placed).min == bounds_of(translate(s, at)).min);
        REQUIRE(bounds_of(placed).max == bounds_of(translate(s, at)).max);
    }
}

TEST_CASE("shapes: a turned axis-aligned box becomes a turned box, turned about the local origin then moved",
          "[shapes]") {
    // x ∈ [1, 3], y ∈ [0, 4], z ∈ [0, 2] turned 90° about z, (x, y) → (−y, x): x ∈ [−4, 0],
    // y ∈ [1, 3]; then moved by (10, 0, 0): x ∈ [6, 10].
    const Shape placed = place(Aabb{{1, 0, 0}, {3, 4, 2}}, {10, 0, 0}, rot_z(90));
    REQUIRE(kind_of(placed) == ShapeKind::obb);
    const Obb& o = std::get<Obb>(placed);
    CHECK_THAT(o.centre, near_vec({8, 2, 1}, 1e-14));
    CHECK(o.half == Vec3{1, 2, 1});
    CHECK_THAT(o.axes.col[0], near_vec({0, 1, 0}, 1e-14));
    const Aabb b = bounds_of(placed);
    CHECK_THAT(b.min, near_vec({6, 1, 0}, 1e-14));
    CHECK_THAT(b.max, near_vec({10, 3, 2}, 1e-14));
}

TEST_CASE("shapes: placing turns a sphere's centre, a capsule's ends and a triangle's corners", "[shapes]") {
    const Shape s = place(Sphere{{1, 0, 0}, 0.5}, {0, 0, 5}, rot_z(90));
    CHECK_THAT(std::get<Sphere>(s).centre, near_vec({0, 1, 5}, 1e-14));
    CHECK(std::get<Sphere>(s).radius == 0.5);
    // 90° about y takes x to −z.
    const Shape c = place(Capsule{{0, 0, 0}, {2, 0, 0}, 0.3}, {1, 1, 1}, quat_from_axis_degrees({0, 1, 0}, 90));
    CHECK_THAT(std::get<Capsule>(c).a, near_vec({1, 1, 1}, 1e-14));
    CHECK_THAT(std::get<Capsule>(c).b, near_vec({1, 1, -1}, 1e-14));
    CHECK(std::get<Capsule>(c).radius == 0.3);
    // 120° about (1, 1, 1) cycles x → y → z → x.
    const Shape t =
            place(Triangle{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {0, 0, 10}, quat_from_axis_degrees({1, 1, 1}, 120));
    CHECK_THAT(std::get<Triangle>(t).a, near_vec({0, 1, 10}, 1e-14));
    CHECK_THAT(std::get<Triangle>(t).b, near_vec({0, 0, 11}, 1e-14));
    CHECK_THAT(std::get<Triangle>(t).c, near_vec({1, 0, 10}, 1e-14));
}

TEST_CASE("shapes: placing a turned box composes the turns", "[shapes]") {
    // Half-size (1, 2, 3) turned 45° about z, then placed with another 45°: 90° in all, so the
    // bounds' half-extent is (2, 1, 3) about the placed centre.
    const Obb local{{1, 0, 0}, to_mat3(rot_z(45)), {1, 2, 3}};
    const Shape placed = place(local, {0, 0, -1}, rot_z(45));
    REQUIRE(kind_of(placed) == ShapeKind::obb);
    // The centre (1, 0, 0) turned 45°: (√2/2, √2/2, 0), then moved down by 1.
    const Vec3 c{kH, kH, -1};
    CHECK_THAT(std::get<Obb>(placed).centre, near_vec(c, 1e-14));
    const Aabb b = bounds_of(placed);
    CHECK_THAT(b.min, near_vec(c - Vec3{2, 1, 3}, 1e-14));
    CHECK_THAT(b.max, near_vec(c + Vec3{2, 1, 3}, 1e-14));
}

TEST_CASE("shapes: placing a plane turns its normal and moves its surface", "[shapes]") {
    // Solid side y ≤ 1 turned 90° about z: normal −x, surface x = −1. Moved by (2, 0, 0): x = 1,
    // i.e. dot((−1, 0, 0), p) = −1, solid side x ≥ 1.
    const Shape placed = place(Plane{{0, 1, 0}, 1}, {2, 0, 0}, rot_z(90));
    const Plane& p = std::get<Plane>(placed);
    CHECK_THAT(p.normal, near_vec({-1, 0, 0}, 1e-14));
    CHECK(p.offset == Approx(-1).margin(1e-14));
    CHECK(bounds_of(placed).min.x == Approx(1).margin(1e-14));
}

TEST_CASE("shapes: a placed box and a placed hull of its corners have the same bounds and support", "[shapes]") {
    collide::test::ShapeGen gen(511);
    for (int i = 0; i < 200; ++i) {
        const Aabb box = gen.aabb();
        const std::vector<Vec3> c = box_corners(to_obb(box));
        const Hull corners = test::keep_hull(c);
        const Vec3 at = gen.point(5.0);
        const Quat q = gen.rotation();
        const Shape pb = place(box, at, q), ph = place(corners, at, q);
        INFO("case " << i);
        REQUIRE_THAT(bounds_of(pb).min, near_vec(bounds_of(ph).min, 1e-12));
        REQUIRE_THAT(bounds_of(pb).max, near_vec(bounds_of(ph).max, 1e-12));
        const Vec3 d = gen.point(1.0);
        REQUIRE(dot(support(pb, d), d) == Approx(dot(support(ph, d), d)).margin(1e-12));
    }
}

TEST_CASE("shapes: the support of a placed shape is the placed support of the local shape", "[shapes]") {
    collide::test::ShapeGen gen(512);
    for (int i = 0; i < 600; ++i) {
        const Shape s = gen.any();
        const Vec3 at = gen.point(5.0);
        const Quat q = gen.rotation();
        const Mat3 r = to_mat3(q);
        const Vec3 d = gen.point(1.0);
        // Along world d the farthest point of the placed shape is the local farthest along Rᵀd, placed.
        const Vec3 expected = r * support(s, mul_transpose(r, d)) + at;
        INFO(shape_kind_name(kind_of(s)) << " case " << i);
        REQUIRE(dot(support(place(s, at, q), d), d) == Approx(dot(expected, d)).margin(1e-12));
    }
}

TEST_CASE("placing into existing storage gives what place and translate return, for every kind", "[shapes]") {
    const Hull hull = test::keep_hull({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}});
    const std::vector<Shape> shapes{Sphere{{1, 2, 3}, 0.5},
                                    Aabb{{-1, -2, -3}, {1, 2, 3}},
                                    Obb{{1, 0, 0}, identity3(), {1, 2, 3}},
                                    Capsule{{0, 0, 0}, {0, 1, 0}, 0.25},
                                    Triangle{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}},
                                    hull,
                                    Plane{{0, 1, 0}, 2}};
    const Vec3 at{0.5, -1, 2};
    const Quat turn = quat_from_axis_degrees({1, 2, 3}, 30);
    Shape out = Hull{}; // storage holding another kind: each call switches it
    for (const Shape& s : shapes) {
        INFO(shape_kind_name(kind_of(s)));
        translate_into(out, s, at);
        CHECK(out.index() == translate(s, at).index());
        CHECK(bounds_of(out).min == bounds_of(translate(s, at)).min);
        CHECK(support(out, {1, 2, 3}) == support(translate(s, at), {1, 2, 3}));
        place_into(out, s, at, turn);
        CHECK(out.index() == place(s, at, turn).index());
        CHECK(support(out, {-3, 1, 2}) == support(place(s, at, turn), {-3, 1, 2}));
        assign_shape(out, s);
        CHECK(out.index() == s.index());
        CHECK(support(out, {2, -1, 1}) == support(s, {2, -1, 1}));
    }
}

TEST_CASE("max_distance_from: the farthest point of a shape from a point", "[shapes]") {
    CHECK(max_distance_from(Sphere{{3, 4, 0}, 1}, {}) == Approx(6.0));
    CHECK(max_distance_from(Aabb{{0, -1, -1}, {3, 1, 1}}, {}) == Approx(std::sqrt(11.0)));
    CHECK(max_distance_from(Capsule{{0, 0, 0}, {0, 2, 0}, 0.5}, {0, -1, 0}) == Approx(3.5));
    CHECK(std::isinf(max_distance_from(Plane{}, {})));
}
