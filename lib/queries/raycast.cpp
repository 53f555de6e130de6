#include "queries/raycast.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "queries/line_intervals.h"
#include "shapes/mesh.h"

namespace collide {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// A ray with a unit direction, or `ok == false` when the direction cannot be normalised.
struct UnitRay {
    Vec3 origin;
    Vec3 u;
    bool ok = false;
};

UnitRay unit_ray(const Ray& ray) {
    const double l = length(ray.direction);
    if (!(l > 0.0) || !std::isfinite(l) || !is_finite(ray.origin)) return {};
    return {ray.origin, ray.direction / l, true};
}

/// The ray rule on a closed interval of the line: a hit when [enter, exit] meets
/// [0, max_distance]; an interval that began behind the origin means the origin is inside.
template <class NormalAt> std::optional<RayHit> hit_from_interval(const UnitRay& ray, const LineInterval& in,
                                                                  double max_distance, NormalAt normal_at) {
    if (in.empty() || in.exit < 0.0 || in.enter > max_distance || !(max_distance >= 0.0)) return std::nullopt;
    if (in.enter < 0.0) return RayHit{0.0, ray.origin, -ray.u, true};
    const Vec3 p = ray.origin + ray.u * in.enter;
    return RayHit{in.enter, p, normal_at(p), false};
}

/// Unit vector from `from` to `to`, or `fallback` when they coincide (a zero radius).
Vec3 direction_or(const Vec3& from, const Vec3& to, const Vec3& fallback) {
    const Vec3 d = to - from;
    const double l = length(d);
    return l > 0.0 ? d / l : fallback;
}

/// The unit normal of the entered face of a box slab test, in the box's frame.
Vec3 slab_face_normal(const LineInterval& in, const Vec3& u) {
    Vec3 n;
    const auto axis = static_cast<std::size_t>(in.axis);
    n[axis] = u[axis] > 0.0 ? -1.0 : 1.0;
    return n;
}

std::optional<RayHit> raycast_point_set_segment(const UnitRay& ray, const Vec3& p, const Vec3& q, double max_distance) {
    // A zero-radius capsule: hit only by rays through the segment (exactly).
    const LineInterval in = capsule_interval(ray.origin, ray.u, p, q, 0.0, Boundary::closed);
    return hit_from_interval(ray, in, max_distance, [&](const Vec3&) { return -ray.u; });
}

/// a·b − c·d summed exactly as an expansion (the uncertain case of signed_difference): its
/// largest nonzero component, which has the exact value's sign.
[[gnu::noinline]] double exact_difference(double a, double b, double c, double d) {
    const double p = a * b, q = c * d;
    const double e = std::fma(a, b, -p); // a·b = p + e exactly
    const double f = std::fma(c, d, -q); // c·d = q + f exactly
    // Knuth's Two-Sum: x + y = x0 + y0 exactly, |y| ≤ ½ ulp(x).
    const auto two_sum = [](double x0, double y0, double& x, double& y) {
        x = x0 + y0;
        const double bv = x - x0, av = x - bv;
        y = (x0 - av) + (y0 - bv);
    };
    // The expansion {e, p} (nonoverlapping: e is p's rounding error), grown by −f, then by −q.
    double h[3];
    double carry = -f;
    two_sum(carry, e, carry, h[0]);
    two_sum(carry, p, carry, h[1]);
    h[2] = carry;
    double g[4];
    double top = -q;
    two_sum(top, h[0], top, g[0]);
    two_sum(top, h[1], top, g[1]);
    two_sum(top, h[2], top, g[2]);
    g[3] = top;
    for (int i = 3; i >= 0; --i)
        if (g[i] != 0.0) return g[i];
    return 0.0;
}

/// a·b − c·d with its sign exact. Shewchuk 1997 ("Adaptive Precision Floating-Point
/// Arithmetic and Fast Robust Geometric Predicates", sections 2 and 4): the rounded difference
/// of the rounded products is within (3 + 16ε)·ε·(|a·b| + |c·d|) of the exact value (ε = 2^−53),
/// so when it is larger than that its sign is right and it is returned. Otherwise the products
/// are split exactly, a·b = p + e with e = fma(a, b, −p) (a fused multiply-add is exact by
/// definition, so this is the same on every machine), and p + e − q − f is summed as an
/// expansion (Grow-Expansion, Theorem 10) whose largest nonzero component, returned, has the
/// sign of the exact value. Swapping (a, b) with (c, d) negates the result's sign exactly, which
/// is what makes neighbouring triangles agree about their shared edge. Valid while the products
/// neither overflow nor fall below 2^−969 (coordinates between about 1e−145 m and 1e150 m).
inline double signed_difference(double a, double b, double c, double d) {
    const double p = a * b;
    const double q = c * d;
    const double diff = p - q;
    constexpr double kEps = 0x1p-53;
    constexpr double kBound = (3.0 + 16.0 * kEps) * kEps;
    if (std::fabs(diff) > kBound * (std::fabs(p) + std::fabs(q))) [[likely]]
        return diff;
    return exact_difference(a, b, c, d);
}

/// A unit ray prepared for the watertight triangle test: the axis kz along which it runs
/// fastest (ties: x, then y, then z), the two others, and the shear that maps it onto +kz.
struct ShearedRay {
    Vec3 origin;
    Vec3 u; ///< the unit direction
    int kx = 0, ky = 1, kz = 2;
    double sx = 0, sy = 0, sz = 1;
};

ShearedRay shear_ray(const Vec3& origin, const Vec3& u) {
    const double ax = std::fabs(u.x), ay = std::fabs(u.y), az = std::fabs(u.z);
    const int kz = ax >= ay && ax >= az ? 0 : (ay >= az ? 1 : 2);
    const int kx = (kz + 1) % 3, ky = (kx + 1) % 3;
    const double dz = u[static_cast<std::size_t>(kz)];
    return {origin,  u, kx, ky, kz, u[static_cast<std::size_t>(kx)] / dz, u[static_cast<std::size_t>(ky)] / dz,
            1.0 / dz};
}

/// A corner in the ray's sheared frame: (x, y) where the ray is the origin, z along it.
struct ShearedPoint {
    double x, y, z;
};

inline ShearedPoint shear_point(const ShearedRay& r, const Vec3& p) {
    const double d[3] = {p.x - r.origin.x, p.y - r.origin.y, p.z - r.origin.z}; // indexed, not branched on
    const double dz = d[r.kz];
    return {d[r.kx] - r.sx * dz, d[r.ky] - r.sy * dz, r.sz * dz};
}

// Woop, Benthin & Wald 2013, "Watertight Ray/Triangle Intersection" (JCGT 2(1)), section 3:
//   translate the corners to the ray's origin and shear them so the ray runs along +kz from
//   (0, 0); each corner's sheared coordinates depend on that corner and the ray only
//   U = Cx·By − Cy·Bx, V = Ax·Cy − Ay·Cx, W = Bx·Ay − By·Ax   (2D edge functions of (0, 0))
//   miss when they have different signs (some < 0 and some > 0); det = U + V + W; miss when 0
//   t = (U·Az + V·Bz + W·Cz) / det
// A shared edge's function is computed from the same two sheared corners in both triangles,
// with the roles of its products swapped, and its sign is exact (signed_difference): the two
// triangles agree exactly about which side of the edge the ray passes, and a ray exactly
// through the edge (or a corner) is inside both (zero counts as inside). Rays can therefore
// not slip between triangles that share an edge or a corner. Both windings are accepted (the
// paper's swap of kx and ky for a negative direction only fixes which one is the front, so it
// is left out). A ray lying in the triangle's plane, |n̂·û| ≤ 1e−12, misses it.
std::optional<double> watertight_distance(const ShearedRay& r, const Triangle& tri, double max_distance) {
    const ShearedPoint a = shear_point(r, tri.a), b = shear_point(r, tri.b), c = shear_point(r, tri.c);
    const double u = signed_difference(c.x, b.y, c.y, b.x);
    const double v = signed_difference(a.x, c.y, a.y, c.x);
    if ((u < 0.0 && v > 0.0) || (u > 0.0 && v < 0.0)) return std::nullopt; // most misses end here
    const double w = signed_difference(b.x, a.y, b.y, a.x);
    if ((u < 0.0 || v < 0.0 || w < 0.0) && (u > 0.0 || v > 0.0 || w > 0.0)) return std::nullopt;
    const double det = u + v + w;
    if (det == 0.0) return std::nullopt;
    const double t = (u * a.z + v * b.z + w * c.z) / det;
    if (!(t >= 0.0) || t > max_distance) return std::nullopt;
    // Grazing and degenerate triangles, tested only for candidates (a square root each).
    const Vec3 face = cross(tri.b - tri.a, tri.c - tri.a);
    const double area2 = length(face);
    if (!(area2 > 0.0) || std::fabs(dot(face, r.u)) <= 1e-12 * area2) return std::nullopt;
    return t;
}

/// The unit face normal of `tri`, turned against the direction `u` (dot < 0).
Vec3 facing_normal(const Triangle& tri, const Vec3& u) {
    const Vec3 n = normalize(cross(tri.b - tri.a, tri.c - tri.a));
    return dot(n, u) > 0.0 ? -n : n;
}

} // namespace

