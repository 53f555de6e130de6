#include "detection/contact_plane.h"

#include <algorithm>

namespace collide {

double plane_gap(const Plane& a, const Shape& b) { return dot(a.normal, support(b, -a.normal)) - a.offset; }

ContactQuery contact_plane_shape(const Plane& a, const Shape& b) {
    if (std::holds_alternative<Plane>(b)) return {ContactStatus::unsupported, {}};
    const double depth = -plane_gap(a, b);
    if (depth <= kTouchEpsilon) return {ContactStatus::separated, {}};
    return {ContactStatus::overlapping, Contact{a.normal, depth}};
}

ContactQuery contact_shape_plane(const Shape& a, const Plane& b) {
    ContactQuery q = contact_plane_shape(b, a);
    q.contact.normal = -q.contact.normal;
    return q;
}

DistanceResult distance_plane_shape(const Plane& a, const Shape& b) {
    DistanceResult r;
    if (std::holds_alternative<Plane>(b)) {
        r.supported = false;
        return r;
    }
    const Vec3 deepest = support(b, -a.normal);
    const double gap = dot(a.normal, deepest) - a.offset;
    r.distance = std::max(0.0, gap);
    r.point_b = deepest;
    r.point_a = deepest - a.normal * gap;
    r.normal = a.normal;
    return r;
}

DistanceResult distance_shape_plane(const Shape& a, const Plane& b) {
    DistanceResult r = distance_plane_shape(b, a);
    std::swap(r.point_a, r.point_b);
    r.normal = -r.normal;
    return r;
}

} // namespace collide
