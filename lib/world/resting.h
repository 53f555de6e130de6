#pragma once
/// \file
/// The resting estimate, made once when a world is reset (before its first step).

#include "world/step_context.h"
#include "world/world_state.h"

namespace collide {

/// Bodies set in contact at t = 0 start held: each contact's points start (for warm starting)
/// with a static estimate of the weight they carry, passed down the contacts from the top:
/// taking the dynamic bodies from the farthest from the ground to the nearest, each body's load
/// (its own weight over the first step, m·|g|·h, plus what rests on it) is shared equally by the
/// points of its contacts with bodies nearer the ground, each point taking its share along its
/// normal's upward part. The solver refines the estimate (torque balance, friction); without it,
/// the first steps of a tall stack would spend their iterations finding out that it is held, and
/// it would sag meanwhile.
void estimate_resting_impulses(const StepContext& ctx, WorldState& w, StepScratch& scratch);

} // namespace collide
