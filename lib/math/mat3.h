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

/// The zero matrix (the inverse inertia of a body that cannot turn).
constexpr Mat3 zero3() { return Mat3{{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}}; }

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

/// Mᵀ.
constexpr Mat3 transpose(const Mat3& m) {
    return Mat3{{{m.col[0].x, m.col[1].x, m.col[2].x},
                 {m.col[0].y, m.col[1].y, m.col[2].y},
                 {m.col[0].z, m.col[1].z, m.col[2].z}}};
}
/// A + B.
constexpr Mat3 operator+(const Mat3& a, const Mat3& b) {
    return Mat3{{a.col[0] + b.col[0], a.col[1] + b.col[1], a.col[2] + b.col[2]}};
}
/// A − B.
constexpr Mat3 operator-(const Mat3& a, const Mat3& b) {
    return Mat3{{a.col[0] - b.col[0], a.col[1] - b.col[1], a.col[2] - b.col[2]}};
}
/// k·M.
constexpr Mat3 operator*(double k, const Mat3& m) { return Mat3{{m.col[0] * k, m.col[1] * k, m.col[2] * k}}; }
/// The diagonal matrix with d on its diagonal.
constexpr Mat3 diagonal(const Vec3& d) { return Mat3{{{d.x, 0, 0}, {0, d.y, 0}, {0, 0, d.z}}}; }
/// The outer product a·bᵀ.
constexpr Mat3 outer(const Vec3& a, const Vec3& b) { return Mat3{{a * b.x, a * b.y, a * b.z}}; }
/// The skew matrix [a]×, with [a]×·v = a × v.
constexpr Mat3 skew(const Vec3& a) { return Mat3{{{0, a.z, -a.y}, {-a.z, 0, a.x}, {a.y, -a.x, 0}}}; }
/// The trace (sum of the diagonal).
constexpr double trace(const Mat3& m) { return m.col[0].x + m.col[1].y + m.col[2].z; }
/// The determinant.
constexpr double determinant(const Mat3& m) { return dot(m.col[0], cross(m.col[1], m.col[2])); }

/// M⁻¹ by the adjugate, or the zero matrix when M is singular (|det| at most 1e-300 or not
/// finite): callers that invert an inertia use zero as "cannot turn".
inline Mat3 inverse(const Mat3& m) {
    const double det = determinant(m);
    if (!(std::fabs(det) > 1e-300) || !std::isfinite(det)) return zero3();
    // The rows of the inverse are the cross products of the columns, over the determinant.
    const Vec3 r0 = cross(m.col[1], m.col[2]) / det;
    const Vec3 r1 = cross(m.col[2], m.col[0]) / det;
    const Vec3 r2 = cross(m.col[0], m.col[1]) / det;
    return transpose(Mat3{{r0, r1, r2}});
}

/// R·M·Rᵀ: a tensor given in R's local frame expressed in the parent frame (an inertia tensor
/// turned with its body).
constexpr Mat3 rotate_tensor(const Mat3& r, const Mat3& m) { return r * m * transpose(r); }

} // namespace collide
