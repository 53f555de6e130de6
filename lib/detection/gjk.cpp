#include "detection/gjk.h"

#include <algorithm>
#include <cmath>

namespace collide {

double core_radius(const Shape& shape) {
    if (const auto* s = std::get_if<Sphere>(&shape)) return s->radius;
    if (const auto* c = std::get_if<Capsule>(&shape)) return c->radius;
    return 0.0;
}

Vec3 support_core(const Shape& shape, const Vec3& direction) {
    if (const auto* s = std::get_if<Sphere>(&shape)) return s->centre;
    if (const auto* c = std::get_if<Capsule>(&shape)) return dot(c->b - c->a, direction) > 0 ? c->b : c->a;
    return support(shape, direction);
}

namespace {

/// A sub-simplex with the barycentric weights of its point nearest the origin.
struct Sub {
    std::array<SimplexVertex, 4> v{};
    std::array<double, 4> lambda{};
    int count = 0;
    Vec3 p; ///< the point of the sub-simplex nearest the origin: Σ lambda·w
};

Sub point_sub(const SimplexVertex& a) {
    Sub s;
    s.v[0] = a;
    s.lambda[0] = 1;
    s.count = 1;
    s.p = a.w;
    return s;
}

Sub segment_sub(const SimplexVertex& a, const SimplexVertex& b) {
    const Vec3 ab = b.w - a.w;
    const double denom = dot(ab, ab);
    const double t = -dot(a.w, ab);
    if (t <= 0 || denom <= 0) return point_sub(a);
    if (t >= denom) return point_sub(b);
    const double u = t / denom;
    Sub s;
    s.v[0] = a;
    s.v[1] = b;
    s.lambda[0] = 1 - u;
    s.lambda[1] = u;
    s.count = 2;
    s.p = a.w + ab * u;
    return s;
}

const Sub& nearer(const Sub& x, const Sub& y) { return length_squared(y.p) < length_squared(x.p) ? y : x; }

// The point of triangle abc nearest the origin, by Voronoi regions (Ericson 5.1.5 with p = 0).
Sub triangle_sub(const SimplexVertex& a, const SimplexVertex& b, const SimplexVertex& c) {
    const Vec3 ab = b.w - a.w, ac = c.w - a.w;
    const double d1 = -dot(ab, a.w), d2 = -dot(ac, a.w);
    if (d1 <= 0 && d2 <= 0) return point_sub(a);
    const double d3 = -dot(ab, b.w), d4 = -dot(ac, b.w);
    if (d3 >= 0 && d4 <= d3) return point_sub(b);
    const double vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) return segment_sub(a, b);
    const double d5 = -dot(ab, c.w), d6 = -dot(ac, c.w);
    if (d6 >= 0 && d5 <= d6) return point_sub(c);
    const double vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) return segment_sub(a, c);
    const double va = d3 * d6 - d5 * d4;
    if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) return segment_sub(b, c);
    const double denom = va + vb + vc;
    if (!(denom > 0)) { // collinear corners: the nearest of the three edges
        return nearer(nearer(segment_sub(a, b), segment_sub(a, c)), segment_sub(b, c));
    }
    const double v = vb / denom, w = vc / denom;
    Sub s;
    s.v[0] = a;
    s.v[1] = b;
    s.v[2] = c;
    s.lambda[0] = 1 - v - w;
    s.lambda[1] = v;
    s.lambda[2] = w;
    s.count = 3;
    s.p = a.w + ab * v + ac * w;
    return s;
}

// True when the origin lies on the far side of plane pqr from `opposite` (Ericson 5.1.6), or the
// tetrahedron is too flat to tell (then the face must be examined anyway).
bool origin_outside(const Vec3& p, const Vec3& q, const Vec3& r, const Vec3& opposite) {
    const Vec3 n = cross(q - p, r - p);
    const double side_origin = -dot(p, n);
    const double side_opposite = dot(opposite - p, n);
    const double flat = 1e-12 * length(n) * length(opposite - p);
    if (std::fabs(side_opposite) <= flat) return true;
    return side_origin * side_opposite < 0;
}

