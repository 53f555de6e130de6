// Quaternions: axis-angle, Euler angles, products and matrices against hand-worked rotations and
// against rotation matrices written out independently of the quaternion code.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>

#include "detection/shape_gen.h"
#include "math/quat.h"
#include "support/approx.h"

using namespace collide;
using collide::test::near_vec;

namespace {
constexpr double kDeg = std::numbers::pi / 180.0;
const double kH = std::sqrt(0.5); // cos 45° = sin 45°

// Rotation matrices about the coordinate axes from cos and sin directly (columns are the turned axes).
Mat3 rot_x(double degrees) {
    const double c = std::cos(degrees * kDeg), s = std::sin(degrees * kDeg);
    return Mat3{{{1, 0, 0}, {0, c, s}, {0, -s, c}}};
}
Mat3 rot_y(double degrees) {
    const double c = std::cos(degrees * kDeg), s = std::sin(degrees * kDeg);
    return Mat3{{{c, 0, -s}, {0, 1, 0}, {s, 0, c}}};
}
Mat3 rot_z(double degrees) {
    const double c = std::cos(degrees * kDeg), s = std::sin(degrees * kDeg);
    return Mat3{{{c, s, 0}, {-s, c, 0}, {0, 0, 1}}};
}

// Rodrigues' formula: v turned by `degrees` about the unit axis k.
Vec3 rodrigues(const Vec3& k, double degrees, const Vec3& v) {
    const double c = std::cos(degrees * kDeg), s = std::sin(degrees * kDeg);
    return v * c + cross(k, v) * s + k * (dot(k, v) * (1 - c));
}

bool mat_near(const Mat3& a, const Mat3& b, double tolerance) {
    return near(a.col[0], b.col[0], tolerance) && near(a.col[1], b.col[1], tolerance) &&
           near(a.col[2], b.col[2], tolerance);
}

double quat_length(const Quat& q) { return std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z); }
} // namespace

TEST_CASE("quat: the default quaternion is the identity rotation", "[math]") {
    const Quat q;
    CHECK(q == Quat{1, 0, 0, 0});
    CHECK(to_mat3(q) == identity3());
    CHECK(rotate(q, {1, -2, 3}) == Vec3{1, -2, 3});
}

TEST_CASE("quat: 90° about z is (cos 45°, 0, 0, sin 45°) and turns x to y and y to −x", "[math]") {
    const Quat q = quat_from_axis_degrees({0, 0, 1}, 90);
    CHECK(q.w == Approx(kH).margin(1e-14));
    CHECK(q.x == 0);
    CHECK(q.y == 0);
    CHECK(q.z == Approx(kH).margin(1e-14));
    CHECK_THAT(rotate(q, {1, 0, 0}), near_vec({0, 1, 0}, 1e-14));
    CHECK_THAT(rotate(q, {0, 1, 0}), near_vec({-1, 0, 0}, 1e-14));
    CHECK_THAT(rotate(q, {0, 0, 1}), near_vec({0, 0, 1}, 1e-14));
}

TEST_CASE("quat: quarter turns about x and y follow the right-hand rule", "[math]") {
    const Quat qx = quat_from_axis_degrees({1, 0, 0}, 90);
    CHECK_THAT(rotate(qx, {0, 1, 0}), near_vec({0, 0, 1}, 1e-14));
    CHECK_THAT(rotate(qx, {0, 0, 1}), near_vec({0, -1, 0}, 1e-14));
    const Quat qy = quat_from_axis_degrees({0, 1, 0}, 90);
    CHECK_THAT(rotate(qy, {0, 0, 1}), near_vec({1, 0, 0}, 1e-14));
    CHECK_THAT(rotate(qy, {1, 0, 0}), near_vec({0, 0, -1}, 1e-14));
    // A negative angle turns the other way.
    CHECK_THAT(rotate(quat_from_axis_degrees({0, 0, 1}, -90), {1, 0, 0}), near_vec({0, -1, 0}, 1e-14));
}

TEST_CASE("quat: half turn about (1, 1, 0) swaps x and y and flips z", "[math]") {
    const Quat q = quat_from_axis_degrees({1, 1, 0}, 180);
    CHECK_THAT(rotate(q, {1, 0, 0}), near_vec({0, 1, 0}, 1e-14));
    CHECK_THAT(rotate(q, {0, 1, 0}), near_vec({1, 0, 0}, 1e-14));
    CHECK_THAT(rotate(q, {0, 0, 1}), near_vec({0, 0, -1}, 1e-14));
}

