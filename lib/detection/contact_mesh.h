#pragma once
/// \file
/// Shapes against a static triangle mesh (shapes/mesh.h): the shape is brought into the mesh's
/// frame, the mesh's hierarchy yields the triangles near it, each is tested with the triangle
/// routines (closed form for a sphere, SAT for a box, GJK/EPA for capsules and hulls), and the
/// answer is turned back into the world frame.
///
/// **No ghost contacts on internal edges** (Jolt's active edges, JoltPhysics
/// Jolt/Geometry/ActiveEdges.h, rewritten): a triangle's contact normal that comes from one of
/// its inactive edges or corners — the feature of the triangle farthest along the normal — is
/// replaced by the triangle's face normal, and the depth is measured again along it. A body
/// sliding across a floor tiled by many triangles then only ever meets the floor's face normal,
/// as on one flat box.
///
/// **One contact per pair**: of the triangles the shape overlaps, the deepest after that
/// correction (ties: the first in hierarchy order). The world repeats its discrete pass, so the
/// next triangle is resolved by the next pass.

#include <optional>

#include "detection/contact.h"
#include "detection/dispatch.h"
#include "shapes/mesh.h"

namespace collide {

/// The face normal that replaces a contact normal from an inactive feature of triangle `t`
/// (its feature flags `features`), or empty when `outward` (unit, from the triangle toward the
/// other shape) may stay: it is the face normal already (within 1e-6 of the longest edge, the
/// triangle's farthest point along it is all three corners: then the exact face normal is
/// returned), or it comes from an active edge or corner. The face normal is turned to the side
/// `outward` points to, or, when `outward` lies in the triangle's plane, to the side of `other`
/// (the other shape's centre); all in one frame.
std::optional<Vec3> inactive_feature_normal(const Triangle& t, TriangleFeatures features, const Vec3& outward,
                                            const Vec3& other);

/// The contact of a sphere with a triangle (two-sided) in closed form: normal from the
/// triangle's closest point to the centre (the face normal, turned to the sphere's side, when
/// the centre lies on the triangle), depth radius − distance. Ericson 5.1.5.
std::optional<Contact> contact_triangle_sphere(const Triangle& t, const Sphere& s);

/// Shape A (world frame; not a mesh nor a plane) against mesh B: normal from A to B, depth > 0;
/// separated; unsupported for a mesh or a plane (both only ever static).
ContactQuery contact_shape_mesh(const Shape& a, const Mesh& b);

/// The distance from shape A (world frame; not a mesh nor a plane) to mesh B: the nearest
/// triangle's (a hierarchy walk pruned by box distances). The normal, A → B, is that
/// triangle's face normal where the nearest feature is an inactive edge or corner.
DistanceResult distance_shape_mesh(const Shape& a, const Mesh& b);

} // namespace collide
