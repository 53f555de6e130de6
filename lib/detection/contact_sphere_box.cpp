#include "detection/contact_sphere_box.h"

#include <cmath>

namespace collide {

namespace {

/// The contact of a box centred at the origin with half-size `half` (A) and a sphere with
/// centre `p` and radius `r` (B), in the box's frame: normal from the box to the sphere.
std::optional<Contact> box_sphere_local(const Vec3& half, const Vec3& p, double r) {
    const Vec3 closest = clamp(p, -half, half);
    const Vec3 d = p - closest;
    const double d2 = length_squared(d);
    if (d2 > 0.0) {
        // Centre outside: the clamp found the nearest point of a face, an edge or a corner.
        if (d2 >= r * r) return std::nullopt;
        const double dist = std::sqrt(d2);
        const double depth = r - dist;
        if (depth <= kTouchEpsilon) return std::nullopt;
        return Contact{d / dist, depth};
    }
    // Centre inside (or on the surface): the clamp changed nothing and d is zero, so take the
    // nearest face. Candidates in the fixed tie order +x, −x, +y, −y, +z, −z; strict < keeps
    // the earliest of equal distances.
    std::size_t best_axis = 0;
    double best_sign = 1.0;
    double best = half.x - p.x;
    for (std::size_t k = 0; k < 3; ++k) {
        const double to_plus = half[k] - p[k];
        const double to_minus = p[k] + half[k];
        if (to_plus < best) {
            best = to_plus;
            best_axis = k;
            best_sign = 1.0;
        }
        if (to_minus < best) {
            best = to_minus;
            best_axis = k;
            best_sign = -1.0;
        }
    }
    const double depth = best + r;
    if (depth <= kTouchEpsilon) return std::nullopt;
    Vec3 normal;
    normal[best_axis] = best_sign;
    return Contact{normal, depth};
}

} // namespace

std::optional<Contact> contact_aabb_sphere(const Aabb& a, const Sphere& b) {
    // The box's frame is the world frame moved to its centre: the normal needs no turning.
    return box_sphere_local(half_of(a), b.centre - centre_of(a), b.radius);
}

std::optional<Contact> contact_sphere_aabb(const Sphere& a, const Aabb& b) {
    auto c = contact_aabb_sphere(b, a);
    if (c) c->normal = -c->normal;
    return c;
}

std::optional<Contact> contact_obb_sphere(const Obb& a, const Sphere& b) {
    const Vec3 local = mul_transpose(a.axes, b.centre - a.centre);
    auto c = box_sphere_local(a.half, local, b.radius);
    if (c) c->normal = a.axes * c->normal;
    return c;
}

std::optional<Contact> contact_sphere_obb(const Sphere& a, const Obb& b) {
    auto c = contact_obb_sphere(b, a);
    if (c) c->normal = -c->normal;
    return c;
}

} // namespace collide
