#pragma once
/// \file
/// One entry point for every shape pair: picks the closed-form or SAT routine where one
/// exists and falls back to GJK/EPA for the other convex pairs (parry's dispatcher, in C++).

#include "detection/contact.h"
#include "shapes/shapes.h"

namespace collide {

/// The contact between two world-frame shapes (normal from A to B, depth > 0), "separated",
/// or "unsupported" when no algorithm answers this pair. Swapping A and B flips the normal
/// and keeps the depth. A mesh is answered triangle by triangle (contact_mesh.h); a mesh
/// against a mesh or a plane is unsupported (both are only ever static).
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
/// form where one exists). Overlapping shapes give distance 0. A mesh gives its nearest
/// triangle's distance (contact_mesh.h); a mesh against a mesh or a plane is unsupported.
DistanceResult distance(const Shape& a, const Shape& b);

} // namespace collide
