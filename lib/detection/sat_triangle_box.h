#pragma once
/// \file
/// The separating axis test for a triangle against a turned box: 13 candidate axes.

#include <optional>

#include "detection/contact.h"
#include "detection/sat.h"
#include "shapes/shapes.h"

namespace collide {

/// The separating axis test of a turned box (A) and a triangle (B); see SatResult. Candidate
/// order (count 13): the box's faces u, v, w (index 1–3, face_a), the triangle's face (4,
/// face_b i = 1), then box edge i × triangle edge j (index 4 + 3·(i − 1) + j, edge_edge), the
/// box's edges 1–3 running along u, v, w and the triangle's edges 1–3 being b − a, c − b,
/// a − c. A degenerate (zero-area) triangle skips its face axis; nearly parallel edge pairs
/// are skipped (kSatParallelEpsilon). Normal from the box to the triangle.
SatResult sat_box_triangle(const Obb& box, const Triangle& tri);

/// The same test with the triangle as A, in its own order (count 13): the triangle's face
/// (index 1, face_a), the box's faces (2–4, face_b), then triangle edge i × box edge j (index
/// 4 + 3·(i − 1) + j). Normal from the triangle to the box.
SatResult sat_triangle_box(const Triangle& tri, const Obb& box);

/// The contact of a box (A) and a triangle (B) from sat_box_triangle; empty when separated or
/// touching. The triangle counts as a thin solid: its two sides are treated alike.
std::optional<Contact> contact_box_triangle(const Obb& box, const Triangle& tri);

/// The contact of a triangle (A) and a box (B) from sat_triangle_box.
std::optional<Contact> contact_triangle_box(const Triangle& tri, const Obb& box);

} // namespace collide
