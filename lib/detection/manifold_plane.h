#pragma once
/// \file
/// Manifolds of a half-space (Plane) against a convex shape, in closed form.

#include "detection/manifold_reduce.h"
#include "shapes/shapes.h"

namespace collide {

/// The manifold of half-space `p` (the first shape; solid where dot(normal, x) ≤ offset) and
/// convex shape `b` (the second; not a plane or a mesh), every point deeper than −`margin`
/// (m ≥ 0). The normal is the plane's (from the plane to the shape), each point's depth
/// offset − dot(normal, x) at b's surface point x, the point x + normal·depth/2:
///
///     sphere:   x = its lowest point, centre − normal·r (one point)
///     capsule:  each end carried down to its surface along −normal (capsule_far): two points
///               when it lies on the plane, one when both land on the same end ball (standing)
///     polytope: the corners of its face most anti-parallel to the normal (face_toward; that
///               face holds its deepest vertex), reduced to four (reduce_points)
///
/// Polytope corners are named by their vertex, capsule ends by their end; a sphere's point
/// has no name.
bool manifold_plane_shape(const Plane& p, const Shape& b, double margin, RawManifold& out);

} // namespace collide
