#pragma once
/// \file
/// Three-component vectors of doubles: positions (m), velocities (m/s), directions (unitless).
/// Every function here is constexpr or inline, allocation-free and branch-light.

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace collide {

/// A 3D vector. World frame unless a function says otherwise; y is up by convention.
struct Vec3 {
    double x = 0.0; ///< first component
    double y = 0.0; ///< second component (up in every scenario under scenarios/)
    double z = 0.0; ///< third component

    /// Component by index: 0 → x, 1 → y, 2 → z.
    constexpr double operator[](std::size_t i) const { return i == 0 ? x : (i == 1 ? y : z); }
    /// Mutable component by index: 0 → x, 1 → y, 2 → z.
    constexpr double& operator[](std::size_t i) { return i == 0 ? x : (i == 1 ? y : z); }

    constexpr Vec3& operator+=(const Vec3& o) {
        x += o.x;
        y += o.y;
        z += o.z;
        return *this;
    }
    constexpr Vec3& operator-=(const Vec3& o) {
        x -= o.x;
        y -= o.y;
        z -= o.z;
        return *this;
    }
    constexpr Vec3& operator*=(double k) {
        x *= k;
        y *= k;
        z *= k;
        return *this;
    }
    friend constexpr bool operator==(const Vec3&, const Vec3&) = default;
};

constexpr Vec3 operator+(const Vec3& a, const Vec3& b) { return {a.x + b.x, a.y + b.y, a.z + b.z}; }
constexpr Vec3 operator-(const Vec3& a, const Vec3& b) { return {a.x - b.x, a.y - b.y, a.z - b.z}; }
constexpr Vec3 operator-(const Vec3& a) { return {-a.x, -a.y, -a.z}; }
constexpr Vec3 operator*(const Vec3& a, double k) { return {a.x * k, a.y * k, a.z * k}; }
constexpr Vec3 operator*(double k, const Vec3& a) { return {a.x * k, a.y * k, a.z * k}; }
constexpr Vec3 operator/(const Vec3& a, double k) { return {a.x / k, a.y / k, a.z / k}; }

/// Dot product.
constexpr double dot(const Vec3& a, const Vec3& b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
/// Cross product a × b (right-handed).
constexpr Vec3 cross(const Vec3& a, const Vec3& b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
/// Whether every component is exactly zero (unlike length_squared(a) == 0, which also holds
/// for tiny vectors such as [1e-200, 0, 0]).
constexpr bool is_zero(const Vec3& a) { return a.x == 0.0 && a.y == 0.0 && a.z == 0.0; }
/// Squared Euclidean length.
constexpr double length_squared(const Vec3& a) { return dot(a, a); }
/// Euclidean length.
inline double length(const Vec3& a) { return std::sqrt(dot(a, a)); }
/// Euclidean distance between two points.
inline double distance(const Vec3& a, const Vec3& b) { return length(a - b); }
/// a scaled to length 1; the zero vector (and one with a non-finite component) becomes zero
/// (callers that care check first). Overflow-safe: when the squared length overflows or
/// underflows ([1e200, 1e200, 0], [3e-162, 3e-162, 0]) the vector is first divided by its
/// largest component's magnitude; otherwise a / |a|, bit for bit.
inline Vec3 normalize(const Vec3& a) {
    const double l2 = length_squared(a);
    if (l2 > 1e-290 && l2 < 1e290) return a / std::sqrt(l2);
    const double m = std::max(std::fabs(a.x), std::max(std::fabs(a.y), std::fabs(a.z)));
    if (!(m > 0.0) || !std::isfinite(m)) return Vec3{};
    const Vec3 s{a.x / m, a.y / m, a.z / m};
    return s / length(s);
}
/// Component-wise minimum.
constexpr Vec3 min(const Vec3& a, const Vec3& b) {
    return {a.x < b.x ? a.x : b.x, a.y < b.y ? a.y : b.y, a.z < b.z ? a.z : b.z};
}
/// Component-wise maximum.
constexpr Vec3 max(const Vec3& a, const Vec3& b) {
    return {a.x > b.x ? a.x : b.x, a.y > b.y ? a.y : b.y, a.z > b.z ? a.z : b.z};
}
/// Component-wise absolute value.
inline Vec3 abs(const Vec3& a) { return {std::fabs(a.x), std::fabs(a.y), std::fabs(a.z)}; }
/// Component-wise clamp of p into [lo, hi].
constexpr Vec3 clamp(const Vec3& p, const Vec3& lo, const Vec3& hi) { return min(max(p, lo), hi); }
/// True when every component is finite (no NaN, no infinity).
inline bool is_finite(const Vec3& a) { return std::isfinite(a.x) && std::isfinite(a.y) && std::isfinite(a.z); }

/// Approximate equality with an absolute tolerance per component.
inline bool near(const Vec3& a, const Vec3& b, double tolerance) {
    return std::fabs(a.x - b.x) <= tolerance && std::fabs(a.y - b.y) <= tolerance && std::fabs(a.z - b.z) <= tolerance;
}

/// A unit vector perpendicular to the unit vector n (any one; deterministic).
inline Vec3 any_perpendicular(const Vec3& n) {
    const Vec3 helper = std::fabs(n.x) < 0.57735 ? Vec3{1, 0, 0} : Vec3{0, 1, 0};
    return normalize(cross(n, helper));
}

} // namespace collide
