#include "detection/manifold_clip.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace collide {

namespace {

/// Corner bit of a box axis in corners_of numbering: u is bit 2, v bit 1, w bit 0.
constexpr std::uint32_t axis_bit(int axis) { return 4u >> axis; }

template <int N> Face widen(const FaceOf<N>& f) {
    Face out;
    out.normal = f.normal;
    out.offset = f.offset;
    out.count = f.count;
    for (int k = 0; k < f.count; ++k) {
        out.corners[static_cast<std::size_t>(k)] = f.corners[static_cast<std::size_t>(k)];
        out.index[static_cast<std::size_t>(k)] = f.index[static_cast<std::size_t>(k)];
    }
    return out;
}

Face vertex_face(const Vec3& p, std::uint32_t i) {
    Face f;
    f.count = 1;
    f.corners[0] = p;
    f.index[0] = i;
    return f;
}

Face edge_face(const Vec3& p, std::uint32_t i, const Vec3& q, std::uint32_t j) {
    Face f;
    f.count = 2;
    f.corners[0] = p;
    f.corners[1] = q;
    f.index[0] = i;
    f.index[1] = j;
    return f;
}

/// Andrew's monotone chain over 2D points (x, y), counter-clockwise, collinear points
/// dropped (|cross| ≤ tol2). `order` holds the point numbers, sorted in place; the hull's point
/// numbers are written to `out`, their count returned.
int convex_hull_2d(const double* x, const double* y, int* order, int n, double tol2, int* out) {
    for (int i = 1; i < n; ++i) { // insertion sort by (x, y): n ≤ 32
        const int v = order[i];
        int j = i - 1;
        while (j >= 0 && (x[order[j]] > x[v] || (x[order[j]] == x[v] && y[order[j]] > y[v]))) {
            order[j + 1] = order[j];
            --j;
        }
        order[j + 1] = v;
    }
    if (n < 3) {
        for (int i = 0; i < n; ++i) out[i] = order[i];
        return n;
    }
    auto turn = [&](int o, int a, int b) { return (x[a] - x[o]) * (y[b] - y[o]) - (y[a] - y[o]) * (x[b] - x[o]); };
    int k = 0;
    for (int i = 0; i < n; ++i) { // lower hull
        while (k >= 2 && turn(out[k - 2], out[k - 1], order[i]) <= tol2) --k;
        out[k++] = order[i];
    }
    for (int i = n - 2, lower = k + 1; i >= 0; --i) { // upper hull
        while (k >= lower && turn(out[k - 2], out[k - 1], order[i]) <= tol2) --k;
        out[k++] = order[i];
    }
    return k - 1; // the last point repeats the first
}

} // namespace

BoxFace box_face_toward(const Obb& box, const Vec3& d) {
    int k = 0;
    double best = std::fabs(dot(box.axes.col[0], d));
    for (int i = 1; i < 3; ++i) {
        const double v = std::fabs(dot(box.axes.col[i], d));
        if (v > best) {
            best = v;
            k = i;
        }
    }
    const bool plus = dot(box.axes.col[k], d) >= 0;
    const int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
    const auto uk = static_cast<std::size_t>(k), u1 = static_cast<std::size_t>(k1), u2 = static_cast<std::size_t>(k2);
    BoxFace f;
    f.normal = plus ? box.axes.col[k] : -box.axes.col[k];
    f.offset = dot(f.normal, box.centre) + box.half[uk];
    f.count = 4;
    const Vec3 mid = box.centre + f.normal * box.half[uk];
    const Vec3 e1 = box.axes.col[k1] * box.half[u1], e2 = box.axes.col[k2] * box.half[u2];
    // Counter-clockwise seen from outside: (−,−), (+,−), (+,+), (−,+) in the (k1, k2) frame on
    // the + side, whose k1 × k2 is the face's normal; reversed on the − side.
    static constexpr int s1[2][4] = {{-1, -1, 1, 1}, {-1, 1, 1, -1}};
    static constexpr int s2[2][4] = {{-1, 1, 1, -1}, {-1, -1, 1, 1}};
    const int side = plus ? 1 : 0;
    for (std::size_t c = 0; c < 4; ++c) {
        const int a = s1[side][c], b = s2[side][c];
        f.corners[c] = mid + e1 * double(a) + e2 * double(b);
        f.index[c] = (plus ? axis_bit(k) : 0u) | (a > 0 ? axis_bit(k1) : 0u) | (b > 0 ? axis_bit(k2) : 0u);
    }
    return f;
}

