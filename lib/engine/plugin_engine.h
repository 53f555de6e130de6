#pragma once
/// \file
/// An engine from a shared library, through collide's engine ABI (include/collide/engine_abi.h),
/// as an Engine (engine/engine.h). The loader (engine/plugin_loader.h) checks the library and
/// registers it; this file maps a scenario onto the ABI's plain C structs and the plugin's
/// states and contacts back onto collide's events.
///
/// **How a scenario maps.** The world settings field by field (collide_world_def); each body in
/// body order (collide_body_def): its kind (a character is refused here: the ABI has none), its
/// flags (trigger, fixed_rotation, ccd, speculative), its shape in the body frame (an
/// axis-aligned box as a box with the identity rotation, a turned one with its rotation; a
/// hull's points and a mesh's vertices placed in the body frame), its pose and velocities, and
/// for a dynamic body the mass and the inertia tensor about the centre of mass that collide
/// computes (shapes/mass.h).
///
/// **Events.** After each step the plugin's states are read (a static body keeps its pose, a
/// rotation is normalised) and its contacts (a pair a < b, normal from a to b): every body that
/// is not static is told as a move along the chord from its pose before to its pose after (no
/// acceleration: exact_moves() is false); a dynamic body that is in a contact and whose velocity
/// is not the one gravity alone gives (v + g·h) as a response; each pair (no trigger) as a
/// contact at the step's end, its contacts as manifolds. A plugin that breaks the ABI's rules
/// (a pair out of order or out of range, a point count outside 1 … 4, a state that is not
/// finite, a failed step) stops the run with an error naming the engine, the frame and what it
/// reported.

#include <memory>
#include <string>
#include <vector>

#include "engine/engine.h"
#include "model/scenario.h"

struct collide_engine; // include/collide/engine_abi.h

namespace collide {

/// A fresh engine over the plugin's table (which outlives it: plugins are never unloaded).
std::unique_ptr<Engine> make_plugin_engine(const collide_engine& table);

/// Throws UnsupportedError (model/diagnostic.h) located in the scenario file when the plugin
/// cannot run `scenario`: a character (at its body: the ABI has none), or what the plugin's
/// `create` refuses (at the body it names, or at the world key it names, else at `world:`).
void refuse_unsupported_by_plugin(const collide_engine& table, const Scenario& scenario);

/// The lines a log run by the plugin starts with: `engine → VERSION`, one `NAME's approximations
/// → LINE` per line the plugin gives, and, when the scenario has an `expect:`, that they are not
/// held against it.
std::vector<std::string> plugin_header(const collide_engine& table, const Scenario& scenario);

} // namespace collide