SlabResult slab_ray_aabb(const Vec3& origin, const Vec3& direction, const Aabb& box) {
    const LineInterval in = slab_interval(origin, direction, box.min, box.max, Boundary::closed);
    const bool hit = in.enter <= in.exit && in.exit >= 0.0;
    return {hit, in.enter, in.exit, hit && in.enter < 0.0};
}

std::optional<RayHit> raycast_aabb(const Ray& ray, const Aabb& box, double max_distance) {
    const UnitRay r = unit_ray(ray);
    if (!r.ok) return std::nullopt;
    const LineInterval in = slab_interval(r.origin, r.u, box.min, box.max, Boundary::closed);
    return hit_from_interval(r, in, max_distance, [&](const Vec3&) { return slab_face_normal(in, r.u); });
}

std::optional<RayHit> raycast_sphere(const Ray& ray, const Sphere& sphere, double max_distance) {
    const UnitRay r = unit_ray(ray);
    if (!r.ok) return std::nullopt;
    const LineInterval in = ball_interval(r.origin, r.u, sphere.centre, sphere.radius);
    return hit_from_interval(r, in, max_distance, [&](const Vec3& p) { return direction_or(sphere.centre, p, -r.u); });
}

std::optional<RayHit> raycast_obb(const Ray& ray, const Obb& box, double max_distance) {
    const UnitRay r = unit_ray(ray);
    if (!r.ok) return std::nullopt;
    const Vec3 o_local = mul_transpose(box.axes, r.origin - box.centre);
    const Vec3 u_local = mul_transpose(box.axes, r.u);
    const LineInterval in = slab_interval(o_local, u_local, -box.half, box.half, Boundary::closed);
    return hit_from_interval(r, in, max_distance,
                             [&](const Vec3&) { return box.axes * slab_face_normal(in, u_local); });
}

