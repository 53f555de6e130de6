#pragma once
/// \file
/// Mass properties of the shapes, exactly: volume, centre of mass and inertia tensor for a
/// uniform density. Every result is in the frame the shape is given in (a body's local frame
/// when the shape is its local shape); the inertia is about the centre of mass. A turned or
/// offset shape is handled by its own placement: an Obb's axes turn its box's tensor
/// (R·I·Rᵀ), a sphere's or a hull's offset moves its centre.
///
/// Closed forms: a sphere (2/5·m·r²), a box (m/3·(b² + c²) with half extents a, b, c), a
/// capsule (a cylinder and two hemispheres, each hemisphere moved by the parallel-axis theorem
/// from its own centre of mass 3r/8 from its flat face), a triangle as a thin plate (its
/// second moment (1/12)·(Σ vᵢvᵢᵀ + s·sᵀ), s = Σ vᵢ). A hull is integrated over its faces
/// (polyhedral mass properties: Mirtich, "Fast and Accurate Computation of Polyhedral Mass
/// Properties", 1996; the tetrahedron form of Eberly, "Polyhedral Mass Properties
/// (Revisited)", 2002); a flat hull is a thin plate like a triangle. Planes and meshes are only
/// ever static and have no mass properties.

#include <array>

#include "shapes/shapes.h"

namespace collide {

/// A rigid body's mass properties.
struct MassProperties {
    double mass = 0; ///< kg
    Vec3 centre;     ///< centre of mass (m, the shape's frame)
    Mat3 inertia;    ///< inertia tensor about `centre` (kg·m², the shape's frame); symmetric
};

/// The volume of a shape (m³): 0 for a triangle and a flat hull (a thin plate), infinite for a
/// plane, 0 for a mesh (level geometry has no volume of its own).
double volume_of(const Shape& shape);

/// The mass properties of `shape` given its `mass` (kg > 0), density uniform over its volume
/// (over its area for a triangle or a flat hull). Planes and meshes give a zero tensor at
/// their representative centre.
MassProperties mass_properties(const Shape& shape, double mass);

/// The faces of a hull's convex hull, found once (not on a hot path): each face's outward unit
/// normal, its plane offset (dot(normal, x) = offset on it) and its corners as indices into
/// the hull's points, counter-clockwise seen from outside. Coplanar triangles merge into one face;
/// points inside the hull or inside a face are in no face.
struct HullFaces {
    static constexpr int kMaxFaces = 2 * kHullMaxPoints;   ///< a convex polyhedron of n corners has ≤ 2n − 4 faces
    static constexpr int kMaxCorners = 2 * kHullMaxPoints; ///< room for every face's corners together
    struct Face {
        Vec3 normal;       ///< outward unit normal
        double offset = 0; ///< dot(normal, x) for x on the face (m)
        int first = 0;     ///< index of its first corner in `corners`
        int count = 0;     ///< how many corners (≥ 3)
    };
    std::array<Face, kMaxFaces> faces{};
    int face_count = 0;
    std::array<int, 3 * kMaxCorners> corners{}; ///< every face's corner indices, face after face
    int corner_count = 0;
    bool flat = false; ///< every point lies in one plane (within rounding): no volume
};

/// The convex hull faces of `hull`'s points (brute force over point triples: fine for at most
/// kHullMaxPoints points, done once per body). A flat hull gives its one polygon twice, once
/// per side, and `flat` set; fewer than three distinct points give no face.
HullFaces hull_faces(const HullPoints& points);

/// The convex hull faces of `hull` where it is placed: hull_faces(placed_points(hull)).
inline HullFaces hull_faces(const Hull& hull) { return hull_faces(placed_points(hull)); }

} // namespace collide
