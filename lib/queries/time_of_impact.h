#pragma once
/// \file
/// Time of impact of two convex shapes moving without turning over one step, for motions
/// that are exact under constant acceleration (a falling body's parabola) as well as straight.

#include <optional>

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

/// A body turning at a constant angular velocity about a point that moves in a straight line:
/// at time t its points are o(t) + R(t)·(p − o(0)), with o(t) = origin + velocity·t and R(t) the
/// rotation by angle |ω|·t about ω (world frame).
struct TurningMotion {
    Vec3 origin;           ///< the point it turns about, at t = 0 (m, world frame)
    Vec3 velocity;         ///< velocity of that point (m/s)
    Vec3 angular_velocity; ///< ω (rad/s, world frame; right-hand rule)
};

/// The rotation by angle |ω|·t about ω (a unit quaternion, exact: no integration drift).
Quat spin_rotation(const Vec3& angular_velocity, double t);

/// The shape `shape` (world frame, at t = 0) carried by `motion` to time `t` (s).
Shape turned_at(const Shape& shape, const TurningMotion& motion, double t);

/// When shape A turning by `ma` first touches shape B translating by `mb`, within [0, t_max] s;
/// the normal is from A to B. Conservative advancement (Mirtich 1996, section 2.3.2; Box2D's
/// b2TimeOfImpact and Jolt's CastShape use the same bound): at a time t with gap d > 0 and
/// normal n, no point of A moves along n faster than v_A·n + |ω|·ρ_max (ρ_max: the farthest
/// point of A from its turning point) and no point of B comes back faster than its own
/// translation, so the gap is at least
///     g(τ) = d + ((v_B(t) − v_A)·n − |ω|·ρ_max)·τ + ½(a_B·n)·τ²
/// and stepping to g's first root can never pass the first touch:
///     t ← 0
///     repeat: (d, n) ← signed separation of A(t), B(t)
///             d ≤ tolerance: hit at t
///             τ ← first root of g in (0, t_max − t]; none: miss
///             t ← t + τ
/// The steps shrink with the gap (linearly: by the share of the bound the real closing speed
/// is), so `tolerance` (m) is reached in a bounded number of steps; the time is then within
/// tolerance / closing speed of the touch. Starting states: overlapping deeper than tolerance
/// → started_inside; touching and approaching (B's velocity relative to A's surface velocity
/// at B's point nearest A, along n, < 0) → hit at 0; touching and not approaching → miss (the
/// caller's discrete pass resolves a contact that stays).
Toi time_of_impact_turning(const Shape& a, const TurningMotion& ma, const Shape& b, const Motion& mb, double t_max,
                           double tolerance = 1e-10);

/// A turn free of torque (math/free_turn.h) that started before t = 0: at time t the body's
/// rotation is free_turn_rotation(start, inv_inertia, momentum, elapsed + t).
struct FreeTurnMotion {
    Quat start;         ///< the rotation the turn started from (world frame)
    Mat3 inv_inertia;   ///< inverse inertia tensor, body frame (1/(kg·m²))
    Vec3 momentum;      ///< angular momentum at `start`, body frame (kg·m²/s)
    double elapsed = 0; ///< how long it had turned at t = 0 (s)
};

/// A body moving and turning over a step: its reference point (a dynamic body's centre of mass,
/// a kinematic body's origin) follows c(t) = centre + velocity·t + ½·acceleration·t², and the
/// body turns about it by the rotation exp(ω·t + ½·α·t²) (the rotation vector's exponential
/// map, world frame) — or, with `free`, along that torque-free turn (ω then its angular velocity
/// at t = 0, α unused).
struct RigidMotion {
    Vec3 centre;                        ///< the reference point at t = 0 (m, world frame)
    Vec3 velocity;                      ///< its velocity at t = 0 (m/s)
    Vec3 acceleration;                  ///< its constant acceleration (m/s²)
    Vec3 angular_velocity;              ///< ω at t = 0 (rad/s, world frame)
    Vec3 angular_acceleration;          ///< α, constant (rad/s²)
    std::optional<FreeTurnMotion> free; ///< a torque-free turn instead of ω and α
};

/// When shape A moving by `ma` first touches shape B moving by `mb`, both possibly turning,
/// within [0, t_max] s; the normal is from A to B. Conservative advancement as for
/// time_of_impact_turning, with the bound on every point's speed along n taken over what is left
/// of the step: no point of A moves along n faster than its reference point plus
/// (|ω_A(t)| + |α_A|·(t_max − t))·ρ_A (on a torque-free turn, |Π|·‖I⁻¹‖ bounds |ω| throughout),
/// ρ_A the farthest point of A from its reference point, and
/// likewise for B, so the gap is at least
///     g(τ) = d + ((v_B(t) − v_A(t))·n − w_A·ρ_A − w_B·ρ_B)·τ + ½((a_B − a_A)·n)·τ²
/// and stepping to g's first root never passes the first touch. Starting states as for
/// time_of_impact_turning (touching and approaching at the nearest points: hit at 0), but for
/// one: touching and leaving faster than the tolerance over t_max (a box that has just bounced
/// off a corner) is searched on from the first time it is clear of the touch (doubling from
/// twice the time the leaving speed takes to clear the tolerance), so that another part coming
/// down within the step (its next corner) is found; one that never gets clear is a miss. Against a
/// mesh, each triangle the bodies can reach is searched and the earliest hit wins; a hit on an
/// inactive edge or corner takes the face normal and is none when the motion there does not go
/// into the face.
Toi time_of_impact_rigid(const Shape& a, const RigidMotion& ma, const Shape& b, const RigidMotion& mb, double t_max,
                         double tolerance = 1e-10);

} // namespace collide
