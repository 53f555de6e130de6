#pragma once
/// \file
/// Bullet 3.24 (double precision, pkg-config `bullet-float64`) as an Engine (engine/engine.h):
/// `--engine bullet`. Built only when CMake finds Bullet (COLLIDE_ENGINES), into a library of
/// its own that only the `collide` program and the tests link; this header includes no Bullet
/// header.
///
/// **How a scenario maps.** A fresh btDiscreteDynamicsWorld per reset (btDbvtBroadphase,
/// btSequentialImpulseConstraintSolver with world.velocity_iterations iterations, split impulse)
/// and one btRigidBody per body, in body order (static meshes added last, so that a mesh is
/// always the second body of its Bullet pairs). One Bullet step per frame: stepSimulation(h, 0)
/// with h = phase·dt for frame 0 (none when 0) and dt after, no substeps.
/// - Shapes: sphere btSphereShape, box btBoxShape (a turned box turns its Bullet frame),
///   capsule btCapsuleShape (its Bullet frame's y along a→b), hull and triangle btConvexHullShape,
///   plane btStaticPlaneShape, mesh btBvhTriangleMeshShape over the mesh's own arrays with
///   btGenerateInternalEdgeInfo and btAdjustInternalEdgeContacts in the contact-added callback.
///   Each body's Bullet frame is its collide frame moved to the shape's centre (a dynamic body:
///   to its centre of mass, with the principal axes of collide's exact inertia tensor); poses
///   are converted back on every read, quaternions from Bullet's (x, y, z, w) to collide's
///   (w, x, y, z).
/// - Bodies: static (mass 0), dynamic (collide's mass and exact inertia, shapes/mass.h),
///   kinematic (CF_KINEMATIC_OBJECT, placed at exp(ω·t)·rotation, position + v·t at each step's
///   end: Bullet derives its velocity from the move), triggers (CF_NO_CONTACT_RESPONSE: no
///   response; their entries and exits are measured by the probes on Bullet's poses at sampled
///   frames), `fixed_rotation` (angular factor 0), `ccd` or a swept or speculative world (motion
///   threshold kBulletCcdMotionThreshold, swept-sphere radius the shape's inner radius:
///   bullet_swept_sphere_radius), friction and restitution combined by the world's rules in the
///   contact-added callback (set once per process).
/// - Events: after each step, every body that moved is told as a move along the chord from its
///   pose before to its pose after (no acceleration), a dynamic body's velocity change other
///   than gravity's as a response, and every pair (no trigger) that a manifold point of
///   Bullet's (the dispatcher's or the predictive contacts of its CCD) shows overlapping or
///   pushed apart that step as a contact, at the step's end, normals from the lower index to
///   the higher (Bullet's m_normalWorldOnB points from B to A).
///
/// What cannot map is refused (refuse_unsupported_by_bullet): characters, `per_contact`
/// friction. What maps approximately is said by bullet_header, the log's first lines.

#include <memory>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "model/scenario.h"

namespace collide {

/// Bullet's CCD motion threshold for a `ccd` body (m): any motion is swept.
inline constexpr double kBulletCcdMotionThreshold = 1e-7;

/// The Bullet version this build has, for `--version` and the log header: "Bullet 3.24, double
/// precision (btGetVersion() 324, btScalar 8 bytes)".
std::string bullet_version();

/// A fresh Bullet engine.
std::unique_ptr<Engine> make_bullet_engine();

/// Throws InputError located in the scenario file at the first thing Bullet cannot run: a
/// character (at its body), `friction_model: per_contact` (at that key).
void refuse_unsupported_by_bullet(const Scenario& scenario);

/// The lines a log run by Bullet starts with: the engine and version, then what maps only
/// approximately (steps, integrator, margins, solver, restitution threshold, sleep, CCD).
std::vector<std::string> bullet_header(const Scenario& scenario);

/// The swept-sphere radius given to a `ccd` body of this shape (m, its local frame): the radius
/// of a sphere, a capsule; a box's least half-size; a hull's least distance from its centre of
/// mass to a face; 0 for a triangle.
double bullet_swept_sphere_radius(const Shape& shape);

/// Registers "bullet" (engine/registry.h).
void register_bullet_engine();

} // namespace collide
