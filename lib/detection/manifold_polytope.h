#pragma once
/// \file
/// The manifold of two polytopes in general (hulls, triangles, boxes against them), and the
/// two building blocks every convex family ends in: a face contact against a chosen reference
/// face, and a single point where the two shapes' support features meet. The approach is
/// Jolt's (Jolt/Physics/Collision/ManifoldBetweenTwoFaces.cpp: the penetration axis, then the
/// supporting faces along it, clipped), with Box3D's choice between face and edge contacts and
/// its feature names (src/convex_manifold.c).

#include "detection/manifold_clip.h"
#include "detection/manifold_reduce.h"
#include "shapes/shapes.h"

namespace collide {

/// The manifold of polytopes `a` (first) and `b` (second): boxes, turned boxes, triangles and
/// hulls (two boxes are manifold_box_box's), every point deeper than −`margin` (m ≥ 0); false
/// when they are farther apart.
///
///     n, depth = contact(a, b) when they overlap (so the normal is contact()'s), else the
///                direction and gap of GJK's closest points (separation_gjk_epa: the axis of
///                largest separation over all directions) when the gap is within the margin
///     FA = a's face most aligned with n, FB = b's most aligned with −n (face_toward)
///     dA, dB = the overlaps along FA's and FB's normals (support points)
///     the reference is FB when dB < dA − tie, else FA (tie: kManifoldTieRelative · the smaller
///     shape's manifold_scale); when its overlap is within tie of `depth` it is a face contact
///     (face_contact), else (or when that keeps nothing) one point (single_point)
///
/// The normal is then the reference face's (contact()'s within rounding for a face contact
/// that broke no tie), and the deepest depth contact()'s wherever the deepest vertex lies
/// over the reference face.
bool manifold_polytopes(const Shape& a, const Shape& b, double margin, RawManifold& out);

/// The face contact of reference face `ref` (a polygon of shape `ref_owner`: 0 the first
/// shape, 1 the second; outward normal towards `other`) with `other` (a polytope, capsule or
/// sphere, owner 1 − ref_owner): the other's feature facing the face (its face most
/// anti-parallel to the normal, a capsule's segment, a sphere's centre) clipped against the
/// reference face's side planes (clip_polygon, clip_segment), every clipped point of the other's
/// surface p with depth = ref.offset − n·p deeper than `keep` (m) kept at p + n·depth/2.
/// A capsule's clipped segment points are carried down to its surface along −n
/// (capsule_far: on a tilted capsule that is its cylinder, not the ball at the end) and both
/// are kept unless they land on the same end ball (a standing capsule: one point). Points near
/// a corner of either face take its name (snap_to_vertices: the first shape's corners first);
/// points naming the same features are merged; more than four are reduced (reduce_points).
/// The normal is ref.normal when ref_owner is 0, else its reverse. False when nothing is kept.
bool face_contact(const Face& ref, int ref_owner, const Shape& other, double keep, RawManifold& out);

/// One point for shapes `a`, `b` touching along `n` (unit, a → b) with `depth` (m, > keep):
/// where their cores are apart, midway between GJK's closest surface points; else midway
/// between the closest points of a's support feature along n and b's along −n (the vertices
/// or capsule ends within 1e-9 of the shapes' size of the extreme; two edges give their
/// crossing), moved out to the surfaces by the radii. Named by those features.
bool single_point(const Shape& a, const Shape& b, const Vec3& n, double depth, double keep, RawManifold& out);

/// The normal and depth of two convex shapes (neither a plane nor a mesh) for a manifold:
/// contact()'s when they overlap, else separation_gjk_epa's direction and minus its gap; false
/// when nothing can be deeper than `keep` (m).
bool manifold_axis(const Shape& a, const Shape& b, double keep, Vec3& n, double& depth);

} // namespace collide
