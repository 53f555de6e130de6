#pragma once
/// \file
/// Ray casts against every shape kind: the first point where a ray meets a shape, for picking,
/// line of sight and hitscan weapons (a ray from the camera through an enemy's head, torso and
/// limb hitboxes).
///
/// Conventions shared by every `raycast_` function:
/// - The ray is origin + s·û with û = normalize(direction); `distance` is in metres along û.
///   A zero (or non-finite) direction hits nothing.
/// - Shapes are closed: a ray that only grazes the surface (tangent to a ball, along a face,
///   through an edge) hits it.
/// - A hit counts when its distance is in [0, max_distance] (m).
/// - `started_inside`: the origin is already inside the shape (not merely on its surface while
///   entering). Then distance = 0, point = origin and normal = −û: there is no surface between
///   the origin and the shape, so the normal only says "blocked from the start".
/// - An origin exactly on the surface with the ray going in is a hit at distance 0 with the
///   surface normal, not started_inside.

#include <optional>
#include <span>

#include "shapes/shapes.h"

namespace collide {

/// A ray: a start point and a direction (any length, not zero; normalised internally). World
/// frame.
struct Ray {
    Vec3 origin;    ///< start point (m)
    Vec3 direction; ///< direction of travel; only its direction matters
};

/// Where a ray first meets a shape.
struct RayHit {
    double distance = 0;         ///< metres from the origin along the unit direction, ≥ 0
    Vec3 point;                  ///< the hit point origin + distance·û (m, world frame)
    Vec3 normal;                 ///< unit outward surface normal at the hit (world frame); −û when started_inside
    bool started_inside = false; ///< the origin was inside the shape: distance 0, normal −û
};

/// The raw answer of the slab test: the parameters where the line origin + t·direction enters
/// and leaves the box, in units of |direction| (t = metres only when direction is unit).
struct SlabResult {
    bool hit = false;            ///< the ray (t ≥ 0) meets the closed box: enter ≤ exit and exit ≥ 0
    double enter = 0;            ///< where the line enters the box (may be < 0 or −∞ behind the origin)
    double exit = 0;             ///< where the line leaves the box (may be +∞)
    bool started_inside = false; ///< hit and enter < 0: the origin is inside the box
};

/// The slab test for the ray origin + t·direction (t ≥ 0) against a closed axis-aligned box
/// (Kay & Kajiya; Ericson 5.3.3). Branch-free per axis (min/max and masked selects); a zero
/// direction component is handled through
/// 1/0 = ±∞ (a ray parallel to a slab and outside it misses; one lying exactly in a face plane
/// touches the closed box). `direction` must not be the zero vector.
SlabResult slab_ray_aabb(const Vec3& origin, const Vec3& direction, const Aabb& box);

/// First hit of a ray on an axis-aligned box; the normal is the entered face's (±x, ±y, ±z).
std::optional<RayHit> raycast_aabb(const Ray& ray, const Aabb& box, double max_distance);

/// First hit of a ray on a ball.
std::optional<RayHit> raycast_sphere(const Ray& ray, const Sphere& sphere, double max_distance);

/// First hit of a ray on a turned box (the slab test in the box's frame).
std::optional<RayHit> raycast_obb(const Ray& ray, const Obb& box, double max_distance);

/// First hit of a ray on a capsule (two end balls and the cylinder between them).
std::optional<RayHit> raycast_capsule(const Ray& ray, const Capsule& capsule, double max_distance);

/// First hit of a ray on a triangle, from either side, by the watertight test of Woop, Benthin
/// & Wald 2013 ("Watertight Ray/Triangle Intersection", JCGT 2(1)) with exact signs for its edge
/// functions: a ray through an edge or a corner hits (the triangle is closed), and two triangles
/// that share an edge or a corner agree exactly about it, so a ray can never pass between them
/// (see raycast_mesh). The normal is the face normal turned to face the ray (dot(normal, û) < 0).
/// A triangle is flat, so a ray never starts inside it; a ray lying in the triangle's plane
/// (|n̂·û| ≤ 1e−12) misses it; an origin on the triangle is a hit at distance 0. A degenerate
/// triangle (zero area) is never hit.
std::optional<RayHit> raycast_triangle(const Ray& ray, const Triangle& triangle, double max_distance);

/// First hit of a ray on a half-space (the solid side of a plane).
std::optional<RayHit> raycast_plane(const Ray& ray, const Plane& plane, double max_distance);

/// First hit of a ray on a convex hull of points. A solid hull is clipped against its supporting
/// planes (Cyrus & Beck 1978), found by trying the plane through every three points — O(n⁴) for
/// n points (≈ 160,000 dot products at the 32-point limit; a box's 8 points need 448), no
/// allocation. A flat hull (all points in one plane) is hit as a two-sided polygon, a hull
/// whose points lie on one line as a segment, a one-point hull as a point (a ray meets these
/// only when it passes exactly through them). A hull with count < 1 is empty and never hit.
std::optional<RayHit> raycast_hull(const Ray& ray, const Hull& hull, double max_distance);

/// First hit of a ray on a triangle mesh: the ray in the mesh's frame walks its hierarchy
/// nearer box first (slab test per node on the boxes grown by 2^−40 of the scene's size, so no
/// node whose triangles the ray meets is skipped for rounding; the watertight raycast_triangle
/// test per triangle, the ray prepared once; no allocation). Each triangle is two-sided and
/// never started inside, as raycast_triangle. **Watertight**: a ray through an edge or a corner
/// shared by triangles hits them; it never slips between them, on any build (README,
/// Reliability; tests/queries/watertight_test.cpp). Such a ray reports one hit: the nearest
/// distance any triangle gives, on equal distances the first triangle in hierarchy order; the
/// normal is that triangle's face normal facing the ray (never a blend of two).
std::optional<RayHit> raycast_mesh(const Ray& ray, const Mesh& mesh, double max_distance);

/// First hit of a ray on any shape (dispatch on the kind). Every kind is answered.
std::optional<RayHit> raycast_shape(const Ray& ray, const Shape& shape, double max_distance);

/// The nearest of several targets a ray hits, and which one.
struct NearestHit {
    int index = -1; ///< index of the target in the span
    RayHit hit;     ///< the hit on that target
};

/// The target the ray hits first within max_distance (m); on equal distances the lowest index
/// wins. Empty when it hits none.
std::optional<NearestHit> raycast_nearest(const Ray& ray, std::span<const Shape> targets, double max_distance);

} // namespace collide
