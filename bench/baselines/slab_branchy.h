#pragma once
/// \file
/// The slab test written with per-axis branches (the textbook form): the baseline the
/// branch-free slab_ray_aabb (queries/raycast.h) is measured against (ray_aabb_branchy against
/// ray_aabb). Nothing in the library or the command line calls it, so it is compiled only into
/// collide_bench and collide_tests.

#include "queries/raycast.h"

namespace collide::baseline {

/// The slab test for the ray origin + t·direction (t ≥ 0) against a closed axis-aligned box
/// with per-axis branches; it answers exactly like slab_ray_aabb (t in units of |direction|).
/// `direction` must not be the zero vector.
SlabResult slab_ray_aabb_branchy(const Vec3& origin, const Vec3& direction, const Aabb& box);

} // namespace collide::baseline
