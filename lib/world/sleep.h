#pragma once
/// \file
/// Sleep (stage 11 of world/stages.h; Box2D's islands, simplified): dynamic bodies joined by
/// contacts form islands; an island that rests on a static or kinematic body and whose every
/// body has been slower than rest_speed (and turning slower than rest_speed per metre of size)
/// for rest_time falls asleep — velocities zeroed, not integrated, solved or collided among
/// themselves — and wakes as a whole when one of its bodies moves again or a moving kinematic
/// body or character touches it. `world.sleep: false` keeps every body awake.

#include "world/step_context.h"
#include "world/world_state.h"

namespace collide {

/// Counts each awake dynamic body's still time over the step and puts to sleep, or wakes, whole
/// islands; finds the islands only when some body could fall asleep or wake.
void update_sleep(const StepContext& ctx, WorldState& w, StepScratch& scratch);

} // namespace collide
