#pragma once
/// \file
/// The separating axis test (SAT) in 3D: the shared vocabulary of its answers.
///
/// Two convex shapes are apart exactly when some plane fits between them. The candidate axes
/// (plane normals) are the face normals of both shapes and the cross product of every edge
/// direction of A with every edge direction of B. Each test lists its candidates in a fixed
/// order: A's face normals, then B's face normals, then A's edge i × B's edge j with i the
/// slow index. Edge pairs that are parallel or nearly so (|u × v|² ≤ kSatParallelEpsilon ·
/// |u|²·|v|²) give no usable axis and are skipped, but keep their place in the numbering.

#include "math/vec3.h"

namespace collide {

/// Edge pairs with |u × v|² ≤ kSatParallelEpsilon · |u|²·|v|² (sine of the angle between them
/// below about 3.2e-5) are treated as parallel and skipped: their cross product is too short
/// for rounding errors not to fake a gap.
inline constexpr double kSatParallelEpsilon = 1e-9;

/// One candidate axis of a separating axis test.
struct SatAxis {
    /// Where the axis comes from.
    enum class Kind {
        face_a,    ///< a face normal of A
        face_b,    ///< a face normal of B
        edge_edge, ///< the cross product of an edge direction of A and one of B
    };
    Kind kind = Kind::face_a; ///< where the axis comes from
    int i = 0;                ///< 1-based face of A (face_a), face of B (face_b) or edge of A (edge_edge)
    int j = 0;                ///< 1-based edge of B for edge_edge, else 0
    int index = 0;            ///< 1-based position among the candidate axes in the test's fixed order
    int count = 0;            ///< how many candidate axes the test has (15 for box–box, 13 for box–triangle)
};

/// The answer of a separating axis test. World frame.
///
/// - `separated`: the FIRST axis in the fixed order whose shadows do not overlap by more than
///   kTouchEpsilon; `gap` = the distance between the two shadows on it (m, ≥ 0: shapes exactly
///   touching, or overlapping by at most kTouchEpsilon, report gap 0); `normal` = that axis as a
///   unit vector oriented from A towards B.
/// - not separated: the axis of MINIMUM overlap among all tested axes (the first such axis on a
///   tie); `gap` = that overlap = the penetration depth (m, > kTouchEpsilon); `normal` = the unit
///   axis oriented from A to B, so moving B by normal·gap leaves the shapes touching.
struct SatResult {
    bool separated = true; ///< true when some axis shows a gap (or the shapes just touch)
    SatAxis axis;          ///< the first separating axis, or the axis of least overlap
    double gap = 0;        ///< the gap (separated) or the penetration depth (overlapping), m
    Vec3 normal;           ///< unit axis from A to B, world frame
};

} // namespace collide
