#pragma once
/// \file
/// Contact manifolds: where two shapes touch, as up to kMaxManifoldPoints points that share one
/// normal, each with its own depth and a feature id. The world's contact solver applies an
/// impulse at each point (world/contact_solver.h), and matches a step's points to the last
/// step's by feature id to warm-start them.
///
/// The convention is the one of detection/contact.h: the normal is a unit vector from A to B in
/// the world frame, and a point's depth is positive when the shapes overlap there; a point with
/// a negative depth is a gap of that size (a speculative point: the shapes are apart there by
/// less than the margin asked for). A point lies midway between the two surfaces along the
/// normal: A's surface point is point + normal·depth/2, B's is point − normal·depth/2 (exactly,
/// within rounding, for every family: a capsule's points are carried to its curved surface).
///
/// Which family answers a pair is looked up in tables indexed by the two shapes' kinds,
/// `table[kind of A][kind of B]` (detection/pair_table.h, after Box2D v3's contact registers and
/// Jolt's CollisionDispatch). manifolds()' table sends two convex shapes to the convex table
/// (convex_manifold, manifold_reduce.h), a plane and a shape to the plane family, a shape and a
/// mesh to the mesh family, and answers unsupported for planes and meshes against each other.
/// The convex table writes each family for one order of kinds (the roles below) and holds, in
/// the mirrored cell, the same family called with the shapes exchanged and its manifold flipped
/// (normal negated, each feature's owner exchanged: the same points, depths and features); a
/// plane against a shape is the plane family flipped the same way. Every cell holds a routine:
/// no pair of kinds falls through.
///
/// How each family is found (one file per family, detection/manifold_*.cpp; the pseudocode is
/// in each family's header):
/// - two boxes (manifold_box_box.h, the hot path): the 15 axes of the separating axis test with
///   exact overlaps; the face axis of least overlap (or, apart, of largest gap) makes the
///   reference face, the other box's face most anti-parallel to it the incident face, whose 4
///   corners are clipped against the reference face's 4 side planes (Sutherland–Hodgman;
///   Ericson, Real-Time Collision Detection, 5.2.1 and 8.3.4; Box3D's convex_manifold.c),
///   keeping the clipped points within the margin; an edge–edge axis that is clearly better
///   gives one point between the two edges' closest points;
/// - other polytopes (hulls, triangles, boxes against them; manifold_polytope.h): contact()'s
///   normal (apart: GJK's closest-point direction), then each shape's face most aligned with it
///   (a hull's found from its points per query, manifold_clip.h), clipped the same way (Jolt's
///   ManifoldBetweenTwoFaces); one point where the support features meet when no face is close
///   to the least-overlap axis;
/// - a capsule (manifold_capsule.h): against a polytope, its segment clipped against the face,
///   two points when it lies along it; against a capsule, two points when they lie side by
///   side; else one point;
/// - a sphere against anything: one point (manifold_sphere.h);
/// - a plane (manifold_plane.h): the corners of the other shape's face most anti-parallel to the
///   plane's normal within the margin (reduced to four), a capsule's two ends, a sphere's lowest
///   point;
/// - a mesh (manifold_mesh.h): one manifold per triangle near the shape, each normal corrected
///   by the active-edge rule (detection/contact_mesh.h: no ghost contacts on internal edges);
///   manifolds whose normals agree (kMeshMergeCos) are merged into one.
/// More than kMaxManifoldPoints points are reduced (manifold_reduce.h, after Box3D's
/// b3ReduceManifoldPoints): the deepest point (the steadiest by position when depths are nearly
/// equal), the one farthest from it, and the two that add the most area, so a box on a floor
/// keeps its four corners.
///
/// Against contact(): where two convex shapes overlap the normal is contact()'s and the deepest
/// depth contact()'s (within 1e-9 m) wherever the deepest feature lies over the reference face,
/// with three exceptions, all bounded: (1) a near tie between candidate axes (faces of A and of B,
/// or a face against an edge pair, within kManifoldTieRelative of the smaller shape's size) is
/// broken by preference, not rounding, so the face kept can be a hair worse than contact()'s axis:
/// its normal then differs and its depth exceeds contact()'s by at most that tolerance; (2) the
/// deepest feature clipped away (it hangs beyond the reference face) leaves shallower points;
/// (3) more than four points reduced keep a corner within kManifoldDepthTieRelative of the
/// points' spread of the deepest instead of the deepest. No point is deeper than contact()'s depth
/// plus the tie tolerance.
///
/// Which face is preferred in a tie, and the roles the families give A and B, do not depend on
/// the order the shapes are passed in (so swapping A and B flips the normal and keeps every point
/// and depth exactly): between two shapes of one kind the preferred one is the one whose centre
/// is lower along the axis on which the centres lie farthest apart (a floor under a crate, the
/// lower crate of a stack), which holds from step to step while bodies keep their arrangement
/// (centres that coincide fall back to an order of the shapes' data); between kinds it is fixed
/// (an axis-aligned box before a turned one, a box before a triangle before a hull).
///
/// Feature ids name the features of A and B whose meeting made a point (manifold_reduce.h): a
/// clipped polygon's corner by its two edges (an incident corner by the incident face's two edges
/// there, a reference corner by the reference face's, a clip point by the incident edge and the
/// reference edge it crosses), an edge–edge point by its two edges, a capsule's end by that end,
/// each edge by the indices of its two vertices and the shape that owns it. So an id does not
/// change when the reference face switches between the shapes, or while the same features touch
/// and the shapes move a little; a point within a thousandth of the shortest face edge of a
/// corner takes that corner's name (kManifoldSnapRelative), so a corner hovering on the other
/// face's side (stacked boxes with lined-up edges) keeps its id whether it is clipped or not.
/// For two convex shapes ids are exact packings below 2^24; a mesh's triangle features are named
/// by its global vertex indices and hashed (bit 31 set), and points made by the other shape's
/// features alone (a box corner over a face) carry no triangle in their id, so they keep it as
/// the shape slides from triangle to triangle. A sphere's point has id 0. Ids within one manifold
/// are distinct.

