#pragma once
/// \file
/// Sphere against a box (axis-aligned or turned), in closed form: clamp the sphere's centre into
/// the box and measure; a centre inside the box is pushed out through the nearest face.

#include <optional>

#include "detection/contact.h"
#include "shapes/shapes.h"

namespace collide {

/// Contact of a sphere (A) with an axis-aligned box (B), world frame, normal from A to B.
/// Centre outside the box: closest = clamp(centre, min, max), depth = r − |centre − closest|
/// (m), normal = (closest − centre)/|closest − centre|.
/// Centre inside the box or on its surface: the sphere leaves through the nearest face; depth =
/// distance from the centre to that face + r, normal = minus that face's outward normal (it
/// points into the box, from the sphere to the box). Equal face distances are broken in the
/// fixed order +x, −x, +y, −y, +z, −z, so the normal is never zero or NaN.
/// Empty when apart or touching within kTouchEpsilon.
std::optional<Contact> contact_sphere_aabb(const Sphere& a, const Aabb& b);

/// contact_sphere_aabb with the roles swapped: A is the box, B the sphere; the normal points
/// from the box to the sphere (the outward normal of the nearest face when the centre is inside).
std::optional<Contact> contact_aabb_sphere(const Aabb& a, const Sphere& b);

/// Contact of a sphere (A) with a turned box (B): the same rule as contact_sphere_aabb, worked
/// out in the box's frame (faces ±u, ±v, ±w with ties in the order +u, −u, +v, −v, +w, −w) and
/// returned in the world frame.
std::optional<Contact> contact_sphere_obb(const Sphere& a, const Obb& b);

/// contact_sphere_obb with the roles swapped: A is the turned box, B the sphere.
std::optional<Contact> contact_obb_sphere(const Obb& a, const Sphere& b);

} // namespace collide
