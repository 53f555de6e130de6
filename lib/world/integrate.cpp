// Integration: velocities (gravity; a character's run intent), then each body's motion over
// the step — a constant acceleration of its reference point from its velocity after the impacts
// to its solved one, a turn by the exponential map — and, at the end, the angular velocity
// carried through the turn so that the angular momentum is kept (the gyroscopic term).
#include <algorithm>
#include <atomic>
#include <cmath>

#include "math/free_turn.h"
#include "math/quat.h"
#include "math/trig.h"
#include "queries/time_of_impact.h"
#include "world/integrate.h"

#include "world/character.h"

namespace collide {

namespace {
void begin_body_motion(const StepContext& ctx, WorldState& w, int i);
void advance_body(WorldState& w, int index, double tau);
void end_body_motion(WorldState& w, int i);
void turn_kinematic(WorldState& w, int index, double tau);
} // namespace

void integrate_velocities(const StepContext& ctx, WorldState& w) {
    // (A character carried by what it stands on reads that body's velocity: in body order then.)
    if (!w.has_characters) {
        w.threads.for_blocks(w.body_count(), kBodiesPerBlock, [&](int begin, int end) {
            for (int i = begin; i < end; ++i) {
                BodySim& s = w.sims[static_cast<std::size_t>(i)];
                Body& b = w.bodies[static_cast<std::size_t>(i)];
                if (b.kind != BodyKind::dynamic || b.asleep) continue;
                s.start_velocity = s.velocity; // after the impacts: where the step's motion starts
                s.start_angular = s.angular_velocity;
                s.velocity += ctx.gravity * ctx.h;
                b.constrained = false;
                b.arriving = false;
            }
        });
        return;
    }
    for (int i = 0; i < w.body_count(); ++i) {
        BodySim& s = w.sims[static_cast<std::size_t>(i)];
        Body& b = w.bodies[static_cast<std::size_t>(i)];
        if (b.kind == BodyKind::dynamic && !b.asleep) {
            s.start_velocity = s.velocity; // after the impacts: where the step's motion starts
            s.start_angular = s.angular_velocity;
            s.velocity += ctx.gravity * ctx.h;
            b.constrained = false;
            b.arriving = false;
        } else if (b.kind == BodyKind::character) {
            CharacterBody& c = w.characters[static_cast<std::size_t>(b.character)];
            c.fall += ctx.gravity * ctx.h;
            s.velocity = c.desired + c.fall;
            if (c.floor_body >= 0) s.velocity += carried_velocity(w, b, i);
        }
    }
}

void begin_motion(const StepContext& ctx, WorldState& w, StepScratch& scratch) {
    // A body the solver pushed moves with the acceleration its impulses and gravity gave it;
    // one it did not falls freely (exactly g, so a free fall stays the exact parabola). A body
    // that a contact with a gap pushed, approaching it faster than the impact speed, arrives
    // within the step: the solver's end velocity is the one that closes the gap in h
    // (v_n = −s/h), so it moves with that velocity throughout — the mean of start and end would
    // carry it past the surface. (A resting contact's gap closes at a speed near 0: the mean
    // keeps a slide along it exact.)
    // (Each contact's two flags found in blocks at once, then set on its bodies in order.)
    scratch.touched.resize(w.constraints.contacts.size());
    w.threads.for_blocks(static_cast<int>(w.constraints.contacts.size()), 1024, [&](int begin, int end) {
        for (int k = begin; k < end; ++k) {
            const SolverContact& c = w.constraints.contacts[static_cast<std::size_t>(k)];
            bool pushed = false, arrived = false;
            for (int q = c.first; q < c.first + c.count; ++q) {
                const SolverPoint& p = w.constraints.points[static_cast<std::size_t>(q)];
                const PointInfo& info = w.constraints.info[static_cast<std::size_t>(q)];
                pushed = pushed || p.normal_impulse != 0 || p.tangent1_impulse != 0 || p.tangent2_impulse != 0;
                arrived = arrived || (!info.touching && p.normal_impulse > 0 && info.approach < -ctx.impact_speed);
            }
            scratch.touched[static_cast<std::size_t>(k)] =
                    static_cast<unsigned char>((pushed ? 1 : 0) | (arrived ? 2 : 0));
        }
    });
    // (Set on the bodies in blocks too: a flag is only ever set, so blocks that share a body
    // store the same value, each store atomic.)
    w.threads.for_blocks(static_cast<int>(w.constraints.contacts.size()), 1024, [&](int begin, int end) {
        for (auto k = static_cast<std::size_t>(begin); k < static_cast<std::size_t>(end); ++k) {
            const unsigned char flags = scratch.touched[k];
            if (!(flags & 1)) continue;
            const SolverContact& c = w.constraints.contacts[k];
            for (const int body : {c.a, c.b}) {
                Body& b = w.bodies[static_cast<std::size_t>(body)];
                std::atomic_ref<bool>(b.constrained).store(true, std::memory_order_relaxed);
                if (flags & 2) std::atomic_ref<bool>(b.arriving).store(true, std::memory_order_relaxed);
            }
        }
    });
    w.threads.for_blocks(w.body_count(), kBodiesPerBlock, [&](int begin, int end) {
        for (int i = begin; i < end; ++i) begin_body_motion(ctx, w, i);
    });
}

namespace {
void begin_body_motion(const StepContext& ctx, WorldState& w, int i) {
    {
        BodySim& s = w.sims[static_cast<std::size_t>(i)];
        Body& b = w.bodies[static_cast<std::size_t>(i)];
        if (b.kind != BodyKind::dynamic || b.asleep) {
            s.accel = s.angular_accel = Vec3{};
            return;
        }
        b.step_rotation = s.rotation;
        const Vec3 end = s.velocity, end_angular = s.angular_velocity;
        if (ctx.exact && !b.arriving) {
            s.accel = b.constrained ? (end - s.start_velocity) * ctx.inv_h : ctx.gravity;
            s.angular_accel = (end_angular - s.start_angular) * ctx.inv_h;
            s.velocity = s.start_velocity;
            s.angular_velocity = s.start_angular;
        } else {
            s.accel = Vec3{};
            s.angular_accel = Vec3{};
        }
        b.free_turn = !b.constrained && b.turns && !b.round && !is_zero(s.angular_velocity);
        if (b.free_turn) turn_freely(s, b, ctx.h);
    }
}
} // namespace

void turn_freely(BodySim& s, Body& b, double h) {
    const Mat3 r0 = to_mat3(s.rotation);
    const Vec3 body_momentum = b.inertia_local * mul_transpose(r0, s.angular_velocity);
    Vec3 turn;
    if (!turn_free_of_torque(b.inv_inertia_local, body_momentum, h, turn)) {
        b.free_turn = false; // too fast a tumble, or the passes did not settle: the step's own turn
        return;
    }
    b.free_momentum = r0 * body_momentum;
    b.free_body_momentum = body_momentum;
    b.free_length = h;
    b.free_elapsed = 0;
    s.angular_velocity = (r0 * turn) * (1 / h); // the turn, at a constant rate through the step
    s.angular_accel = Vec3{};
}

void spin_from_momentum(BodySim& s, const Body& b) {
    s.inv_inertia = world_inverse_inertia(s.rotation, b.inv_inertia_local);
    s.angular_velocity = s.inv_inertia * b.free_momentum;
}

void advance(WorldState& w, double tau) {
    if (tau <= 0) return;
    if (w.wanted & kOnMove) { // observers hear of the moves in body order
        for (int i = 0; i < w.body_count(); ++i) advance_body(w, i, tau);
        return;
    }
    w.threads.for_blocks(w.body_count(), kBodiesPerBlock, [&](int begin, int end) {
        for (int i = begin; i < end; ++i) advance_body(w, i, tau);
    });
}

namespace {
void advance_body(WorldState& w, int index, double tau) {
    BodySim& s = w.sims[static_cast<std::size_t>(index)];
    Body& b = w.bodies[static_cast<std::size_t>(index)];
    switch (b.kind) {
    case BodyKind::fixed: return;
    case BodyKind::dynamic: {
        if (b.asleep) return;
        const bool turning = b.turns && !(is_zero(s.angular_velocity) && is_zero(s.angular_accel));
        if (is_zero(s.velocity) && is_zero(s.accel) && !turning) return;
        if (w.wanted & kOnMove) tell_move(w, index, tau, s.accel);
        s.centre += s.velocity * tau + s.accel * (0.5 * tau * tau);
        s.velocity += s.accel * tau;
        if (turning) {
            if (b.free_turn && !(b.free_elapsed == 0 && tau == b.free_length)) {
                // Part of a torque-free turn (a time of impact inside the step): on the turn
                // itself, whose energy is its start's at every instant, not at the constant
                // rate that meets it only at the ends.
                b.free_elapsed += tau;
                s.rotation = b.free_elapsed < b.free_length
                                     ? free_turn_rotation(b.step_rotation, b.inv_inertia_local, b.free_body_momentum,
                                                          b.free_elapsed)
                                     : normalize(exp_rotation(s.angular_velocity * b.free_length) * b.step_rotation);
            } else {
                const Vec3 theta = s.angular_velocity * tau + s.angular_accel * (0.5 * tau * tau);
                s.rotation = normalize(exp_rotation(theta) * s.rotation);
                s.angular_velocity += s.angular_accel * tau;
                b.free_elapsed += tau;
            }
            if (!b.round) refresh_body(w, index);
        }
        b.dirty = true;
        return;
    }
    case BodyKind::kinematic:
    case BodyKind::character:
        if (is_zero(s.velocity) && !b.spinning) return;
        if (w.wanted & kOnMove) tell_move(w, index, tau, Vec3{});
        s.centre += s.velocity * tau;
        b.dirty = true;
        if (b.spinning) [[unlikely]]
            turn_kinematic(w, index, tau);
        return;
    }
}
} // namespace

void end_motion(WorldState& w) {
    w.threads.for_blocks(w.body_count(), kBodiesPerBlock, [&](int begin, int end) {
        for (int i = begin; i < end; ++i) end_body_motion(w, i);
    });
}

namespace {
void end_body_motion(WorldState& w, int i) {
    {
        BodySim& s = w.sims[static_cast<std::size_t>(i)];
        Body& b = w.bodies[static_cast<std::size_t>(i)];
        if (b.kind != BodyKind::dynamic || b.asleep) return;
        s.accel = s.angular_accel = Vec3{};
        if (!b.turns || b.round) return;
        if (b.free_turn) { // its turn kept L and its energy: ω₁ = I(q₁)⁻¹·L
            spin_from_momentum(s, b);
            b.free_turn = false;
            return;
        }
        // The gyroscopic term, exactly: the angular momentum the solver left, L = I(q₀)·ω, is
        // carried through the turn, ω ← I(q₁)⁻¹·L (a torque-free body keeps L; |L| is kept
        // within rounding however fast it tumbles).
        const Mat3 r0 = to_mat3(b.step_rotation);
        const Vec3 momentum = r0 * (b.inertia_local * mul_transpose(r0, s.angular_velocity));
        s.inv_inertia = world_inverse_inertia(s.rotation, b.inv_inertia_local);
        s.angular_velocity = s.inv_inertia * momentum;
    }
}
} // namespace

void refresh_body(WorldState& w, int index) {
    BodySim& s = w.sims[static_cast<std::size_t>(index)];
    Body& b = w.bodies[static_cast<std::size_t>(index)];
    b.dirty = true;
    if (b.kind != BodyKind::dynamic || b.turning < 0 || s.rotation == b.base_rotation) return;
    b.origin_offset = rotate(s.rotation, b.local_centre) * -1.0;
    place_into(b.base, w.turning[static_cast<std::size_t>(b.turning)].local, Vec3{}, s.rotation);
    b.base_bounds = bounds_of(b.base);
    b.base_rotation = s.rotation;
    s.inv_inertia = b.turns ? world_inverse_inertia(s.rotation, b.inv_inertia_local) : zero3();
}

namespace {
/// A turning kinematic body turned on by `tau` s: its rotation exp(ω·t)·q0 at its new time
/// (exact, no drift), its shape placed anew from the local shape.
[[gnu::noinline]] void turn_kinematic(WorldState& w, int index, double tau) {
    BodySim& s = w.sims[static_cast<std::size_t>(index)];
    Body& b = w.bodies[static_cast<std::size_t>(index)];
    TurningShape& t = w.turning[static_cast<std::size_t>(b.turning)];
    t.spin_time += tau;
    s.rotation = spin_rotation(s.angular_velocity, t.spin_time) * t.rotation0;
    place_into(b.base, t.local, Vec3{}, s.rotation);
    b.base_bounds = bounds_of(b.base);
    b.base_rotation = s.rotation;
}
} // namespace

} // namespace collide
