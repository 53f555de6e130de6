#include "detection/contact_mesh.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "math/closest.h"

namespace collide {

namespace {

/// Gap between two boxes (m), 0 when they touch or overlap.
double box_gap(const Aabb& a, const Aabb& b) {
    const Vec3 d = max(max(a.min - b.max, b.min - a.max), Vec3{0, 0, 0});
    return length(d);
}

/// The contact of triangle `t` with shape `s` (one frame): normal from the triangle to `s`.
std::optional<Contact> contact_triangle_shape(const Triangle& t, const Shape& s) {
    if (const auto* ball = std::get_if<Sphere>(&s)) return contact_triangle_sphere(t, *ball);
    const ContactQuery q = contact(Shape{t}, s);
    if (q.status != ContactStatus::overlapping) return std::nullopt;
    return q.contact;
}

} // namespace

std::optional<Vec3> inactive_feature_normal(const Triangle& t, TriangleFeatures features, const Vec3& outward,
                                            const Vec3& other) {
    const Vec3 face = normalize(cross(t.b - t.a, t.c - t.a));
    const std::array<Vec3, 3> v{t.a, t.b, t.c};
    const std::array<double, 3> d{dot(v[0], outward), dot(v[1], outward), dot(v[2], outward)};
    const double top = std::max({d[0], d[1], d[2]});
    const double longest =
            std::sqrt(std::max({length_squared(t.b - t.a), length_squared(t.c - t.b), length_squared(t.a - t.c)}));
    const double tol = 1e-6 * longest;
    const std::array<bool, 3> on{d[0] >= top - tol, d[1] >= top - tol, d[2] >= top - tol};
    const int count = int(on[0]) + int(on[1]) + int(on[2]);
    bool replace = true; // the face itself: use its exact normal
    if (count == 2) {
        const int edge = on[0] && on[1] ? 0 : (on[1] && on[2] ? 1 : 2);
        replace = (features & (1u << edge)) == 0;
    } else if (count == 1) {
        const int corner = on[0] ? 0 : (on[1] ? 1 : 2);
        replace = (features & (1u << (3 + corner))) == 0;
    }
    if (!replace) return std::nullopt;
    const double along = dot(face, outward);
    double side = std::fabs(along) > 1e-6 ? along : dot(other - t.a, face);
    if (side == 0) side = along;
    return side < 0 ? -face : face;
}

std::optional<Contact> contact_triangle_sphere(const Triangle& t, const Sphere& s) {
    const Vec3 p = closest_point_on_triangle(s.centre, t.a, t.b, t.c);
    const Vec3 d = s.centre - p;
    const double dist = length(d);
    const double depth = s.radius - dist;
    if (depth <= kTouchEpsilon) return std::nullopt;
    if (dist > 0) return Contact{d / dist, depth};
    const Vec3 face = normalize(cross(t.b - t.a, t.c - t.a));
    if (length_squared(face) == 0) return std::nullopt;
    return Contact{face, depth};
}

ContactQuery contact_shape_mesh(const Shape& a, const Mesh& b) {
    const ShapeKind ka = kind_of(a);
    if (ka == ShapeKind::mesh || ka == ShapeKind::plane || !b.data) return {ContactStatus::unsupported, {}};
    const TriangleMesh& m = *b.data;
    const Shape s = to_mesh_frame(b, a);
    const Vec3 centre = centre_of(s);
    std::optional<Contact> best;
    for_each_triangle_near(m, bounds_of(s), [&](int i, const Triangle& t) {
        std::optional<Contact> c = contact_triangle_shape(t, s);
        if (!c) return true;
        if (const auto face = inactive_feature_normal(t, m.features[static_cast<std::size_t>(i)], c->normal, centre)) {
            const double depth = dot(*face, t.a) - dot(*face, support(s, -*face));
            if (depth <= kTouchEpsilon) return true;
            c = Contact{*face, depth};
        }
        if (!best || c->depth > best->depth) best = c;
        return true;
    });
    if (!best) return {ContactStatus::separated, {}};
    return {ContactStatus::overlapping, Contact{-(b.rotation * best->normal), best->depth}};
}

DistanceResult distance_shape_mesh(const Shape& a, const Mesh& b) {
    DistanceResult out;
    const ShapeKind ka = kind_of(a);
    if (ka == ShapeKind::mesh || ka == ShapeKind::plane || !b.data) {
        out.supported = false;
        return out;
    }
    const TriangleMesh& m = *b.data;
    const Shape s = to_mesh_frame(b, a);
    const Aabb box = bounds_of(s);
    const Vec3 centre = centre_of(s);
    double limit = std::numeric_limits<double>::infinity();
    DistanceResult best;
    int best_tri = -1;
    walk_mesh_nearest(
            m, &limit, [&](const Aabb& node) { return box_gap(node, box); },
            [&](int i, const Triangle& t) {
                const DistanceResult d = distance(s, Shape{t});
                if (!d.supported || !(d.distance < limit)) return;
                limit = d.distance;
                best = d;
                best_tri = i;
            });
    if (best_tri < 0) {
        out.supported = false;
        return out;
    }
    Vec3 n = best.normal; // from the shape to the triangle
    if (best.distance > 0) {
        if (const auto face = inactive_feature_normal(m.triangle(best_tri),
                                                      m.features[static_cast<std::size_t>(best_tri)], -n, centre))
            n = -*face;
    }
    out.distance = best.distance;
    out.normal = b.rotation * n;
    out.point_a = b.rotation * best.point_a + b.position;
    out.point_b = b.rotation * best.point_b + b.position;
    return out;
}

} // namespace collide