TEST_CASE("quat: 120° about (1, 1, 1) cycles x → y → z → x", "[math]") {
    const Quat q = quat_from_axis_degrees({1, 1, 1}, 120);
    CHECK_THAT(rotate(q, {1, 0, 0}), near_vec({0, 1, 0}, 1e-14));
    CHECK_THAT(rotate(q, {0, 1, 0}), near_vec({0, 0, 1}, 1e-14));
    CHECK_THAT(rotate(q, {0, 0, 1}), near_vec({1, 0, 0}, 1e-14));
}

TEST_CASE("quat: the axis need not be unit length, and a zero axis gives the identity", "[math]") {
    const Quat unit = quat_from_axis_degrees({0, 0, 1}, 30);
    const Quat scaled = quat_from_axis_degrees({0, 0, 5}, 30);
    CHECK(scaled.w == Approx(unit.w).margin(1e-14));
    CHECK(scaled.z == Approx(unit.z).margin(1e-14));
    CHECK(quat_length(scaled) == Approx(1).margin(1e-14));
    CHECK(quat_from_axis_degrees({0, 0, 0}, 45) == Quat{});
}

TEST_CASE("quat: axis-angle rotation matches Rodrigues' formula", "[math]") {
    collide::test::ShapeGen gen(404);
    for (int i = 0; i < 200; ++i) {
        Vec3 axis = gen.point(1.0);
        while (length(axis) < 0.05) axis = gen.point(1.0); // a well-defined axis, every case checked
        const double degrees = gen.uniform(-360, 360);
        const Vec3 v = gen.point(2.0);
        INFO("case " << i);
        REQUIRE_THAT(rotate(quat_from_axis_degrees(axis, degrees), v),
                     near_vec(rodrigues(normalize(axis), degrees, v), 1e-12));
    }
}

TEST_CASE("quat: the Hamilton product follows i·j = k, j·i = −k, i·i = −1", "[math]") {
    const Quat i{0, 1, 0, 0}, j{0, 0, 1, 0}, k{0, 0, 0, 1};
    CHECK(i * j == k);
    CHECK(j * i == Quat{0, 0, 0, -1});
    CHECK(j * k == i);
    CHECK(k * i == j);
    CHECK(i * i == Quat{-1, 0, 0, 0});
    CHECK(Quat{} * k == k);
    CHECK(k * Quat{} == k);
}

TEST_CASE("quat: q1·q2 applies q2 first, then q1", "[math]") {
    const Quat qx = quat_from_axis_degrees({1, 0, 0}, 90), qz = quat_from_axis_degrees({0, 0, 1}, 90);
    // x first: y → z, then z about z stays z.
    CHECK_THAT(rotate(qz * qx, {0, 1, 0}), near_vec({0, 0, 1}, 1e-14));
    // z first: y → −x, then −x about x stays −x.
    CHECK_THAT(rotate(qx * qz, {0, 1, 0}), near_vec({-1, 0, 0}, 1e-14));

    collide::test::ShapeGen gen(405);
    for (int i = 0; i < 200; ++i) {
        const Quat q1 = gen.rotation(), q2 = gen.rotation();
        const Vec3 v = gen.point(2.0);
        INFO("case " << i);
        REQUIRE_THAT(rotate(q1 * q2, v), near_vec(rotate(q1, rotate(q2, v)), 1e-12));
        REQUIRE(mat_near(to_mat3(q1 * q2), to_mat3(q1) * to_mat3(q2), 1e-12));
    }
}

TEST_CASE("quat: Euler (90, 90, 0) turns about x first, then y", "[math]") {
    const Quat q = quat_from_euler_degrees({90, 90, 0});
    // y → z about x, then z → x about y. The other order would leave y on z.
    CHECK_THAT(rotate(q, {0, 1, 0}), near_vec({1, 0, 0}, 1e-14));
    // x stays x about x, then x → −z about y.
    CHECK_THAT(rotate(q, {1, 0, 0}), near_vec({0, 0, -1}, 1e-14));
}

TEST_CASE("quat: Euler (90, 90, 90) is a quarter turn about y", "[math]") {
    // By hand, x then y then z: x → x → −z → −z;  y → z → x → y;  z → −y → −y → x.
    const Mat3 m = to_mat3(quat_from_euler_degrees({90, 90, 90}));
    CHECK_THAT(m.col[0], near_vec({0, 0, -1}, 1e-14));
    CHECK_THAT(m.col[1], near_vec({0, 1, 0}, 1e-14));
    CHECK_THAT(m.col[2], near_vec({1, 0, 0}, 1e-14));
    CHECK(mat_near(m, to_mat3(quat_from_axis_degrees({0, 1, 0}, 90)), 1e-14));
}

