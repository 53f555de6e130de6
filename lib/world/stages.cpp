// The stages of a step: each stage's work over the tables, in the order of world/stages.h.
#include "world/stages.h"

#include <atomic>

#include "world/character.h"
#include "world/contacts_update.h"
#include "world/continuous.h"
#include "world/integrate.h"
#include "world/sleep.h"

namespace collide {

namespace {

void prepare(const StepContext& ctx, WorldState& w, StepScratch& scratch) {
    // Warm-start impulses of steady forces grow with the step.
    if (w.last_step != ctx.h) {
        const double scale = ctx.h / w.last_step;
        for (ContactPoint& cp : w.contacts.points) {
            cp.normal_impulse *= scale;
            cp.tangent_impulse = cp.tangent_impulse * scale;
        }
    }
    // A swept pair whose contact has a gap at every point is not the solver's: its time of impact
    // within the step, if it has one, is found and solved there (continuous), so an impact inside
    // the step gets the impulse of that instant and no friction acts across the gap.
    if (w.any_swept)
        for (PairContact& pc : w.contacts.pairs) pc.cast = !pc.touching && w.pair_is_swept(pc.i, pc.j);
    scratch.active.resize(w.sims.size());
    w.threads.for_blocks(w.body_count(), kBodiesPerBlock, [&](int begin, int end) {
        for (int i = begin; i < end; ++i)
            scratch.active[static_cast<std::size_t>(i)] = w.is_dynamic(i) && !w.body(i).asleep;
    });
    prepare_contacts(ctx, w.contacts, w.sims, scratch.active, w.round, w.constraints, w.threads);
    group_islands(w.constraints.contacts, w.sims, w.constraints.islands, w.threads);
}

void impacts(const StepContext& ctx, WorldState& w, StepScratch& scratch) {
    save_velocities(w, scratch, w.constraints.contacts);
    if (solve_impacts(ctx, w.constraints, w.sims, w.threads)) tell_responses(w, scratch, w.constraints.contacts);
}

void solve(const StepContext& ctx, WorldState& w) {
    // (The gaps' bounds depend on the separations only: the same whether found before gravity or after.)
    prepare_biases(ctx, w.constraints, w.threads);
    // The passes work on the contacts' bodies only, 56 bytes each (SolverBody), not on BodySim.
    gather_solver_bodies(w.constraints, w.sims, w.threads);
    warm_start(w.constraints, w.threads);
    solve_velocities(ctx, w.constraints, w.threads);
    scatter_solver_bodies(w.constraints, w.sims, w.threads);
}

void integrate_positions(const StepContext& ctx, WorldState& w, StepScratch& scratch) {
    begin_motion(ctx, w, scratch);
    move_continuously(ctx, w, scratch);
    end_motion(w);
}

void restitution(const StepContext& ctx, WorldState& w, StepScratch& scratch) {
    save_velocities(w, scratch, w.constraints.contacts);
    // (Gathered again: the motion moved the bodies' velocities since the solve.)
    gather_solver_bodies(w.constraints, w.sims, w.threads);
    if (apply_restitution(ctx, w.constraints, w.threads)) {
        scatter_solver_bodies(w.constraints, w.sims, w.threads);
        tell_responses(w, scratch, w.constraints.contacts);
    }
    tell_arrivals(w, scratch);
}

void correct(const StepContext& ctx, WorldState& w, StepScratch& scratch) {
    if (!correct_positions(ctx, w.constraints, w.sims, w.threads)) return;
    scratch.touched.assign(w.sims.size(), 0);
    // (A mark is only ever set: contacts that share a body store the same value, each atomic.)
    w.threads.for_blocks(static_cast<int>(w.constraints.contacts.size()), 4096, [&](int begin, int end) {
        for (int k = begin; k < end; ++k) {
            const SolverContact& c = w.constraints.contacts[static_cast<std::size_t>(k)];
            std::atomic_ref<unsigned char>(scratch.touched[static_cast<std::size_t>(c.a)])
                    .store(1, std::memory_order_relaxed);
            std::atomic_ref<unsigned char>(scratch.touched[static_cast<std::size_t>(c.b)])
                    .store(1, std::memory_order_relaxed);
        }
    });
    w.threads.for_blocks(w.body_count(), kBodiesPerBlock, [&](int begin, int end) {
        for (int k = begin; k < end; ++k)
            if (scratch.touched[static_cast<std::size_t>(k)]) refresh_body(w, k);
    });
}

void renew_contacts(const StepContext& ctx, WorldState& w, StepScratch& scratch) {
    update_reach(w, w.def.dt); // (the next step's reach)
    update_contacts(ctx, w, scratch, false);
}

} // namespace

std::string_view stage_name(StepStage stage) {
    switch (stage) {
    case StepStage::prepare: return "prepare";
    case StepStage::impacts: return "impacts";
    case StepStage::integrate_velocities: return "integrate velocities";
    case StepStage::solve: return "solve";
    case StepStage::integrate_positions: return "integrate positions";
    case StepStage::restitution: return "restitution";
    case StepStage::store_impulses: return "store impulses";
    case StepStage::characters: return "characters";
    case StepStage::correct_positions: return "correct positions";
    case StepStage::update_contacts: return "update contacts";
    case StepStage::sleep: return "sleep";
    }
    return "?";
}

void run_stage(StepStage stage, const StepContext& ctx, WorldState& w, StepScratch& scratch) {
    switch (stage) {
    case StepStage::prepare: prepare(ctx, w, scratch); return;
    case StepStage::impacts: impacts(ctx, w, scratch); return;
    case StepStage::integrate_velocities: integrate_velocities(ctx, w); return;
    case StepStage::solve: solve(ctx, w); return;
    case StepStage::integrate_positions: integrate_positions(ctx, w, scratch); return;
    case StepStage::restitution: restitution(ctx, w, scratch); return;
    case StepStage::store_impulses: store_impulses(w.constraints, w.contacts, w.threads); return;
    case StepStage::characters:
        if (w.has_characters) move_characters(ctx, w, scratch);
        return;
    case StepStage::correct_positions: correct(ctx, w, scratch); return;
    case StepStage::update_contacts: renew_contacts(ctx, w, scratch); return;
    case StepStage::sleep: update_sleep(ctx, w, scratch); return;
    }
}

} // namespace collide
