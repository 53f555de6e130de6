#pragma once
/// \file
/// Loading an engine from a shared library: `--engine ./libmyengine.so` (for `sim`, `check`,
/// `sweep` and `diverge`). The library is opened with dlopen, its entry point
/// (COLLIDE_ENGINE_ENTRY_NAME, include/collide/engine_abi.h) called, its table checked — the
/// ABI's major version exactly, the table's size, its name, its text and its functions — and it
/// is registered (engine/registry.h) under the name it reports, adapted by
/// engine/plugin_engine.h. A library is loaded once per process and never unloaded.
///
/// Every failure is one InputError `PATH: error: what`, exit 2: a missing file, a file that is
/// not a loadable library, no entry point, an entry point that returns no table, another ABI
/// version (naming the version it reports and the one this collide loads), a table smaller than
/// this ABI's, a missing function, a name that is not 1 to 32 of [a-z0-9_-] or is taken by a
/// built-in engine or another plugin, a version or approximation that is empty or not one line.

#include <string>
#include <string_view>

#include "engine/registry.h"

namespace collide {

/// True when an `--engine` value names a shared library rather than a built-in engine: it holds
/// a '/' or ends in ".so". A path without a '/' is relative to the working folder.
bool is_engine_path(std::string_view engine);

/// The name an `--engine` value runs under: a plugin's path is loaded (load_engine_plugin) and
/// gives the name it reports; any other value is that name, unchecked.
std::string engine_name_of(const std::string& engine);

/// The engine in the shared library at `path`, loaded, checked and registered under its name on
/// the first call for that file (the same spec after). Throws InputError (above). Safe to call
/// from several threads.
const EngineSpec& load_engine_plugin(const std::string& path);

} // namespace collide
