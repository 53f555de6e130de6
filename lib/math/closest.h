#pragma once
/// \file
/// Closest points on a segment and on a triangle to a point, in whatever frame the points are
/// given (m). Shared by detection (sphere against a mesh's triangles) and queries (casts).

#include <algorithm>

#include "math/vec3.h"

namespace collide {

/// The point of the segment [p, q] nearest to x.
inline Vec3 closest_point_on_segment(const Vec3& x, const Vec3& p, const Vec3& q) {
    const Vec3 d = q - p;
    const double dd = dot(d, d);
    if (!(dd > 0.0)) return p;
    const double t = std::clamp(dot(x - p, d) / dd, 0.0, 1.0);
    return p + d * t;
}

/// The point of triangle abc nearest to p (Ericson 5.1.5: Voronoi regions of the corners, the
/// edges and the face, tested in that order).
inline Vec3 closest_point_on_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
    const Vec3 ab = b - a, ac = c - a, ap = p - a;
    const double d1 = dot(ab, ap), d2 = dot(ac, ap);
    if (d1 <= 0 && d2 <= 0) return a;
    const Vec3 bp = p - b;
    const double d3 = dot(ab, bp), d4 = dot(ac, bp);
    if (d3 >= 0 && d4 <= d3) return b;
    const double vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) return a + ab * (d1 / (d1 - d3));
    const Vec3 cp = p - c;
    const double d5 = dot(ab, cp), d6 = dot(ac, cp);
    if (d6 >= 0 && d5 <= d6) return c;
    const double vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) return a + ac * (d2 / (d2 - d6));
    const double va = d3 * d6 - d5 * d4;
    if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) return b + (c - b) * ((d4 - d3) / ((d4 - d3) + (d5 - d6)));
    const double denom = 1.0 / (va + vb + vc);
    return a + ab * (vb * denom) + ac * (vc * denom);
}

} // namespace collide
