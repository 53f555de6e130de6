#pragma once
/// \file
/// Sphere casts: when a sphere moving in a straight line first touches a static obstacle
/// within a step. This is what stops a fast sphere tunnelling through a thin wall between two
/// frames: it asks about the whole movement, not the moment.
///
/// Conventions shared by every `cast_` function (world frame, m, s, m/s):
/// - The sphere's centre moves as c(t) = centre + velocity·t for t in [0, t_max]. The obstacle
///   is static; for two moving bodies pass the relative velocity (A's minus B's).
/// - A hit is the first time t at which the sphere touches the obstacle **and goes on into
///   it**. Following the contact convention (touching is not contact):
///   * touching at t = 0 while moving away is not a hit;
///   * moving tangentially, e.g. sliding along a face exactly at the contact distance, or
///     grazing an edge or a corner without entering, is not a hit (the sphere never overlaps);
///   * touching at t = 0 while moving in is a hit at time 0 with started_inside = false.
/// - `normal` is unit and points from the moving sphere (A) toward the obstacle (B) at the
///   touch, as in lib/detection/contact.h; `point` is the touch point on the obstacle's surface.
/// - `started_inside`: the sphere already overlaps the obstacle at t = 0. Reported with
///   time 0, the contact normal there (A to B) and the obstacle's surface point nearest to the
///   centre; never passed off as an ordinary hit at 0.
/// - A zero velocity (without overlap) or t_max < 0 gives no hit.

#include <optional>

#include "shapes/shapes.h"

namespace collide {

/// Where a cast sphere first touches an obstacle.
struct CastHit {
    double time = 0;             ///< first touch (s), in [0, t_max]; 0 when started_inside
    Vec3 normal;                 ///< unit, from the sphere toward the obstacle at the touch (world frame)
    Vec3 point;                  ///< the touch point on the obstacle's surface (m, world frame)
    bool started_inside = false; ///< already overlapping at t = 0
};

/// Exact cast of a sphere against an axis-aligned box: the centre is cast as a ray against the
/// box's rounded Minkowski sum with the ball (6 face slabs, 12 edge cylinders, 8 corner balls),
/// Ericson, Real-Time Collision Detection, 5.5.7 "Intersecting moving sphere against AABB".
/// Started inside when the centre lies strictly inside the box or within `radius` of it; the
/// normal is then toward the box's nearest point, or, for a centre inside the box, opposite the
/// nearest face's outward normal (ties: x before y before z, the min face before the max face).
std::optional<CastHit> cast_sphere_box(const Sphere& sphere, const Vec3& velocity, const Aabb& box, double t_max);

/// Exact cast of a sphere against a turned box (the AABB cast in the box's frame).
std::optional<CastHit> cast_sphere_box(const Sphere& sphere, const Vec3& velocity, const Obb& box, double t_max);

/// Exact cast of a sphere against a static sphere (a ray against the ball of the summed radii).
/// When the centres coincide at t = 0 the normal is the direction of motion (+x when still).
std::optional<CastHit> cast_sphere_sphere(const Sphere& sphere, const Vec3& velocity, const Sphere& other,
                                          double t_max);

/// Exact cast of a sphere against a triangle (two-sided): the centre cast against the
/// triangle's slab of thickness 2·radius over its face, its 3 edge capsules and (inside those)
/// its 3 corner balls. A zero-radius sphere never enters a flat triangle and is not reported
/// (use raycast_triangle); a degenerate triangle counts as its edge capsules only. When the
/// centre lies on the triangle at t = 0 the normal is the face normal turned along the motion.
std::optional<CastHit> cast_sphere_triangle(const Sphere& sphere, const Vec3& velocity, const Triangle& triangle,
                                            double t_max);

/// Exact cast of a sphere against a triangle mesh: cast_sphere_triangle against each triangle
/// the swept sphere's bounds reach (hierarchy walk in the mesh's frame, no allocation); the
/// earliest hit wins (ties: the first in hierarchy order). A hit on an inactive edge or corner
/// (shapes/mesh.h) takes the triangle's face normal, turned toward the sphere, and is no hit when
/// the sphere does not move into that face (sliding over a seam). started_inside
/// is reported only when the sphere overlaps a triangle at t = 0 and hits no other one later:
/// a ball resting on a mesh floor still meets the mesh's wall.
std::optional<CastHit> cast_sphere_mesh(const Sphere& sphere, const Vec3& velocity, const Mesh& mesh, double t_max);

} // namespace collide
