#pragma once
/// \file
/// GJK: the distance between two convex shapes known only through their support mappings
/// (Gilbert, Johnson, Keerthi 1988; Ericson, Real-Time Collision Detection, 9.5; van den Bergen
/// 1999 for the termination test).
///
/// Rounded shapes are split into a "core" and a radius: a sphere is its centre plus its radius,
/// a capsule its segment plus its radius; every other shape is its own core with radius 0. GJK
/// runs on the cores (always polytopes: points, segments, boxes, triangles, hulls), so it ends
/// in a finite number of steps, and the radii are subtracted afterwards — exact for rounded
/// shapes, which GJK on a curved surface only ever approaches.

#include <array>

#include "shapes/shapes.h"

namespace collide {

/// The radius a shape adds around its core (m): a sphere's or capsule's radius, 0 otherwise.
double core_radius(const Shape& shape);

/// The support point of a shape's core along `direction` (any length, not zero): a sphere's
/// centre, the end of a capsule's segment farthest along it, `support()` for the other shapes.
/// Not for planes.
Vec3 support_core(const Shape& shape, const Vec3& direction);

/// One vertex of a GJK/EPA simplex: a point of the Minkowski difference of the cores,
/// w = a − b, with the core support points that made it (m, world frame).
struct SimplexVertex {
    Vec3 a; ///< support point on A's core (m)
    Vec3 b; ///< support point on B's core (m)
    Vec3 w; ///< a − b (m)
};

/// The support point of the cores' Minkowski difference A − B in direction d (any length, not
/// zero): A's core farthest along d, B's farthest along −d, and their difference.
inline SimplexVertex support_vertex(const Shape& a, const Shape& b, const Vec3& d) {
    SimplexVertex s;
    s.a = support_core(a, d);
    s.b = support_core(b, -d);
    s.w = s.a - s.b;
    return s;
}

/// A GJK simplex: 1 to 4 vertices of the cores' Minkowski difference A − B, kept inline.
struct GjkSimplex {
    std::array<SimplexVertex, 4> v{}; ///< the vertices; only the first `count` are used
    int count = 0;                    ///< how many vertices are used, 0…4
};

/// The most iterations GJK takes before returning its best answer.
inline constexpr int kGjkMaxIterations = 64;

/// What GJK found about two shapes (world frame).
struct GjkResult {
    double distance = 0;        ///< gap between the full shapes (m); 0 when they touch or overlap
    double core_distance = 0;   ///< gap between the cores (m); 0 when the cores overlap
    Vec3 point_a;               ///< closest point on A's surface (m); valid when the cores are apart
    Vec3 point_b;               ///< closest point on B's surface (m); valid when the cores are apart
    Vec3 normal;                ///< unit direction A → B between the cores; zero when the cores overlap
    bool overlap = false;       ///< the full shapes overlap (gap between cores < sum of radii, or cores overlap)
    bool cores_overlap = false; ///< the cores themselves overlap (origin inside the simplex): run EPA
    int iterations = 0;         ///< support-point evaluations taken (≤ kGjkMaxIterations)
    GjkSimplex simplex;         ///< the terminating simplex (EPA starts from it when cores overlap)
};

/// The GJK distance between two convex world-frame shapes (any kind except Plane).
/// Allocation-free; at most kGjkMaxIterations iterations.
GjkResult gjk_distance(const Shape& a, const Shape& b);

} // namespace collide
