#pragma once
/// \file
/// The geometry the manifold families clip with: the face of a polytope (box, triangle, hull)
/// that faces a direction, its support features, Sutherland–Hodgman clipping of an incident
/// face or segment against a reference face's side planes with the features of each clipped
/// corner, and where a line meets a capsule. All in one frame (the world's, or a mesh's).

#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <span>

#include "detection/manifold_reduce.h"
#include "shapes/shapes.h"

namespace collide {

/// The most corners a face can have: a hull face through every point.
inline constexpr int kMaxFaceCorners = kHullMaxPoints;

/// A face as the clipping functions read it: its plane and its corners, wherever they live.
struct FaceView {
    Vec3 normal;                          ///< outward unit normal; zero for an edge or a vertex
    double offset = 0;                    ///< dot(normal, x) on the face (m)
    int count = 0;                        ///< corners: 1 a vertex, 2 an edge, ≥ 3 a polygon
    const Vec3* corners = nullptr;        ///< counter-clockwise seen from outside (m)
    const std::uint32_t* index = nullptr; ///< each corner's vertex index in its shape
};

/// A face of a polytope, or the polytope's edge or vertex where no face faces the direction
/// asked (a flat hull seen edge-on, a hull of two points); room for N corners.
template <int N> struct FaceOf {
    Vec3 normal;                          ///< outward unit normal; zero for an edge or a vertex
    double offset = 0;                    ///< dot(normal, x) on the face (m)
    int count = 0;                        ///< corners: 1 a vertex, 2 an edge, ≥ 3 a polygon
    std::array<Vec3, N> corners;          ///< counter-clockwise seen from outside (m)
    std::array<std::uint32_t, N> index{}; ///< each corner's vertex index in its shape

    /// This face as the clipping functions read it.
    FaceView view() const { return {normal, offset, count, corners.data(), index.data()}; }
};

/// A box face (4 corners).
using BoxFace = FaceOf<4>;
/// Any polytope's face.
using Face = FaceOf<kMaxFaceCorners>;

/// The face of a turned box most aligned with `d` (any length, not zero): the face axis with
/// the largest |axis · d| (the first on ties), on d's side. Corners in corners_of numbering.
BoxFace box_face_toward(const Obb& box, const Vec3& d);

/// The side of a triangle facing `d` (its face normal, or the reverse when d points behind
/// it); a triangle without area gives its longest side as an edge.
Face triangle_face_toward(const Triangle& t, const Vec3& d);

/// The face of a hull most aligned with `d`, found per query from the points alone (no faces
/// are stored): v0 = the support point along d; of the hull's edges at v0, the one most
/// perpendicular to d (Box3D's incident-face rule, src/manifold.c, b3FindIncidentFace);
/// of the two hull faces on that edge, the one more aligned with d. In the plane across d the
/// supporting planes through v0 are the half-planes dot(s, r_i) ≤ h_i (r_i, h_i: point i's
/// offset from v0 across and below d); the edge is the line nearest the origin and its two
/// faces are where that line leaves the feasible region. Then every point within 1e-9 of the
/// hull's size of that face's plane is a corner, ordered by a 2D convex hull (monotone chain).
/// O(n) plus O(k log k) for a face of k corners; no allocation. A flat hull is its polygon,
/// seen from d's side; a hull of collinear points gives an edge, of one point a vertex.
Face hull_face_toward(const Hull& h, const Vec3& d);

/// The face of a box, turned box, triangle or hull most aligned with `d`. Not for other kinds.
Face face_toward(const Shape& polytope, const Vec3& d);

/// The vertices of a polytope (box, turned box, triangle, hull) within `tolerance` (m) of its
/// farthest along `d`: written to `points`/`index` (capacity kHullMaxPoints), count returned.
int support_set(const Shape& polytope, const Vec3& d, double tolerance, std::span<Vec3> points,
                std::span<std::uint32_t> index);

/// A corner of a polygon being clipped, with the features of the two polygon edges that meet
/// there (`in` arriving, `out` leaving).
struct ClipVertex {
    Vec3 p;                       ///< where (m)
    FeatureCode in = kNoFeature;  ///< the edge arriving at p
    FeatureCode out = kNoFeature; ///< the edge leaving p
};

/// Clips the convex polygon `poly` (`count` corners, capacity ≥ count + reference.count in
/// both `poly` and `scratch`) against the side planes of `reference` (a polygon, ≥ 3 corners,
/// owned by shape `ref_owner`): the plane through each reference edge, perpendicular to the
/// face, outward normal edge × face normal. Sutherland–Hodgman (Ericson, Real-Time Collision
/// Detection, 8.3.4; Box3D's src/manifold.c, b3ClipPolygon, whose feature bookkeeping this
/// follows):
///
///     for each reference edge e with side plane P (inside: signed distance ≤ 0):
///         for each polygon edge v1 → v2:
///             both inside:        keep v2
///             v1 inside, v2 out:  keep v1 + t·(v2 − v1) at P, arriving on the polygon edge, leaving on e
///             v1 out, v2 inside:  keep the point at P, arriving on e, leaving on the polygon edge; keep v2
///
/// Returns the clipped corners' count; the result is in `poly` or `scratch`, as `*result` says.
int clip_polygon(const FaceView& reference, int ref_owner, std::span<ClipVertex> poly, int count,
                 std::span<ClipVertex> scratch, std::span<ClipVertex>* result);

/// The corners of face `f` of shape `owner` as a polygon to clip: corner k arrives on the
/// edge (k − 1, k) and leaves on (k, k + 1). Returns the count (f.count).
int polygon_of(const FaceView& f, int owner, std::span<ClipVertex> out);

/// Clips the segment p0–p1 (each end named by its `in` and `out` features, the segment by
/// `edge`) against the side planes of `reference` (owned by `ref_owner`). Returns false when
/// nothing is left; else the two ends, each keeping its name or, where a side cut it, named by
/// (`edge`, the reference edge of that side).
bool clip_segment(const FaceView& reference, int ref_owner, ClipVertex& p0, ClipVertex& p1, FeatureCode edge);

/// The largest t for which o + t·u lies in the capsule (u unit; any sign of t), empty when
/// the line misses it: the far end of the line's chord through the capsule (the union of the
/// cylinder around its segment and the balls at its ends, so the largest of their far roots).
/// A zero-length segment is a ball.
std::optional<double> capsule_far(const Capsule& c, const Vec3& o, const Vec3& u);

/// A shape's size for the manifold tolerances (m): a turned box's largest half-extent, a
/// sphere's radius, a capsule's half length plus radius, else the largest half-extent of its
/// bounds.
double manifold_scale(const Shape& s);

/// Near ties between candidate reference features are broken by preference, not by rounding:
/// the second shape's face is the reference only when its axis is better than the first's by
/// more than kManifoldTieRelative times the smaller shape's manifold_scale, and an edge–edge
/// axis wins over the face axes only when it is better by more than that. (Box2D's
/// b2CollidePolygons uses 0.1 · linear slop, Box3D's b3CollideHulls the linear slop for the
/// edge.) Resting stacks then keep their reference face from step to step; the depth can
/// exceed contact()'s by at most this much (m per unit of size: 1e-4 · 0.5 m for a unit cube).
inline constexpr double kManifoldTieRelative = 1e-4;

/// An incident edge whose two ends lie within this distance of a reference side plane, per unit
/// length of the side (m/m), lies along it: its ends are moved onto the plane and kept, not cut.
/// Cutting such an edge (stacked boxes whose edges line up, its ends a few ulps or nanometres
/// either side of the plane) would put the point anywhere along the edge as roundings decide,
/// and the point would jump and change its name from step to step, losing its warm start; moved
/// onto the plane, it stays at the corner (at most 10 µm away on a unit face).
inline constexpr double kClipRelative = 1e-5;

/// Before a side plane clips a polygon: each corner just outside it (0 < dist ≤ `slack`) on an
/// edge that lies along it (a neighbour within `slack` of the plane too) is moved onto it by
/// `move(corner)`, and its distance set to 0, so the clip keeps it (kClipRelative). `dist` holds
/// the corners' signed distances from the plane (> 0 outside), in the polygon's order.
template <class Move> void settle_on_side(std::span<double> dist, double slack, Move&& move) {
    const std::size_t count = dist.size();
    for (std::size_t c = 0; c < count; ++c) {
        if (!(dist[c] > 0 && dist[c] <= slack)) continue;
        const double before = dist[(c + count - 1) % count], after = dist[(c + 1) % count];
        if (std::fabs(before) > slack && std::fabs(after) > slack) continue;
        move(c);
        dist[c] = 0;
    }
}

} // namespace collide
