// Mass properties against closed forms worked out by hand (and, for the capsule, against an
// independent integration over thin disks along its axis).
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>

#include "shapes/mass.h"
#include "support/approx.h"
#include "support/hulls.h"

using namespace collide;
using collide::test::near_vec;

namespace {

constexpr double kPi = std::numbers::pi;

/// Every entry of `m` within `tol` of `want`'s.
bool near_mat(const Mat3& m, const Mat3& want, double tol) {
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c)
            if (std::fabs(m.at(r, c) - want.at(r, c)) > tol) return false;
    return true;
}

Hull hull_from(std::initializer_list<Vec3> points) { return test::keep_hull(points); }

/// The eight corners of the box with half extents `h` about `c`, turned by `r`.
Hull box_hull(const Vec3& c, const Vec3& h, const Mat3& r = Mat3{}) {
    HullPoints out;
    for (int k = 0; k < 8; ++k) {
        const Vec3 local{(k & 1 ? 1 : -1) * h.x, (k & 2 ? 1 : -1) * h.y, (k & 4 ? 1 : -1) * h.z};
        out.points[static_cast<std::size_t>(out.count++)] = c + r * local;
    }
    return test::keep_hull(out);
}

} // namespace

TEST_CASE("mass: a sphere's inertia is 2/5·m·r² about its centre", "[shapes][mass]") {
    const MassProperties p = mass_properties(Sphere{{1, 2, 3}, 0.5}, 4);
    CHECK(p.mass == 4);
    CHECK_THAT(p.centre, near_vec({1, 2, 3}, 0));
    CHECK(near_mat(p.inertia, diagonal(Vec3{0.4, 0.4, 0.4}), 1e-15));
    CHECK(volume_of(Sphere{{}, 2}) == Approx(4.0 / 3.0 * kPi * 8).epsilon(1e-15));
}

TEST_CASE("mass: a box's inertia is m/3·(b² + c²) with half extents a, b, c", "[shapes][mass]") {
    // Half extents (1, 2, 3), mass 3: Ixx = 4 + 9, Iyy = 1 + 9, Izz = 1 + 4.
    const MassProperties p = mass_properties(Aabb{{0, -2, -3}, {2, 2, 3}}, 3);
    CHECK_THAT(p.centre, near_vec({1, 0, 0}, 0));
    CHECK(near_mat(p.inertia, diagonal(Vec3{13, 10, 5}), 1e-14));
    CHECK(volume_of(Aabb{{0, -2, -3}, {2, 2, 3}}) == 48);
}

TEST_CASE("mass: a turned box's tensor is the box's turned, R·I·Rᵀ", "[shapes][mass]") {
    // Half extents (1, 0.5, 0.5) turned 90° about z: its long axis lies along y, so Iyy is the small one.
    const Mat3 rz90{{{0, 1, 0}, {-1, 0, 0}, {0, 0, 1}}};
    const MassProperties p = mass_properties(Obb{{0, 0, 0}, rz90, {1, 0.5, 0.5}}, 6);
    // Unturned: Ixx = 2·(0.25 + 0.25) = 1, Iyy = Izz = 2·(1 + 0.25) = 2.5.
    CHECK(near_mat(p.inertia, diagonal(Vec3{2.5, 1, 2.5}), 1e-14));
    // Turned 45° about z, the x–y block of a box with Ixx ≠ Iyy has off-diagonal ±(Ixx − Iyy)/2.
    const double s = std::sqrt(0.5);
    const Mat3 rz45{{{s, s, 0}, {-s, s, 0}, {0, 0, 1}}};
    const MassProperties q = mass_properties(Obb{{0, 0, 0}, rz45, {1, 0.5, 0.5}}, 6);
    CHECK(q.inertia.at(0, 0) == Approx(1.75).epsilon(1e-14));
    CHECK(q.inertia.at(1, 1) == Approx(1.75).epsilon(1e-14));
    CHECK(std::fabs(std::fabs(q.inertia.at(0, 1)) - 0.75) < 1e-14);
    CHECK(q.inertia.at(0, 1) == q.inertia.at(1, 0));
    CHECK(q.inertia.at(2, 2) == Approx(2.5).epsilon(1e-14));
}

TEST_CASE("mass: a capsule's tensor matches an integration over thin disks along its axis", "[shapes][mass]") {
    // The capsule along y from (0, −0.6, 0) to (0, 0.6, 0), radius 0.3, mass 2. Slice it into
    // disks of radius ρ(y) and thickness dy: dm = k·π·ρ²·dy, about the axis dm·ρ²/2, across it
    // about the centre dm·(ρ²/4 + y²) (the disk's own and the parallel-axis term). Midpoint rule.
    const double r = 0.3, half = 0.6, mass = 2;
    const int n = 400000;
    const double top = half + r, dy = 2 * top / n;
    double volume = 0, axial = 0, across = 0;
    for (int i = 0; i < n; ++i) {
        const double y = -top + (i + 0.5) * dy;
        const double e = std::fabs(y) > half ? std::fabs(y) - half : 0;
        const double rho2 = r * r - e * e;
        const double dv = kPi * rho2 * dy;
        volume += dv;
        axial += dv * rho2 / 2;
        across += dv * (rho2 / 4 + y * y);
    }
    const double k = mass / volume;
    const Capsule c{{0, -half, 0}, {0, half, 0}, r};
    const MassProperties p = mass_properties(c, mass);
    CHECK(volume_of(c) == Approx(volume).epsilon(1e-9));
    CHECK(p.inertia.at(1, 1) == Approx(k * axial).epsilon(1e-8));
    CHECK(p.inertia.at(0, 0) == Approx(k * across).epsilon(1e-8));
    CHECK(p.inertia.at(2, 2) == Approx(k * across).epsilon(1e-8));
    CHECK(std::fabs(p.inertia.at(0, 1)) < 1e-15);
    // A capsule with no length is a ball.
    const MassProperties ball = mass_properties(Capsule{{1, 1, 1}, {1, 1, 1}, 0.5}, 1);
    CHECK(near_mat(ball.inertia, diagonal(Vec3{0.1, 0.1, 0.1}), 1e-15));
}

