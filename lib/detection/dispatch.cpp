#include "detection/dispatch.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "detection/contact_aabb_aabb.h"
#include "detection/contact_capsule.h"
#include "detection/contact_convex.h"
#include "detection/contact_mesh.h"
#include "detection/contact_plane.h"
#include "detection/contact_sphere_box.h"
#include "detection/contact_sphere_sphere.h"
#include "detection/gjk.h"
#include "detection/pair_table.h"
#include "detection/sat_box_box.h"
#include "detection/sat_triangle_box.h"

namespace collide {

namespace {

/// A turned box as itself; an axis-aligned box as the turned box equal to it.
const Obb& as_obb(const Obb& box) { return box; }
Obb as_obb(const Aabb& box) { return to_obb(box); }

// ---- contact(): a routine per cell, for A and B of the cell's kinds ----

/// The routine of one cell of the contact table.
using ContactRoutine = ContactQuery (*)(const Shape& a, const Shape& b);

ContactQuery from_optional(const std::optional<Contact>& c) {
    if (!c) return {ContactStatus::separated, {}};
    return {ContactStatus::overlapping, *c};
}

/// A kMirror cell of the contact table: the mirror's routine on (B, A), its normal negated to
/// point from A to B; the depth is the same, exactly.
struct SwapContact {
    template <ContactRoutine F> static ContactQuery routine(const Shape& a, const Shape& b) {
        ContactQuery q = F(b, a);
        q.contact.normal = -q.contact.normal;
        return q;
    }
};

ContactQuery unsupported(const Shape&, const Shape&) { return {ContactStatus::unsupported, {}}; }
ContactQuery spheres(const Shape& a, const Shape& b) {
    return from_optional(contact_sphere_sphere(std::get<Sphere>(a), std::get<Sphere>(b)));
}
ContactQuery sphere_aabb(const Shape& a, const Shape& b) {
    return from_optional(contact_sphere_aabb(std::get<Sphere>(a), std::get<Aabb>(b)));
}
ContactQuery sphere_obb(const Shape& a, const Shape& b) {
    return from_optional(contact_sphere_obb(std::get<Sphere>(a), std::get<Obb>(b)));
}
ContactQuery sphere_capsule(const Shape& a, const Shape& b) {
    return from_optional(contact_sphere_capsule(std::get<Sphere>(a), std::get<Capsule>(b)));
}
ContactQuery aabbs(const Shape& a, const Shape& b) {
    return from_optional(contact_aabb_aabb(std::get<Aabb>(a), std::get<Aabb>(b)));
}
/// Two boxes, A of type `A` and B of type `B`, not both axis-aligned: the 15-axis SAT.
template <class A, class B> ContactQuery boxes(const Shape& a, const Shape& b) {
    return from_optional(contact_box_box(as_obb(std::get<A>(a)), as_obb(std::get<B>(b))));
}
template <class A> ContactQuery box_capsule(const Shape& a, const Shape& b) {
    return from_optional(contact_box_capsule(as_obb(std::get<A>(a)), std::get<Capsule>(b)));
}
template <class A> ContactQuery box_triangle(const Shape& a, const Shape& b) {
    return from_optional(contact_box_triangle(as_obb(std::get<A>(a)), std::get<Triangle>(b)));
}
ContactQuery capsules(const Shape& a, const Shape& b) {
    return from_optional(contact_capsule_capsule(std::get<Capsule>(a), std::get<Capsule>(b)));
}
ContactQuery gjk_epa(const Shape& a, const Shape& b) { return from_optional(contact_gjk_epa(a, b)); }
ContactQuery shape_plane(const Shape& a, const Shape& b) { return contact_shape_plane(a, std::get<Plane>(b)); }
ContactQuery shape_mesh(const Shape& a, const Shape& b) { return contact_shape_mesh(a, std::get<Mesh>(b)); }

// The contact table as written, [kind of A][kind of B]: the pairs with kind A ≤ kind B; each
// kMirror cell below the diagonal is its mirror's routine with the shapes exchanged. Closed
// forms and SAT where they exist, GJK/EPA for the other convex pairs; a shape against a plane
// is the shape's one support point (contact_plane.h); anything against a mesh is answered
// triangle by triangle (contact_mesh.h); two static shapes (planes, meshes) are unsupported.
constexpr auto mirror = kMirror;
constexpr ContactRoutine aabb_obb = boxes<Aabb, Obb>, obbs = boxes<Obb, Obb>, aabb_capsule = box_capsule<Aabb>,
                         obb_capsule = box_capsule<Obb>, aabb_triangle = box_triangle<Aabb>,
                         obb_triangle = box_triangle<Obb>;
// clang-format off
constexpr WrittenTable<ContactRoutine> kContactWritten{{
    //             sphere   aabb         obb         capsule         triangle       hull     plane        mesh
    /* sphere   */ {spheres, sphere_aabb, sphere_obb, sphere_capsule, gjk_epa,       gjk_epa, shape_plane, shape_mesh},
    /* aabb     */ {mirror,  aabbs,       aabb_obb,   aabb_capsule,   aabb_triangle, gjk_epa, shape_plane, shape_mesh},
    /* obb      */ {mirror,  mirror,      obbs,       obb_capsule,    obb_triangle,  gjk_epa, shape_plane, shape_mesh},
    /* capsule  */ {mirror,  mirror,      mirror,     capsules,       gjk_epa,       gjk_epa, shape_plane, shape_mesh},
    /* triangle */ {mirror,  mirror,      mirror,     mirror,         gjk_epa,       gjk_epa, shape_plane, shape_mesh},
    /* hull     */ {mirror,  mirror,      mirror,     mirror,         mirror,        gjk_epa, shape_plane, shape_mesh},
    /* plane    */ {mirror,  mirror,      mirror,     mirror,         mirror,        mirror,  unsupported, unsupported},
    /* mesh     */ {mirror,  mirror,      mirror,     mirror,         mirror,        mirror,  mirror,      unsupported},
}};
// clang-format on
constexpr PairTable<ContactRoutine> kContactTable = complete_table<kContactWritten, SwapContact>();

// ---- distance(): a routine per cell ----

/// The routine of one cell of the distance table.
using DistanceRoutine = DistanceResult (*)(const Shape& a, const Shape& b);

/// A kMirror cell of the distance table: the mirror's routine on (B, A), its points exchanged and
/// its normal negated.
struct SwapDistance {
    template <DistanceRoutine F> static DistanceResult routine(const Shape& a, const Shape& b) {
        DistanceResult r = F(b, a);
        std::swap(r.point_a, r.point_b);
        r.normal = -r.normal;
        return r;
    }
};

DistanceResult no_distance(const Shape&, const Shape&) {
    DistanceResult r;
    r.supported = false;
    return r;
}
/// Two spheres in closed form: the gap between the centres less both radii.
DistanceResult sphere_distance(const Shape& a, const Shape& b) {
    const Sphere& sa = std::get<Sphere>(a);
    const Sphere& sb = std::get<Sphere>(b);
    DistanceResult r;
    const Vec3 d = sb.centre - sa.centre;
    const double l = length(d);
    r.distance = std::max(0.0, l - sa.radius - sb.radius);
    r.normal = l > 0 ? d / l : Vec3{0, 1, 0};
    r.point_a = sa.centre + r.normal * sa.radius;
    r.point_b = sb.centre - r.normal * sb.radius;
    return r;
}
DistanceResult gjk(const Shape& a, const Shape& b) {
    const GjkResult g = gjk_distance(a, b);
    DistanceResult r;
    r.distance = g.distance;
    r.point_a = g.point_a;
    r.point_b = g.point_b;
    r.normal = g.normal;
    return r;
}
DistanceResult plane_shape(const Shape& a, const Shape& b) { return distance_plane_shape(std::get<Plane>(a), b); }
DistanceResult shape_mesh_distance(const Shape& a, const Shape& b) { return distance_shape_mesh(a, std::get<Mesh>(b)); }

// The distance table as written, [kind of A][kind of B]: spheres in closed form, GJK for the
// other convex pairs in the order given (both ways round), a plane's support point, a mesh's
// nearest triangle; the kMirror cells (a shape against a plane, a mesh against a shape) are
// their mirror's routine with the shapes exchanged; two static shapes are unsupported.
constexpr DistanceRoutine sph = sphere_distance, pln = plane_shape, msh = shape_mesh_distance, none = no_distance;
// clang-format off
constexpr WrittenTable<DistanceRoutine> kDistanceWritten{{
    //             sphere  aabb    obb     capsule triangle hull    plane   mesh
    /* sphere   */ {sph,    gjk,    gjk,    gjk,    gjk,    gjk,    mirror, msh},
    /* aabb     */ {gjk,    gjk,    gjk,    gjk,    gjk,    gjk,    mirror, msh},
    /* obb      */ {gjk,    gjk,    gjk,    gjk,    gjk,    gjk,    mirror, msh},
    /* capsule  */ {gjk,    gjk,    gjk,    gjk,    gjk,    gjk,    mirror, msh},
    /* triangle */ {gjk,    gjk,    gjk,    gjk,    gjk,    gjk,    mirror, msh},
    /* hull     */ {gjk,    gjk,    gjk,    gjk,    gjk,    gjk,    mirror, msh},
    /* plane    */ {pln,    pln,    pln,    pln,    pln,    pln,    none,   none},
    /* mesh     */ {mirror, mirror, mirror, mirror, mirror, mirror, mirror, none},
}};
// clang-format on
constexpr PairTable<DistanceRoutine> kDistanceTable = complete_table<kDistanceWritten, SwapDistance>();

} // namespace

ContactQuery contact(const Shape& a, const Shape& b) { return kContactTable[a.index()][b.index()](a, b); }

DistanceResult distance(const Shape& a, const Shape& b) { return kDistanceTable[a.index()][b.index()](a, b); }

} // namespace collide
