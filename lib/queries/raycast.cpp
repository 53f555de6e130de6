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

// Möller & Trumbore 1997, "Fast, minimum storage ray/triangle intersection":
//   solve o + t·u = a + β·(b − a) + γ·(c − a) by Cramer's rule with scalar triple products;
//   hit when β ≥ 0, γ ≥ 0, β + γ ≤ 1 and t ≥ 0. The determinant's sign is the side the ray
//   comes from; we accept both (two-sided).
std::optional<RayHit> raycast_triangle(const Ray& ray, const Triangle& tri, double max_distance) {
    const UnitRay r = unit_ray(ray);
    if (!r.ok || !(max_distance >= 0.0)) return std::nullopt;
    const Vec3 e1 = tri.b - tri.a;
    const Vec3 e2 = tri.c - tri.a;
    const Vec3 face = cross(e1, e2);
    const double area2 = length(face);
    if (!(area2 > 0.0)) return std::nullopt;
    const Vec3 p = cross(r.u, e2);
    const double det = dot(e1, p);
    if (std::fabs(det) <= 1e-12 * area2) return std::nullopt; // the ray lies in (or along) the plane
    const double inv = 1.0 / det;
    const Vec3 s = r.origin - tri.a;
    const double beta = dot(s, p) * inv;
    if (beta < 0.0 || beta > 1.0) return std::nullopt;
    const Vec3 q = cross(s, e1);
    const double gamma = dot(r.u, q) * inv;
    if (gamma < 0.0 || beta + gamma > 1.0) return std::nullopt;
    const double t = dot(e2, q) * inv;
    if (t < 0.0 || t > max_distance) return std::nullopt;
    Vec3 n = face / area2;
    if (dot(n, r.u) > 0.0) n = -n;
    return RayHit{t, r.origin + r.u * t, n, false};
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
std::optional<RayHit> raycast_hull(const Ray& ray, const Hull& hull, double max_distance) {
    const UnitRay r = unit_ray(ray);
    if (!r.ok || hull.count < 1) return std::nullopt;
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
    if (!mesh.data || !(length_squared(ray.direction) > 0) || !std::isfinite(length_squared(ray.direction)))
        return std::nullopt;
    const TriangleMesh& m = *mesh.data;
    const Ray local{mul_transpose(mesh.rotation, ray.origin - mesh.position),
                    mul_transpose(mesh.rotation, ray.direction)};
    const Vec3 u = normalize(local.direction);
    double limit = max_distance;
    std::optional<RayHit> best;
    walk_mesh_nearest(
            m, &limit,
            [&](const Aabb& box) {
                const SlabResult s = slab_ray_aabb(local.origin, u, box);
                return s.hit ? std::max(0.0, s.enter) : std::numeric_limits<double>::quiet_NaN();
            },
            [&](int, const Triangle& t) {
                const std::optional<RayHit> h = raycast_triangle(local, t, limit);
                if (h && (!best || h->distance < best->distance)) {
                    best = h;
                    limit = h->distance;
                }
            });
    if (!best) return std::nullopt;
    best->point = mesh.rotation * best->point + mesh.position;
    best->normal = mesh.rotation * best->normal;
    return best;
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
