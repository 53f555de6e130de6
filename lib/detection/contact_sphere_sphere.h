#pragma once
/// \file
/// Sphere against sphere, in closed form.

#include <optional>

#include "detection/contact.h"
#include "shapes/shapes.h"

namespace collide {

/// The contact between two spheres (world frame): with d = |B.centre − A.centre|, they overlap
/// when d < rA + rB; depth = rA + rB − d (m), normal = (B.centre − A.centre)/d (from A to B).
/// Coincident centres (d = 0) give the fixed normal (0, 1, 0) and depth rA + rB, never NaN.
/// Empty when apart or touching within kTouchEpsilon.
std::optional<Contact> contact_sphere_sphere(const Sphere& a, const Sphere& b);

} // namespace collide
