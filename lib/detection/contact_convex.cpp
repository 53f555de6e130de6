#include "detection/contact_convex.h"

#include "detection/epa.h"
#include "detection/gjk.h"

namespace collide {

Separation separation_gjk_epa(const Shape& a, const Shape& b) {
    const GjkResult g = gjk_distance(a, b);
    if (!g.cores_overlap) return {g.core_distance - core_radius(a) - core_radius(b), g.normal};
    const EpaResult e = epa_penetration(a, b, g.simplex);
    return {-e.depth, e.normal};
}

std::optional<Contact> contact_gjk_epa(const Shape& a, const Shape& b) {
    const Separation s = separation_gjk_epa(a, b);
    if (-s.distance <= kTouchEpsilon) return std::nullopt;
    return Contact{s.normal, -s.distance};
}

} // namespace collide
