#pragma once
/// \file
/// The fixed-step world: rigid bodies that move and turn, pushed apart by an impulse solver at
/// contact manifolds; discrete, swept or speculative detection (per world or per body);
/// characters moved by push-out + slide + slope limit; kinematic bodies that move and turn at
/// given rates; triggers; sleeping; and observers told what happened. It is built from plain
/// definitions (model/bodies.h) and needs nothing of a scenario file or of the log:
/// measurements are observers (probes/). One World can be reset and stepped again; once warmed
/// up by a world of the same size, stepping allocates nothing.
///
/// **Time.** Bodies are at their given poses at t = 0. Frame k (k = 0 … frames − 1) is sampled
/// at t_k = (k + phase)·dt. The world first advances from 0 to t_0 (a step of phase·dt,
/// possibly 0), then by dt per frame; the step ending at t_k belongs to frame k.
///
/// **Bodies** (BodyKind): static bodies never move; kinematic bodies move at their velocity and
/// turn at their angular velocity about their position (rotation(t) = exp(ω·t)·rotation0,
/// exactly), never pushed; characters are moved by their controller (below) and never turn;
/// dynamic bodies move under gravity and contacts and turn about their centre of mass, with the
/// mass (or density × volume) and the exact inertia tensor of their shape (shapes/mass.h); one
/// with `fixed_rotation` never turns. To a dynamic body, every other kind is a body of infinite
/// mass moving as it moves. Triggers (any kind) are in no pair: nothing responds to them.
///
/// **A step** of h seconds is the list of stages in world/stages.h (prepare, impacts, integrate
/// velocities, solve, integrate positions with continuous detection, restitution, store
/// impulses, characters, correct positions, update contacts, sleep), each a free function over
/// the world's tables (world/world_state.h) in a file of its own; then observers hear of the
/// frame.
///
/// **Contacts and detection.** Discrete: a pair comes into contact when its shapes overlap at a
/// sampled frame (bullets tunnel when no frame lands them in the wall). Swept: at the exact time
/// of impact. Speculative (Catto, "Continuous Collision", GDC 2013): when its gap is smaller
/// than the distance its motion can close in the next step; the solver lets it arrive touching
/// and the restitution pass bounces it at the speed it had. Either way, a pair in contact is the
/// solver's until it parts by more than the skin: a resting body stays on its floor exactly.
///
/// **Characters** (`character: true`, like Godot's move_and_slide): every step the body's given
/// `velocity` is its run intent, plus gravity accumulated while airborne and the velocity at its
/// foot of the kinematic body it stands on; it moves in a straight line, then up to
/// character_iterations passes push it out of every other body (the others do not move): a
/// walkable surface (slope from up ≤ slope_limit) is a floor — lifted straight up until clear by
/// the skin, falling stops, the run intent slides along it — a steeper one is a wall — pushed
/// out along its normal, sliding along it with the pair's friction. step_height climbs steps,
/// snap_distance keeps it on the ground over crests and down slopes.
///
/// **Sleep.** A dynamic body whose fastest point is slower than rest_speed accumulates still
/// time; an island of dynamic bodies joined by contacts sleeps when each of them has been still
/// for rest_time (velocities zeroed; not integrated, solved or collided among themselves), and
/// wakes when a body that is awake, or a kinematic body or character that moves, touches it.
/// `world.sleep: false` keeps every body awake.
///
/// **Pairs come from a broadphase** (world/broadphase.h): every loop over pairs visits only the
/// candidates whose grown bounds meet, in (i, j) order — the same pairs, in the same order, as
/// the loop over all of them, so results are bit-identical to it (use_all_pairs() runs that
/// loop, for tests).
///
/// **Observers** are told, in this order within a step: every move of a body (before it moves),
/// every impact found by a time of impact (before its response), every velocity a response
/// changed (impacts, restitution), every character push-out, every pair found overlapping when
/// the contacts are updated, then the frame.

#include <span>

#include "model/bodies.h"
#include "world/observer.h"
#include "world/step_context.h"
#include "world/world_state.h"

