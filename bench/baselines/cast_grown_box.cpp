#include "baselines/cast_grown_box.h"

#include <cmath>

#include "queries/line_intervals.h"

namespace collide::baseline {

std::optional<CastHit> cast_sphere_grown_box(const Sphere& sphere, const Vec3& velocity, const Aabb& box,
                                             double t_max) {
    if (!(t_max >= 0.0)) return std::nullopt;
    const Vec3& c = sphere.centre;
    const Vec3 grow{sphere.radius, sphere.radius, sphere.radius};
    const Vec3 lo = box.min - grow, hi = box.max + grow;
    if (lo.x < c.x && c.x < hi.x && lo.y < c.y && c.y < hi.y && lo.z < c.z && c.z < hi.z) {
        // Started inside. With the centre outside the box the normal is toward its nearest
        // point; with the centre in the box (or on it) the sphere overlaps the box, and the
        // exact cast gives the same started-inside answer (out through the nearest face).
        const Vec3 nearest = closest_point_on_box(c, box.min, box.max);
        const Vec3 gap = nearest - c;
        const double d2 = length_squared(gap);
        if (d2 > 0.0) return CastHit{0.0, gap / std::sqrt(d2), nearest, true};
        return cast_sphere_box(sphere, velocity, box, t_max);
    }
    if (!(length_squared(velocity) > 0.0)) return std::nullopt;
    const LineInterval in = slab_interval(c, velocity, lo, hi, Boundary::open);
    if (!(in.enter < in.exit) || !(in.exit > 0.0) || in.enter > t_max) return std::nullopt;
    const double t = in.enter > 0.0 ? in.enter : 0.0;
    Vec3 normal;
    const auto axis = static_cast<std::size_t>(in.axis);
    normal[axis] = velocity[axis] > 0.0 ? 1.0 : -1.0;
    return CastHit{t, normal, closest_point_on_box(c + velocity * t, box.min, box.max), false};
}

} // namespace collide::baseline
