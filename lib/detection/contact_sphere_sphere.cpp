#include "detection/contact_sphere_sphere.h"

#include <cmath>

namespace collide {

std::optional<Contact> contact_sphere_sphere(const Sphere& a, const Sphere& b) {
    const Vec3 d = b.centre - a.centre;
    const double reach = a.radius + b.radius;
    const double d2 = length_squared(d);
    if (d2 >= reach * reach) return std::nullopt; // apart or touching: no square root needed
    const double dist = std::sqrt(d2);
    const double depth = reach - dist;
    if (depth <= kTouchEpsilon) return std::nullopt;
    if (dist == 0.0) return Contact{{0, 1, 0}, depth}; // same centre: a fixed, documented way out
    return Contact{d / dist, depth};
}

} // namespace collide
