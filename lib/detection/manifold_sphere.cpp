#include "detection/manifold_sphere.h"

#include <cmath>

#include "detection/contact.h"
#include "detection/dispatch.h"
#include "detection/manifold_clip.h"
#include "detection/manifold_polytope.h"
#include "math/closest.h"

namespace collide {

namespace {

/// The gap (m) from sphere `s` to `b` and its direction (unit, from s to b), in closed form for
/// a sphere, capsule or box whose core the centre lies outside of; false otherwise (then
/// GJK answers). Only asked when contact() found them apart.
bool closed_form_gap(const Sphere& s, const Shape& b, Vec3& n, double& gap) {
    Vec3 to;      // from the centre to b's core's nearest point
    double r = 0; // b's radius around that core
    if (const auto* o = std::get_if<Sphere>(&b)) {
        to = o->centre - s.centre;
        r = o->radius;
    } else if (const auto* c = std::get_if<Capsule>(&b)) {
        to = closest_point_on_segment(s.centre, c->a, c->b) - s.centre;
        r = c->radius;
    } else if (const auto* box = std::get_if<Aabb>(&b)) {
        to = clamp(s.centre, box->min, box->max) - s.centre;
    } else if (const auto* obb = std::get_if<Obb>(&b)) {
        const Vec3 local = mul_transpose(obb->axes, s.centre - obb->centre);
        to = obb->axes * (clamp(local, -obb->half, obb->half) - local);
    } else {
        return false;
    }
    const double len = length(to);
    if (!(len > 0)) return false;
    n = to / len;
    gap = len - s.radius - r;
    return true;
}

} // namespace

bool manifold_sphere_shape(const Sphere& s, const Shape& b, double margin, RawManifold& out) {
    const double keep = kTouchEpsilon - margin;
    Vec3 n;
    double depth = 0;
    if (const auto* t = std::get_if<Triangle>(&b)) {
        // In closed form (a mesh asks this per triangle): from the centre to the triangle's
        // closest point (Ericson 5.1.5), as contact_triangle_sphere has it; a centre on the
        // triangle is left to contact().
        const Vec3 to = closest_point_on_triangle(s.centre, t->a, t->b, t->c) - s.centre;
        const double len = length(to);
        if (len > 1e-12 * (s.radius + manifold_scale(b))) {
            depth = s.radius - len;
            if (!(depth > keep)) return false;
            out.normal = to / len;
            out.count = 1;
            out.points[0] = {s.centre + out.normal * (s.radius - 0.5 * depth), depth, kNoFeature, kNoFeature};
            return true;
        }
    }
    const ContactQuery q = contact(s, b);
    if (q.status == ContactStatus::unsupported) return false;
    if (q.status == ContactStatus::overlapping) {
        n = q.contact.normal;
        depth = q.contact.depth;
    } else {
        double gap = 0;
        if (closed_form_gap(s, b, n, gap)) {
            depth = -gap;
        } else if (!manifold_axis(s, b, keep, n, depth)) {
            return false;
        }
    }
    if (!(depth > keep)) return false;
    out.normal = n;
    out.count = 1;
    out.points[0] = {s.centre + n * (s.radius - 0.5 * depth), depth, kNoFeature, kNoFeature};
    return true;
}

} // namespace collide
