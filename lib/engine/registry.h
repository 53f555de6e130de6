#pragma once
/// \file
/// The engines a program can run a scenario through, by name (`--engine NAME`). collide's own
/// world is always there; another engine is registered by the program that links it (the
/// `collide` program and its tests register Bullet, ODE and Box3D when built with them: engines/builtin.h),
/// so the library itself depends on no other engine; an engine plugin is registered under its name
/// when a command first names its path (`--engine ./libNAME.so`: engine/plugin_loader.h).
/// Looking up and registering are thread-safe.

#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "engine/engine.h"
#include "model/scenario.h"

namespace collide {

/// An engine as the registry knows it.
struct EngineSpec {
    std::string name;    ///< as `--engine` spells it: "collide", "bullet", "box3d"
    std::string version; ///< one line for `collide --version` and the log header, e.g. "Bullet 3.24, double precision"
    /// A fresh engine.
    std::function<std::unique_ptr<Engine>()> make;
    /// Throws InputError (model/diagnostic.h), located in the scenario's file, for the first thing
    /// of `scenario` this engine cannot run (a character, `per_contact` friction, …).
    std::function<void(const Scenario& scenario)> refuse_unsupported;
    /// The lines the log prints first for a run of `scenario` with this engine, "label → value"
    /// without the newline: the engine, its version and what maps approximately. Empty for
    /// collide's own (its goldens carry no header).
    std::function<std::vector<std::string>(const Scenario& scenario)> header;
};

/// The engines that a build of collide may have beside its own (whether or not this one has them).
inline constexpr std::string_view kOptionalEngines[] = {"bullet", "ode", "box3d"};

/// Adds (or replaces) an engine. Replace one only before any thread holds it (at the program's start).
void register_engine(EngineSpec spec);

/// The engine called `name`, or null when this program has none by that name. "collide" is
/// always there.
const EngineSpec* find_engine(std::string_view name);

/// The engine called `name`, or the plugin at `name` when it is a path (is_engine_path: loaded and
/// registered the first time, engine/plugin_loader.h); throws InputError when there is none: for an
/// optional engine this build lacks, how to get it (install the package, rebuild with
/// -DCOLLIDE_ENGINES=ON); for a plugin, `PATH: error: what` (no position).
const EngineSpec& require_engine(std::string_view name);

/// The engines this program has, for `collide --version`: "engines: collide (…), bullet (Bullet
/// 3.24, double precision …)" on one line, then one line per optional engine it lacks, then the
/// engine ABI version plugins are loaded with ("plugins: --engine PATH …").
std::string engines_text();

/// Every engine this program has, collide's first, then in registration order.
std::vector<const EngineSpec*> engines();

} // namespace collide
