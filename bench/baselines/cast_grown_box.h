#pragma once
/// \file
/// The grown-box sphere cast against a box (the simple approach that Ericson, Real-Time Collision
/// Detection, 2005, 5.5.7, starts from and shows to be wrong near edges and corners): the baseline
/// the exact cast_sphere_box (queries/cast.h) is measured against (cast_sphere_grown_box against
/// cast_sphere_box_aabb, counting how often the two answer differently). Nothing in the library or
/// the command line calls it, so it is compiled only into collide_bench and collide_tests.

#include <optional>

#include "queries/cast.h"

namespace collide::baseline {

/// The approximation: the centre cast as a ray against the box grown by the radius
/// on every side, with square corners. Exact on the faces, too early (or a hit instead of a
/// miss) near edges and corners, where the true sum is rounded; kept to show where it is wrong.
/// Started inside when the centre lies strictly inside the grown box (even in a corner region
/// where the sphere does not touch the box). Conventions as for the cast_ functions in
/// queries/cast.h (world frame, m, s, m/s).
std::optional<CastHit> cast_sphere_grown_box(const Sphere& sphere, const Vec3& velocity, const Aabb& box, double t_max);

} // namespace collide::baseline