TEST_CASE("quat: Euler angles about a single axis equal the axis rotation", "[math]") {
    CHECK(mat_near(to_mat3(quat_from_euler_degrees({37, 0, 0})), rot_x(37), 1e-14));
    CHECK(mat_near(to_mat3(quat_from_euler_degrees({0, -58, 0})), rot_y(-58), 1e-14));
    CHECK(mat_near(to_mat3(quat_from_euler_degrees({0, 0, 121})), rot_z(121), 1e-14));
}

TEST_CASE("quat: Euler angles give Rz·Ry·Rx composed from hand-written axis matrices", "[math]") {
    CHECK(mat_near(to_mat3(quat_from_euler_degrees({30, -45, 60})), rot_z(60) * rot_y(-45) * rot_x(30), 1e-14));
    collide::test::ShapeGen gen(406);
    for (int i = 0; i < 200; ++i) {
        const Vec3 e{gen.uniform(-180, 180), gen.uniform(-90, 90), gen.uniform(-180, 180)};
        INFO("case " << i << " euler " << e.x << ", " << e.y << ", " << e.z);
        const Mat3 expected = rot_z(e.z) * rot_y(e.y) * rot_x(e.x);
        REQUIRE(mat_near(to_mat3(quat_from_euler_degrees(e)), expected, 1e-12));
    }
}

TEST_CASE("quat: to_mat3 of a unit quaternion is orthonormal with determinant 1", "[math]") {
    collide::test::ShapeGen gen(407);
    for (int i = 0; i < 500; ++i) {
        const Quat q = gen.rotation();
        const Mat3 m = to_mat3(q);
        INFO("case " << i);
        for (int c = 0; c < 3; ++c) REQUIRE(length(m.col[c]) == Approx(1).margin(1e-12));
        REQUIRE(dot(m.col[0], m.col[1]) == Approx(0).margin(1e-12));
        REQUIRE(dot(m.col[0], m.col[2]) == Approx(0).margin(1e-12));
        REQUIRE(dot(m.col[1], m.col[2]) == Approx(0).margin(1e-12));
        REQUIRE(dot(m.col[0], cross(m.col[1], m.col[2])) == Approx(1).margin(1e-12));
        REQUIRE(mat_near(mul_transpose(m, m), identity3(), 1e-12));
    }
}

TEST_CASE("quat: q and −q give the same rotation", "[math]") {
    collide::test::ShapeGen gen(408);
    for (int i = 0; i < 200; ++i) {
        const Quat q = gen.rotation();
        const Quat neg{-q.w, -q.x, -q.y, -q.z};
        INFO("case " << i);
        REQUIRE(mat_near(to_mat3(q), to_mat3(neg), 1e-14));
    }
    // A full turn is −1 as a quaternion, yet turns nothing.
    const Quat full = quat_from_axis_degrees({0.2, 1, -0.3}, 360);
    CHECK(full.w == Approx(-1).margin(1e-14));
    CHECK(mat_near(to_mat3(full), identity3(), 1e-14));
}

TEST_CASE("quat: normalize gives unit length, keeps the direction, and maps zero to the identity", "[math]") {
    CHECK(normalize(Quat{2, 0, 0, 0}) == Quat{});
    const Quat h = normalize(Quat{1, 1, 1, 1});
    CHECK(h.w == Approx(0.5).margin(1e-14));
    CHECK(h.x == Approx(0.5).margin(1e-14));
    CHECK(h.y == Approx(0.5).margin(1e-14));
    CHECK(h.z == Approx(0.5).margin(1e-14));
    // (3, 0, 4, 0) has length 5.
    const Quat t = normalize(Quat{3, 0, 4, 0});
    CHECK(t.w == Approx(0.6).margin(1e-14));
    CHECK(t.y == Approx(0.8).margin(1e-14));
    CHECK(normalize(Quat{0, 0, 0, 0}) == Quat{});
    CHECK(quat_length(normalize(Quat{-0.3, 7, 1e-3, 2.5})) == Approx(1).margin(1e-14));
    // A unit quaternion is left as it is.
    const Quat q = quat_from_axis_degrees({1, 2, 3}, 50);
    const Quat n = normalize(q);
    CHECK(n.w == Approx(q.w).margin(1e-14));
    CHECK(n.x == Approx(q.x).margin(1e-14));
    CHECK(n.y == Approx(q.y).margin(1e-14));
    CHECK(n.z == Approx(q.z).margin(1e-14));
}

