#include "baselines/overlap_sphere_aabb.h"

#include "detection/contact_sphere_box.h"

namespace collide::baseline {

bool overlap_sphere_aabb(const Sphere& s, const Aabb& b) {
    const Vec3 d = s.centre - clamp(s.centre, b.min, b.max);
    const double d2 = length_squared(d);
    const double reach = s.radius - kTouchEpsilon;
    const double reach2 = reach * reach;
    // Clear of the touching band on either side, the squared comparison decides; with the
    // centre inside, the depth is at least the radius. Only within a relative 1e-12 of
    // touching (or for a radius below the touch epsilon) ask the contact itself, so the two
    // never disagree by a rounding.
    if (d2 > 0.0) {
        if (reach <= 0.0) return false;
        if (d2 < reach2 * (1.0 - 1e-12)) return true;
        if (d2 > reach2 * (1.0 + 1e-12)) return false;
    } else if (s.radius > kTouchEpsilon) {
        return true;
    }
    return contact_sphere_aabb(s, b).has_value();
}

} // namespace collide::baseline
