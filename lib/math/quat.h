#pragma once
/// \file
/// Unit quaternions for orientation, and the three ways a scenario may write a rotation
/// (axis + degrees, quaternion [w, x, y, z], Euler degrees about x, then y, then z).

#include "math/mat3.h"
#include "math/trig.h"

#include <numbers>

namespace collide {

/// A rotation as a unit quaternion w + xi + yj + zk. Identity by default.
struct Quat {
    double w = 1.0; ///< scalar part
    double x = 0.0; ///< i component
    double y = 0.0; ///< j component
    double z = 0.0; ///< k component
    friend constexpr bool operator==(const Quat&, const Quat&) = default;
};

/// Hamilton product a·b: apply b first, then a.
constexpr Quat operator*(const Quat& a, const Quat& b) {
    return {a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z, a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x, a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w};
}

/// q scaled to unit length; a zero quaternion (or one with a non-finite component) becomes the
/// identity. Overflow-safe as normalize(Vec3): q scaled by 1e±200 gives the same rotation.
inline Quat normalize(const Quat& q) {
    const double n2 = q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z;
    if (n2 > 1e-290 && n2 < 1e290) {
        const double n = std::sqrt(n2);
        return {q.w / n, q.x / n, q.y / n, q.z / n};
    }
    const double m = std::max(std::max(std::fabs(q.w), std::fabs(q.x)), std::max(std::fabs(q.y), std::fabs(q.z)));
    if (!(m > 0.0) || !std::isfinite(m)) return Quat{};
    const Quat s{q.w / m, q.x / m, q.y / m, q.z / m};
    const double n = std::sqrt(s.w * s.w + s.x * s.x + s.y * s.y + s.z * s.z);
    return {s.w / n, s.x / n, s.y / n, s.z / n};
}

/// The rotation of `degrees` about `axis` (right-hand rule). The axis need not be unit length;
/// a zero axis gives the identity. The half angle's sine and cosine are the project's own
/// (math/trig.h: exactly reduced, within 1 ulp, the same bits on every build).
inline Quat quat_from_axis_degrees(const Vec3& axis, double degrees) {
    const Vec3 n = normalize(axis);
    if (n.x == 0.0 && n.y == 0.0 && n.z == 0.0) return Quat{};
    const SinCos half = sin_cos_degrees(degrees * 0.5);
    return {half.cos, n.x * half.sin, n.y * half.sin, n.z * half.sin};
}

/// Euler angles in degrees, applied about the fixed x axis first, then y, then z
/// (so the result is Rz·Ry·Rx).
inline Quat quat_from_euler_degrees(const Vec3& degrees) {
    const Quat qx = quat_from_axis_degrees({1, 0, 0}, degrees.x);
    const Quat qy = quat_from_axis_degrees({0, 1, 0}, degrees.y);
    const Quat qz = quat_from_axis_degrees({0, 0, 1}, degrees.z);
    return normalize(qz * (qy * qx));
}

/// The rotation matrix of a unit quaternion; its columns are the turned x, y, z axes.
constexpr Mat3 to_mat3(const Quat& q) {
    const double xx = q.x * q.x, yy = q.y * q.y, zz = q.z * q.z;
    const double xy = q.x * q.y, xz = q.x * q.z, yz = q.y * q.z;
    const double wx = q.w * q.x, wy = q.w * q.y, wz = q.w * q.z;
    return Mat3{{{1 - 2 * (yy + zz), 2 * (xy + wz), 2 * (xz - wy)},
                 {2 * (xy - wz), 1 - 2 * (xx + zz), 2 * (yz + wx)},
                 {2 * (xz + wy), 2 * (yz - wx), 1 - 2 * (xx + yy)}}};
}

/// The unit quaternion of the proper rotation matrix `m` (columns: the turned x, y, z axes), the
/// inverse of to_mat3 up to rounding, with w ≥ 0. Shepperd's method: the component of largest
/// magnitude (from the trace or the largest diagonal entry) is found first and the others are
/// divided by it, never by a small number (S. W. Shepperd, "Quaternion from rotation matrix",
/// J. Guidance and Control 1(3), 1978, p. 223).
inline Quat quat_from_rotation(const Mat3& m) {
    const double trace = m.at(0, 0) + m.at(1, 1) + m.at(2, 2);
    Quat q;
    if (trace >= m.at(0, 0) && trace >= m.at(1, 1) && trace >= m.at(2, 2)) {
        const double s = 2 * std::sqrt(1 + trace); // 4w
        q = {0.25 * s, (m.at(2, 1) - m.at(1, 2)) / s, (m.at(0, 2) - m.at(2, 0)) / s, (m.at(1, 0) - m.at(0, 1)) / s};
    } else if (m.at(0, 0) >= m.at(1, 1) && m.at(0, 0) >= m.at(2, 2)) {
        const double s = 2 * std::sqrt(1 + m.at(0, 0) - m.at(1, 1) - m.at(2, 2)); // 4x
        q = {(m.at(2, 1) - m.at(1, 2)) / s, 0.25 * s, (m.at(0, 1) + m.at(1, 0)) / s, (m.at(0, 2) + m.at(2, 0)) / s};
    } else if (m.at(1, 1) >= m.at(2, 2)) {
        const double s = 2 * std::sqrt(1 + m.at(1, 1) - m.at(0, 0) - m.at(2, 2)); // 4y
        q = {(m.at(0, 2) - m.at(2, 0)) / s, (m.at(0, 1) + m.at(1, 0)) / s, 0.25 * s, (m.at(1, 2) + m.at(2, 1)) / s};
    } else {
        const double s = 2 * std::sqrt(1 + m.at(2, 2) - m.at(0, 0) - m.at(1, 1)); // 4z
        q = {(m.at(1, 0) - m.at(0, 1)) / s, (m.at(0, 2) + m.at(2, 0)) / s, (m.at(1, 2) + m.at(2, 1)) / s, 0.25 * s};
    }
    if (q.w < 0) q = {-q.w, -q.x, -q.y, -q.z};
    return normalize(q);
}

/// v rotated by the unit quaternion q.
constexpr Vec3 rotate(const Quat& q, const Vec3& v) { return to_mat3(q) * v; }

/// The conjugate w − xi − yj − zk: the inverse rotation of a unit quaternion.
constexpr Quat conjugate(const Quat& q) { return {q.w, -q.x, -q.y, -q.z}; }

/// v rotated by the inverse of the unit quaternion q (a world vector into q's local frame).
constexpr Vec3 rotate_inverse(const Quat& q, const Vec3& v) { return mul_transpose(to_mat3(q), v); }

/// The exponential map: the rotation by the angle |θ| (rad) about θ (a rotation vector, world
/// frame, right-hand rule), exactly (cos and sin of the half angle, the project's own from
/// math/trig.h so that every build turns a body by the same bits; near zero their series, so a
/// tiny θ keeps its direction). exp_rotation(ω·h)·q turns q by an angular velocity ω for h s.
inline Quat exp_rotation(const Vec3& theta) {
    const double angle2 = dot(theta, theta);
    double c = 0, k = 0; // q = (cos(|θ|/2), θ·sin(|θ|/2)/|θ|)
    if (angle2 < 1e-12) {
        // cos x = 1 − x²/2 + x⁴/24, sin(x)/(2x) with x = |θ|/2 = ½ − x²/12 …: within rounding here.
        c = 1 - angle2 / 8 + angle2 * angle2 / 384;
        k = 0.5 - angle2 / 48;
    } else {
        const double angle = std::sqrt(angle2);
        const SinCos half = sin_cos(0.5 * angle);
        c = half.cos;
        k = half.sin / angle;
    }
    return {c, theta.x * k, theta.y * k, theta.z * k};
}

} // namespace collide
