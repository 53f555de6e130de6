#include "detection/manifold_plane.h"

#include <array>

#include "detection/contact.h"
#include "detection/manifold_clip.h"

namespace collide {

bool manifold_plane_shape(const Plane& p, const Shape& b, double margin, RawManifold& out) {
    const double keep = kTouchEpsilon - margin;
    const Vec3 n = p.normal;
    std::array<RawPoint, kMaxFaceCorners> pts;
    int m = 0;
    auto add = [&](const Vec3& x, FeatureCode f) {
        const double depth = p.offset - dot(n, x);
        if (depth > keep) pts[static_cast<std::size_t>(m++)] = {x + n * (0.5 * depth), depth, f, kNoFeature};
    };
    if (const auto* s = std::get_if<Sphere>(&b)) {
        add(s->centre - n * s->radius, kNoFeature);
    } else if (const auto* c = std::get_if<Capsule>(&b)) {
        // Each end carried down to the surface; one point when both land on the same end ball.
        for (std::uint32_t e = 0; e < 2; ++e) {
            const Vec3 end = e == 0 ? c->a : c->b;
            const std::optional<double> t = capsule_far(*c, end, -n);
            add(end - n * (t ? *t : c->radius), vertex_feature(1, e));
        }
        if (m == 2) {
            const Vec3 ab = c->b - c->a;
            const double len2 = length_squared(ab);
            auto part = [&](const Vec3& x) {
                const double w = len2 > 0 ? dot(x - c->a, ab) / len2 : 0.0;
                return w <= 0 ? -1 : (w >= 1 ? 1 : 0);
            };
            const int p0 = part(pts[0].point - n * (0.5 * pts[0].depth));
            const int p1 = part(pts[1].point - n * (0.5 * pts[1].depth));
            if (p0 == p1 && p0 != 0) {
                if (pts[1].depth > pts[0].depth) pts[0] = pts[1];
                m = 1;
            }
        }
    } else if (std::holds_alternative<Plane>(b) || std::holds_alternative<Mesh>(b)) {
        return false;
    } else {
        const Face f = face_toward(b, -n);
        for (int k = 0; k < f.count; ++k)
            add(f.corners[static_cast<std::size_t>(k)], vertex_feature(1, f.index[static_cast<std::size_t>(k)]));
    }
    if (m == 0) return false;
    reduce_points(pts, m, n, out);
    out.normal = n;
    return true;
}

} // namespace collide
