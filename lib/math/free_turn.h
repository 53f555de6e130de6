#pragma once
/// \file
/// The torque-free turn of a rigid body over a time, as the world's motion stage uses it for a
/// body no contact pushes (world/integrate.cpp) and time of impact for such a body's path
/// (queries/time_of_impact.h).
///
/// Carrying the angular momentum L through a turn by ω·h (ω ← I(q₁)⁻¹·L) keeps L, but not the
/// kinetic energy ½·L·ω: a box spun about its middle axis would gain energy at every flip and
/// end spinning about its long axis, three and a half times as fast. The implicit midpoint rule
/// on Euler's equations in the body frame keeps both of their quadratic invariants, |Π| and
/// Π·I⁻¹Π, and with the Cayley rotation it implies (the turn by 2·atan(h·|ω_m|/2) about ω_m) the
/// world-frame L = R·Π is kept too (Lewis and Simo 1994; Hairer, Lubich and Wanner, Geometric
/// Numerical Integration, VII.5): the box flips over and back, again and again, as a real one.
/// The rule's step is retimed so that a spin about a principal axis turns by exactly ω·h.

#include "math/mat3.h"
#include "math/quat.h"
#include "math/vec3.h"

namespace collide {

/// The fastest turn (rad) turn_free_of_torque follows in one call (in sub-steps of 0.25 rad).
inline constexpr double kMaxFreeTurn = 100;

/// For a body with inverse inertia `inv_inertia` (body frame, 1/(kg·m²)) and angular momentum
/// `momentum` (Π₀, body frame, kg·m²/s), free of torque for `h` s: sets `turn` to the rotation
/// vector (rad, body frame) that takes its orientation from the step's start to its end (apply
/// it as exp_rotation(R₀·turn)·q₀), and returns true; returns false (turn unset) when the
/// fixed-point passes do not settle or h·|ω| is kMaxFreeTurn or more (a tumble too fast to be
/// worth the sub-steps). The rotation vector is the end's, the shorter way: past half a turn it
/// is not the path's (free_turn_rotation gives the path at any time).
bool turn_free_of_torque(const Mat3& inv_inertia, const Vec3& momentum, double h, Vec3& turn);

/// A body turning free of torque from rotation `start` with body-frame momentum `momentum` and
/// inverse inertia `inv_inertia` (body frame): its rotation after `t` s, exp(R₀·turn)·q₀ with
/// turn_free_of_torque's turn, or exp(R₀·I⁻¹Π·t)·q₀ (a constant rate) where that does not settle.
Quat free_turn_rotation(const Quat& start, const Mat3& inv_inertia, const Vec3& momentum, double t);

} // namespace collide
