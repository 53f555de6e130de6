#pragma once
/// \file
/// Capsule contacts: closed forms against spheres and capsules (a capsule is its core segment
/// plus a radius, so these reduce to the closest points of two segments), GJK/EPA against
/// boxes. Normal from A to B, depth > kTouchEpsilon (see detection/contact.h).

#include <optional>

#include "detection/contact.h"
#include "shapes/shapes.h"

namespace collide {

/// The closest points of two segments p1–q1 and p2–q2 (m, world frame).
struct SegmentClosest {
    Vec3 point1;  ///< on the first segment: p1 + (q1 − p1)·s
    Vec3 point2;  ///< on the second segment: p2 + (q2 − p2)·t
    double s = 0; ///< parameter on the first segment, 0…1
    double t = 0; ///< parameter on the second segment, 0…1
};

/// The closest points between segments p1–q1 and p2–q2 (Ericson 5.1.9; a segment may be a
/// point). For parallel segments one of the equally close pairs is returned.
SegmentClosest closest_points_segments(const Vec3& p1, const Vec3& q1, const Vec3& p2, const Vec3& q2);

/// Capsule A against capsule B. When the core segments cross (no gap to take a direction from)
/// the normal is their common perpendicular (the segments' directions crossed; for parallel
/// segments the part of the centre difference across them), signed towards B's centre.
std::optional<Contact> contact_capsule_capsule(const Capsule& a, const Capsule& b);
/// Capsule A against sphere B (the sphere is a capsule with a zero-length core).
std::optional<Contact> contact_capsule_sphere(const Capsule& a, const Sphere& b);
/// Sphere A against capsule B: contact_capsule_sphere with the normal flipped.
std::optional<Contact> contact_sphere_capsule(const Sphere& a, const Capsule& b);
/// Capsule A against turned box B, by GJK/EPA on segment and box (exact: the box is a polytope).
std::optional<Contact> contact_capsule_box(const Capsule& a, const Obb& b);
/// Turned box A against capsule B: contact_capsule_box with the normal flipped.
std::optional<Contact> contact_box_capsule(const Obb& a, const Capsule& b);

} // namespace collide