TEST_CASE("mass: a hull of a box's corners is that box, turned or moved", "[shapes][mass]") {
    const double s = std::sqrt(0.5);
    const Mat3 turn{{{s, s, 0}, {-s, s, 0}, {0, 0, 1}}};
    const Hull h = box_hull({1, -2, 0.5}, {1, 0.5, 0.25}, turn);
    const MassProperties p = mass_properties(h, 3);
    const MassProperties box = mass_properties(Obb{{1, -2, 0.5}, turn, {1, 0.5, 0.25}}, 3);
    CHECK_THAT(p.centre, near_vec({1, -2, 0.5}, 1e-13));
    CHECK(near_mat(p.inertia, box.inertia, 1e-13));
    CHECK(volume_of(h) == Approx(2 * 1 * 0.5).epsilon(1e-13));
    // Points inside the hull or on a face change nothing.
    HullPoints more_points = *h.data;
    more_points.points[static_cast<std::size_t>(more_points.count++)] = Vec3{1, -2, 0.5};
    more_points.points[static_cast<std::size_t>(more_points.count++)] = Vec3{1, -2, 0.75}; // the top face's middle
    const Hull more = hull_of(more_points);
    const MassProperties q = mass_properties(more, 3);
    CHECK(near_mat(q.inertia, box.inertia, 1e-13));
    CHECK(hull_faces(more).face_count == 6);
}

TEST_CASE("mass: a regular octahedron |x| + |y| + |z| ≤ a has I = m·a²/5", "[shapes][mass]") {
    // E[x²] over it is a²/10 (8 simplices, each ∫x² = a⁵/60, volume 4a³/3), so Ixx = m·(a²/10 + a²/10).
    const double a = 2;
    const Hull h = hull_from({{a, 0, 0}, {-a, 0, 0}, {0, a, 0}, {0, -a, 0}, {0, 0, a}, {0, 0, -a}});
    const MassProperties p = mass_properties(h, 5);
    CHECK(near_mat(p.inertia, diagonal(Vec3{1, 1, 1} * (5 * a * a / 5)), 1e-13));
    CHECK(volume_of(h) == Approx(4 * a * a * a / 3).epsilon(1e-14));
    CHECK(hull_faces(h).face_count == 8);
}

TEST_CASE("mass: a triangle is a thin plate", "[shapes][mass]") {
    // The right triangle (0,0), (1,0), (0,1): centroid (1/3, 1/3); about it var x = var y = 1/18,
    // cov xy = 1/12 − 1/9 = −1/36. So Ixx = Iyy = m/18, Izz = m/9, Ixy = −cov = m/36.
    const MassProperties p = mass_properties(Triangle{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}, 36);
    CHECK_THAT(p.centre, near_vec({1.0 / 3, 1.0 / 3, 0}, 1e-15));
    CHECK(p.inertia.at(0, 0) == Approx(2).epsilon(1e-13));
    CHECK(p.inertia.at(1, 1) == Approx(2).epsilon(1e-13));
    CHECK(p.inertia.at(2, 2) == Approx(4).epsilon(1e-13));
    CHECK(p.inertia.at(0, 1) == Approx(1).epsilon(1e-13));
    CHECK(volume_of(Triangle{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}) == 0);
    // A flat hull of the same corners is the same plate.
    const MassProperties q = mass_properties(hull_from({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}}), 36);
    CHECK(near_mat(q.inertia, p.inertia, 1e-13));
    CHECK(hull_faces(hull_from({{0, 0, 0}, {1, 0, 0}, {0, 1, 0}})).flat);
}

TEST_CASE("mass: hull faces are outward and counter-clockwise seen from outside", "[shapes][mass]") {
    const Hull h = box_hull({0, 0, 0}, {1, 2, 3});
    const HullFaces f = hull_faces(h);
    REQUIRE(f.face_count == 6);
    int checked = 0;
    for (int k = 0; k < f.face_count; ++k) {
        const HullFaces::Face& face = f.faces[static_cast<std::size_t>(k)];
        REQUIRE(face.count == 4);
        const Vec3 a = h.point(f.corners[static_cast<std::size_t>(face.first)]);
        const Vec3 b = h.point(f.corners[static_cast<std::size_t>(face.first + 1)]);
        const Vec3 c = h.point(f.corners[static_cast<std::size_t>(face.first + 2)]);
        CHECK(dot(cross(b - a, c - a), face.normal) > 0); // counter-clockwise about the outward normal
        CHECK(dot(face.normal, a) == Approx(face.offset));
        CHECK(face.offset > 0); // outward: the origin is inside
        ++checked;
    }
    CHECK(checked == 6);
}
