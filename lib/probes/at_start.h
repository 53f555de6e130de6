#pragma once
/// \file
/// The probes that are one query on the bodies as placed at t = 0, or one formula, rather than
/// a simulation: each writes its kind's fields (model/log_kinds.h) by name into `out` (sized
/// by field_count). Shapes are world-frame (placed). NaN stays in fields that were not measured.

#include <span>

#include "shapes/shapes.h"

namespace collide {

/// axis_overlaps: x, y, z overlaps of two boxes (m; negative: that axis is clear).
void measure_axis_overlaps(const Aabb& a, const Aabb& b, std::span<double> out);

/// contact: hit, nx, ny, nz (unit, from A to B), depth (m). No contact, or a pair the
/// dispatcher cannot answer: hit 0 and the rest NaN.
void measure_contact(const Shape& a, const Shape& b, std::span<double> out);

/// push_out: hit, x, y, z — `position` (m) moved by n·(depth + skin) along the contact from A
/// to B; without a contact the position is reported unchanged with hit 0.
void measure_push_out(const Shape& a, const Shape& b, const Vec3& position, double skin, std::span<double> out);

/// split: heading_in, blocked, sliding (m/s), blocked_x … z, sliding_x … z of `velocity`
/// against `normal` (normalised first; a zero normal leaves every field NaN).
void measure_split(const Vec3& velocity, const Vec3& normal, std::span<double> out);

/// respond: vx, vy, vz, speed (m/s) of respond_velocity against the normalised `normal`.
void measure_respond(const Vec3& velocity, const Vec3& normal, double restitution, double friction,
                     std::span<double> out);

/// slope: angle (degrees from `up`) and walkable under `limit` degrees.
void measure_slope(const Vec3& normal, double limit, const Vec3& up, std::span<double> out);

/// separating_axis: separated, axis, axes, kind, i, j, gap, nx, ny, nz for two boxes (an Aabb
/// counts as an Obb) or a box and a triangle in either order; any other pair stays NaN.
void measure_separating_axis(const Shape& a, const Shape& b, std::span<double> out);

/// raycast: hit, target, distance, x, y, z, nx, ny, nz — the nearest of `targets` (placed
/// shapes) along the ray within max_distance (m); `target_ids[k]` names targets[k]. A zero
/// direction or no hit: hit 0, target −1, the rest NaN.
void measure_raycast(const Vec3& origin, const Vec3& direction, double max_distance, std::span<const Shape> targets,
                     std::span<const int> target_ids, std::span<double> out);

} // namespace collide
