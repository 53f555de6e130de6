#include "queries/cast.h"

#include <cmath>
#include <limits>

#include "detection/contact_mesh.h"
#include "queries/line_intervals.h"
#include "shapes/mesh.h"

namespace collide {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// The cast rule on an interval of the centre's line: the centre passes through the interior
/// (enter < exit) after t = 0 and no later than t_max. Returns the first touch time or −1.
double entry_time(const LineInterval& in, double t_max) {
    if (!(in.enter < in.exit) || !(in.exit > 0.0) || in.enter > t_max) return -1.0;
    return in.enter > 0.0 ? in.enter : 0.0;
}

bool is_still(const Vec3& v) { return !(length_squared(v) > 0.0); }

/// The started-inside answer for a sphere centred at c against the box [lo, hi] (box frame).
CastHit box_started_inside(const Vec3& c, const Vec3& lo, const Vec3& hi) {
    const Vec3 nearest = closest_point_on_box(c, lo, hi);
    const Vec3 gap = nearest - c;
    const double d2 = length_squared(gap);
    if (d2 > 0.0) return {0.0, gap / std::sqrt(d2), nearest, true};
    // The centre is in the box (or on its surface): leave through the nearest face.
    double best = kInf;
    std::size_t axis = 0;
    bool max_face = false;
    for (std::size_t i = 0; i < 3; ++i) {
        if (c[i] - lo[i] < best) best = c[i] - lo[i], axis = i, max_face = false;
        if (hi[i] - c[i] < best) best = hi[i] - c[i], axis = i, max_face = true;
    }
    Vec3 normal;
    normal[axis] = max_face ? -1.0 : 1.0; // opposite the face's outward normal
    Vec3 point = c;
    point[axis] = max_face ? hi[axis] : lo[axis];
    return {0.0, normal, point, true};
}

/// Ericson 5.5.7, in the box's frame, with our touching rules:
///
///     if the sphere already overlaps the box: started inside
///     cast the centre against the box grown by r (slab test)        -- early reject
///     p = where it enters (or the centre if it starts in the grown box)
///     count the axes on which p lies outside the box:
///       0 or 1: p is on a face slab of the rounded box: the answer
///       2:      p is in an edge region: cast against that edge's capsule (cylinder + 2 balls)
///       3:      p is in a corner region: the earliest of the corner's 3 edge capsules
std::optional<CastHit> cast_local(const Vec3& c, double r, const Vec3& v, const Vec3& lo, const Vec3& hi,
                                  double t_max) {
    if (!(t_max >= 0.0)) return std::nullopt;
    const bool centre_inside = lo.x < c.x && c.x < hi.x && lo.y < c.y && c.y < hi.y && lo.z < c.z && c.z < hi.z;
    if (centre_inside || length_squared(closest_point_on_box(c, lo, hi) - c) < r * r)
        return box_started_inside(c, lo, hi);
    if (is_still(v)) return std::nullopt;

    const Vec3 grow{r, r, r};
    const LineInterval grown = slab_interval(c, v, lo - grow, hi + grow, Boundary::open);
    const double t_grown = entry_time(grown, t_max);
    if (t_grown < 0.0) return std::nullopt;

    const Vec3 p = c + v * t_grown;
    int outside = 0;
    Vec3 corner; // on each outside axis, the box face p lies beyond
    for (std::size_t i = 0; i < 3; ++i) {
        if (p[i] < lo[i])
            ++outside, corner[i] = lo[i];
        else if (p[i] > hi[i])
            ++outside, corner[i] = hi[i];
    }

    if (outside <= 1) {
        Vec3 normal;
        const auto axis = static_cast<std::size_t>(grown.axis);
        normal[axis] = v[axis] > 0.0 ? 1.0 : -1.0;
        return CastHit{t_grown, normal, closest_point_on_box(p, lo, hi), false};
    }

    // The edges to try: for an edge region the one along the inside axis; for a corner region
    // the three meeting at the corner.
    double t_hit = kInf;
    for (std::size_t k = 0; k < 3; ++k) {
        const bool inside_axis = !(p[k] < lo[k]) && !(p[k] > hi[k]);
        if (outside == 2 && !inside_axis) continue;
        Vec3 from = corner, to = corner;
        if (outside == 2) {
            from[k] = lo[k];
            to[k] = hi[k];
        } else {
            to[k] = corner[k] == lo[k] ? hi[k] : lo[k];
        }
        const double t = entry_time(capsule_interval(c, v, from, to, r, Boundary::open), t_max);
        if (t >= 0.0 && t < t_hit) t_hit = t;
    }
    if (t_hit == kInf) return std::nullopt;
    const Vec3 at = c + v * t_hit;
    const Vec3 point = closest_point_on_box(at, lo, hi);
    return CastHit{t_hit, normalize(point - at), point, false};
}

} // namespace

std::optional<CastHit> cast_sphere_box(const Sphere& sphere, const Vec3& velocity, const Aabb& box, double t_max) {
    return cast_local(sphere.centre, sphere.radius, velocity, box.min, box.max, t_max);
}

std::optional<CastHit> cast_sphere_box(const Sphere& sphere, const Vec3& velocity, const Obb& box, double t_max) {
    const Vec3 c = mul_transpose(box.axes, sphere.centre - box.centre);
    const Vec3 v = mul_transpose(box.axes, velocity);
    std::optional<CastHit> hit = cast_local(c, sphere.radius, v, -box.half, box.half, t_max);
    if (hit) {
        hit->normal = box.axes * hit->normal;
        hit->point = box.centre + box.axes * hit->point;
    }
    return hit;
}

