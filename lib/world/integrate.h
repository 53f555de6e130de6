#pragma once
/// \file
/// Integration (stages 3 and 5 of world/stages.h): velocities get gravity (a character its run
/// intent), then each body moves over the step — a constant acceleration of its reference point
/// from its velocity after the impacts to its solved one, a turn by the exponential map of its
/// angular velocity (or, free of torque, along the torque-free turn itself: math/free_turn.h) —
/// and at the end its angular velocity is carried through the turn so that its angular
/// momentum is kept (the gyroscopic term). Bodies go in blocks on the world's threads.

#include "world/step_context.h"
#include "world/world_state.h"

namespace collide {

/// Stage 3: v += g·h for every awake dynamic body (its velocity before, where the step's
/// motion starts, kept as start_velocity); a character's velocity becomes its run intent plus
/// its accumulated fall plus what carries it.
void integrate_velocities(const StepContext& ctx, WorldState& w);

/// Stage 5, start: each awake dynamic body's motion over the step — the constant acceleration
/// that takes it from its start velocity to its solved one (exact integrator), or its solved
/// velocity throughout (Euler, or a body a contact with a gap pushed: it arrives touching) —
/// and, for a body no contact pushes that turns free of torque, that turn (turn_freely()).
void begin_motion(const StepContext& ctx, WorldState& w, StepScratch& scratch);

/// Moves every body on along its motion by `tau` s (≥ 0), telling observers that want moves of
/// each, in body order (then on one thread).
void advance(WorldState& w, double tau);

/// Stage 5, end: each dynamic body that turned gets the angular velocity that keeps its angular
/// momentum through the turn, ω₁ = I(q₁)⁻¹·L (a torque-free turn's L, or the L the solver left).
void end_motion(WorldState& w);

/// A body no contact pushes, turning: its turn over `h` s free of torque (math/free_turn.h),
/// as a constant angular velocity, and its angular momentum for end_motion(); leaves free_turn
/// false when the turn cannot be found.
void turn_freely(BodySim& s, Body& b, double h);

/// A body turning free of torque: its world inverse inertia at its rotation now, and its
/// angular velocity there, I(q)⁻¹·L (L its free_momentum).
void spin_from_momentum(BodySim& s, const Body& b);

/// Body `index` moved or turned: its placed shape is stale, and a dynamic body that turns its
/// shape gets its shape, bounds and world inverse inertia at its rotation now.
void refresh_body(WorldState& w, int index);

} // namespace collide
