#pragma once
/// \file
/// 3×3 matrices stored as three columns. A rotation's columns are the turned x, y and z axes,
/// which is exactly what the separating axis test wants ("a turned box's axes are the columns
/// of its rotation matrix").

#include "math/vec3.h"

namespace collide {

/// A 3×3 matrix stored by columns: M·v = col[0]·v.x + col[1]·v.y + col[2]·v.z.
struct Mat3 {
    Vec3 col[3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}; ///< the columns; identity by default

    /// Row r, column c.
    constexpr double at(int r, int c) const { return col[c][static_cast<std::size_t>(r)]; }
    friend constexpr bool operator==(const Mat3&, const Mat3&) = default;
};

/// The identity matrix.
constexpr Mat3 identity3() { return Mat3{}; }

/// M·v: takes a vector from the matrix's local frame to the parent frame.
constexpr Vec3 operator*(const Mat3& m, const Vec3& v) { return m.col[0] * v.x + m.col[1] * v.y + m.col[2] * v.z; }
/// Mᵀ·v: for a rotation, takes a parent-frame vector into the local frame.
constexpr Vec3 mul_transpose(const Mat3& m, const Vec3& v) {
    return {dot(m.col[0], v), dot(m.col[1], v), dot(m.col[2], v)};
}
/// A·B.
constexpr Mat3 operator*(const Mat3& a, const Mat3& b) { return Mat3{{a * b.col[0], a * b.col[1], a * b.col[2]}}; }
/// Aᵀ·B: for rotations, B expressed in A's frame.
constexpr Mat3 mul_transpose(const Mat3& a, const Mat3& b) {
    return Mat3{{mul_transpose(a, b.col[0]), mul_transpose(a, b.col[1]), mul_transpose(a, b.col[2])}};
}

} // namespace collide
