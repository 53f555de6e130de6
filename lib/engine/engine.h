#pragma once
/// \file
/// The engine interface: what the probes (probes/) measure, whichever engine steps the bodies.
/// An Engine is reset with a scenario's world and bodies, steps frame by frame, tells observers
/// what happened and shows its bodies read-only (EngineView). collide's own world
/// (world/world.h) is one engine (CollideEngine, below: a thin adapter, so the world itself
/// keeps its non-virtual fast path: a virtual call per observer event, never per body per step);
/// other engines (Bullet: engines/bullet/, linked only into the program and its tests) register
/// themselves by name (engine/registry.h).
///
/// **The contract every engine keeps** (world/world.h says it for collide's): frame k
/// (k = 0 … frames − 1) is sampled at t_k = (k + phase)·dt; the first step is phase·dt (none when
/// 0), the others dt; the step ending at t_k belongs to frame k. States are in the world frame:
/// a body's position is its origin (where its shape's local frame sits), its velocity that of its
/// centre of mass (dynamic) or of its origin (kinematic), its rotation a unit quaternion
/// (w, x, y, z) and its angular velocity in rad/s, world frame. Contact normals point from the
/// first body of a pair (the lower index) to the second. Same input, same bytes.

#include <array>
#include <span>
#include <string_view>

#include "model/bodies.h"
#include "world/world.h"

namespace collide {

/// EngineView and EngineObserver, the one view and the one observer interface of every engine,
/// collide's own world included, are in world/observer.h.

/// An engine that steps a scenario's bodies. Not shared between threads.
class Engine : public EngineView {
public:
    /// The engine's name as `--engine` spells it ("collide", "bullet").
    virtual std::string_view name() const = 0;
    /// Starts over with these settings and bodies (body i is bodies[i]) at t = 0, frame 0, with
    /// no observers. Bodies must be what the engine's refuse_unsupported (engine/registry.h)
    /// accepted.
    virtual void reset(const WorldDef& def, std::span<const BodyDef> bodies) = 0;
    /// Adds an observer for the `events` (WorldEvent bits). It must outlive the stepping.
    virtual void add_observer(EngineObserver& observer, unsigned events) = 0;
    /// Steps to the next sampled frame and tells observers; nothing once every frame is stepped.
    virtual void step_frame() = 0;
    /// True when no two bodies can meet again (every later frame is free flight); an engine that
    /// cannot prove it says false.
    virtual bool no_pair_can_meet() const { return false; }
    /// True when on_move reports each piece of motion exactly (constant acceleration between
    /// impacts), so that a probe may find exact times inside a step (the trigger probe's swept
    /// pairs); false when moves are only chords between poses (the probes then sample frames).
    virtual bool exact_moves() const = 0;
};

/// collide's own world (world/world.h) as an Engine: every call forwards to the World, which
/// tells the observers itself.
class CollideEngine final : public Engine {
public:
    CollideEngine() = default;
    CollideEngine(const CollideEngine&) = delete;
    CollideEngine& operator=(const CollideEngine&) = delete;

    /// The world itself (for what only collide's world has).
    const World& world() const { return world_; }
    /// Steps on `threads` threads (World::set_threads: the same bits for every count).
    void set_threads(int threads) { world_.set_threads(threads); }

    std::string_view name() const override { return "collide"; }
    void reset(const WorldDef& def, std::span<const BodyDef> bodies) override;
    /// Observers are the world's own (it shows itself as their view).
    void add_observer(EngineObserver& observer, unsigned events) override { world_.add_observer(observer, events); }
    void step_frame() override { world_.step_frame(); }
    bool no_pair_can_meet() const override { return world_.no_pair_can_meet(); }
    bool exact_moves() const override { return true; }

    const WorldDef& def() const override { return world_.def(); }
    int body_count() const override { return world_.body_count(); }
    int frames_stepped() const override { return world_.frames_stepped(); }
    int frame() const override { return world_.frame(); }
    Vec3 up() const override { return world_.up(); }
    BodyState state(int i) const override { return world_.state(i); }
    std::span<const BodyState> states() const override { return world_.states(); }
    double fastest_speed(int i) const override { return world_.fastest_speed(i); }
    BodyKind kind(int i) const override { return world_.kind(i); }
    bool is_trigger(int i) const override { return world_.is_trigger(i); }
    const Shape& local_shape(int i) const override { return world_.local_shape(i); }
    const Shape& placed(int i) const override { return world_.placed(i); }
    Aabb bounds(int i) const override { return world_.bounds(i); }
    CharacterState character_state(int i) const override { return world_.character_state(i); }

private:
    World world_;
};

} // namespace collide
