#pragma once
/// \file
/// The shapes collide knows, as small value types with public fields, all in one frame (the
/// world frame once a body has placed them; a body's local frame in a scenario definition).
/// No shape allocates or owns memory: a hull, like a mesh, is a handle onto points held apart.

#include <array>
#include <cstdint>
#include <variant>

#include "math/quat.h"

namespace collide {

/// A ball: every point within `radius` (m) of `centre`.
struct Sphere {
    Vec3 centre;       ///< centre (m)
    double radius = 0; ///< radius (m), ≥ 0
};

/// An axis-aligned box, min ≤ max on every axis (m).
struct Aabb {
    Vec3 min; ///< the corner with the smallest coordinates (m)
    Vec3 max; ///< the corner with the largest coordinates (m)
};

/// A turned (oriented) box: centre, three unit axes at right angles (the columns of its
/// rotation matrix) and the half-size along each.
struct Obb {
    Vec3 centre; ///< centre (m)
    Mat3 axes;   ///< columns are the box's unit axes u, v, w in the enclosing frame
    Vec3 half;   ///< half-size along u, v, w (m), each ≥ 0
};

/// A capsule: every point within `radius` of the segment from `a` to `b` (a character's usual
/// proxy: no corners to catch on stairs).
struct Capsule {
    Vec3 a;            ///< one end of the core segment (m)
    Vec3 b;            ///< the other end (m)
    double radius = 0; ///< radius (m), ≥ 0
};

/// A triangle with corners a, b, c. Its face normal is normalize((b − a) × (c − a)).
struct Triangle {
    Vec3 a; ///< first corner (m)
    Vec3 b; ///< second corner (m)
    Vec3 c; ///< third corner (m)
};

/// The most points a hull may have.
inline constexpr int kHullMaxPoints = 32;

/// A hull's points in its own frame: the storage a Hull is a view of (owned by the body that
/// holds it, BodyDef::hull_data, or by whoever makes a Hull).
struct HullPoints {
    std::array<Vec3, kHullMaxPoints> points{}; ///< the points (m); only the first `count` are used
    int count = 0;                             ///< how many points are used, 1…kHullMaxPoints
};

/// A convex hull: the convex set spanned by the points of a HullPoints (interior points are
/// allowed and simply never become support points), placed: its point k is at
/// rotation·data->points[k] + position. A non-owning handle, like Mesh: placing or moving a
/// hull composes this transform and never copies its points, so every shape stays small.
struct Hull {
    const HullPoints* data = nullptr; ///< the points (hull frame); null only for an empty hull
    Mat3 rotation;                    ///< hull frame → enclosing frame (identity by default)
    Vec3 position;                    ///< where the hull frame's origin is (m)

