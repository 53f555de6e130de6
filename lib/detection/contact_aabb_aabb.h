#pragma once
/// \file
/// Axis-aligned box against axis-aligned box: per-axis overlaps and the minimum translation
/// vector.

#include <optional>

#include "detection/contact.h"
#include "shapes/shapes.h"

namespace collide {

/// How deep the two boxes overlap along x, y and z (m): on each axis
/// −max(a.min − b.max, b.min − a.max). A negative entry means that axis is clear (a gap of that
/// size), zero means the faces touch.
Vec3 axis_overlaps(const Aabb& a, const Aabb& b);

/// The minimum translation vector of two axis-aligned boxes (world frame): the axis with the
/// smallest overlap (ties go to x, then y, then z), depth = that overlap (m), normal = ±that
/// axis, + when B's centre is at or beyond A's centre on that axis (so from A to B; equal
/// centres give +). Empty when any axis overlaps by kTouchEpsilon or less.
std::optional<Contact> contact_aabb_aabb(const Aabb& a, const Aabb& b);

} // namespace collide