TEST_CASE("quat: rotation keeps lengths and the conjugate turns back", "[math]") {
    collide::test::ShapeGen gen(409);
    for (int i = 0; i < 200; ++i) {
        const Quat q = gen.rotation();
        const Quat conj{q.w, -q.x, -q.y, -q.z};
        const Vec3 v = gen.point(3.0);
        INFO("case " << i);
        REQUIRE(length(rotate(q, v)) == Approx(length(v)).margin(1e-12));
        REQUIRE_THAT(rotate(conj, rotate(q, v)), near_vec(v, 1e-12));
        REQUIRE_THAT(mul_transpose(to_mat3(q), rotate(q, v)), near_vec(v, 1e-12));
    }
}

TEST_CASE("quat: exp_rotation of θ is the turn by |θ| rad about θ, with the project's sine and cosine", "[math]") {
    collide::test::ShapeGen gen(410);
    int checked = 0;
    for (int i = 0; i < 200; ++i) {
        const Vec3 axis = normalize(gen.point(1.0) + Vec3{0, 0, 2}); // never near zero
        const double angle = 0.001 + 6.0 * (i / 200.0);              // rad, up to about a full turn
        const Vec3 theta = axis * angle;
        const Quat q = exp_rotation(theta);
        INFO("case " << i);
        REQUIRE_THAT(rotate(q, {1, 2, 3}),
                     near_vec(rotate(quat_from_axis_degrees(axis, angle / kDeg), {1, 2, 3}), 1e-12));
        // Bit for bit the half angle's sin_cos (math/trig.h), not the C library's.
        const double length_of_theta = std::sqrt(dot(theta, theta));
        const SinCos half = sin_cos(0.5 * length_of_theta);
        REQUIRE(q.w == half.cos);
        REQUIRE(q.x == theta.x * (half.sin / length_of_theta));
        ++checked;
    }
    CHECK(checked == 200);
}

TEST_CASE("quat: exp_rotation near zero keeps the direction of a tiny θ and meets the exact branch", "[math]") {
    CHECK(exp_rotation({0, 0, 0}) == Quat{});
    const Quat tiny = exp_rotation({0, 0, 1e-9});
    CHECK(tiny.w == 1.0);
    CHECK(tiny.z == Approx(0.5e-9).epsilon(1e-15));
    CHECK(tiny.x == 0.0);
    // Either side of the switch at |θ|² = 1e-12 the two formulas agree within rounding.
    const Quat below = exp_rotation({0, 0.999999e-6, 0}), above = exp_rotation({0, 1.000001e-6, 0});
    CHECK(below.w == Approx(above.w).margin(1e-15));
    CHECK(below.y == Approx(above.y).epsilon(1e-5));
}

TEST_CASE("quat: quat_from_rotation reads the quaternion back from rotation matrices written out by hand", "[math]") {
    // Quarter and half turns about each axis, whose quaternions are (cos ½θ, sin ½θ·axis):
    // each branch of Shepperd's method (the trace largest, then x, y or z's diagonal entry).
    struct Case {
        Mat3 m;
        Quat q;
    };
    const Case cases[] = {
            {Mat3{}, {1, 0, 0, 0}},      {rot_x(90), {kH, kH, 0, 0}},   {rot_y(90), {kH, 0, kH, 0}},
            {rot_z(90), {kH, 0, 0, kH}}, {rot_x(180), {0, 1, 0, 0}},    {rot_y(180), {0, 0, 1, 0}},
            {rot_z(180), {0, 0, 0, 1}},  {rot_z(-90), {kH, 0, 0, -kH}},
    };
    for (const Case& c : cases) {
        const Quat q = quat_from_rotation(c.m);
        CHECK(q.w == Approx(c.q.w).margin(1e-15));
        CHECK(q.x == Approx(c.q.x).margin(1e-15));
        CHECK(q.y == Approx(c.q.y).margin(1e-15));
        CHECK(q.z == Approx(c.q.z).margin(1e-15));
    }
}

TEST_CASE("quat: quat_from_rotation inverts to_mat3 for turns of every size, w ≥ 0", "[math]") {
    // Axes in every octant, angles up to a full turn (past 180° the quaternion read back is −q:
    // the same rotation, with w ≥ 0).
    for (const Vec3 axis : {Vec3{1, 2, 3}, Vec3{-3, 1, 0.5}, Vec3{0.2, -1, -4}, Vec3{1, 0, 0}})
        for (const double degrees : {1e-7, 10.0, 90.0, 135.0, 179.9, 180.0, 250.0, 359.0}) {
            const Quat q = quat_from_axis_degrees(axis, degrees);
            const Quat back = quat_from_rotation(to_mat3(q));
            CHECK(back.w >= 0);
            // q or −q (at 180° both have w = 0): |⟨back, q⟩| = 1 for unit quaternions.
            CHECK(std::fabs(back.w * q.w + back.x * q.x + back.y * q.y + back.z * q.z) == Approx(1).margin(1e-12));
        }
}