std::optional<RayHit> raycast_capsule(const Ray& ray, const Capsule& capsule, double max_distance) {
    const UnitRay r = unit_ray(ray);
    if (!r.ok) return std::nullopt;
    const LineInterval in = capsule_interval(r.origin, r.u, capsule.a, capsule.b, capsule.radius, Boundary::closed);
    return hit_from_interval(r, in, max_distance, [&](const Vec3& p) {
        return direction_or(closest_point_on_segment(p, capsule.a, capsule.b), p, -r.u);
    });
}

std::optional<RayHit> raycast_triangle(const Ray& ray, const Triangle& tri, double max_distance) {
    const UnitRay r = unit_ray(ray);
    if (!r.ok || !(max_distance >= 0.0)) return std::nullopt;
    const ShearedRay sr = shear_ray(r.origin, r.u);
    const std::optional<double> t = watertight_distance(sr, tri, max_distance);
    if (!t) return std::nullopt;
    return RayHit{*t, r.origin + r.u * *t, facing_normal(tri, r.u), false};
}

std::optional<RayHit> raycast_plane(const Ray& ray, const Plane& plane, double max_distance) {
    const UnitRay r = unit_ray(ray);
    const double k = length(plane.normal);
    if (!r.ok || !(k > 0.0)) return std::nullopt;
    const Vec3 n = plane.normal / k;
    const double above = dot(n, r.origin) - plane.offset / k; // signed height over the surface (m)
    const double rate = dot(n, r.u);                          // change of height per metre of ray
    // Inside where above + s·rate ≤ 0.
    LineInterval in;
    if (rate < 0.0)
        in = {-above / rate, kInf, 0};
    else if (rate > 0.0)
        in = {-kInf, -above / rate, 0};
    else if (above <= 0.0)
        in = {-kInf, kInf, 0};
    return hit_from_interval(r, in, max_distance, [&](const Vec3&) { return n; });
}

