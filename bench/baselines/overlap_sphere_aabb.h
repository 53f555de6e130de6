#pragma once
/// \file
/// Sphere against axis-aligned box, yes or no, without the normal: the baseline the benchmarks
/// put beside contact_sphere_aabb (sphere_aabb_overlap against sphere_aabb). Nothing in the
/// library or the command line calls it, so it is compiled only into collide_bench and
/// collide_tests.

#include "shapes/shapes.h"

namespace collide::baseline {

/// The yes/no of contact_sphere_aabb without the normal: clamp the centre into the box and
/// compare squared distances (m², no square root, no branch on the common path). Answers
/// exactly as contact_sphere_aabb(s, b).has_value() does, touching included.
bool overlap_sphere_aabb(const Sphere& s, const Aabb& b);

} // namespace collide::baseline
