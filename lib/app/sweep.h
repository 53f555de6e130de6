#pragma once
/// \file
/// `collide sweep`: run a scenario once per cell of a parameter grid and write what it measured.

#include <iosfwd>
#include <string>

#include "sweep/sweep_grid.h"

namespace collide {

/// Loads `file` ("-": stdin), executes the grid `request` describes and writes it (stdout or
/// request.output); progress on stderr (a live line when stderr is a terminal). Problems go to
/// `err` (app/errors.h). Returns 0, or 2 on bad input.
int sweep_command(const std::string& file, const SweepRequest& request, std::ostream& err);

} // namespace collide