namespace collide {

/// Builds a world's tables from settings and bodies (body i is bodies[i]) at t = 0, frame 0,
/// with no observers (World::reset; tests of one stage build tables with it). Reuses the
/// tables' and the scratch's storage. The tables share what the bodies' shapes point into
/// (BodyDef::hull_data, BodyDef::mesh_data). Observers are shown w.view (null until set).
void reset_world(WorldState& w, StepScratch& scratch, const WorldDef& def, std::span<const BodyDef> bodies);

/// The world: an EngineView of its own bodies (world/observer.h), stepped frame by frame.
/// Movable, not copyable. Not shared between threads (it steps on threads of its own:
/// set_threads()).
class World final : public EngineView {
public:
    World() = default;
    World(World&&) = default;
    World& operator=(World&&) = default;
    World(const World&) = delete;
    World& operator=(const World&) = delete;

    /// Starts over with these settings and bodies (body i is bodies[i]), at t = 0, frame 0,
    /// with no observers. Pairs within the skin of each other start in contact. Reuses
    /// storage: once warmed up by a world as large, allocates nothing. The world shares what
    /// the bodies' shapes point into (BodyDef::hull_data, BodyDef::mesh_data), so it may outlive
    /// `bodies`.
    void reset(const WorldDef& def, std::span<const BodyDef> bodies);

    /// Adds an observer for the `events` (WorldEvent bits); it is shown this world as its view.
    /// It must outlive the stepping.
    void add_observer(EngineObserver& observer, unsigned events);

    /// Steps to the next sampled frame (the world's frame counter + 1) and tells observers.
    /// Does nothing once every frame has been stepped.
    void step_frame();

    const WorldDef& def() const override { return state_.def; }
    int body_count() const override { return state_.body_count(); }
    int frames_stepped() const override { return state_.frames_stepped; }
    int frame() const override { return state_.frame; }
    Vec3 up() const override { return state_.up; }
    BodyState state(int i) const override { return state_.state(i); }
    std::span<const BodyState> states() const override { return state_.states; }
    /// |v| + |ω|·ρ, with ρ the body's farthest point from its reference point (|v| for a ball
    /// turning about its centre).
    double fastest_speed(int i) const override { return state_.fastest_speed(i); }
    BodyKind kind(int i) const override { return state_.body(i).kind; }
    bool is_trigger(int i) const override { return state_.body(i).trigger; }
    const Shape& local_shape(int i) const override { return state_.body(i).base; }
    const Shape& placed(int i) const override { return state_.placed(i); }
    Aabb bounds(int i) const override { return state_.bounds(i); }
    CharacterState character_state(int i) const override {
        const Body& b = state_.body(i);
        if (b.character < 0) return {};
        const CharacterBody& c = state_.characters[static_cast<std::size_t>(b.character)];
        return {c.on_floor, c.on_floor ? c.floor_normal : Vec3{}, c.steps};
    }

    /// True when body `i` sleeps.
    bool is_asleep(int i) const { return state_.body(i).asleep; }
    /// The pairs in contact as the last step left them (sorted by (i, j)).
    const ContactSet& contacts() const { return state_.contacts; }
    /// The world's tables, read only (for tests and tools).
    const WorldState& tables() const { return state_; }

    /// Steps on `threads` threads from now on (≥ 1; the default 1 steps on the caller's
    /// thread): the same bits for every count (world/parallel.h). Kept across reset().
    void set_threads(int threads) { state_.threads.set_threads(threads); }
    /// The threads the world steps on.
    int threads() const { return state_.threads.threads(); }

    /// For tests and benchmarks: with `all` set, the broadphase gives every pair as a candidate
    /// (the all-pairs loop the broadphase must match bit for bit). Kept across reset().
    void use_all_pairs(bool all) { state_.broad.set_exhaustive(all); }

    /// True when no two bodies can meet again: there is no character and nothing turns, every
    /// dynamic body is free (in no contact), and every pair drifts apart on some axis under its
    /// relative velocity and gravity, so every later frame is free flight. Always false for a
    /// world of more than 256 bodies (the proof is n²).
    bool no_pair_can_meet() const;

private:
    WorldState state_;
    StepScratch scratch_;

    /// Walks the stages of world/stages.h for a step of h seconds.
    void step(double h);
};

} // namespace collide
