#include "detection/contact_capsule.h"

#include <algorithm>
#include <cmath>

#include "detection/contact_convex.h"

namespace collide {

namespace {

std::optional<Contact> flipped(std::optional<Contact> c) {
    if (c) c->normal = -c->normal;
    return c;
}

constexpr double kDegenerate = 1e-12; // squared lengths (m²) below this make a segment a point

} // namespace

// Ericson 5.1.9: minimise |p1 + d1·s − p2 − d2·t|² over the unit square. Solve the unclamped
// 2×2 system for s, clamp it, take t for that s, and if t had to be clamped recompute s for
// the clamped t.
SegmentClosest closest_points_segments(const Vec3& p1, const Vec3& q1, const Vec3& p2, const Vec3& q2) {
    const Vec3 d1 = q1 - p1, d2 = q2 - p2, r = p1 - p2;
    const double a = dot(d1, d1), e = dot(d2, d2), f = dot(d2, r);
    double s = 0, t = 0;
    if (a <= kDegenerate && e <= kDegenerate) {
        s = t = 0;
    } else if (a <= kDegenerate) {
        t = std::clamp(f / e, 0.0, 1.0);
    } else {
        const double c = dot(d1, r);
        if (e <= kDegenerate) {
            s = std::clamp(-c / a, 0.0, 1.0);
        } else {
            const double b = dot(d1, d2);
            const double denom = a * e - b * b;
            s = denom > 0 ? std::clamp((b * f - c * e) / denom, 0.0, 1.0) : 0.0;
            t = (b * s + f) / e;
            if (t < 0) {
                t = 0;
                s = std::clamp(-c / a, 0.0, 1.0);
            } else if (t > 1) {
                t = 1;
                s = std::clamp((b - c) / a, 0.0, 1.0);
            }
        }
    }
    return {p1 + d1 * s, p2 + d2 * t, s, t};
}

std::optional<Contact> contact_capsule_capsule(const Capsule& a, const Capsule& b) {
    const SegmentClosest c = closest_points_segments(a.a, a.b, b.a, b.b);
    const Vec3 gap = c.point2 - c.point1;
    const double d = length(gap);
    const double depth = a.radius + b.radius - d;
    if (depth <= kTouchEpsilon) return std::nullopt;
    if (d > kDegenerate) return Contact{gap / d, depth};
    // The cores touch or cross: push apart across both segments, towards B's centre.
    const Vec3 towards_b = (b.a + b.b) * 0.5 - (a.a + a.b) * 0.5;
    const Vec3 d1 = a.b - a.a, d2 = b.b - b.a;
    Vec3 n = cross(d1, d2);
    if (length_squared(n) <= kDegenerate * kDegenerate * (1 + length_squared(d1)) * (1 + length_squared(d2))) {
        const Vec3 axis = length_squared(d1) > kDegenerate ? normalize(d1) : normalize(d2);
        n = towards_b - axis * dot(towards_b, axis);
        if (length_squared(n) <= kDegenerate) n = length_squared(axis) > 0 ? any_perpendicular(axis) : Vec3{0, 1, 0};
    }
    n = normalize(n);
    if (dot(n, towards_b) < 0) n = -n;
    return Contact{n, depth};
}

std::optional<Contact> contact_capsule_sphere(const Capsule& a, const Sphere& b) {
    return contact_capsule_capsule(a, Capsule{b.centre, b.centre, b.radius});
}

std::optional<Contact> contact_sphere_capsule(const Sphere& a, const Capsule& b) {
    return flipped(contact_capsule_sphere(b, a));
}

std::optional<Contact> contact_capsule_box(const Capsule& a, const Obb& b) { return contact_gjk_epa(a, b); }

std::optional<Contact> contact_box_capsule(const Obb& a, const Capsule& b) {
    return flipped(contact_capsule_box(b, a));
}

} // namespace collide
