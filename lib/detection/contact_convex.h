#pragma once
/// \file
/// The generic contact for any two convex shapes (hulls, triangles, boxes, capsules, spheres):
/// GJK on the cores, EPA when the cores overlap, radii added (see gjk.h and epa.h). The
/// dispatcher's fallback for every pair without a closed form. (sat_convex.h's sat_convex finds
/// the same depth by the separating axis test, for shapes listed as corners, face and edge
/// directions.)

#include <optional>

#include "detection/contact.h"
#include "shapes/shapes.h"

namespace collide {

/// Signed separation of two convex shapes (world frame).
struct Separation {
    double distance = 0;  ///< gap (m) when apart, minus the penetration depth when overlapping
    Vec3 normal{0, 1, 0}; ///< unit normal A → B: the gap direction, or the depth direction
};

/// The signed separation of two convex world-frame shapes (not planes): GJK's gap when apart,
/// −(EPA depth) when the cores overlap. Continuous through touching, which time of impact needs.
Separation separation_gjk_epa(const Shape& a, const Shape& b);

/// The contact of two convex world-frame shapes (not planes) by GJK + EPA: normal A → B, depth
/// > kTouchEpsilon; empty when apart or touching.
std::optional<Contact> contact_gjk_epa(const Shape& a, const Shape& b);

} // namespace collide
