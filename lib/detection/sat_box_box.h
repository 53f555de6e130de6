#pragma once
/// \file
/// The separating axis test for two turned boxes: 15 candidate axes.

#include <optional>

#include "detection/contact.h"
#include "detection/sat.h"
#include "shapes/shapes.h"

namespace collide {

/// The separating axis test of two turned boxes (see SatResult for the meaning of the answer).
/// Candidate order (count 15): A's faces u, v, w (index 1–3, face_a i = 1…3), B's faces
/// (4–6, face_b), then A's edge i × B's edge j (index 6 + 3·(i − 1) + j, edge_edge), where a
/// box's edges 1, 2, 3 run along its u, v, w. Nearly parallel edge pairs are skipped (see
/// kSatParallelEpsilon). The overlap depth is exact on every tested axis (edge axes normalised),
/// so an overlapping answer is the true minimum translation among the 15 axes, with no bias
/// toward face axes. The box axes must be orthonormal (a rotation matrix's columns).
SatResult sat_box_box(const Obb& a, const Obb& b);

/// True when the two turned boxes overlap by more than kTouchEpsilon on every tested axis
/// (exactly when contact_box_box has a value). The fastest yes/no: no square roots. The batched
/// SIMD baseline the benchmarks compare it with (bench/baselines/overlap_box_box_batch.h) gives
/// the same answers.
bool overlap_box_box(const Obb& a, const Obb& b);

/// The contact of two turned boxes: normal from A to B and depth from sat_box_box; empty when
/// separated or touching.
std::optional<Contact> contact_box_box(const Obb& a, const Obb& b);

} // namespace collide
