#pragma once
/// \file
/// Manifolds of a sphere against any convex shape: always one point.

#include "detection/manifold_reduce.h"
#include "shapes/shapes.h"

namespace collide {

/// The manifold of sphere `s` (the first shape) and convex shape `b` (the second: a sphere,
/// box, turned box, capsule, triangle or hull), its point deeper than −`margin` (m ≥ 0):
///
///     n, depth = contact(s, b) when they overlap (the closed forms of contact_sphere_box,
///                contact_capsule, contact_sphere_sphere; GJK/EPA for hulls), else the direction
///                and gap of the closest points: in closed form for spheres, capsules and boxes,
///                by GJK for hulls; a triangle in closed form either way (its closest point)
///     one point midway between the sphere's surface point c + n·r and b's, c + n·(r − depth)
///
/// The point has no features (id 0): it is the pair's only point whatever touches.
bool manifold_sphere_shape(const Sphere& s, const Shape& b, double margin, RawManifold& out);

} // namespace collide
