#pragma once
/// \file
/// The separating axis test for any two convex shapes given by their corners and the
/// directions of their faces and edges: the generic form, which projects every corner on every
/// candidate axis (each face normal, and each cross product of an edge of A with an edge of B).

#include <span>

#include "detection/contact.h"
#include "detection/sat.h"
#include "math/vec3.h"

namespace collide {

/// A convex shape as the separating axis test sees it (world frame). Each face direction and
/// each edge direction is listed once (a box has 3 of each, not 6 faces and 12 edges); they need
/// not be unit length. A zero face normal (a degenerate face) is skipped.
struct ConvexView {
    std::span<const Vec3> vertices; ///< the corners (m), at least one
    std::span<const Vec3> normals;  ///< face directions (any non-zero length)
    std::span<const Vec3> edges;    ///< edge directions (any non-zero length)
};

/// The separating axis test of two convex shapes (see SatResult). Candidate order (count =
/// |A.normals| + |B.normals| + |A.edges|·|B.edges|): A's normals (face_a, i = 1…), B's normals
/// (face_b), then A's edge i × B's edge j with i the slow index (edge_edge). Each axis is
/// normalised and both shapes' corners projected on it (O((f + e²)·v) work); the overlap is
/// min(maxA − minB, maxB − minA) and the normal points along +axis when the first is the
/// smaller one (ties: +axis). Nearly parallel edge pairs and zero normals are skipped but keep
/// their place in the numbering. If no axis can be tested at all the answer is "not separated"
/// with index 0 and gap 0.
SatResult sat_convex(const ConvexView& a, const ConvexView& b);

} // namespace collide
