#pragma once
/// \file
/// The world's body table, its hot data apart from its cold data (Box2D v3's b2BodySim and
/// b2Body): `BodySim` holds what integration and the contact solver touch every step — pose,
/// velocities, inverse mass and inertia — in one array; `Body` holds the rest (shapes,
/// material, kind, sleep) in another, by the same index; what only some bodies need (the
/// body-frame shape of one that turns, a character's controller state) is in tables of its own.
///
/// Frames and reference points: a dynamic body turns about its centre of mass, so its
/// reference point is that centre; every other body's reference point is its origin (the
/// position it is given at; a turning kinematic body turns about it, like a door about its
/// hinge). `velocity` is the reference point's, `angular_velocity` is in the world frame, and a
/// point p of the body moves at velocity + angular_velocity × (p − centre).

#include <vector>

#include "math/quat.h"
#include "model/bodies.h"
#include "shapes/shapes.h"

namespace collide {

/// Hot: what the stages read and write for a body every step.
struct BodySim {
    Vec3 centre;           ///< the reference point, world frame (m): centre of mass (dynamic) or origin
    Quat rotation;         ///< orientation (unit)
    Vec3 velocity;         ///< of the reference point (m/s)
    Vec3 angular_velocity; ///< ω (rad/s, world frame)
    double inv_mass = 0;   ///< 1/kg; 0 for a body contacts do not move
    Mat3 inv_inertia;      ///< inverse inertia tensor, world frame (1/(kg·m²)); zero when it cannot turn
    Vec3 start_velocity;   ///< the step's motion: the reference point's velocity where the motion starts (m/s)
    Vec3 start_angular;    ///< … and its angular velocity (rad/s)
    Vec3 accel;            ///< … its constant acceleration over the step (m/s²)
    Vec3 angular_accel;    ///< … its constant angular acceleration over the step (rad/s²)
};

/// What only a body whose shape is placed anew as it turns keeps (a dynamic body that is not a
/// ball about its centre, a turning kinematic body): most bodies never need it, so it is kept
/// apart (World's turning table, by Body::turning).
struct TurningShape {
    Shape local;          ///< the shape in the body frame, about the origin
    Quat rotation0;       ///< kinematic turning, rotation(t) = exp(ω·t)·rotation0 exactly: the rotation at t = 0
    double spin_time = 0; ///< … and how long it has turned (s)
};

/// A character's controller state (move_and_slide), kept apart (World's character table, by
/// Body::character): most bodies are not characters.
struct CharacterBody {
    Vec3 desired;              ///< run intent (m/s)
    Vec3 fall;                 ///< accumulated gravity (m/s)
    double slope_limit = 0;    ///< degrees
    double step_height = 0;    ///< highest step climbed (m)
    double snap_distance = 0;  ///< how far down it stays glued to the ground (m)
    bool on_floor = false;     ///< stood on a walkable surface this frame
    bool was_on_floor = false; ///< … and the frame before
    Vec3 floor_normal;         ///< that surface's unit normal
    int steps = 0;             ///< steps climbed so far
    bool stepping = false;     ///< climbed (part of) a step this frame
    int last_step = -1;        ///< the last body stepped onto, or −1
    double floor_height = 0;   ///< height along up where it last stood on a floor (m)
    int floor_body = -1;       ///< the body stood on at the end of the last frame, or −1
};

/// Cold: everything else about a body.
struct Body {
    BodyKind kind = BodyKind::dynamic;
    bool trigger = false;     ///< a trigger volume: in no pair
    bool swept = false;       ///< ccd, or a swept world: impacts found by time of impact
    bool speculative = false; ///< speculative contacts (ccd: speculative, or a speculative world)
    bool turns = false;       ///< a dynamic body that can turn (not fixed_rotation, and a tensor to invert)
    bool spinning = false;    ///< a kinematic body with an angular velocity
    bool round = false;       ///< a sphere centred on its reference point: turning it moves no point of it
    bool dirty = true;        ///< `placed` is stale
    bool asleep = false;      ///< asleep: not integrated, solved or collided with other sleeping bodies
    int turning = -1;         ///< its TurningShape (the shape in the body frame), or −1: its base never changes
    int character = -1;       ///< its CharacterBody, or −1: not a character
    Shape base;               ///< the body-frame shape turned by the rotation, about the origin (world orientation)
    Quat base_rotation;       ///< the rotation `base` was turned by
    Shape placed;             ///< `base` moved to the origin's position (valid when !dirty)
    Aabb base_bounds;         ///< bounds of `base` (m)
    Vec3 local_centre;        ///< the reference point in the body frame (the centre of mass; 0 for others)
    Mat3 inv_inertia_local;   ///< inverse inertia tensor about the centre of mass, body frame
    Mat3 inertia_local;       ///< inertia tensor about the centre of mass, body frame (kg·m²)
    Quat step_rotation;       ///< within a step: the rotation it started the step with
    bool constrained = false; ///< within a step: some contact impulse acts on it (else it falls freely)
    bool free_turn = false;   ///< within a step: it turns free of torque (free_momentum is its L)
    Vec3 free_momentum;       ///< … its angular momentum about its centre, world frame (kg·m²/s)
    Vec3 free_body_momentum;  ///< … and in the body frame at step_rotation, where the turn starts (Π₀)
    double free_length = 0;   ///< … the time (s) the turn spans: from step_rotation to the step's end
    double free_elapsed = 0;  ///< … the time (s) it has turned so far
    bool arriving = false;    ///< within a step: a contact with a gap pushed it (it arrives this step)
    double radius = 0;        ///< the farthest point of the shape from the reference point (m)
    double restitution = 0;   ///< [0, 1]
    double friction = 0;      ///< ≥ 0
    Vec3 origin_offset;       ///< origin − centre, world frame (m): −R·local_centre
    // Sleep.
    double still_time = 0; ///< how long it has been slower than rest_speed (s)
};

} // namespace collide
