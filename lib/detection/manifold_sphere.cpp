#include "detection/manifold_sphere.h"

#include "detection/contact.h"
#include "detection/manifold_polytope.h"

namespace collide {

bool manifold_sphere_shape(const Sphere& s, const Shape& b, double margin, RawManifold& out) {
    const double keep = kTouchEpsilon - margin;
    Vec3 n;
    double depth = 0;
    if (!manifold_axis(s, b, keep, n, depth)) return false;
    out.normal = n;
    out.count = 1;
    out.points[0] = {s.centre + n * (s.radius - 0.5 * depth), depth, kNoFeature, kNoFeature};
    return true;
}

} // namespace collide
