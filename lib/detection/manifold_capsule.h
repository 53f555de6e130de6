#pragma once
/// \file
/// Manifolds of capsules: against a polytope (its segment clipped against the polytope's face,
/// two points when it lies along the face) and against another capsule (two points when they
/// lie side by side, else one). Box3D's src/convex_manifold.c (b3CollideCapsules,
/// b3CollideHullAndCapsule) chooses the same way; the depths here are exact on the curved
/// surface (capsule_far), not an end ball's.

#include "detection/manifold_reduce.h"
#include "shapes/shapes.h"

namespace collide {

/// Two capsules (the segments' directions) are "side by side" when the sine of the angle
/// between them is below this (Box3D's b3CollideCapsules: 0.05, about 2.9°).
inline constexpr double kManifoldCapsuleParallel = 0.05;

/// The manifold of polytope `p` (box, turned box, triangle or hull: the first shape) and
/// capsule `c` (the second), every point deeper than −`margin` (m ≥ 0); false when farther
/// apart.
///
///     n, depth = manifold_axis(p, c) (contact()'s normal when they overlap)
///     F = p's face most aligned with n; when its overlap with the capsule (its lower end
///     less the radius) is within the tie tolerance of `depth`: the capsule's segment clipped
///     against F's side planes, each end carried down to the capsule's surface along −n
///     (face_contact): two points when it lies along the face, one when it stands on it
///     otherwise one point where the closest features meet (single_point)
bool manifold_polytope_capsule(const Shape& p, const Capsule& c, double margin, RawManifold& out);

/// The manifold of capsules `a` (first) and `b` (second), every point deeper than −`margin`:
///
///     n, depth = contact_capsule_capsule's (or GJK's closest points when apart)
///     side by side (kManifoldCapsuleParallel): b's segment clipped to the slab between the
///     planes across a's segment at its ends; each clipped point q carried to b's surface
///     along −n (s), then along +n to where the line leaves a (capsule_far): depth = that
///     distance, the point midway; two points when both are kept and none is deeper than
///     `depth` (the line through a point can cut deeper than the shapes' least overlap only
///     in deep crossings, which then take the one point)
///     otherwise one point midway between the surfaces at the segments' closest points
bool manifold_capsules(const Capsule& a, const Capsule& b, double margin, RawManifold& out);

} // namespace collide
