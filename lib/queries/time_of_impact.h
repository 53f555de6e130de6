#pragma once
/// \file
/// Time of impact of two convex shapes moving without turning over one step, for motions
/// that are exact under constant acceleration (a falling body's parabola) as well as straight.

#include "detection/dispatch.h"

namespace collide {

/// A translation over a step: p(t) = p(0) + velocity·t + ½·acceleration·t² (m, s).
struct Motion {
    Vec3 velocity;     ///< velocity at t = 0 (m/s)
    Vec3 acceleration; ///< constant acceleration over the step (m/s²); zero for a straight cast
};

/// The position offset of a motion after t seconds (m).
constexpr Vec3 offset_at(const Motion& m, double t) { return m.velocity * t + m.acceleration * (0.5 * t * t); }

/// What a time-of-impact query found.
enum class ToiStatus {
    hit,            ///< first touch at `time` in [0, t_max]
    miss,           ///< no touch within [0, t_max]
    started_inside, ///< already overlapping at t = 0: reported, never passed off as a hit at 0
    unsupported,    ///< no distance algorithm for this pair
};

/// The answer of a time-of-impact query.
struct Toi {
    ToiStatus status = ToiStatus::miss; ///< what was found
    double time = 0;                    ///< time of first touch (s), valid for hit
    Vec3 normal;                        ///< unit normal from A to B at the touch, valid for hit
};

/// When shape A moving by `ma` first touches shape B moving by `mb`, within [0, t_max] seconds.
/// Conservative advancement on the GJK distance (Mirtich 1996; Box2D's b2TimeOfImpact in spirit):
/// never skips a first contact, converges to within `tolerance` metres of touching.
/// Against a mesh: the earliest hit of the triangles the swept bounds reach, each by the same
/// advancement; a hit on an inactive edge or corner takes the triangle's face normal
/// (shapes/mesh.h), and is none when the motion does not go into that face (sliding over a seam); started_inside only
/// when no triangle is hit; a mesh against a mesh or a plane is unsupported.
Toi time_of_impact(const Shape& a, const Motion& ma, const Shape& b, const Motion& mb, double t_max,
                   double tolerance = 1e-10);

} // namespace collide
