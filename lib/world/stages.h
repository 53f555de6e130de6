#pragma once
/// \file
/// The stages of a step, in the one order World::step walks them (Box2D v3's
/// b2SolverStageType). Each stage is a free function over the step's context
/// (world/step_context.h), the world's tables and the stages' scratch (world/world_state.h), in
/// a file of its own (the contact solver's are in world/contact_solver.h):
///  1. *prepare* (contact_solver): the contacts found at the end of the last step become solver
///     constraints, with the impulses they carried (warm starting by feature id), grouped into
///     islands (world/solver_islands.h); a swept pair with a gap at every point is left to its
///     time of impact (it is `cast`);
///  2. *impacts* (contact_solver): points that touch and approach at the step's start get the
///     impulse of an impact (Poisson's restitution above the bounce speed, Coulomb friction), on
///     the velocities before gravity;
///  3. *integrate velocities* (integrate): v += g·h for dynamic bodies;
///  4. *solve* (contact_solver): each gap's bias, warm start, then up to velocity_iterations
///     passes of sequential impulses per island — no penetration, speculative gaps closing at
///     most to touching, friction in Coulomb's cone — until a pass changes no velocity by more
///     than velocity_tolerance;
///  5. *integrate positions* (integrate, continuous): each body moves over the step with the
///     constant acceleration that takes it from its velocity after the impacts to its solved
///     one and turns by the exponential map (or along its torque-free turn); swept pairs not
///     touching stop the step at their times of impact, where each is solved; then each body's
///     angular velocity is carried through its turn so that its angular momentum is kept;
///  6. *restitution* (contact_solver): a speculative gap that closed bounces (and is told of);
///  7. *store impulses* (contact_solver): the impulses go back to the persistent contacts;
///  8. *characters* (character): push-out + slide + steps + snap;
///  9. *correct positions* (contact_solver): penetrations are pushed out without adding
///     velocity, and the bodies moved are placed anew;
/// 10. *update contacts* (contacts_update): each body's reach over the next step, then the
///     broadphase's candidate pairs get their manifolds at the new poses;
/// 11. *sleep* (sleep): islands of touching dynamic bodies still for rest_time fall asleep.
/// Observers then hear of the frame (World::step_frame).

#include <string_view>

#include "world/step_context.h"
#include "world/world_state.h"

namespace collide {

/// A stage of a step.
enum class StepStage {
    prepare,
    impacts,
    integrate_velocities,
    solve,
    integrate_positions,
    restitution,
    store_impulses,
    characters,
    correct_positions,
    update_contacts,
    sleep,
};

/// The stages of a step, in the order World::step runs them.
inline constexpr StepStage kStepStages[] = {
        StepStage::prepare,
        StepStage::impacts,
        StepStage::integrate_velocities,
        StepStage::solve,
        StepStage::integrate_positions,
        StepStage::restitution,
        StepStage::store_impulses,
        StepStage::characters,
        StepStage::correct_positions,
        StepStage::update_contacts,
        StepStage::sleep,
};

/// The stage's name as the list above spells it ("integrate velocities").
std::string_view stage_name(StepStage stage);

/// Runs one stage of a step of ctx.h seconds.
void run_stage(StepStage stage, const StepContext& ctx, WorldState& w, StepScratch& scratch);

} // namespace collide
