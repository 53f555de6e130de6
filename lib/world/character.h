#pragma once
/// \file
/// Characters (stage 8 of world/stages.h; Godot's move_and_slide, Unity's CharacterController):
/// after the step moved them in a straight line, passes push each character out of every other
/// body (the others do not move) — a walkable surface is a floor: lifted straight up until clear
/// by the skin, falling stops, the run intent slides along it; a steeper one is a wall: pushed
/// out along its normal, sliding with the pair's friction — then steps are climbed (step_height)
/// and the ground snapped to (snap_distance).

#include "world/step_context.h"
#include "world/world_state.h"

namespace collide {

/// The push-out passes, steps and snapping of every character (up to character_iterations
/// passes, until one finds no overlap); observers that want contacts hear of each push-out.
void move_characters(const StepContext& ctx, WorldState& w, StepScratch& scratch);

/// What character `c` (body `index`) standing on a kinematic body gets from it: that body's
/// velocity at the character's foot (its lowest point along −up), its turning included;
/// nothing when the body under it is not kinematic.
Vec3 carried_velocity(const WorldState& w, const Body& c, int index);

} // namespace collide
