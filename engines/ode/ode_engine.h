#pragma once
/// \file
/// ODE 0.16.2 (Debian's libode-dev, double precision, pkg-config `ode` with precision=dDOUBLE)
/// as an Engine (engine/engine.h): `--engine ode`. Built only when CMake finds it
/// (COLLIDE_ENGINES), into the library of engines that only the `collide` program and the tests
/// link; this header includes no ODE header.
///
/// **How a scenario maps.** A fresh dWorld, dHashSpace and contact joint group per reset, one
/// dBody per moving body (static bodies are geoms without a body), in body order. One ODE step
/// per frame: dWorldQuickStep(h) with h = phase·dt for frame 0 (none when 0) and dt after,
/// world.velocity_iterations iterations (ODE's SOR factor 1.3), ERP kOdeErp, CFM kOdeCfm, a
/// contact surface layer of kOdeSurfaceLayer and ODE's implicit gyroscopic term (its default). QuickStep reorders its
/// constraint rows at random (ODE's one process-wide dRand): every run starts from the seed kOdeSeed and each engine
/// keeps its own generator state, handed to ODE around its step; every ODE call of every engine holds one process-wide
/// lock (ODE's random state and, in this non-TLS build, its colliders' caches are global), so that the same scenario
/// gives the same bytes on any number of threads.
/// - Shapes: sphere dCreateSphere, box dCreateBox (a turned box turns its geom), capsule
///   dCreateCapsule (ODE's capsule lies along its geom's z: turned onto collide's a→b), plane
///   dCreatePlane (world frame, static only as in collide), hull dCreateConvex with the planes,
///   points and polygons of collide's hull faces (shapes/mass.h: hull_faces), mesh and triangle
///   dCreateTriMesh over a copy of the mesh's vertices and indices (one triangle for a triangle),
///   its data preprocessed for concave edges.
/// - Bodies: static (geoms only), dynamic (collide's mass and exact inertia tensor about the
///   centre of mass, shapes/mass.h: ODE's body frame sits at the centre of mass with collide's
///   axes, each geom offset by dGeomSetOffsetPosition/Rotation; poses converted back on every
///   read), kinematic (dBodySetKinematic with collide's velocities, placed exactly at
///   position + v·t, exp(ω·t)·rotation at each step's end), `fixed_rotation` (an inertia of
///   kOdeFixedRotationInertia on every axis, so that contacts give it no turn, and its rotation
///   and angular velocity set back after each step to clear the rounding), triggers (geoms whose
///   contacts make no joint; their entries and exits are measured by the probes on ODE's poses
///   at sampled frames), sleep (ODE's auto-disable below rest_speed for rest_time).
/// - Contacts: before each step dSpaceCollide lists the pairs whose bounds touch; they are sorted
///   by body index and each pair with a dynamic body is given to dCollide (at most kOdeMaxContacts
///   points), lower index first; each point becomes a contact joint (emptied after the step) with
///   dContactBounce (bounce = the pair's restitution, bounce_vel = max(rest_speed, |g|·dt)) and
///   dContactApprox1 (the friction pyramid: μ = the pair's friction is a coefficient of the
///   normal force), the coefficients combined by the world's rules.
/// - Events: after each step, every body that moved is told as a move along the chord from its
///   pose before to its pose after (no acceleration), a dynamic body's velocity change other than
///   gravity's as a response when it had a contact joint that step, and every pair (no trigger)
///   that dCollide found touching as a contact, at the step's end, normals from the lower index
///   to the higher (ODE's contact normal points from its second geom to its first: flipped).
///
/// A body that leaves ODE's range (kOdeMaxMagnitude, or a value that is not finite) stops the run
/// with an error naming it and the frame, before ODE is asked to step it; an error ODE itself
/// raises (its error and debug handlers) is thrown as an exception instead of aborting.
///
/// What cannot map is refused (refuse_unsupported_by_ode): characters, `per_contact` friction,
/// continuous detection (`detection: swept` or `speculative`, `ccd`: ODE has none), a dynamic
/// triangle, a flat hull, and a hull that could meet a mesh or triangle (this ODE has no
/// convex–trimesh collider). What maps approximately is said by ode_header, the log's first lines.

#include <memory>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "model/scenario.h"

namespace collide {

/// The seed of ODE's random generator at the start of every run (QuickStep's row order).
inline constexpr unsigned long kOdeSeed = 1;
/// ODE's error reduction parameter: the share of a contact's overlap beyond the surface layer
/// that one step corrects (ODE's default).
inline constexpr double kOdeErp = 0.2;
/// ODE's constraint force mixing (m/N·s, per unit impulse): ODE's double-precision default, as
/// stiff as it goes.
inline constexpr double kOdeCfm = 1e-10;
/// ODE's contact surface layer (m): bodies may sink this deep before ERP pushes them out, so that
/// a resting contact is found again every step.
inline constexpr double kOdeSurfaceLayer = 0.001;
/// The most contact points dCollide gives one pair in a step.
inline constexpr int kOdeMaxContacts = 16;
/// The moments of inertia given to a `fixed_rotation` body (kg·m²): contacts turn it by less
/// than rounding.
inline constexpr double kOdeFixedRotationInertia = 1e30;
/// The largest coordinate, speed (m/s) or angular speed (rad/s) a moving body may have when ODE
/// steps it: beyond it ODE's squares overflow (its quaternion normalisation then aborts), so the
/// step stops with an error instead.
inline constexpr double kOdeMaxMagnitude = 1e100;

/// The ODE version this build has, for `--version` and the log header: "ODE 0.16.2, double
/// precision (dReal 8 bytes; OPCODE trimesh, no libccd)".
std::string ode_version();

/// A fresh ODE engine.
std::unique_ptr<Engine> make_ode_engine();

/// Throws UnsupportedError located in the scenario file at the first thing ODE cannot run: a
/// character (at its body), `friction_model: per_contact` (at that key), `detection: swept` or
/// `speculative` (at the key `detection`), `ccd` on a body (at its key `ccd`), a dynamic triangle
/// or a flat hull (at the body), a hull that could meet a mesh or triangle (at the hull's body).
void refuse_unsupported_by_ode(const Scenario& scenario);

/// The lines a log run by ODE starts with: the engine and version, then what maps only
/// approximately (step, integrator, solver, softness, restitution threshold, friction, sleep, no
/// continuous detection), and lines for hulls, meshes, fixed rotation and triggers when it has them.
std::vector<std::string> ode_header(const Scenario& scenario);

/// Registers "ode" (engine/registry.h).
void register_ode_engine();

} // namespace collide
