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

/// A read-only view of an engine's bodies: what every probe reads.
class EngineView {
public:
    virtual ~EngineView() = default;
    /// The settings the engine was reset with.
    virtual const WorldDef& def() const = 0;
    /// How many bodies there are.
    virtual int body_count() const = 0;
    /// Frames stepped so far (the next frame's index).
    virtual int frames_stepped() const = 0;
    /// The frame being stepped (during a step) or last stepped; −1 before the first.
    virtual int frame() const = 0;
    /// The unit up direction: −gravity normalised, or +y without gravity.
    virtual Vec3 up() const = 0;
    /// Body `i`'s current state (world frame).
    virtual BodyState state(int i) const = 0;
    /// Every body's state as the last frame left it, in body order; filled only while an
    /// observer wants kOnFrame (read it from on_frame).
    virtual std::span<const BodyState> states() const = 0;
    /// An upper bound on the speed of body `i`'s fastest point (m/s).
    virtual double fastest_speed(int i) const = 0;
    /// What moves body `i`.
    virtual BodyKind kind(int i) const = 0;
    /// True when body `i` never moves.
    bool is_static(int i) const { return kind(i) == BodyKind::fixed; }
    /// True when body `i` is a trigger volume (no response with it).
    virtual bool is_trigger(int i) const = 0;
    /// Body `i`'s shape turned by its current rotation, its origin at 0 (m).
    virtual const Shape& local_shape(int i) const = 0;
    /// Body `i`'s shape placed where the body is now (world frame, m).
    virtual const Shape& placed(int i) const = 0;
    /// Body `i`'s bounds where it is now (m).
    virtual Aabb bounds(int i) const = 0;
    /// Body `i`'s character state as the last frame left it (all zero for a body that is not a
    /// character, and in an engine without characters).
    virtual World::CharacterState character_state(int i) const = 0;
};

/// Told what happens while an engine steps (WorldObserver's events, world/world.h, seen through
/// an EngineView). The view must not be kept across calls.
class EngineObserver {
public:
    virtual ~EngineObserver() = default;
    /// Body `body` is about to move for `tau` s with constant acceleration `accel` (m/s²) of its
    /// reference point from its current state (view.state(body)).
    virtual void on_move(const EngineView& view, int body, double tau, const Vec3& accel);
    /// Two bodies touch (ContactEvent: a < b, normals from a to b); positions are those at contact.
    virtual void on_contact(const EngineView& view, const ContactEvent& contact);
    /// A response changed `body`'s velocity from `before` to `after` (m/s).
    virtual void on_response(const EngineView& view, int body, const Vec3& before, const Vec3& after);
    /// Frame `frame` (sampled at `time` s) is done: every body is where the frame leaves it.
    virtual void on_frame(const EngineView& view, int frame, double time);
};

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

/// collide's own world (world/world.h) as an Engine: every call forwards to the World; each
/// observer is reached through one forwarding WorldObserver (one more virtual call per event).
class CollideEngine final : public Engine {
public:
    /// At most this many observers at once.
    static constexpr int kMaxObservers = 8;

    CollideEngine() = default;
    CollideEngine(const CollideEngine&) = delete;
    CollideEngine& operator=(const CollideEngine&) = delete;

    /// The world itself (for what only collide's world has).
    const World& world() const { return world_; }
    /// Steps on `threads` threads (World::set_threads: the same bits for every count).
    void set_threads(int threads) { world_.set_threads(threads); }

    std::string_view name() const override { return "collide"; }
    void reset(const WorldDef& def, std::span<const BodyDef> bodies) override;
    void add_observer(EngineObserver& observer, unsigned events) override;
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
    World::CharacterState character_state(int i) const override { return world_.character_state(i); }

private:
    /// Hands the World's events to one EngineObserver, with this engine as the view.
    class Forward final : public WorldObserver {
    public:
        void bind(const EngineView& view, EngineObserver& to) { view_ = &view, to_ = &to; }
        void on_move(const World&, int body, double tau, const Vec3& accel) override {
            to_->on_move(*view_, body, tau, accel);
        }
        void on_contact(const World&, const ContactEvent& contact) override { to_->on_contact(*view_, contact); }
        void on_response(const World&, int body, const Vec3& before, const Vec3& after) override {
            to_->on_response(*view_, body, before, after);
        }
        void on_frame(const World&, int frame, double time) override { to_->on_frame(*view_, frame, time); }

    private:
        const EngineView* view_ = nullptr;
        EngineObserver* to_ = nullptr;
    };
    World world_;
    std::array<Forward, kMaxObservers> forwards_{};
    int observers_ = 0;
};

} // namespace collide
