#include "detection/dispatch.h"

#include <algorithm>
#include <cmath>

#include "detection/contact_aabb_aabb.h"
#include "detection/contact_capsule.h"
#include "detection/contact_convex.h"
#include "detection/contact_mesh.h"
#include "detection/contact_plane.h"
#include "detection/contact_sphere_box.h"
#include "detection/contact_sphere_sphere.h"
#include "detection/gjk.h"
#include "detection/sat_box_box.h"
#include "detection/sat_triangle_box.h"

namespace collide {

namespace {

ContactQuery from_optional(const std::optional<Contact>& c) {
    if (!c) return {ContactStatus::separated, {}};
    return {ContactStatus::overlapping, *c};
}

Obb as_obb(const Shape& s) {
    if (const auto* box = std::get_if<Aabb>(&s)) return to_obb(*box);
    return std::get<Obb>(s);
}

bool is_box(ShapeKind k) { return k == ShapeKind::aabb || k == ShapeKind::obb; }

// The pairs with kind(a) ≤ kind(b); contact() flips the others onto these. Closed forms and
// SAT where they exist, GJK/EPA for the rest:
//   sphere:   sphere (closed), box (clamp), capsule (segment), triangle/hull (GJK/EPA)
//   box:      box (AABB MTV or 15-axis SAT), capsule (GJK/EPA), triangle (13-axis SAT), hull (GJK/EPA)
//   capsule:  capsule (segments), triangle/hull (GJK/EPA)
//   triangle, hull: GJK/EPA;  anything against a plane: one support point;  plane–plane: unsupported
//   anything against a mesh: contact_mesh.h (mesh–mesh and mesh–plane: unsupported)
ContactQuery contact_ordered(const Shape& a, const Shape& b) {
    const ShapeKind ka = kind_of(a), kb = kind_of(b);
    if (ka == ShapeKind::plane && kb == ShapeKind::plane) return {ContactStatus::unsupported, {}};
    if (kb == ShapeKind::plane) return contact_shape_plane(a, std::get<Plane>(b));
    if (ka == ShapeKind::sphere) {
        const Sphere& s = std::get<Sphere>(a);
        switch (kb) {
        case ShapeKind::sphere: return from_optional(contact_sphere_sphere(s, std::get<Sphere>(b)));
        case ShapeKind::aabb: return from_optional(contact_sphere_aabb(s, std::get<Aabb>(b)));
        case ShapeKind::obb: return from_optional(contact_sphere_obb(s, std::get<Obb>(b)));
        case ShapeKind::capsule: return from_optional(contact_sphere_capsule(s, std::get<Capsule>(b)));
        default: return from_optional(contact_gjk_epa(a, b));
        }
    }
    if (is_box(ka)) {
        if (ka == ShapeKind::aabb && kb == ShapeKind::aabb)
            return from_optional(contact_aabb_aabb(std::get<Aabb>(a), std::get<Aabb>(b)));
        switch (kb) {
        case ShapeKind::aabb:
        case ShapeKind::obb: return from_optional(contact_box_box(as_obb(a), as_obb(b)));
        case ShapeKind::capsule: return from_optional(contact_box_capsule(as_obb(a), std::get<Capsule>(b)));
        case ShapeKind::triangle: return from_optional(contact_box_triangle(as_obb(a), std::get<Triangle>(b)));
        default: return from_optional(contact_gjk_epa(a, b));
        }
    }
    if (ka == ShapeKind::capsule && kb == ShapeKind::capsule)
        return from_optional(contact_capsule_capsule(std::get<Capsule>(a), std::get<Capsule>(b)));
    return from_optional(contact_gjk_epa(a, b));
}

} // namespace

ContactQuery contact(const Shape& a, const Shape& b) {
    if (const auto* mb = std::get_if<Mesh>(&b)) return contact_shape_mesh(a, *mb);
    if (const auto* ma = std::get_if<Mesh>(&a)) {
        ContactQuery q = contact_shape_mesh(b, *ma);
        q.contact.normal = -q.contact.normal;
        return q;
    }
    if (kind_of(a) <= kind_of(b)) return contact_ordered(a, b);
    ContactQuery q = contact_ordered(b, a);
    q.contact.normal = -q.contact.normal;
    return q;
}

DistanceResult distance(const Shape& a, const Shape& b) {
    if (const auto* mb = std::get_if<Mesh>(&b)) return distance_shape_mesh(a, *mb);
    if (const auto* ma = std::get_if<Mesh>(&a)) {
        DistanceResult r = distance_shape_mesh(b, *ma);
        std::swap(r.point_a, r.point_b);
        r.normal = -r.normal;
        return r;
    }
    if (const auto* pa = std::get_if<Plane>(&a)) return distance_plane_shape(*pa, b);
    if (const auto* pb = std::get_if<Plane>(&b)) return distance_shape_plane(a, *pb);
    DistanceResult r;
    const auto* sa = std::get_if<Sphere>(&a);
    const auto* sb = std::get_if<Sphere>(&b);
    if (sa && sb) {
        const Vec3 d = sb->centre - sa->centre;
        const double l = length(d);
        r.distance = std::max(0.0, l - sa->radius - sb->radius);
        r.normal = l > 0 ? d / l : Vec3{0, 1, 0};
        r.point_a = sa->centre + r.normal * sa->radius;
        r.point_b = sb->centre - r.normal * sb->radius;
        return r;
    }
    const GjkResult g = gjk_distance(a, b);
    r.distance = g.distance;
    r.point_a = g.point_a;
    r.point_b = g.point_b;
    r.normal = g.normal;
    return r;
}

} // namespace collide
