#pragma once
/// \file
/// The engines built into this program beside collide's own: Bullet and ODE when the build found
/// them, and Box3D (vendored), unless CMake's COLLIDE_ENGINES is OFF. The `collide` program and the
/// test binary call this once, first.

namespace collide {

/// Registers every engine this build has (engine/registry.h). Call once, before any thread runs.
void register_builtin_engines();

} // namespace collide
