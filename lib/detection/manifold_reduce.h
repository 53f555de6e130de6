#pragma once
/// \file
/// What every manifold family shares: candidate points that remember the features that made
/// them, feature ids, the merging of points that name the same features, and the reduction of
/// many points to kMaxManifoldPoints that keep the contact's area.
///
/// A family builds a RawManifold in its own order of the two shapes ("first" and "second");
/// the dispatcher (manifold.cpp) flips it to the caller's A and B and turns the feature codes
/// into the 32-bit ids of ManifoldPoint (finish_manifold).

#include <array>
#include <cstdint>
#include <span>

#include "detection/manifold.h"

namespace collide {

/// A feature of one of the two shapes of a manifold: a vertex, or an edge given by its two end
/// vertices, and which shape owns it. Vertex indices are the shape's own: a box's corner in
/// corners_of order (0…7), a triangle's corner (0 a, 1 b, 2 c; a mesh triangle's corners are
/// its global mesh vertex indices), a hull's point (0…31), a capsule's end (0 a, 1 b). Layout:
/// bit 63 the owner (0 the first shape, 1 the second), bit 62 set on every valid code, bits
/// 31…61 the lower vertex index, bits 0…30 the higher (equal for a vertex). 0 is "no feature".
using FeatureCode = std::uint64_t;

/// No feature (a sphere's point, or the unused second feature of a point).
inline constexpr FeatureCode kNoFeature = 0;

/// The vertex `v` of the first (owner 0) or second (owner 1) shape.
constexpr FeatureCode vertex_feature(int owner, std::uint32_t v) {
    return (std::uint64_t(owner & 1) << 63) | (std::uint64_t{1} << 62) | (std::uint64_t(v) << 31) | std::uint64_t(v);
}

/// The edge between vertices `i` and `j` (either order) of the first or second shape.
constexpr FeatureCode edge_feature(int owner, std::uint32_t i, std::uint32_t j) {
    const std::uint32_t lo = i < j ? i : j, hi = i < j ? j : i;
    return (std::uint64_t(owner & 1) << 63) | (std::uint64_t{1} << 62) | (std::uint64_t(lo) << 31) | std::uint64_t(hi);
}

/// The same feature owned by the other shape (A and B swapped); kNoFeature stays.
constexpr FeatureCode swap_owner(FeatureCode f) { return f == kNoFeature ? f : f ^ (std::uint64_t{1} << 63); }

/// The owner of a valid feature code (0 or 1).
constexpr int owner_of(FeatureCode f) { return int(f >> 63); }

/// The lower and the higher vertex index of a valid feature code (equal for a vertex).
constexpr std::uint32_t low_vertex(FeatureCode f) { return std::uint32_t((f >> 31) & 0x7fffffffu); }
constexpr std::uint32_t high_vertex(FeatureCode f) { return std::uint32_t(f & 0x7fffffffu); }

/// The canonical name of the meeting of features f1 and f2: two edges of one shape that share
/// a vertex name that vertex (f1 = the vertex, f2 = kNoFeature), so a box corner has one name
/// whichever of its faces it is seen through (the incident face of a crate tipping past 45°,
/// or balanced on its edge); anything else stays as it is.
constexpr void canonicalize(FeatureCode& f1, FeatureCode& f2) {
    if (f1 == kNoFeature || f2 == kNoFeature || owner_of(f1) != owner_of(f2)) return;
    const std::uint32_t a0 = low_vertex(f1), a1 = high_vertex(f1), b0 = low_vertex(f2), b1 = high_vertex(f2);
    if (a0 == a1 || b0 == b1) return; // a vertex already
    const bool shared = a0 == b0 || a0 == b1 || a1 == b0 || a1 == b1;
    if (!shared || (a0 == b0 && a1 == b1)) return;
    const std::uint32_t v = (a0 == b0 || a0 == b1) ? a0 : a1;
    f1 = vertex_feature(owner_of(f1), v);
    f2 = kNoFeature;
}

/// One candidate point: where, how deep (m, > 0 overlapping, the manifold's convention) and
/// the two features whose meeting made it (their order does not matter). A clipped polygon's
/// corner is named by its two edges (an incident vertex by the incident face's two edges
/// there, a reference corner by the reference face's two edges, a clip point by the incident
/// edge and the reference edge it crosses); a point of an edge–edge contact by the two edges;
/// two edges of one shape meeting at a vertex then by that vertex (canonicalize). So the same
/// meeting of features gets the same name whichever face is the reference or the incident one.
struct RawPoint {
    Vec3 point;                  ///< midway between the surfaces along the normal (m)
    double depth = 0;            ///< overlap along the normal (m)
    FeatureCode f1 = kNoFeature; ///< one feature that made it
    FeatureCode f2 = kNoFeature; ///< the other (kNoFeature when one names it alone)
};

/// A manifold before its ids are made: normal from the first shape to the second (unit, the
/// frame the family works in) and up to kMaxManifoldPoints points.
struct RawManifold {
    Vec3 normal;                                       ///< unit, first shape → second
    int count = 0;                                     ///< points used
    std::array<RawPoint, kMaxManifoldPoints> points{}; ///< the first `count` are used
};

/// The same manifold with the shapes' roles swapped: normal negated, every feature's owner
/// swapped; the points and depths stay.
RawManifold flipped(const RawManifold& m);

/// The 32-bit id of a point made by features f1 and f2 (order-free). When every vertex index
/// is below 32 (two convex shapes) the id is exact and readable: each feature packs into 12
/// bits (owner << 10 | low << 5 | high) plus one, the lower one in bits 0…11 and the other in
/// bits 12…23 (0 for none), so distinct features always give distinct ids. Otherwise (a mesh
/// triangle's global vertex indices) it is a 31-bit hash of both with bit 31 set.
std::uint32_t feature_id(FeatureCode f1, FeatureCode f2);

/// The final manifold: the raw points with their feature ids; points whose ids coincide (a
/// hash collision, never for two convex shapes) are told apart by bumping the later id.
Manifold finish_manifold(const RawManifold& raw, std::uint32_t key);

/// Points closer than this fraction of the two faces' shortest edge to a corner of the
/// incident or the reference face take that corner's features (kManifoldSnapRelative ·
/// shortest edge, m). A corner that hovers on a side plane of the other face (stacked boxes
/// whose edges line up) then keeps one id whether it falls just inside the face or is
/// clipped just outside it, and two points so close become one.
inline constexpr double kManifoldSnapRelative = 1e-3;

/// When more than kMaxManifoldPoints points are reduced, depths within this fraction of the
/// points' spread (the largest distance across the normal from the first point, m) of the
/// deepest count as equally deep, and the geometric tie-break picks among them: a flat
/// contact that tilts by solver noise (1e-4 rad makes 1e-4 m of depth over 1 m) then keeps the
/// same four points, and their ids, from step to step. The deepest point kept can then be
/// shallower than the deepest candidate by up to this much (Box3D's reduction, which this
/// follows, lets position outweigh depth entirely).
inline constexpr double kManifoldDepthTieRelative = 1e-3;

/// Gives every point within `tolerance` (m, measured across the unit `normal`: the points lie
/// midway between the faces, the corners on them) of one of the `count` vertices `vertices`
/// (each named by the feature pair `names[k]`) the name of the first such vertex in the list. The
/// face contacts list the first shape's face corners before the second's, so a point near a
/// corner of each (edges lined up) takes the first shape's name whichever face is the
/// reference. The tolerance must be below half the shortest edge, so one face's corners
/// never compete.
void snap_to_vertices(std::span<RawPoint> points, const Vec3& normal, const Vec3* vertices,
                      const std::array<FeatureCode, 2>* names, int count, double tolerance);

/// Drops every point whose feature pair an earlier point already has, keeping the deeper one
/// in the earlier place (a clip point that snapped onto a vertex kept beside it, the same
/// seam point from two mesh triangles); returns the new count. Points without features are
/// merged when they lie within `merge_distance` (m) of each other.
int merge_same_features(std::span<RawPoint> points, int count, double merge_distance);

/// In the reduction a later candidate displaces the best so far only when its score times
/// this is still larger (Box3D's b3ReduceManifoldPoints: "a pecking order to avoid flickering
/// between candidates with similar scores"): two corners that add nearly the same area keep
/// the earlier one, in the clipped polygon's order, which depends on features, not on noise.
inline constexpr double kManifoldReduceBias = 0.95;

/// Up to kMaxManifoldPoints of the `count` points (normal `normal`, unit) into `out`, keeping
/// the contact's area (Box3D, src/convex_manifold.c, b3ReduceManifoldPoints; Bullet's
/// btPersistentManifold::sortCachedPoints keeps the deepest and the largest area the same way):
///
///     p0 = among the points within kManifoldDepthTieRelative · spread of the deepest (all of a
///          flat contact's), the one farthest along a fixed direction across the normal: the
///          deepest where depths differ, else a corner chosen by position, not by noise
///     p1 = the point farthest from p0 across the normal
///     p2 = the point that makes the triangle p0 p1 p2 largest (|signed area| about the normal)
///     p3 = the point farthest outside that triangle (the most area added), if any is outside
///     (each "farthest", "largest" with the pecking order `bias`: kManifoldReduceBias for one
///     clipped polygon, whose order is its features'; 1 for points merged from several, which
///     arrive in no such order)
///
/// Points that add no area (all on a line, or all at one place within 1e-12 of the spread)
/// are not taken. Four or fewer points are kept as they are. `out.normal` is left alone.
void reduce_points(std::span<const RawPoint> points, int count, const Vec3& normal, RawManifold& out,
                   double bias = kManifoldReduceBias);

/// The raw manifold of two convex shapes (sphere, box, turned box, capsule, triangle, hull;
/// never a plane or a mesh: the convex table has no row for them), `a` the first: the convex
/// table's family for their two kinds (manifold.cpp, manifold.h), which the mesh family calls
/// per triangle. False when farther apart than `margin` (m).
bool convex_manifold(const Shape& a, const Shape& b, double margin, RawManifold& out);

} // namespace collide
