#pragma once
/// \file
/// Box3D (Erin Catto's 3D engine, single precision as it ships; vendored in third_party/box3d at
/// the commit its VERSION names) as an Engine (engine/engine.h): `--engine box3d`. Built whenever
/// COLLIDE_ENGINES is not OFF, into the engines' library that only the `collide` program and the
/// tests link; this header includes no Box3D header.
///
/// **How a scenario maps.** A fresh b3World per reset (one worker, Box3D's soft contacts and
/// tunings as it ships, gravity, sleep, continuous detection and the combine rules set from the
/// scenario) and one b3Body per body, in body order, its Box3D frame the body's own frame (origin
/// at `position`, turned by `rotation`): every shape is given in it. One b3World_Step per frame of
/// kBox3dSubsteps substeps: h = phase·dt for frame 0 (none when 0) and dt after.
/// - Shapes: sphere b3Sphere, capsule b3Capsule, box a box hull (b3MakeOffsetBoxHull, a turned
///   box b3MakeTransformedBoxHull), hull b3CreateHull of its points, mesh a static b3MeshData of
///   its triangles placed in the body frame (edges identified, as Box3D's ghost-collision fix
///   wants), a static triangle a mesh of that triangle both ways round (Box3D's triangles are
///   one-sided). No plane (refused).
/// - Bodies: static, dynamic (collide's mass, centre of mass and exact inertia tensor through
///   b3Body_SetMassData, then the velocity of the centre of mass and the angular velocity),
///   kinematic (b3Body_SetTargetTransform towards exp(ω·t)·rotation, position + v·t at each
///   step's end; its state reports the scenario's v and ω, as collide's kinematic bodies move),
///   triggers (sensor shapes: no response; their entries and exits are measured by the probes on
///   Box3D's poses at sampled frames), `fixed_rotation` (the three angular motion locks), friction
///   and restitution on each shape's base material, combined by the world's rules (Box3D's mixing
///   callbacks), restitution above max(rest_speed, |g|·dt), each body's sleep threshold rest_speed.
/// - Continuous detection is a world setting in Box3D: on when the world is swept or speculative
///   or a dynamic body has `ccd` or speculative contacts (then every fast dynamic body is swept
///   against static ones); a swept body (`ccd`, or a swept world) is also a bullet (swept against
///   moving bodies too).
/// - Events: after each step, every body that moved is told as a move along the chord from its
///   pose before to its pose after (no acceleration), a dynamic body that a contact pushed this
///   step (a manifold point with a normal impulse) as a response from its velocity before plus
///   gravity's to its velocity after, and every pair with a touching contact that a manifold point
///   shows overlapping or pushed apart as a contact, at the step's end, normals from the lower index
///   to the higher (Box3D's point from shape A to shape B).
///
/// What cannot map is refused (refuse_unsupported_by_box3d); what maps approximately is said by
/// box3d_header, the log's first lines. Box3D keeps its worlds in a fixed table of B3_MAX_WORLDS
/// (128): creating and destroying one is serialised here, a world is destroyed as soon as its last
/// frame is stepped, and a run that would be the 129th at once is an error (fewer `--jobs`).

#include <memory>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "model/scenario.h"

namespace collide {

/// Substeps of each b3World_Step: Box3D's own default use (its samples and benchmarks).
inline constexpr int kBox3dSubsteps = 4;

/// The Box3D this build has, for `--version` and the log header: "Box3D 0.2.0 at 30c67b5
/// (2026-08-12), single precision, 4 substeps, soft contacts".
std::string box3d_version();

/// A fresh Box3D engine.
std::unique_ptr<Engine> make_box3d_engine();

/// Throws InputError (UnsupportedError) located in the scenario file at the first thing Box3D
/// cannot run: a character (at its body), `friction_model: per_contact` (at that key), a plane, a
/// triangle that moves, a hull whose points span no volume, a body placed beyond Box3D's world
/// bounds (at its body).
void refuse_unsupported_by_box3d(const Scenario& scenario);

/// The lines a log run by Box3D starts with: the engine and version, then what maps only
/// approximately (steps and substeps, precision, integrator, soft contacts and margins instead of
/// the solver's iterations, restitution threshold, sleep, continuous detection, meshes,
/// kinematic bodies, triggers).
std::vector<std::string> box3d_header(const Scenario& scenario);

/// Registers "box3d" (engine/registry.h).
void register_box3d_engine();

} // namespace collide
