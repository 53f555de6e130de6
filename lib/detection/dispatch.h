#pragma once
/// \file
/// One entry point for every shape pair, as a table of pair routines indexed by the two shapes'
/// kinds, `table[kind of A][kind of B]` (detection/pair_table.h, after Box2D v3's contact
/// registers and Jolt's CollisionDispatch): the closed-form or SAT routine where one exists,
/// GJK/EPA for the other convex pairs (parry's dispatcher, in C++). A cell whose pair is written
/// only the other way round holds that routine swapped: it is called with B and A, and its
/// answer is flipped back (the normal negated; a distance's two points exchanged).
///
/// The contact table writes the pairs with kind A ≤ kind B (ShapeKind's order) and swaps the
/// rest:
///
///     sphere:   sphere (closed form), box (clamp), turned box, capsule (segment), triangle
///               and hull (GJK/EPA)
///     box:      box (AABB overlap, or the 15-axis SAT with a turned one), capsule (GJK/EPA
///               on its segment), triangle (13-axis SAT), hull (GJK/EPA)
///     capsule:  capsule (segments), triangle and hull (GJK/EPA)
///     triangle, hull: GJK/EPA
///     anything against a plane: its one support point (contact_plane.h)
///     anything against a mesh: triangle by triangle (contact_mesh.h)
///     plane or mesh against plane or mesh: unsupported
///
/// The distance table writes two spheres in closed form, every other pair of convex kinds to
/// GJK in the order given (both ways round), a plane against a shape by its support point, a
/// shape against a mesh by its nearest triangle, and swaps a shape against a plane and a mesh
/// against a shape; plane or mesh against plane or mesh is unsupported.

#include "detection/contact.h"
#include "shapes/shapes.h"

namespace collide {

/// The contact between two world-frame shapes (normal from A to B, depth > 0), "separated",
/// or "unsupported" when no algorithm answers this pair: the contact table's routine for their
/// two kinds. Swapping A and B flips the normal and keeps the depth: exactly for shapes of two
/// kinds (the same routine answers both orders), within rounding for two of one kind. A mesh is
/// answered triangle by triangle (contact_mesh.h); a mesh against a mesh or a plane is
/// unsupported (both are only ever static).
ContactQuery contact(const Shape& a, const Shape& b);

/// Distance between two world-frame shapes, for time of impact and queries.
struct DistanceResult {
    bool supported = true; ///< false when no algorithm answers this pair
    double distance = 0;   ///< gap (m) when apart; 0 when touching or overlapping
    Vec3 point_a;          ///< closest point on A (m), valid when apart
    Vec3 point_b;          ///< closest point on B (m), valid when apart
    Vec3 normal;           ///< unit direction from A to B along the gap, valid when apart
};

/// The closest distance between two world-frame convex shapes (GJK for general pairs, closed
/// form where one exists): the distance table's routine for their two kinds. Overlapping shapes
/// give distance 0. Swapping A and B exchanges the points and flips the normal: exactly against a
/// plane or a mesh, within GJK's rounding otherwise. A mesh gives its nearest triangle's distance
/// (contact_mesh.h); a mesh against a mesh or a plane is unsupported.
DistanceResult distance(const Shape& a, const Shape& b);

} // namespace collide
