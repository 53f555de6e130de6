#pragma once
/// \file
/// Manifolds of a convex shape against a static triangle mesh: one per triangle the shape comes
/// within the margin of, each normal corrected by the active-edge rule, merged where normals
/// agree (Box3D's src/mesh_contact.c collects per-triangle manifolds the same way; the
/// active-edge rule is Jolt's, detection/contact_mesh.h).

#include <span>

#include "detection/manifold.h"
#include "shapes/mesh.h"

namespace collide {

/// The most manifolds one shape–mesh pair keeps (more distinct normals keep the deepest).
inline constexpr int kMaxMeshManifolds = 16;

/// Two triangles' manifolds are merged into one when their normals agree within this
/// (1 − cos of the angle between them: about 1.4e-5 rad); a floor of coplanar triangles then
/// gives one manifold, a fold of more than that two.
inline constexpr double kMeshMergeCos = 1e-10;

/// The manifolds of convex shape `a` (sphere, box, turned box, capsule, triangle, hull) and
/// mesh `m`, every point deeper than −`margin` (m ≥ 0), written to `out` (at most
/// min(out.size(), kMaxMeshManifolds)); their count returned, −1 when unsupported (a plane
/// or a mesh as `a`, or a mesh without data). With `mesh_first` the mesh is the caller's A:
/// every normal then points from the mesh to the shape.
///
///     in the mesh's frame, for each triangle t whose bounds touch the shape's grown by the
///     margin (hierarchy order):
///         the convex manifold of (shape, t)
///         if its normal comes from an inactive edge or corner of t (inactive_feature_normal),
///         the face contact with t's face as the reference instead: the shape's face clipped
///         against t's sides, depths along the face normal; nothing kept: no manifold
///         merged into the manifold whose normal agrees (kMeshMergeCos): the points of both,
///         those naming the same features once (the same box corner seen through two
///         triangles, the same seam point), reduced to four; its key the smaller triangle
///         index; else a new manifold (key t), or, when full, in place of the shallowest if
///         deeper
///     sorted by key, turned back to the world frame
///
/// Feature ids of points made by the shape's features alone (a box corner over a face) do not
/// involve the triangle, so they survive sliding from one triangle to the next; points that
/// involve triangle features name them by global mesh vertex indices (hashed ids).
int manifolds_shape_mesh(const Shape& a, const Mesh& m, double margin, bool mesh_first, std::span<Manifold> out);

} // namespace collide
