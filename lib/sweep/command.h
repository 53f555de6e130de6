#pragma once
/// \file
/// `collide sweep` and `collide merge` end to end, as the command line calls them: every
/// problem is printed on stderr as one line (`FILE:LINE:COLUMN: error: …` for scenario
/// files and shard CSVs, `collide sweep: error: …` for arguments) and gives exit code 2.

#include <string>
#include <vector>

#include "sweep/sweep.h"

namespace collide {

/// Loads `file` ("-": stdin), runs the sweep `request` describes and writes it; progress on
/// stderr (a live line when stderr is a terminal). Returns 0, or 2 on bad input.
int sweep_command(const std::string& file, const SweepRequest& request);

/// Merges shard CSVs into `output` (stdout when empty). Returns 0, or 2 on bad input.
int merge_command(const std::vector<std::string>& files, const std::string& output);

} // namespace collide