// A hull of points: find its dimension from an extreme point, the farthest point from it, the
// point farthest from that line and the point farthest from that plane. Solid hulls are then
// clipped (Cyrus & Beck):
//   for each triple (i, j, k): n = (pj − pi) × (pk − pi); if every point lies on one side of
//     the plane, that side is a supporting half-space dot(n, x) ≤ d;
//   clip the ray against it: entering when dot(n, û) < 0 (raise enter, remember n),
//     leaving when > 0 (lower exit), parallel and outside → miss.
std::optional<RayHit> raycast_hull(const Ray& ray, const Hull& placed, double max_distance) {
    const UnitRay r = unit_ray(ray);
    if (!r.ok || placed.count() < 1) return std::nullopt;
    const HullPoints hull = placed_points(placed);
    const int n = hull.count < kHullMaxPoints ? hull.count : kHullMaxPoints;
    const auto at = [&](int i) -> const Vec3& { return hull.points[static_cast<std::size_t>(i)]; };

    const Vec3& p0 = at(0);
    int i1 = 0;
    for (int i = 1; i < n; ++i)
        if (length_squared(at(i) - p0) > length_squared(at(i1) - p0)) i1 = i;
    const double extent = length(at(i1) - p0);
    if (!(extent > 0.0)) return raycast_point_set_segment(r, p0, p0, max_distance);
    const double tol = 1e-12 * extent;

    int i2 = 0;
    double best_area = 0.0;
    for (int i = 0; i < n; ++i) {
        const double area = length(cross(at(i1) - p0, at(i) - p0));
        if (area > best_area) best_area = area, i2 = i;
    }
    if (best_area <= tol * extent) {
        int far = i1;
        for (int i = 0; i < n; ++i)
            if (length_squared(at(i) - at(i1)) > length_squared(at(far) - at(i1))) far = i;
        return raycast_point_set_segment(r, at(i1), at(far), max_distance);
    }
    const Vec3 base_normal = normalize(cross(at(i1) - p0, at(i2) - p0));
    double thickness = 0.0;
    for (int i = 0; i < n; ++i) thickness = std::max(thickness, std::fabs(dot(base_normal, at(i) - p0)));

    if (thickness <= tol) {
        // Flat: the polygon is the union of the triangles of its points (Carathéodory), so the
        // nearest triangle hit is the polygon's.
        std::optional<RayHit> best;
        double limit = max_distance;
        for (int i = 0; i < n; ++i)
            for (int j = i + 1; j < n; ++j)
                for (int k = j + 1; k < n; ++k)
                    if (auto h = raycast_triangle(ray, Triangle{at(i), at(j), at(k)}, limit);
                        h && (!best || h->distance < best->distance)) {
                        best = h;
                        limit = h->distance;
                    }
        return best;
    }

    double enter = -kInf, exit = kInf;
    Vec3 enter_normal = -r.u;
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j)
            for (int k = j + 1; k < n; ++k) {
                const Vec3 c = cross(at(j) - at(i), at(k) - at(i));
                const double cl = length(c);
                if (cl <= tol * extent) continue;
                Vec3 normal = c / cl;
                double lo = 0.0, hi = 0.0;
                for (int m = 0; m < n; ++m) {
                    const double s = dot(normal, at(m) - at(i));
                    lo = std::min(lo, s);
                    hi = std::max(hi, s);
                }
                if (hi > tol && lo < -tol) continue; // points on both sides: not a face plane
                if (hi > tol) normal = -normal;
                const double above = dot(normal, r.origin - at(i));
                const double rate = dot(normal, r.u);
                if (rate < 0.0) {
                    const double t = -above / rate;
                    if (t > enter) enter = t, enter_normal = normal;
                } else if (rate > 0.0) {
                    exit = std::min(exit, -above / rate);
                } else if (above > 0.0) {
                    return std::nullopt;
                }
            }
    return hit_from_interval(r, LineInterval{enter, exit, 0}, max_distance, [&](const Vec3&) { return enter_normal; });
}

