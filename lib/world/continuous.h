#pragma once
/// \file
/// Continuous detection (stage 5 of world/stages.h, between begin_motion() and end_motion()):
/// the bodies move over the step along the motions the solver gave them, stopping at each time
/// of impact of a swept pair that is not touching yet (not in contact, or in contact with a gap
/// at every point). At an impact the pair's manifold gets an impact's impulse (Poisson's
/// restitution, each manifold solved exactly) and the rest of the step is solved again for the
/// two bodies, their other contacts included and every other body held (Box2D v2's time-of-
/// impact sub-step, rewritten): a ball that lands without bouncing rests on the floor for the
/// rest of the step instead of sinking into it. Then the next impact (the same pair's too: a
/// tumbling box's next corner), up to kMaxImpactsPerStep, then the rest of the step.

#include "world/step_context.h"
#include "world/world_state.h"

namespace collide {

/// Moves every body through the step (w.step seconds from w.step_start), stopping at the swept
/// pairs' times of impact and solving each there; without swept pairs, one advance() by ctx.h.
void move_continuously(const StepContext& ctx, WorldState& w, StepScratch& scratch);

} // namespace collide