#include <array>
#include <cstdint>
#include <span>

#include "detection/contact.h"
#include "shapes/shapes.h"

namespace collide {

/// The most points one manifold keeps.
inline constexpr int kMaxManifoldPoints = 4;

/// One point of a manifold (world frame).
struct ManifoldPoint {
    Vec3 point;           ///< midway between the two surfaces along the normal (m)
    double depth = 0;     ///< overlap along the normal (m): > 0 overlapping, < 0 a gap (> −margin)
    std::uint32_t id = 0; ///< which features of A and B made it (stable while they touch; see above)
};

/// Where two shapes touch: one normal and up to kMaxManifoldPoints points.
struct Manifold {
    Vec3 normal;           ///< unit, from A to B (world frame)
    int count = 0;         ///< points used, 0 … kMaxManifoldPoints
    std::uint32_t key = 0; ///< which part of the mesh (A's or B's): the smallest triangle index of the
                           ///< manifold's merged group; 0 for two convex shapes and a plane
    std::array<ManifoldPoint, kMaxManifoldPoints> points{}; ///< the first `count` are used
};

/// What asking a pair of shapes for its manifolds answered.
struct ManifoldQuery {
    ContactStatus status = ContactStatus::separated; ///< separated (no point within the margin),
                                                     ///< overlapping (count ≥ 1), or unsupported
    int count = 0;                                   ///< manifolds written
};

/// The manifolds of shapes A and B (world frame) with every point deeper than −`margin` (m, ≥ 0;
/// a negative or NaN margin is 0): a point is kept when depth + margin > kTouchEpsilon, so with
/// no margin touching is not a contact, as contact() has it. Status separated and count 0 when
/// A and B are farther apart than `margin`; overlapping with count ≥ 1 manifolds written to
/// `out` when they overlap or come within `margin` (the status says "some point is within the
/// margin", not that the shapes overlap: look at the depths; an empty `out` gets the status and
/// count 0); unsupported for a pair no algorithm answers (a plane or a mesh against a plane or a
/// mesh). Two convex shapes, or a plane and a shape, give one manifold; a mesh gives up to
/// min(out.size(), kMaxMeshManifolds) (the deepest kept, in the mesh's triangle order: by key).
/// Speculative points (apart within the margin) come from the axis of largest separation: the 15
/// box axes for two boxes, GJK's closest-point direction (the best of all axes) otherwise.
/// Swapping A and B flips every normal and keeps every point and depth (unless A and B are the
/// same shape in the same place). Allocates nothing.
ManifoldQuery manifolds(const Shape& a, const Shape& b, double margin, std::span<Manifold> out);

} // namespace collide