    /// How many points it has (0 without data).
    int count() const { return data ? data->count : 0; }
    /// Point k (0 ≤ k < count()) in the enclosing frame (m).
    Vec3 point(int k) const { return rotation * data->points[static_cast<std::size_t>(k)] + position; }
};

/// A hull of the points `data` as they are (identity placement); `data` must outlive it.
inline Hull hull_of(const HullPoints& data) { return Hull{&data, Mat3{}, Vec3{}}; }

/// A hull's points where it is placed (the enclosing frame, m), in its order.
HullPoints placed_points(const Hull& hull);

/// A half-space: the solid side is every x with dot(normal, x) ≤ offset; its surface is the
/// plane dot(normal, x) = offset. Infinite, so only ever static.
struct Plane {
    Vec3 normal{0, 1, 0}; ///< unit outward normal (points out of the solid side)
    double offset = 0;    ///< signed distance of the surface from the origin along `normal` (m)
};

struct TriangleMesh; // shapes/mesh.h

/// A triangle mesh (static level geometry): a non-owning handle onto immutable mesh data
/// (shapes/mesh.h; owned by the body that holds it, BodyDef::mesh_data) and where it is placed:
/// a mesh-frame point p is at rotation·p + position. Placing or moving a mesh only composes
/// this transform; the data is never copied.
struct Mesh {
    const TriangleMesh* data = nullptr; ///< the triangles and their hierarchy (mesh frame); never null in a scenario
    Mat3 rotation;                      ///< mesh frame → enclosing frame (identity by default)
    Vec3 position;                      ///< where the mesh frame's origin is (m)
};

/// Any shape. The order is fixed: `index()` is a stable shape kind.
using Shape = std::variant<Sphere, Aabb, Obb, Capsule, Triangle, Hull, Plane, Mesh>;

/// The shape kinds, in the variant's order.
enum class ShapeKind : std::uint8_t { sphere, aabb, obb, capsule, triangle, hull, plane, mesh };

/// The kind of a shape.
inline ShapeKind kind_of(const Shape& s) { return static_cast<ShapeKind>(s.index()); }
/// A lower-case name for a shape kind ("sphere", "box", "box" for turned boxes too, ...).
const char* shape_kind_name(ShapeKind kind);

/// A turned box equal to the axis-aligned box (identity axes).
Obb to_obb(const Aabb& box);
/// The centre of an axis-aligned box (m).
constexpr Vec3 centre_of(const Aabb& box) { return (box.min + box.max) * 0.5; }
/// Half the size of an axis-aligned box along x, y, z (m).
constexpr Vec3 half_of(const Aabb& box) { return (box.max - box.min) * 0.5; }
/// The 8 corners of a turned box, in the order (−,−,−), (−,−,+), (−,+,−), … along (u, v, w).
std::array<Vec3, 8> corners_of(const Obb& box);

/// A representative centre of a shape (m): the centre of a sphere or box, the middle of a
/// capsule's segment, a triangle's centroid, the mean of a hull's points, a plane's point
/// nearest the origin, the centre of a mesh's bounds.
Vec3 centre_of(const Shape& shape);

/// The tightest axis-aligned box around a shape (m). A plane's bounds are infinite on the axes
/// it is not perpendicular to; a mesh's are its hierarchy's root box, turned and moved.
Aabb bounds_of(const Shape& shape);

/// The shape moved by `offset` (m) without turning.
Shape translate(const Shape& shape, const Vec3& offset);

/// A shape given in a body's local frame placed in the world: rotated by `rotation` about the
/// local origin, then moved to `position`. An axis-aligned box that is turned becomes an Obb;
/// with the identity rotation every shape keeps its kind.
Shape place(const Shape& local, const Vec3& position, const Quat& rotation);

/// Sets `out` to `shape`, writing only the alternative `shape` holds (a hull's used points
/// only), not the whole variant: `out = shape` copies every byte of the largest alternative.
void assign_shape(Shape& out, const Shape& shape);

/// Sets `out` to translate(shape, offset) (m), writing only the alternative it holds.
void translate_into(Shape& out, const Shape& shape, const Vec3& offset);

/// Sets `out` to place(local, position, rotation), writing only the alternative it holds.
void place_into(Shape& out, const Shape& local, const Vec3& position, const Quat& rotation);

/// The largest distance (m) from `point` to any point of a bounded shape: how far a point of
/// it can be from `point`, e.g. the radius of the ball a shape turning about `point` sweeps.
/// Infinity for a plane; for a mesh, the farthest corner of its bounds (an upper bound).
double max_distance_from(const Shape& shape, const Vec3& point);

/// The point of the shape farthest along `direction` (any length, not zero): the support
/// mapping GJK and EPA are built on. A plane has no support point and returns its point
/// nearest the origin; callers never ask a plane (the dispatcher handles planes in closed form).
/// A mesh returns its farthest vertex (its convex hull's support point; O(vertices)): the mesh
/// queries never ask, they work triangle by triangle.
Vec3 support(const Shape& shape, const Vec3& direction);

} // namespace collide
