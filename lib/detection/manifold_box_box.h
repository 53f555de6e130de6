#pragma once
/// \file
/// The manifold of two turned boxes: the hot path of a world of crates (a pyramid of 5,000
/// cubes asks it about 10,000 times a frame). Ericson, Real-Time Collision Detection, 5.2.1
/// and 8.3 (reference and incident faces); Box3D's src/convex_manifold.c (b3CollideHulls,
/// b3BuildFaceAContact, b3BuildEdgeContact) for the feature bookkeeping.

#include "detection/manifold_reduce.h"
#include "shapes/shapes.h"

namespace collide {

/// The manifold of turned boxes `a` (the first shape) and `b` (the second) with every point
/// deeper than −`margin` (m ≥ 0); false (and `out` untouched) when they are farther apart.
/// The box axes must be orthonormal.
///
///     the 15 axes of the separating axis test (sat_box_box.h), each with its exact overlap
///     (negative: a gap); any gap ≥ margin: no manifold
///     face axis = A's face of least overlap, unless B's is less by more than the tie
///     tolerance (kManifoldTieRelative · the smaller box's largest half-extent)
///     edge axis = the edge pair of least overlap, taken only when it beats the face axis by
///     more than the tie tolerance and its edges' closest points lie inside both edges:
///         one point midway between those closest points, depth = the axis's overlap
///     otherwise the face axis's face is the reference; the other box's face most
///     anti-parallel to it is the incident face; its 4 corners are clipped against the
///     reference face's 4 side planes (clip_polygon); each clipped corner p keeps
///     depth = reference offset − n·p when deeper than −margin, at p + n·depth/2; corners
///     within kManifoldSnapRelative of the incident face's shortest edge from an incident
///     corner take its features; at most 8 points are reduced to 4 (reduce_points)
///
/// Where the two boxes overlap and no tie was broken, the normal is contact_box_box's and the
/// deepest depth its depth (within rounding) whenever the deepest corner lies over the
/// reference face; otherwise the deepest point kept can be shallower (the deepest corner was
/// clipped away). Feature ids (manifold_reduce.h) name box corners in corners_of order:
/// an incident corner is its face's two edges there, a clip point the incident edge and the
/// reference edge it crosses, a reference corner the reference face's two edges, so they do
/// not change when the reference face switches between the boxes.
bool manifold_box_box(const Obb& a, const Obb& b, double margin, RawManifold& out);

} // namespace collide