std::optional<CastHit> cast_sphere_sphere(const Sphere& sphere, const Vec3& velocity, const Sphere& other,
                                          double t_max) {
    if (!(t_max >= 0.0)) return std::nullopt;
    const double reach = sphere.radius + other.radius;
    const Vec3 apart = other.centre - sphere.centre;
    if (length_squared(apart) < reach * reach) {
        const double d = length(apart);
        const Vec3 normal = d > 0.0 ? apart / d : (is_still(velocity) ? Vec3{1, 0, 0} : normalize(velocity));
        return CastHit{0.0, normal, other.centre - normal * other.radius, true};
    }
    if (is_still(velocity)) return std::nullopt;
    const double t = entry_time(ball_interval(sphere.centre, velocity, other.centre, reach), t_max);
    if (t < 0.0) return std::nullopt;
    const Vec3 normal = normalize(other.centre - (sphere.centre + velocity * t));
    return CastHit{t, normal, other.centre - normal * other.radius, false};
}

// The triangle's rounded Minkowski sum with the ball is the union of the face slab (the prism
// over the triangle, r thick on both sides) and the three edge capsules (which hold the corner
// balls); its first entry is the earliest entry into any of them. An entry into the prism
// through its side walls is always inside an edge capsule, so the face only needs its slab's
// entry, accepted when the centre is then over the triangle.
std::optional<CastHit> cast_sphere_triangle(const Sphere& sphere, const Vec3& velocity, const Triangle& tri,
                                            double t_max) {
    if (!(t_max >= 0.0)) return std::nullopt;
    const Vec3& c = sphere.centre;
    const double r = sphere.radius;
    const Vec3 face = cross(tri.b - tri.a, tri.c - tri.a);
    const double area2 = length(face);
    const Vec3 n = area2 > 0.0 ? face / area2 : Vec3{};

    const Vec3 nearest = closest_point_on_triangle(c, tri.a, tri.b, tri.c);
    const Vec3 gap = nearest - c;
    if (length_squared(gap) < r * r) {
        const double d = length(gap);
        Vec3 normal = d > 0.0 ? gap / d : n;
        if (d == 0.0 && dot(normal, velocity) < 0.0) normal = -normal;
        return CastHit{0.0, normal, nearest, true};
    }
    if (is_still(velocity)) return std::nullopt;

    double t_hit = kInf;
    Vec3 face_normal;
    if (area2 > 0.0) {
        const double height = dot(n, c - tri.a); // signed height over the plane (m)
        const double rate = dot(n, velocity);    // m/s
        const LineInterval slab =
                slab_interval({height, 0, 0}, {rate, 1, 1}, {-r, -kInf, -kInf}, {r, kInf, kInf}, Boundary::open);
        const double t = entry_time(slab, t_max);
        if (t >= 0.0) {
            const Vec3 q = c + velocity * t;
            const bool over = dot(cross(tri.b - tri.a, q - tri.a), n) >= 0.0 &&
                              dot(cross(tri.c - tri.b, q - tri.b), n) >= 0.0 &&
                              dot(cross(tri.a - tri.c, q - tri.c), n) >= 0.0;
            if (over) {
                t_hit = t;
                face_normal = height > 0.0 ? -n : n;
            }
        }
    }
    bool edge_first = false;
    const Vec3* corners[3] = {&tri.a, &tri.b, &tri.c};
    for (int e = 0; e < 3; ++e) {
        const double t =
                entry_time(capsule_interval(c, velocity, *corners[e], *corners[(e + 1) % 3], r, Boundary::open), t_max);
        if (t >= 0.0 && t < t_hit) t_hit = t, edge_first = true;
    }
    if (t_hit == kInf) return std::nullopt;
    const Vec3 at = c + velocity * t_hit;
    const Vec3 point = closest_point_on_triangle(at, tri.a, tri.b, tri.c);
    return CastHit{t_hit, edge_first ? normalize(point - at) : face_normal, point, false};
}

std::optional<CastHit> cast_sphere_mesh(const Sphere& sphere, const Vec3& velocity, const Mesh& mesh, double t_max) {
    if (!mesh.data || !(t_max >= 0.0)) return std::nullopt;
    const TriangleMesh& m = *mesh.data;
    const Sphere local{mul_transpose(mesh.rotation, sphere.centre - mesh.position), sphere.radius};
    const Vec3 v = mul_transpose(mesh.rotation, velocity);
    const Vec3 end = local.centre + v * t_max;
    const Vec3 r{sphere.radius, sphere.radius, sphere.radius};
    const Aabb swept{min(local.centre, end) - r, max(local.centre, end) + r};
    std::optional<CastHit> best, inside;
    for_each_triangle_near(m, swept, [&](int i, const Triangle& t) {
        std::optional<CastHit> h = cast_sphere_triangle(local, v, t, t_max);
        if (!h) return true;
        if (h->started_inside) {
            if (!inside) inside = h;
            return true;
        }
        if (const auto face = inactive_feature_normal(t, m.features[static_cast<std::size_t>(i)], -h->normal,
                                                      local.centre + v * h->time)) {
            h->normal = -*face;
            if (!(dot(v, h->normal) > 0)) return true; // sliding over a seam: not into the face
        }
        if (!best || h->time < best->time) best = h;
        return true;
    });
    if (!best) best = inside;
    if (!best) return std::nullopt;
    best->normal = mesh.rotation * best->normal;
    best->point = mesh.rotation * best->point + mesh.position;
    return best;
}

} // namespace collide
