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
/// normal: A's surface point is point + normal·depth/2, B's is point − normal·depth/2.
///
/// How each family is found (one file per family, detection/manifold_*.cpp):
/// - two polytopes (boxes, turned boxes, hulls, triangles): the separating axis of least
///   penetration (or, apart, of largest gap) gives the normal; on a face axis the incident face
///   of the other shape is clipped against the side planes of the reference face
///   (Sutherland–Hodgman; Ericson, Real-Time Collision Detection, 5.1 and 8.3; Box3D's
///   convex_manifold.c; Jolt's ManifoldBetweenTwoFaces), keeping the clipped points within the
///   margin; on an edge–edge axis, one point between the two edges' closest points. More than
///   kMaxManifoldPoints points are reduced to the deepest one, the one farthest from it, and the
///   two that add the most area (so a box on a floor keeps its four corners);
/// - a capsule against a polytope or a capsule: its segment clipped against the reference face
///   (two points when it lies along it), else one point;
/// - a sphere against anything: one point;
/// - a plane against anything: the other shape's points within the margin of the plane (a
///   sphere's deepest point, a capsule's two ends, a polytope's corners reduced to four);
/// - a mesh: one manifold per triangle near the shape, each normal corrected by the active-edge
///   rule (detection/contact_mesh.h: no ghost contacts on internal edges); manifolds whose
///   normals agree are merged into one (their points reduced to four).
///
/// Feature ids name the features of A and B that made a point (a reference face and an incident
/// vertex, or a clipping edge and an incident edge, or two edges; a mesh's triangle index is
/// part of them), so the same touching features give the same id in the next step while the
/// shapes move a little. Ids within one manifold are distinct.

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
    double depth = 0;     ///< overlap along the normal (m): > 0 overlapping, < 0 a gap
    std::uint32_t id = 0; ///< which features of A and B made it (stable while they touch)
};

/// Where two shapes touch: one normal and up to kMaxManifoldPoints points.
struct Manifold {
    Vec3 normal;           ///< unit, from A to B (world frame)
    int count = 0;         ///< points used, 0 … kMaxManifoldPoints
    std::uint32_t key = 0; ///< which part of B (a mesh's triangle index, the first of a merged group) or
                           ///< of A; 0 for two convex shapes
    std::array<ManifoldPoint, kMaxManifoldPoints> points{}; ///< the first `count` are used
};

/// What asking a pair of shapes for its manifolds answered.
struct ManifoldQuery {
    ContactStatus status = ContactStatus::separated; ///< separated (no point within the margin),
                                                     ///< overlapping (count ≥ 1), or unsupported
    int count = 0;                                   ///< manifolds written
};

/// The manifolds of shapes A and B (world frame) with every point deeper than −`margin` (m, ≥ 0):
/// status separated and count 0 when A and B are farther apart than `margin`; overlapping with
/// count ≥ 1 manifolds written to `out` when they overlap or come within `margin` (the status
/// says "some point is within the margin", not that the shapes overlap: look at the depths);
/// unsupported for a pair no algorithm answers (a plane or a mesh against a plane or a mesh). Two
/// convex shapes give one manifold; a mesh gives up to out.size() (the deepest kept, in the
/// mesh's triangle order). Swapping A and B flips every normal and keeps every point and depth.
/// Allocates nothing.
ManifoldQuery manifolds(const Shape& a, const Shape& b, double margin, std::span<Manifold> out);

} // namespace collide
