#pragma once
/// \file
/// What a world is made of, as plain data: its settings (WorldDef) and its bodies (BodyDef).
/// The scenario reader fills these from YAML; the world (world/world.h) is built from them and
/// needs nothing else of a scenario.

#include <cstdint>
#include <memory>
#include <string>

#include "model/diagnostic.h"
#include "response/response.h"
#include "shapes/mass.h"
#include "shapes/shapes.h"

namespace collide {

/// How collisions are found.
enum class Detection : std::uint8_t {
    discrete,    ///< test the sampled frame positions only (can tunnel)
    swept,       ///< find the time of impact inside each step (continuous)
    speculative, ///< a pair closer than its motion this step gets a contact that lets it arrive touching
};

/// How a step advances a body.
enum class Integrator : std::uint8_t {
    exact, ///< exact for constant gravity: p += v·dt + ½·g·dt², v += g·dt
    euler, ///< semi-implicit Euler as game engines do: v += g·dt, then p += v·dt
};

/// How the world applies friction at a contact.
enum class FrictionModel : std::uint8_t {
    coulomb,     ///< the tangential velocity change is at most μ times the normal one (impulse-bounded)
    per_contact, ///< each contact keeps (1 − f) of the sliding velocity (a designer's dial, rate-dependent)
};

/// World settings.
struct WorldDef {
    double dt = 1.0 / 60.0; ///< step (s) > 0; written as `rate` (Hz) or `dt`
    /// Frames sampled, k = 0 … frames − 1; or from `duration` D (s): those in [0, D] (with
    /// phase 0, round(D / dt) + 1 of them, the last at t = D).
    int frames = 60;
    Vec3 gravity{0, 0, 0};                     ///< acceleration (m/s²)
    Detection detection = Detection::discrete; ///< default for bodies without `ccd`
    double phase = 0;                          ///< frame k is sampled at t = (k + phase)·dt, phase in [0, 1)
    double skin = 0.001;                       ///< extra push-out distance (m) beyond the depth
    Integrator integrator = Integrator::exact; ///< how positions advance
    double rest_speed = 0.01;                  ///< a body slower than this (m/s) …
    double rest_time = 0.25;                   ///< … for this long (s) is at rest
    int character_iterations = 4;              ///< push-out + slide passes per frame for characters
    int velocity_iterations = 32;              ///< contact solver: most sequential-impulse passes per step
    double velocity_tolerance = 1e-7;          ///< … fewer once no pass changes a velocity by more (m/s)
    int position_iterations = 20;              ///< contact solver: most position-correction passes per step
    bool sleep = true;                         ///< islands of still bodies fall asleep (rest_speed, rest_time)
    FrictionModel friction_model = FrictionModel::coulomb; ///< how contacts apply friction
    Combine friction_combine = Combine::max;               ///< a pair's friction from its bodies'
    Combine restitution_combine = Combine::max;            ///< a pair's restitution from its bodies'
};

/// What moves a body. A scenario writes it as flags (`static`, `kinematic`, `character`);
/// body_kind() resolves them once, in this precedence.
enum class BodyKind : std::uint8_t {
    fixed,     ///< `static: true`: never moves; infinite mass
    kinematic, ///< `kinematic: true`: moved by its velocity (and angular velocity) only
    character, ///< `character: true`: moved by push-out + slide + slope limit; never turns
    dynamic,   ///< moved by gravity and contacts, turning about its centre of mass
};

/// A body: a shape in its local frame, placed at `position` turned by `rotation`.
struct BodyDef {
    std::string name;                              ///< the body's key in `bodies:`
    SourceMark mark;                               ///< where it was defined
    Shape shape;                                   ///< local frame: the body's position is the local origin
    std::shared_ptr<const TriangleMesh> mesh_data; ///< a mesh shape's triangles (the Mesh points into them);
                                                   ///< shared by every copy of the body, null for other shapes
    std::shared_ptr<HullPoints> hull_data;         ///< a hull shape's points (the Hull points into them), body frame;
                                                   ///< shared by copies of the body until one is written (copy on
                                                   ///< write: see scenario/destination.h), null for other shapes
    Vec3 position;                                 ///< world position of the local origin at t = 0 (m)
    Vec3 velocity;                                 ///< initial velocity (m/s)
    Quat rotation;                                 ///< orientation at t = 0
    double restitution = 0; ///< bounciness in [0, 1]; a pair combines its two by world.restitution_combine
    double friction = 0;    ///< Coulomb μ ≥ 0 (per_contact: share of the sliding speed removed
                            ///< per contact, in [0, 1]); a pair combines its two by world.friction_combine
    double mass = 1;        ///< kg > 0 (dynamic bodies; static, kinematic bodies and characters have infinite mass)
    double density = 0;     ///< kg/m³; when > 0 the mass is density × the shape's volume (`mass` is then not given)
    bool fixed_rotation = false; ///< a dynamic body that never turns (Box2D's fixedRotation, Unity's freezeRotation)
    bool is_static = false;      ///< never moves; infinite mass
    bool kinematic = false;      ///< moved by its velocity only, never by contacts or gravity;
                                 ///< pushes and carries others as a static body would
    Vec3 angular_velocity;       ///< ω (rad/s, world frame). A kinematic body turns at this constant rate
                                 ///< about its position: rotation(t) = exp(ω·t)·rotation. A dynamic body
                                 ///< starts with it, turning about its centre of mass.
    bool ccd = false;            ///< swept detection for this body even when the world is discrete
    bool speculative =
            false;           ///< speculative contacts for this body (`ccd: speculative`) whatever the world's detection
    SourceMark ccd_mark;     ///< where the key `ccd` was written (0, 0: not written)
    bool character = false;  ///< moved by push-out + slide + slope limit, no bounce
    double slope_limit = 46; ///< degrees; steeper surfaces are walls for a character
    double step_height = 0;  ///< characters: the highest step (m) climbed while walking; 0: none
    double snap_distance = 0; ///< characters: how far down (m) a walking character stays glued to the ground
    bool trigger = false;     ///< a trigger volume: it overlaps others but never responds, pushes or blocks,
                              ///< and nothing responds to it (the `trigger` log kind reports the overlaps)
};

/// The kind of body `d` is: static, then kinematic, then character, else dynamic.
inline BodyKind body_kind(const BodyDef& d) {
    if (d.is_static) return BodyKind::fixed;
    if (d.kinematic) return BodyKind::kinematic;
    if (d.character) return BodyKind::character;
    return BodyKind::dynamic;
}

/// Body `d`'s mass (kg): density × the shape's volume when it gives a density, else its mass.
inline double mass_of(const BodyDef& d) { return d.density > 0 ? d.density * volume_of(d.shape) : d.mass; }

/// A fixed reference to a body, by index into Scenario::bodies.
using BodyIndex = int;

} // namespace collide
