#include "detection/manifold_capsule.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "detection/contact.h"
#include "detection/manifold_clip.h"
#include "detection/manifold_polytope.h"

namespace collide {

bool manifold_polytope_capsule(const Shape& p, const Capsule& c, double margin, RawManifold& out) {
    const double keep = kTouchEpsilon - margin;
    const Shape cs = c;
    Vec3 n;
    double depth = 0;
    if (!manifold_axis(p, cs, keep, n, depth)) return false;
    const double tie = kManifoldTieRelative * std::min(manifold_scale(p), manifold_scale(cs));
    const Face f = face_toward(p, n);
    if (f.count >= 3) {
        const double lowest = std::min(dot(f.normal, c.a), dot(f.normal, c.b)) - c.radius;
        if (f.offset - lowest <= depth + tie && face_contact(f, 0, cs, keep, out)) return true;
    }
    return single_point(p, cs, n, depth, keep, out);
}

bool manifold_capsules(const Capsule& a, const Capsule& b, double margin, RawManifold& out) {
    const double keep = kTouchEpsilon - margin;
    const Shape as = a, bs = b;
    Vec3 n;
    double depth = 0;
    if (!manifold_axis(as, bs, keep, n, depth)) return false;
    const Vec3 da = a.b - a.a, db = b.b - b.a;
    const double la = length(da), lb = length(db);
    const double tiny = 1e-9 * (la + lb + a.radius + b.radius);
    if (la > tiny && lb > tiny && length(cross(da, db)) < kManifoldCapsuleParallel * la * lb) {
        // The slab across a's segment: from a.a (feature: a's end 0) to a.b (end 1).
        const Vec3 u = da / la;
        const double lo = dot(u, a.a), hi = dot(u, a.b);
        ClipVertex e[2] = {{b.a, vertex_feature(1, 0), kNoFeature}, {b.b, vertex_feature(1, 1), kNoFeature}};
        const FeatureCode edge = edge_feature(1, 0, 1);
        bool inside = true;
        for (int side = 0; side < 2 && inside; ++side) {
            // Signed distance outside the slab's plane at a's end `side`.
            auto out_of = [&](const Vec3& x) { return side == 0 ? lo - dot(u, x) : dot(u, x) - hi; };
            const double d0 = out_of(e[0].p), d1 = out_of(e[1].p);
            if (d0 > 0 && d1 > 0) inside = false;
            if (!inside || (d0 <= 0 && d1 <= 0)) continue;
            const Vec3 cut = e[0].p + (e[1].p - e[0].p) * (d0 / (d0 - d1));
            (d0 > 0 ? e[0] : e[1]) = {cut, edge, vertex_feature(0, std::uint32_t(side))};
        }
        if (inside) {
            std::array<RawPoint, 2> pts;
            int m = 0;
            for (const ClipVertex& q : e) {
                const std::optional<double> down = capsule_far(b, q.p, -n);
                const Vec3 s = q.p - n * (down ? *down : b.radius);
                const std::optional<double> up = capsule_far(a, s, n);
                if (!up || !(*up > keep) || *up > depth + 1e-9) break;
                pts[static_cast<std::size_t>(m++)] = {s + n * (0.5 * *up), *up, q.in, q.out};
            }
            if (m == 2 && length(pts[0].point - pts[1].point) > tiny) {
                out.normal = n;
                out.count = 2;
                out.points[0] = pts[0];
                out.points[1] = pts[1];
                return true;
            }
        }
    }
    return single_point(as, bs, n, depth, keep, out);
}

} // namespace collide
