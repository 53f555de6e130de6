#pragma once
// Helpers for the manifold tests: the one manifold of a convex pair, finding points, and the
// signed distance from a point to a shape's surface (to check that a point lies midway).
#include <catch2/catch.hpp>

#include <array>
#include <cmath>

#include "detection/dispatch.h"
#include "detection/manifold.h"

namespace collide::test {

/// The manifolds of a pair (up to 16), with the query's answer.
struct Manifolds {
    ManifoldQuery query;
    std::array<Manifold, 16> m{};
};

/// manifolds(a, b, margin) into room for 16.
inline Manifolds all_manifolds(const Shape& a, const Shape& b, double margin = 0) {
    Manifolds out;
    out.query = manifolds(a, b, margin, out.m);
    return out;
}

/// The one manifold of a pair that must touch within the margin.
inline Manifold one_manifold(const Shape& a, const Shape& b, double margin = 0) {
    const Manifolds r = all_manifolds(a, b, margin);
    REQUIRE(r.query.status == ContactStatus::overlapping);
    REQUIRE(r.query.count == 1);
    return r.m[0];
}

/// The index of m's point within `tol` of p, or −1.
inline int point_near(const Manifold& m, const Vec3& p, double tol = 1e-9) {
    for (int k = 0; k < m.count; ++k)
        if (near(m.points[static_cast<std::size_t>(k)].point, p, tol)) return k;
    return -1;
}

/// The deepest depth of a manifold (m).
inline double deepest(const Manifold& m) {
    double d = m.points[0].depth;
    for (int k = 1; k < m.count; ++k) d = std::max(d, m.points[static_cast<std::size_t>(k)].depth);
    return d;
}

/// The signed distance (m) from q to the surface of convex shape s (not a mesh): positive
/// outside, negative inside.
inline double signed_distance(const Vec3& q, const Shape& s) {
    if (const auto* p = std::get_if<Plane>(&s)) return dot(p->normal, q) - p->offset;
    const Shape point = Sphere{q, 0};
    const ContactQuery c = contact(point, s);
    if (c.status == ContactStatus::overlapping) return -c.contact.depth;
    return distance(point, s).distance;
}

/// Whether every id of m is distinct.
inline bool ids_distinct(const Manifold& m) {
    for (int i = 0; i < m.count; ++i)
        for (int j = i + 1; j < m.count; ++j)
            if (m.points[static_cast<std::size_t>(i)].id == m.points[static_cast<std::size_t>(j)].id) return false;
    return true;
}

} // namespace collide::test
