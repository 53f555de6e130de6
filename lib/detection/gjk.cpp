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

/// A sub-simplex, as indices into the current simplex's points, with the barycentric weights of
/// its point nearest the origin (small, so the Voronoi-region tests copy nothing heavy).
struct Sub {
    std::array<int, 4> idx{};
    std::array<double, 4> lambda{};
    int count = 0;
    Vec3 p; ///< the point of the sub-simplex nearest the origin: Σ lambda·w
};

Sub point_sub(const Vec3* w, int a) {
    Sub s;
    s.idx[0] = a;
    s.lambda[0] = 1;
    s.count = 1;
    s.p = w[a];
    return s;
}

Sub segment_sub(const Vec3* w, int a, int b) {
    const Vec3 ab = w[b] - w[a];
    const double denom = dot(ab, ab);
    const double t = -dot(w[a], ab);
    if (t <= 0 || denom <= 0) return point_sub(w, a);
    if (t >= denom) return point_sub(w, b);
    const double u = t / denom;
    Sub s;
    s.idx[0] = a;
    s.idx[1] = b;
    s.lambda[0] = 1 - u;
    s.lambda[1] = u;
    s.count = 2;
    s.p = w[a] + ab * u;
    return s;
}

Sub nearer(const Sub& x, const Sub& y) { return length_squared(y.p) < length_squared(x.p) ? y : x; }

// The point of triangle abc nearest the origin, by Voronoi regions (Ericson 5.1.5 with p = 0).
Sub triangle_sub(const Vec3* w, int a, int b, int c) {
    const Vec3 ab = w[b] - w[a], ac = w[c] - w[a];
    const double d1 = -dot(ab, w[a]), d2 = -dot(ac, w[a]);
    if (d1 <= 0 && d2 <= 0) return point_sub(w, a);
    const double d3 = -dot(ab, w[b]), d4 = -dot(ac, w[b]);
    if (d3 >= 0 && d4 <= d3) return point_sub(w, b);
    const double vc = d1 * d4 - d3 * d2;
    if (vc <= 0 && d1 >= 0 && d3 <= 0) return segment_sub(w, a, b);
    const double d5 = -dot(ab, w[c]), d6 = -dot(ac, w[c]);
    if (d6 >= 0 && d5 <= d6) return point_sub(w, c);
    const double vb = d5 * d2 - d1 * d6;
    if (vb <= 0 && d2 >= 0 && d6 <= 0) return segment_sub(w, a, c);
    const double va = d3 * d6 - d5 * d4;
    if (va <= 0 && (d4 - d3) >= 0 && (d5 - d6) >= 0) return segment_sub(w, b, c);
    const double denom = va + vb + vc;
    if (!(denom > 0)) { // collinear corners: the nearest of the three edges
        return nearer(nearer(segment_sub(w, a, b), segment_sub(w, a, c)), segment_sub(w, b, c));
    }
    const double v = vb / denom, u = vc / denom;
    Sub s;
    s.idx = {a, b, c, 0};
    s.lambda = {1 - v - u, v, u, 0};
    s.count = 3;
    s.p = w[a] + ab * v + ac * u;
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
Sub tetrahedron_sub(const Vec3* w, int a, int b, int c, int d) {
    Sub best;
    bool any = false;
    auto consider = [&](int p, int q, int r, int opposite) {
        if (!origin_outside(w[p], w[q], w[r], w[opposite])) return;
        const Sub s = triangle_sub(w, p, q, r);
        if (!any || length_squared(s.p) < length_squared(best.p)) best = s;
        any = true;
    };
    consider(a, b, c, d);
    consider(a, c, d, b);
    consider(a, d, b, c);
    consider(b, d, c, a);
    if (any) return best;
    Sub s;
    s.idx = {a, b, c, d};
    s.lambda = {0.25, 0.25, 0.25, 0.25};
    s.count = 4;
    s.p = Vec3{};
    return s;
}

// The sub-simplex of the first `count` points nearest the origin (the newest point is last).
Sub solve(const Vec3* w, int count) {
    switch (count) {
    case 1: return point_sub(w, 0);
    case 2: return segment_sub(w, 0, 1);
    case 3: return triangle_sub(w, 0, 1, 2);
    default: return tetrahedron_sub(w, 0, 1, 2, 3);
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
    auto make = [&](const Vec3& d) { return support_vertex(a, b, d); };
    Vec3 d = centre_of(b) - centre_of(a);
    if (length_squared(d) == 0) d = Vec3{1, 0, 0};
    // The simplex: its vertices and, alongside, their w points for the sub-algorithm.
    GjkSimplex simplex;
    std::array<Vec3, 4> w{};
    std::array<double, 4> lambda{1, 0, 0, 0};
    simplex.v[0] = make(d);
    w[0] = simplex.v[0].w;
    simplex.count = 1;
    Vec3 v = w[0];
    double vv = length_squared(v);
    double scale2 = std::max(1.0, vv);
    bool inside = false;
    int iterations = 1;
    while (iterations < kGjkMaxIterations) {
        if (vv <= kZeroTolerance * kZeroTolerance * scale2) {
            inside = true;
            break;
        }
        const SimplexVertex fresh = make(-v);
        ++iterations;
        scale2 = std::max(scale2, length_squared(fresh.w));
        if (vv - dot(v, fresh.w) <= kRelativeTolerance * vv) break;
        bool duplicate = false;
        for (int i = 0; i < simplex.count; ++i) duplicate = duplicate || w[static_cast<std::size_t>(i)] == fresh.w;
        if (duplicate) break;
        const auto n = static_cast<std::size_t>(simplex.count);
        std::array<Vec3, 4> trial_w = w;
        trial_w[n] = fresh.w;
        const Sub next = solve(trial_w.data(), simplex.count + 1);
        const double next_vv = length_squared(next.p);
        if (next.count < 4 && next_vv >= vv) break; // no progress: keep the previous simplex
        // Keep the vertices the sub-simplex uses, in order.
        GjkSimplex kept;
        kept.count = next.count;
        for (int i = 0; i < next.count; ++i) {
            const auto k = static_cast<std::size_t>(i);
            const auto from = static_cast<std::size_t>(next.idx[k]);
            kept.v[k] = from == n ? fresh : simplex.v[from];
            w[k] = trial_w[from];
            lambda[k] = next.lambda[k];
        }
        simplex = kept;
        v = next.p;
        vv = next_vv;
        if (next.count == 4) {
            inside = true;
            break;
        }
    }

    GjkResult r;
    r.iterations = iterations;
    r.simplex = simplex;
    if (inside) {
        r.cores_overlap = true;
        r.overlap = true;
        return r;
    }
    Vec3 pa, pb;
    for (int i = 0; i < simplex.count; ++i) {
        const auto k = static_cast<std::size_t>(i);
        pa += simplex.v[k].a * lambda[k];
        pb += simplex.v[k].b * lambda[k];
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
