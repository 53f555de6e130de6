#include "detection/manifold_reduce.h"

#include <cmath>
#include <limits>
#include <utility>

namespace collide {

namespace {

/// Whether a feature's vertex indices fit the exact 12-bit packing.
bool small(FeatureCode f) { return f == kNoFeature || high_vertex(f) < 32; }

std::uint32_t pack12(FeatureCode f) {
    if (f == kNoFeature) return 0;
    return ((std::uint32_t(owner_of(f)) << 10) | (low_vertex(f) << 5) | high_vertex(f)) + 1;
}

/// SplitMix64's finaliser: a fixed, well-mixed 64 → 64 bit hash.
std::uint64_t mix(std::uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ull;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebull;
    x ^= x >> 31;
    return x;
}

/// The squared distance between a and b across the unit normal n.
double across2(const Vec3& a, const Vec3& b, const Vec3& n) {
    const Vec3 d = b - a;
    return length_squared(d - n * dot(d, n));
}

} // namespace

RawManifold flipped(const RawManifold& m) {
    RawManifold out = m;
    out.normal = -m.normal;
    for (int k = 0; k < m.count; ++k) {
        RawPoint& p = out.points[static_cast<std::size_t>(k)];
        p.f1 = swap_owner(p.f1);
        p.f2 = swap_owner(p.f2);
    }
    return out;
}

std::uint32_t feature_id(FeatureCode f1, FeatureCode f2) {
    if (f2 < f1) std::swap(f1, f2);
    if (small(f1) && small(f2)) {
        const std::uint32_t a = pack12(f1), b = pack12(f2);
        // A lone feature sits in the low bits; two are ordered, so the id is order-free.
        if (a == 0) return b;
        return a < b ? (a | (b << 12)) : (b | (a << 12));
    }
    return std::uint32_t(mix(mix(f1) ^ f2) >> 33) | 0x80000000u;
}

Manifold finish_manifold(const RawManifold& raw, std::uint32_t key) {
    Manifold m;
    m.normal = raw.normal;
    m.count = raw.count;
    m.key = key;
    for (int k = 0; k < raw.count; ++k) {
        const RawPoint& r = raw.points[static_cast<std::size_t>(k)];
        ManifoldPoint& p = m.points[static_cast<std::size_t>(k)];
        p.point = r.point;
        p.depth = r.depth;
        p.id = feature_id(r.f1, r.f2);
    }
    // Distinct within the manifold: the families never repeat a feature pair, so only a hash
    // collision can clash; it bumps the later id.
    for (int k = 1; k < raw.count; ++k)
        for (int j = 0; j < k; ++j)
            if (m.points[static_cast<std::size_t>(j)].id == m.points[static_cast<std::size_t>(k)].id) {
                m.points[static_cast<std::size_t>(k)].id = (m.points[static_cast<std::size_t>(k)].id + 1) | 0x80000000u;
                j = -1; // check the new id against all the earlier ones again
            }
    return m;
}

void snap_to_vertices(std::span<RawPoint> points, const Vec3& normal, const Vec3* vertices,
                      const std::array<FeatureCode, 2>* names, int count, double tolerance) {
    const double tol2 = tolerance * tolerance;
    for (RawPoint& p : points)
        for (int k = 0; k < count; ++k)
            if (across2(p.point, vertices[k], normal) <= tol2) {
                p.f1 = names[k][0];
                p.f2 = names[k][1];
                break;
            }
}

int merge_same_features(std::span<RawPoint> points, int count, double merge_distance) {
    const double merge2 = merge_distance * merge_distance;
    int n = 0;
    for (int k = 0; k < count; ++k) {
        const RawPoint& p = points[static_cast<std::size_t>(k)];
        const bool named = p.f1 != kNoFeature || p.f2 != kNoFeature;
        int same = -1;
        for (int j = 0; j < n && same < 0; ++j) {
            const RawPoint& q = points[static_cast<std::size_t>(j)];
            if (named) {
                const bool match = (q.f1 == p.f1 && q.f2 == p.f2) || (q.f1 == p.f2 && q.f2 == p.f1);
                if (match) same = j;
            } else if (q.f1 == kNoFeature && q.f2 == kNoFeature && length_squared(q.point - p.point) <= merge2) {
                same = j;
            }
        }
        if (same < 0) {
            points[static_cast<std::size_t>(n++)] = p;
        } else if (p.depth > points[static_cast<std::size_t>(same)].depth) {
            points[static_cast<std::size_t>(same)] = p;
        }
    }
    return n;
}

// Box3D's reduction (src/convex_manifold.c, b3ReduceManifoldPoints), rewritten, with the
// first point the deepest unless depths are nearly equal: see the pseudocode in
// manifold_reduce.h.
void reduce_points(std::span<const RawPoint> points, int count, const Vec3& normal, RawManifold& out, double bias) {
    if (count <= kMaxManifoldPoints) {
        out.count = count;
        for (int k = 0; k < count; ++k) out.points[static_cast<std::size_t>(k)] = points[static_cast<std::size_t>(k)];
        return;
    }
    auto at = [&](int k) -> const RawPoint& { return points[static_cast<std::size_t>(k)]; };
    // A fixed direction across the normal, skewed so that it is not perpendicular to a box's
    // edges: among equally deep points it picks a corner, not the middle of a side.
    const Vec3 t1 = any_perpendicular(normal);
    const Vec3 t2 = cross(normal, t1);
    const Vec3 search = t1 * 0.4535961214255773 + t2 * 0.8912073600614354;

    double deepest = -std::numeric_limits<double>::infinity(), spread2 = 0;
    for (int k = 0; k < count; ++k) {
        deepest = std::fmax(deepest, at(k).depth);
        spread2 = std::fmax(spread2, across2(at(0).point, at(k).point, normal));
    }
    const double tie = std::fmax(1e-12, kManifoldDepthTieRelative * std::sqrt(spread2));
    int i0 = -1;
    double best = -std::numeric_limits<double>::infinity();
    for (int k = 0; k < count; ++k) {
        if (at(k).depth < deepest - tie) continue;
        const double s = dot(search, at(k).point);
        if (s > best) {
            best = s;
            i0 = k;
        }
    }
    const Vec3 a = at(i0).point;

    // The spread of the points sets what "no area" means.
    int i1 = -1;
    double far2 = 0;
    for (int k = 0; k < count; ++k) {
        const double d2 = across2(a, at(k).point, normal);
        if (bias * d2 > far2) {
            far2 = d2;
            i1 = k;
        }
    }
    out.points[0] = at(i0);
    out.count = 1;
    if (i1 < 0 || far2 <= 1e-24) return; // every point at one place
    const Vec3 b = at(i1).point;
    out.points[1] = at(i1);
    out.count = 2;
    const double tiny_area = 1e-12 * far2;

    const Vec3 ab = b - a;
    int i2 = -1;
    double area = tiny_area, signed_area = 0;
    for (int k = 0; k < count; ++k) {
        const double s = dot(normal, cross(ab, at(k).point - a));
        if (bias * std::fabs(s) > area) {
            area = std::fabs(s);
            signed_area = s;
            i2 = k;
        }
    }
    if (i2 < 0) return; // all on a line
    const Vec3 c = at(i2).point;
    out.points[2] = at(i2);
    out.count = 3;

    // The point that adds the most area outside the triangle: the largest outward signed area
    // over its three edges (oriented by the triangle's winding about the normal).
    const double sign = signed_area < 0 ? -1.0 : 1.0;
    int i3 = -1;
    double added = tiny_area;
    for (int k = 0; k < count; ++k) {
        if (k == i0 || k == i1 || k == i2) continue;
        const Vec3 p = at(k).point;
        const double u1 = sign * dot(normal, cross(p - a, b - a));
        const double u2 = sign * dot(normal, cross(p - b, c - b));
        const double u3 = sign * dot(normal, cross(p - c, a - c));
        const double s = std::fmax(u1, std::fmax(u2, u3));
        if (bias * s > added) {
            added = s;
            i3 = k;
        }
    }
    if (i3 >= 0) {
        out.points[3] = at(i3);
        out.count = 4;
    }
}

} // namespace collide