std::optional<RayHit> raycast_mesh(const Ray& ray, const Mesh& mesh, double max_distance) {
    if (!mesh.data || !(max_distance >= 0.0)) return std::nullopt;
    const TriangleMesh& m = *mesh.data;
    const UnitRay r = unit_ray(
            Ray{mul_transpose(mesh.rotation, ray.origin - mesh.position), mul_transpose(mesh.rotation, ray.direction)});
    if (!r.ok) return std::nullopt;
    const ShearedRay sr = shear_ray(r.origin, r.u);
    // The hierarchy's boxes are grown by far more than the triangle test's rounding (a few ε
    // of the coordinates' size), so a node is never skipped whose triangles the test accepts:
    // a ray through an edge that lies on a node's face must reach the triangles on both sides.
    const Aabb& b = m.bounds();
    const double size = std::max({std::fabs(r.origin.x), std::fabs(r.origin.y), std::fabs(r.origin.z),
                                  std::fabs(b.min.x), std::fabs(b.min.y), std::fabs(b.min.z), std::fabs(b.max.x),
                                  std::fabs(b.max.y), std::fabs(b.max.z)});
    const double pad = size * 0x1p-40;
    const Vec3 grow{pad, pad, pad};
    double limit = max_distance;
    int best = -1;
    double best_t = 0.0;
    walk_mesh_nearest(
            m, &limit,
            [&](const Aabb& box) {
                const SlabResult s = slab_ray_aabb(r.origin, r.u, Aabb{box.min - grow, box.max + grow});
                return s.hit ? std::max(0.0, s.enter) : std::numeric_limits<double>::quiet_NaN();
            },
            [&](int i, const Triangle& t) {
                const std::optional<double> hit = watertight_distance(sr, t, limit);
                if (hit && (best < 0 || *hit < best_t)) {
                    best = i;
                    best_t = *hit;
                    limit = *hit;
                }
            });
    if (best < 0) return std::nullopt;
    const Vec3 normal = facing_normal(m.triangle(best), r.u);
    return RayHit{best_t, mesh.rotation * (r.origin + r.u * best_t) + mesh.position, mesh.rotation * normal, false};
}

std::optional<RayHit> raycast_shape(const Ray& ray, const Shape& shape, double max_distance) {
    switch (kind_of(shape)) {
    case ShapeKind::sphere: return raycast_sphere(ray, std::get<Sphere>(shape), max_distance);
    case ShapeKind::aabb: return raycast_aabb(ray, std::get<Aabb>(shape), max_distance);
    case ShapeKind::obb: return raycast_obb(ray, std::get<Obb>(shape), max_distance);
    case ShapeKind::capsule: return raycast_capsule(ray, std::get<Capsule>(shape), max_distance);
    case ShapeKind::triangle: return raycast_triangle(ray, std::get<Triangle>(shape), max_distance);
    case ShapeKind::hull: return raycast_hull(ray, std::get<Hull>(shape), max_distance);
    case ShapeKind::plane: return raycast_plane(ray, std::get<Plane>(shape), max_distance);
    case ShapeKind::mesh: return raycast_mesh(ray, std::get<Mesh>(shape), max_distance);
    }
    return std::nullopt;
}

std::optional<NearestHit> raycast_nearest(const Ray& ray, std::span<const Shape> targets, double max_distance) {
    std::optional<NearestHit> best;
    double limit = max_distance;
    for (std::size_t i = 0; i < targets.size(); ++i) {
        const std::optional<RayHit> h = raycast_shape(ray, targets[i], limit);
        if (h && (!best || h->distance < best->hit.distance)) {
            best = NearestHit{static_cast<int>(i), *h};
            limit = h->distance;
        }
    }
    return best;
}

} // namespace collide
