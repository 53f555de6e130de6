#pragma once
/// \file
/// Updating the contacts (stage 10 of world/stages.h): at the end of a step the broadphase's
/// candidate pairs get their manifolds at the new poses, a pair comes into or stays in contact
/// by the rules of world/contacts.h, and the impulses its points carried are matched to the new
/// points (warm starting). On several threads the candidates' contacts are found at once, then
/// placed in one fixed order: the same contacts, bit for bit, for every thread count.

#include "world/step_context.h"
#include "world/world_state.h"

namespace collide {

/// Each body's reach over a step of `h` s: how far a point of it can move (m) — an awake
/// dynamic body's speed, its fall under gravity and its turn; a moving kinematic body's or
/// character's speed and turn; 0 for the rest.
void update_reach(WorldState& w, double h);

/// Finds the contacts anew at the bodies' poses now (w.contacts replaced): every candidate pair
/// the rules accept, in (i, j) order, carrying the impulses of its old contact (or of its
/// contact from a time of impact this step); contacts of two bodies that do not move stay as
/// they were. `at_start` (reset): pairs within the skin start in contact. Observers that want
/// contacts hear of each pair that overlaps or has come to touch, once a frame.
void update_contacts(const StepContext& ctx, WorldState& w, StepScratch& scratch, bool at_start);

/// Pair (i, j)'s contact in w.contacts, or else the contact it came into at a time of impact
/// this step (find_impact_pair()), or null.
PairContact* find_contact(WorldState& w, int i, int j);

/// The contact pair (i, j) came into at a time of impact this step (the latest, for a pair that
/// met twice), or null.
PairContact* find_impact_pair(WorldState& w, int i, int j);

} // namespace collide
