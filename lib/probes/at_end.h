#pragma once
/// \file
/// The probes read once, after the last frame: final, character and max_overlap.

#include <span>

#include "engine/engine.h"

namespace collide {

/// final: x, y, z (m) and vx, vy, vz (m/s) of `body` where the last frame left it.
void measure_final(const EngineView& world, int body, std::span<double> out);

/// character: grounded, the ground's unit normal nx, ny, nz (NaN when not grounded) and the
/// steps climbed, of `body` as the last frame left it.
void measure_character(const EngineView& world, int body, std::span<double> out);

/// max_overlap: the deepest contact (m) among the pairs that are not both static, and its two
/// bodies (i < j); 0, −1, −1 when no pair overlaps.
void measure_max_overlap(const EngineView& world, std::span<double> out);

} // namespace collide
