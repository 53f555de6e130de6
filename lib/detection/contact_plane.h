#pragma once
/// \file
/// Any convex shape against a half-space (Plane: solid where dot(normal, x) ≤ offset), in
/// closed form from one support point: the shape's deepest point is support(shape, −normal),
/// and depth = offset − dot(normal, that point). Plane against plane has no answer.

#include "detection/contact.h"
#include "detection/dispatch.h"
#include "shapes/shapes.h"

namespace collide {

/// Half-space A against shape B: normal = the plane's normal (A → B), depth = offset − min over
/// B of dot(normal, x). Unsupported when B is a plane too.
ContactQuery contact_plane_shape(const Plane& a, const Shape& b);
/// Shape A against half-space B: normal = −(the plane's normal). Unsupported when A is a plane.
ContactQuery contact_shape_plane(const Shape& a, const Plane& b);

/// Gap between half-space A and shape B (0 when touching or overlapping); normal = the plane's
/// normal, point_b = B's point nearest the plane, point_a its projection on the plane.
/// Unsupported when B is a plane.
DistanceResult distance_plane_shape(const Plane& a, const Shape& b);
/// Gap between shape A and half-space B: distance_plane_shape with the roles swapped.
DistanceResult distance_shape_plane(const Shape& a, const Plane& b);

/// Signed distance of shape B above half-space A (m): min over B of dot(normal, x) − offset;
/// negative by the depth when they overlap.
double plane_gap(const Plane& a, const Shape& b);

} // namespace collide
