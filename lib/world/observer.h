#pragma once
/// \file
/// What every engine shows of its bodies and tells while it steps: one read-only view
/// (EngineView) and one observer interface (EngineObserver), the same for collide's own world
/// (world/world.h), which is an EngineView itself, and for any other engine (engine/engine.h):
/// the probes (probes/) measure through these alone (Jolt's ContactListener, Box2D's events).
///
/// States are in the world frame: a body's position is its origin (where its shape's local
/// frame sits), its velocity that of its centre of mass (dynamic) or of its origin (kinematic),
/// its rotation a unit quaternion (w, x, y, z) and its angular velocity in rad/s, world frame.
/// Contact normals point from the first body of a pair (the lower index) to the second.

#include <span>

#include "detection/manifold.h"
#include "model/bodies.h"
#include "shapes/shapes.h"

namespace collide {

/// A body's state (world frame).
struct BodyState {
    Vec3 position;         ///< its origin: the position it was given at (m)
    Vec3 velocity;         ///< of its centre of mass (a dynamic body) or its origin (m/s)
    Quat rotation;         ///< orientation (unit quaternion)
    Vec3 angular_velocity; ///< ω (rad/s, world frame)
};

/// A character's contact with the ground as the last frame left it.
struct CharacterState {
    bool grounded = false; ///< it stands on a walkable surface
    Vec3 ground_normal;    ///< that surface's unit normal (zero when not grounded)
    int steps = 0;         ///< steps climbed so far
};

/// Which events an observer wants (a bit set); an engine calls only the wanted ones.
enum WorldEvent : unsigned {
    kOnMove = 1u << 0,     ///< on_move
    kOnContact = 1u << 1,  ///< on_contact
    kOnResponse = 1u << 2, ///< on_response
    kOnFrame = 1u << 3,    ///< on_frame
};

/// A contact an engine found: bodies a < b, when, and where (normals from a to b).
struct ContactEvent {
    int a = 0;                           ///< first body, a < b
    int b = 0;                           ///< second body
    double time = 0;                     ///< when (s)
    std::span<const Manifold> manifolds; ///< where: the pair's manifolds (an impact's depths are 0)
};

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
    virtual CharacterState character_state(int i) const = 0;
};

/// Told what happens while an engine steps, through its EngineView. The view must not be kept
/// across calls.
class EngineObserver {
public:
    virtual ~EngineObserver() = default;
    /// Body `body` is about to move for `tau` s with constant acceleration `accel` (m/s²) of its
    /// reference point from its current state (view.state(body)), turning at its angular velocity.
    virtual void on_move(const EngineView& view, int body, double tau, const Vec3& accel);
    /// Two bodies touch (ContactEvent: a < b, normals from a to b); positions are those at contact.
    virtual void on_contact(const EngineView& view, const ContactEvent& contact);
    /// A response changed `body`'s velocity from `before` to `after` (m/s).
    virtual void on_response(const EngineView& view, int body, const Vec3& before, const Vec3& after);
    /// Frame `frame` (sampled at `time` s) is done: every body is where the frame leaves it.
    virtual void on_frame(const EngineView& view, int frame, double time);
};

} // namespace collide