// The point of tetrahedron abcd nearest the origin; count 4 and p = 0 when the origin is inside.
Sub tetrahedron_sub(const SimplexVertex& a, const SimplexVertex& b, const SimplexVertex& c,
                    const SimplexVertex& d) {
    Sub best;
    bool any = false;
    auto consider = [&](const SimplexVertex& p, const SimplexVertex& q, const SimplexVertex& r,
                        const SimplexVertex& opposite) {
        if (!origin_outside(p.w, q.w, r.w, opposite.w)) return;
        const Sub s = triangle_sub(p, q, r);
        if (!any || length_squared(s.p) < length_squared(best.p)) best = s;
        any = true;
    };
    consider(a, b, c, d);
    consider(a, c, d, b);
    consider(a, d, b, c);
    consider(b, d, c, a);
    if (any) return best;
    Sub s;
    s.v = {a, b, c, d};
    s.lambda = {0.25, 0.25, 0.25, 0.25};
    s.count = 4;
    s.p = Vec3{};
    return s;
}

Sub solve(const Sub& s, const SimplexVertex& w) {
    switch (s.count) {
    case 1: return segment_sub(s.v[0], w);
    case 2: return triangle_sub(s.v[0], s.v[1], w);
    default: return tetrahedron_sub(s.v[0], s.v[1], s.v[2], w);
    }
}

/// Relative accuracy of the distance at termination (van den Bergen: |v|² − v·w ≤ ε|v|²).
constexpr double kRelativeTolerance = 1e-13;
/// |v| below this fraction of the simplex's size counts as the origin lying on the simplex.
constexpr double kZeroTolerance = 1e-13;

} // namespace

// Pseudocode (Ericson 9.5, van den Bergen's termination):
//   v ← a point of K = A_core − B_core;  simplex ← {v}
//   loop at most kGjkMaxIterations times:
//     if |v| ≈ 0: the cores overlap; stop
//     w ← support_K(−v) = support_A(−v) − support_B(v)
//     if |v|² − v·w ≤ ε|v|²  or  w already in the simplex: v is the nearest point; stop
//     simplex ← the smallest sub-simplex of simplex ∪ {w} holding its point nearest the origin,
//     v ← that point (a tetrahedron holding the origin means overlap)
//     if |v| did not shrink: keep the previous simplex; stop
//   closest points: Σλᵢaᵢ on A, Σλᵢbᵢ on B; then move each out by its radius along the normal.
GjkResult gjk_distance(const Shape& a, const Shape& b) {
    const double ra = core_radius(a), rb = core_radius(b);
    auto make = [&](const Vec3& d) {
        SimplexVertex s;
        s.a = support_core(a, d);
        s.b = support_core(b, -d);
        s.w = s.a - s.b;
        return s;
    };
    Vec3 d = centre_of(b) - centre_of(a);
    if (length_squared(d) == 0) d = Vec3{1, 0, 0};
    Sub s = point_sub(make(d));
    double vv = length_squared(s.p);
    double scale2 = std::max(1.0, vv);
    bool inside = false;
    int iterations = 1;
    while (iterations < kGjkMaxIterations) {
        if (vv <= kZeroTolerance * kZeroTolerance * scale2) {
            inside = true;
            break;
        }
        const SimplexVertex w = make(-s.p);
        ++iterations;
        scale2 = std::max(scale2, length_squared(w.w));
        if (vv - dot(s.p, w.w) <= kRelativeTolerance * vv) break;
        bool duplicate = false;
        for (int i = 0; i < s.count; ++i) duplicate = duplicate || s.v[static_cast<std::size_t>(i)].w == w.w;
        if (duplicate) break;
        const Sub next = solve(s, w);
        if (next.count == 4) {
            s = next;
            inside = true;
            break;
        }
        const double next_vv = length_squared(next.p);
        if (next_vv >= vv) break;
        s = next;
        vv = next_vv;
    }

    GjkResult r;
    r.iterations = iterations;
    r.simplex.count = s.count;
    for (int i = 0; i < s.count; ++i) r.simplex.v[static_cast<std::size_t>(i)] = s.v[static_cast<std::size_t>(i)];
    if (inside) {
        r.cores_overlap = true;
        r.overlap = true;
        return r;
    }
    Vec3 pa, pb;
    for (int i = 0; i < s.count; ++i) {
        const auto k = static_cast<std::size_t>(i);
        pa += s.v[k].a * s.lambda[k];
        pb += s.v[k].b * s.lambda[k];
    }
    r.core_distance = std::sqrt(vv);
    r.normal = (pb - pa) / r.core_distance;
    if (!is_finite(r.normal) || r.core_distance == 0) { // unreachable in practice; keep it finite
        r.cores_overlap = true;
        r.overlap = true;
        r.normal = Vec3{};
        r.core_distance = 0;
        return r;
    }
    r.point_a = pa + r.normal * ra;
    r.point_b = pb - r.normal * rb;
    r.distance = std::max(0.0, r.core_distance - ra - rb);
    r.overlap = r.core_distance < ra + rb;
    return r;
}

} // namespace collide
