#include "detection/manifold_polytope.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>

#include "detection/contact_capsule.h"
#include "detection/contact_convex.h"
#include "detection/dispatch.h"
#include "detection/gjk.h"

namespace collide {

namespace {

using PointBuffer = std::array<RawPoint, 2 * kMaxFaceCorners + 2>;

/// The core points of `s` within `tol` of its farthest along `d`: a sphere's centre, a
/// capsule's end(s), a polytope's vertices; their indices in the shape. Count returned.
int core_features(const Shape& s, const Vec3& d, double tol, std::span<Vec3> pts, std::span<std::uint32_t> idx) {
    if (const auto* sp = std::get_if<Sphere>(&s)) {
        pts[0] = sp->centre;
        idx[0] = 0;
        return 1;
    }
    if (const auto* c = std::get_if<Capsule>(&s)) {
        const double da = dot(c->a, d), db = dot(c->b, d), top = std::max(da, db);
        int n = 0;
        if (da >= top - tol) pts[0] = c->a, idx[static_cast<std::size_t>(n++)] = 0;
        if (db >= top - tol) pts[static_cast<std::size_t>(n)] = c->b, idx[static_cast<std::size_t>(n++)] = 1;
        return n;
    }
    return support_set(s, d, tol, pts, idx);
}

/// The feature a support set names (a vertex, or the edge between its two farthest points),
/// and that segment's ends.
FeatureCode feature_of(std::span<const Vec3> pts, std::span<const std::uint32_t> idx, int count, int owner, Vec3& p0,
                       Vec3& p1) {
    p0 = p1 = pts[0];
    if (count == 1) return vertex_feature(owner, idx[0]);
    int bi = 0, bj = 1;
    double far2 = -1;
    for (int i = 0; i < count; ++i)
        for (int j = i + 1; j < count; ++j) {
            const double d2 = length_squared(pts[static_cast<std::size_t>(i)] - pts[static_cast<std::size_t>(j)]);
            if (d2 > far2) {
                far2 = d2;
                bi = i;
                bj = j;
            }
        }
    p0 = pts[static_cast<std::size_t>(bi)];
    p1 = pts[static_cast<std::size_t>(bj)];
    return edge_feature(owner, idx[static_cast<std::size_t>(bi)], idx[static_cast<std::size_t>(bj)]);
}

/// Which part of a capsule a surface point lies on: its end ball at a (−1), its cylinder (0),
/// its end ball at b (+1).
int capsule_part(const Capsule& c, const Vec3& s) {
    const Vec3 ab = c.b - c.a;
    const double len2 = length_squared(ab);
    if (!(len2 > 0)) return -1;
    const double w = dot(s - c.a, ab) / len2;
    return w <= 0 ? -1 : (w >= 1 ? 1 : 0);
}

/// The points of a capsule's segment clipped against `ref`, carried down to its surface.
int capsule_points(const Face& ref, int ref_owner, const Capsule& c, double keep, PointBuffer& pts) {
    const int owner = 1 - ref_owner;
    const Vec3 n = ref.normal;
    ClipVertex e0{c.a, vertex_feature(owner, 0), kNoFeature}, e1{c.b, vertex_feature(owner, 1), kNoFeature};
    if (!clip_segment(ref.view(), ref_owner, e0, e1, edge_feature(owner, 0, 1))) return 0;
    int m = 0;
    int part[2] = {0, 0};
    for (const ClipVertex* e : {&e0, &e1}) {
        const std::optional<double> t = capsule_far(c, e->p, -n);
        const Vec3 s = e->p - n * (t ? *t : c.radius);
        const double depth = ref.offset - dot(n, s);
        if (!(depth > keep)) continue;
        part[m] = capsule_part(c, s);
        pts[static_cast<std::size_t>(m++)] = {s + n * (0.5 * depth), depth, e->in, e->out};
    }
    // Both carried onto the same end ball (a standing or steep capsule): that ball's one point.
    if (m == 2 && part[0] == part[1] && part[0] != 0) {
        if (pts[1].depth > pts[0].depth) pts[0] = pts[1];
        m = 1;
    }
    return m;
}

} // namespace

bool manifold_axis(const Shape& a, const Shape& b, double keep, Vec3& n, double& depth) {
    const ContactQuery q = contact(a, b);
    if (q.status == ContactStatus::unsupported) return false;
    if (q.status == ContactStatus::overlapping) {
        n = q.contact.normal;
        depth = q.contact.depth;
        return depth > keep;
    }
    const Separation s = separation_gjk_epa(a, b);
    if (!(-s.distance > keep)) return false;
    n = s.normal;
    depth = -s.distance;
    return true;
}

bool face_contact(const Face& ref, int ref_owner, const Shape& other, double keep, RawManifold& out) {
    const int owner = 1 - ref_owner;
    const Vec3 n = ref.normal;
    PointBuffer pts;
    int m = 0;
    if (const auto* c = std::get_if<Capsule>(&other)) {
        m = capsule_points(ref, ref_owner, *c, keep, pts);
    } else if (const auto* s = std::get_if<Sphere>(&other)) {
        ClipVertex p{s->centre, kNoFeature, kNoFeature}, q = p;
        if (clip_segment(ref.view(), ref_owner, p, q, kNoFeature)) {
            const Vec3 foot = s->centre - n * s->radius;
            const double depth = ref.offset - dot(n, foot);
            if (depth > keep)
                pts[static_cast<std::size_t>(m++)] = {foot + n * (0.5 * depth), depth, kNoFeature, kNoFeature};
        }
    } else {
        const Face inc = face_toward(other, -n);
        std::array<ClipVertex, 2 * kMaxFaceCorners + 2> poly, scratch;
        std::span<ClipVertex> clipped;
        int count = 0;
        if (inc.count >= 3) {
            count = polygon_of(inc.view(), owner, poly);
            count = clip_polygon(ref.view(), ref_owner, poly, count, scratch, &clipped);
        } else {
            const std::uint32_t i0 = inc.index[0], i1 = inc.index[inc.count - 1];
            poly[0] = {inc.corners[0], vertex_feature(owner, i0), kNoFeature};
            poly[1] = {inc.corners[static_cast<std::size_t>(inc.count - 1)], vertex_feature(owner, i1), kNoFeature};
            const FeatureCode edge = inc.count == 2 ? edge_feature(owner, i0, i1) : kNoFeature;
            count = clip_segment(ref.view(), ref_owner, poly[0], poly[1], edge) ? inc.count : 0;
            clipped = std::span<ClipVertex>(poly.data(), static_cast<std::size_t>(count));
        }
        for (int k = 0; k < count; ++k) {
            const ClipVertex& v = clipped[static_cast<std::size_t>(k)];
            const double depth = ref.offset - dot(n, v.p);
            if (depth > keep) pts[static_cast<std::size_t>(m++)] = {v.p + n * (0.5 * depth), depth, v.in, v.out};
        }
        if (inc.count >= 3 && m > 0) {
            // Points next to a corner of either face take its name, the first shape's first.
            std::array<Vec3, 2 * kMaxFaceCorners> corners;
            std::array<std::array<FeatureCode, 2>, 2 * kMaxFaceCorners> names;
            double shortest = std::numeric_limits<double>::infinity();
            int nc = 0;
            for (int f = 0; f < 2; ++f) {
                const bool is_ref = (f == ref_owner);
                const int count_f = is_ref ? ref.count : inc.count;
                for (int k = 0; k < count_f; ++k) {
                    const int prev = (k + count_f - 1) % count_f, next = (k + 1) % count_f;
                    const Face& face = is_ref ? ref : inc;
                    const auto uk = static_cast<std::size_t>(k);
                    corners[static_cast<std::size_t>(nc)] = face.corners[uk];
                    names[static_cast<std::size_t>(nc++)] = {
                            edge_feature(f, face.index[static_cast<std::size_t>(prev)], face.index[uk]),
                            edge_feature(f, face.index[uk], face.index[static_cast<std::size_t>(next)])};
                    shortest =
                            std::min(shortest, length(face.corners[static_cast<std::size_t>(next)] - face.corners[uk]));
                }
            }
            snap_to_vertices(std::span<RawPoint>(pts.data(), static_cast<std::size_t>(m)), n, corners.data(),
                             names.data(), nc, kManifoldSnapRelative * shortest);
        }
    }
    for (int k = 0; k < m; ++k) canonicalize(pts[static_cast<std::size_t>(k)].f1, pts[static_cast<std::size_t>(k)].f2);
    m = merge_same_features(pts, m, 0.0);
    if (m == 0) return false;
    const Vec3 normal = ref_owner == 0 ? n : -n;
    reduce_points(pts, m, normal, out);
    out.normal = normal;
    return true;
}

bool single_point(const Shape& a, const Shape& b, const Vec3& n, double depth, double keep, RawManifold& out) {
    if (!(depth > keep)) return false;
    const double tol = 1e-9 * (manifold_scale(a) + manifold_scale(b));
    std::array<Vec3, kHullMaxPoints> pa_set, pb_set;
    std::array<std::uint32_t, kHullMaxPoints> ia, ib;
    const int na = core_features(a, n, tol, pa_set, ia);
    const int nb = core_features(b, -n, tol, pb_set, ib);
    Vec3 a0, a1, b0, b1;
    const FeatureCode fa = feature_of(pa_set, ia, na, 0, a0, a1);
    const FeatureCode fb = feature_of(pb_set, ib, nb, 1, b0, b1);
    Vec3 pa, pb;
    // The cores can be apart only when the shapes are, or one is rounded.
    const bool cores_may_part = depth <= 0 || core_radius(a) > 0 || core_radius(b) > 0;
    const GjkResult g = cores_may_part ? gjk_distance(a, b) : GjkResult{};
    if (cores_may_part && !g.cores_overlap && g.core_distance > 0) {
        pa = g.point_a;
        pb = g.point_b;
    } else {
        const SegmentClosest c = closest_points_segments(a0, a1, b0, b1);
        pa = c.point1 + n * core_radius(a);
        pb = c.point2 - n * core_radius(b);
    }
    out.normal = n;
    out.count = 1;
    // A sphere's point needs no name: it is the pair's only point whatever touches.
    const bool named = !std::holds_alternative<Sphere>(a) && !std::holds_alternative<Sphere>(b);
    out.points[0] = {(pa + pb) * 0.5, depth, named ? fa : kNoFeature, named ? fb : kNoFeature};
    return true;
}

bool manifold_polytopes(const Shape& a, const Shape& b, double margin, RawManifold& out) {
    const double keep = kTouchEpsilon - margin;
    Vec3 n;
    double depth = 0;
    if (!manifold_axis(a, b, keep, n, depth)) return false;
    const double tie = kManifoldTieRelative * std::min(manifold_scale(a), manifold_scale(b));
    const Face fa = face_toward(a, n);
    const Face fb = face_toward(b, -n);
    const double inf = std::numeric_limits<double>::infinity();
    const double da = fa.count >= 3 ? fa.offset - dot(fa.normal, support(b, -fa.normal)) : inf;
    const double db = fb.count >= 3 ? fb.offset - dot(fb.normal, support(a, -fb.normal)) : inf;
    const bool use_b = db < da - tie;
    const double best = use_b ? db : da;
    if (best <= depth + tie && face_contact(use_b ? fb : fa, use_b ? 1 : 0, use_b ? a : b, keep, out)) return true;
    return single_point(a, b, n, depth, keep, out);
}

} // namespace collide