Face triangle_face_toward(const Triangle& t, const Vec3& d) {
    const Vec3 n = cross(t.b - t.a, t.c - t.a);
    const double ab = length_squared(t.b - t.a), bc = length_squared(t.c - t.b), ca = length_squared(t.a - t.c);
    const double longest = std::max({ab, bc, ca});
    if (!(length_squared(n) > 1e-24 * longest * longest)) { // no area: its longest side
        if (ab >= bc && ab >= ca) return edge_face(t.a, 0, t.b, 1);
        if (bc >= ca) return edge_face(t.b, 1, t.c, 2);
        return edge_face(t.c, 2, t.a, 0);
    }
    const Vec3 unit = normalize(n);
    Face f;
    f.count = 3;
    if (dot(unit, d) >= 0) {
        f.normal = unit;
        f.corners[0] = t.a, f.corners[1] = t.b, f.corners[2] = t.c;
        f.index[0] = 0, f.index[1] = 1, f.index[2] = 2;
    } else {
        f.normal = -unit;
        f.corners[0] = t.a, f.corners[1] = t.c, f.corners[2] = t.b;
        f.index[0] = 0, f.index[1] = 2, f.index[2] = 1;
    }
    f.offset = dot(f.normal, t.a);
    return f;
}

// Derivation (see the header): a plane through the support point v0 with normal d + s (s
// across d) supports the hull iff dot(s, r_i) ≤ h_i for every point i, r_i being p_i − v0
// across d and h_i ≥ 0 its drop below v0 along d. Those half-planes intersect in a convex
// region K holding s = 0; K's edges are the hull's edges at v0 and its corners the faces at
// v0, the face's normal being closest to d where |s| is smallest. The constraint line
// nearest the origin is an edge of K (the disc of its radius lies in every half-plane), the
// hull edge at v0 most perpendicular to d; walking along it both ways to the first other
// constraint finds its two faces (Box3D's b3FindIncidentFace picks among them the same way).
Face hull_face_toward(const Hull& placed, const Vec3& d_in) {
    const HullPoints h = placed_points(placed);
    const int n = std::clamp(h.count, 1, kHullMaxPoints);
    auto pt = [&](int i) -> const Vec3& { return h.points[static_cast<std::size_t>(i)]; };
    const Vec3 d = normalize(d_in);
    int i0 = 0;
    double top = dot(pt(0), d);
    for (int i = 1; i < n; ++i) {
        const double v = dot(pt(i), d);
        if (v > top) {
            top = v;
            i0 = i;
        }
    }
    const Vec3 v0 = pt(i0);
    double scale2 = 0;
    for (int i = 0; i < n; ++i) scale2 = std::max(scale2, length_squared(pt(i) - v0));
    if (!(scale2 > 0)) return vertex_face(v0, std::uint32_t(i0));
    const double scale = std::sqrt(scale2);
    const double eps = 1e-9 * scale;
    const Vec3 t1 = any_perpendicular(d), t2 = cross(d, t1);

    std::array<double, kHullMaxPoints> rx{}, ry{}, hh{};
    std::array<bool, kHullMaxPoints> used{};
    int nearest = -1;
    double nearest_h = 0, nearest_r = 1; // compare h/r without dividing
    for (int i = 0; i < n; ++i) {
        const Vec3 w = pt(i) - v0;
        const auto ui = static_cast<std::size_t>(i);
        rx[ui] = dot(w, t1);
        ry[ui] = dot(w, t2);
        hh[ui] = std::max(0.0, -dot(w, d));
        const double r = std::sqrt(rx[ui] * rx[ui] + ry[ui] * ry[ui]);
        used[ui] = i != i0 && r > eps;
        if (used[ui] && (nearest < 0 || hh[ui] * nearest_r < nearest_h * r)) {
            nearest = i;
            nearest_h = hh[ui];
            nearest_r = r;
        }
    }
    if (nearest < 0) return vertex_face(v0, std::uint32_t(i0)); // every point straight below v0
    const auto un = static_cast<std::size_t>(nearest);
    const double r2 = nearest_r * nearest_r;
    const double cx = rx[un] * nearest_h / r2, cy = ry[un] * nearest_h / r2; // the line's point nearest 0
    const double tx = -ry[un] / nearest_r, ty = rx[un] / nearest_r;          // along the line
    const Vec3 edge = pt(nearest) - v0;

    // The two corners of K on that line: the first other constraint each way. Among points
    // that bound it equally (corners of one face), the one making the best-shaped triangle.
    int ends[2] = {-1, -1};
    double lam[2] = {std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
    double spread[2] = {0, 0};
    for (int j = 0; j < n; ++j) {
        const auto uj = static_cast<std::size_t>(j);
        if (!used[uj] || j == nearest) continue;
        const double a = tx * rx[uj] + ty * ry[uj];
        const double rj = std::sqrt(rx[uj] * rx[uj] + ry[uj] * ry[uj]);
        if (std::fabs(a) <= 1e-12 * rj) continue; // parallel to the line: never bounds it
        const double b = std::max(0.0, hh[uj] - (cx * rx[uj] + cy * ry[uj]));
        const double l = b / a;
        const int side = a > 0 ? 0 : 1;
        const double tie = 1e-9 * (1 + std::fabs(l));
        const double shape = length_squared(cross(edge, pt(j) - v0));
        const bool better = side == 0 ? l < lam[0] - tie : l > lam[1] + tie;
        const bool equal = std::fabs(l - lam[side]) <= tie;
        if (better || (equal && shape > spread[side])) {
            lam[side] = l;
            ends[side] = j;
            spread[side] = shape;
        }
    }
    Vec3 normal;
    double best_align = -2;
    for (int e : ends) {
        if (e < 0) continue;
        Vec3 m = normalize(cross(edge, pt(e) - v0));
        if (dot(m, d) < 0) m = -m;
        if (dot(m, d) > best_align) {
            best_align = dot(m, d);
            normal = m;
        }
    }
    if (best_align < -1) return edge_face(v0, std::uint32_t(i0), pt(nearest), std::uint32_t(nearest));

    // The face: every point in that plane, ordered counter-clockwise seen from outside.
    const Vec3 u1 = any_perpendicular(normal), u2 = cross(normal, u1);
    std::array<double, kHullMaxPoints> x{}, y{};
    std::array<int, kHullMaxPoints> order{};
    std::array<int, 2 * kHullMaxPoints + 1> hull{};
    int m = 0;
    for (int i = 0; i < n; ++i) {
        const Vec3 w = pt(i) - v0;
        if (std::fabs(dot(normal, w)) > eps) continue;
        const auto ui = static_cast<std::size_t>(i);
        x[ui] = dot(w, u1);
        y[ui] = dot(w, u2);
        order[static_cast<std::size_t>(m++)] = i;
    }
    const int k = convex_hull_2d(x.data(), y.data(), order.data(), m, 1e-18 * scale2, hull.data());
    if (k < 3) return edge_face(v0, std::uint32_t(i0), pt(nearest), std::uint32_t(nearest));
    Face f;
    f.normal = normal;
    f.offset = dot(normal, v0);
    f.count = k;
    for (int c = 0; c < k; ++c) {
        f.corners[static_cast<std::size_t>(c)] = pt(hull[static_cast<std::size_t>(c)]);
        f.index[static_cast<std::size_t>(c)] = std::uint32_t(hull[static_cast<std::size_t>(c)]);
    }
    return f;
}

Face face_toward(const Shape& polytope, const Vec3& d) {
    if (const auto* b = std::get_if<Obb>(&polytope)) return widen(box_face_toward(*b, d));
    if (const auto* b = std::get_if<Aabb>(&polytope)) return widen(box_face_toward(to_obb(*b), d));
    if (const auto* t = std::get_if<Triangle>(&polytope)) return triangle_face_toward(*t, d);
    if (const auto* h = std::get_if<Hull>(&polytope)) return hull_face_toward(*h, d);
    return vertex_face(support(polytope, d), 0);
}

int support_set(const Shape& polytope, const Vec3& d, double tolerance, std::span<Vec3> points,
                std::span<std::uint32_t> index) {
    std::array<Vec3, kHullMaxPoints> v;
    int n = 0;
    if (const auto* b = std::get_if<Obb>(&polytope)) {
        const auto c = corners_of(*b);
        std::copy(c.begin(), c.end(), v.begin());
        n = 8;
    } else if (const auto* a = std::get_if<Aabb>(&polytope)) {
        const auto c = corners_of(to_obb(*a));
        std::copy(c.begin(), c.end(), v.begin());
        n = 8;
    } else if (const auto* t = std::get_if<Triangle>(&polytope)) {
        v[0] = t->a, v[1] = t->b, v[2] = t->c;
        n = 3;
    } else if (const auto* h = std::get_if<Hull>(&polytope)) {
        const HullPoints p = placed_points(*h);
        n = std::clamp(p.count, 1, kHullMaxPoints);
        std::copy(p.points.begin(), p.points.begin() + n, v.begin());
    } else {
        points[0] = support(polytope, d);
        index[0] = 0;
        return 1;
    }
    double top = -std::numeric_limits<double>::infinity();
    for (int i = 0; i < n; ++i) top = std::max(top, dot(v[static_cast<std::size_t>(i)], d));
    int m = 0;
    for (int i = 0; i < n && m < static_cast<int>(points.size()); ++i)
        if (dot(v[static_cast<std::size_t>(i)], d) >= top - tolerance) {
            points[static_cast<std::size_t>(m)] = v[static_cast<std::size_t>(i)];
            index[static_cast<std::size_t>(m++)] = std::uint32_t(i);
        }
    return m;
}

int polygon_of(const FaceView& f, int owner, std::span<ClipVertex> out) {
    for (int k = 0; k < f.count; ++k) {
        const int prev = (k + f.count - 1) % f.count, next = (k + 1) % f.count;
        out[static_cast<std::size_t>(k)] = {f.corners[k], edge_feature(owner, f.index[prev], f.index[k]),
                                            edge_feature(owner, f.index[k], f.index[next])};
    }
    return f.count;
}

int clip_polygon(const FaceView& reference, int ref_owner, std::span<ClipVertex> poly, int count,
                 std::span<ClipVertex> scratch, std::span<ClipVertex>* result) {
    std::span<ClipVertex> in = poly, out = scratch;
    for (int e = 0; e < reference.count && count > 0; ++e) {
        const int next = (e + 1) % reference.count;
        const Vec3 c0 = reference.corners[e];
        Vec3 side = cross(reference.corners[next] - c0, reference.normal);
        const double len = length(side);
        if (!(len > 0)) continue; // a repeated corner: no side there
        side = side / len;
        const double offset = dot(side, c0);
        const FeatureCode feature = edge_feature(ref_owner, reference.index[e], reference.index[next]);
        std::array<double, 2 * kMaxFaceCorners + 2> dist;
        const auto corners = static_cast<std::size_t>(count);
        for (std::size_t k = 0; k < corners; ++k) dist[k] = dot(side, in[k].p) - offset;
        // A corner just outside the side, on an edge along it, moves onto it.
        settle_on_side(std::span(dist.data(), corners), kClipRelative * len,
                       [&](std::size_t k) { in[k].p -= side * dist[k]; });
        int n = 0;
        ClipVertex v1 = in[corners - 1];
        double d1 = dist[corners - 1];
        for (int k = 0; k < count; ++k) {
            const ClipVertex v2 = in[static_cast<std::size_t>(k)];
            const double d2 = dist[static_cast<std::size_t>(k)];
            if (d1 <= 0 && d2 <= 0) {
                out[static_cast<std::size_t>(n++)] = v2;
            } else if (d1 <= 0 && d2 > 0) {
                const double t = d1 / (d1 - d2);
                out[static_cast<std::size_t>(n++)] = {v1.p + (v2.p - v1.p) * t, v2.in, feature};
            } else if (d2 <= 0 && d1 > 0) {
                const double t = d1 / (d1 - d2);
                out[static_cast<std::size_t>(n++)] = {v1.p + (v2.p - v1.p) * t, feature, v2.in};
                out[static_cast<std::size_t>(n++)] = v2;
            }
            v1 = v2;
            d1 = d2;
        }
        std::swap(in, out);
        count = n;
    }
    *result = in;
    return count;
}

bool clip_segment(const FaceView& reference, int ref_owner, ClipVertex& p0, ClipVertex& p1, FeatureCode edge) {
    for (int e = 0; e < reference.count; ++e) {
        const int next = (e + 1) % reference.count;
        const Vec3 c0 = reference.corners[e];
        Vec3 side = cross(reference.corners[next] - c0, reference.normal);
        const double len = length(side);
        if (!(len > 0)) continue;
        side = side / len;
        const double offset = dot(side, c0);
        const double d0 = dot(side, p0.p) - offset, d1 = dot(side, p1.p) - offset;
        if (d0 > 0 && d1 > 0) return false;
        if (d0 <= 0 && d1 <= 0) continue;
        const Vec3 cut = p0.p + (p1.p - p0.p) * (d0 / (d0 - d1));
        const FeatureCode feature = edge_feature(ref_owner, reference.index[e], reference.index[next]);
        if (d0 > 0)
            p0 = {cut, edge, feature};
        else
            p1 = {cut, edge, feature};
    }
    return true;
}

std::optional<double> capsule_far(const Capsule& c, const Vec3& o, const Vec3& u) {
    std::optional<double> best;
    auto keep = [&best](double t) {
        if (!best || t > *best) best = t;
    };
    auto ball = [&](const Vec3& e) {
        const Vec3 w = o - e;
        const double b = dot(u, w), disc = b * b - (length_squared(w) - c.radius * c.radius);
        if (disc >= 0) keep(-b + std::sqrt(disc));
    };
    ball(c.a);
    ball(c.b);
    const Vec3 axis = c.b - c.a;
    const double len2 = length_squared(axis);
    if (len2 > 0) {
        const double len = std::sqrt(len2);
        const Vec3 dir = axis / len;
        const Vec3 w = o - c.a;
        const Vec3 u_across = u - dir * dot(u, dir), w_across = w - dir * dot(w, dir);
        const double qa = length_squared(u_across);
        if (qa > 1e-24) { // not along the axis: the cylinder's far root, if it lies along the segment
            const double qb = dot(u_across, w_across), qc = length_squared(w_across) - c.radius * c.radius;
            const double disc = qb * qb - qa * qc;
            if (disc >= 0) {
                const double t = (-qb + std::sqrt(disc)) / qa;
                const double s = dot(w + u * t, dir);
                if (s >= 0 && s <= len) keep(t);
            }
        }
    }
    return best;
}

double manifold_scale(const Shape& s) {
    if (const auto* b = std::get_if<Obb>(&s)) return std::max({b->half.x, b->half.y, b->half.z});
    if (const auto* sp = std::get_if<Sphere>(&s)) return sp->radius;
    if (const auto* c = std::get_if<Capsule>(&s)) return 0.5 * length(c->b - c->a) + c->radius;
    const Aabb box = bounds_of(s);
    const Vec3 half = (box.max - box.min) * 0.5;
    return std::max({half.x, half.y, half.z});
}

} // namespace collide
