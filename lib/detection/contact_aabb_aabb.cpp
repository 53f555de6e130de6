#include "detection/contact_aabb_aabb.h"

#include <algorithm>

namespace collide {

Vec3 axis_overlaps(const Aabb& a, const Aabb& b) {
    Vec3 out;
    for (std::size_t k = 0; k < 3; ++k) out[k] = -std::max(a.min[k] - b.max[k], b.min[k] - a.max[k]);
    return out;
}

std::optional<Contact> contact_aabb_aabb(const Aabb& a, const Aabb& b) {
    const Vec3 o = axis_overlaps(a, b);
    std::size_t axis = 0;
    for (std::size_t k = 1; k < 3; ++k)
        if (o[k] < o[axis]) axis = k; // strict: an equal overlap keeps the earlier axis
    if (o[axis] <= kTouchEpsilon) return std::nullopt;
    // Compare doubled centres (min + max) to avoid rounding in the halving.
    const double a2 = a.min[axis] + a.max[axis];
    const double b2 = b.min[axis] + b.max[axis];
    Vec3 normal;
    normal[axis] = b2 >= a2 ? 1.0 : -1.0;
    return Contact{normal, o[axis]};
}

} // namespace collide
