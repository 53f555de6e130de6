#pragma once
/// \file
/// `collide merge`: joining the CSV of a sweep's shards back into the whole grid. The result is
/// byte for byte the CSV the unsharded sweep writes: the shared header, then every row sorted
/// by cell index and, within a cell, discrete before swept.

#include <string>
#include <utility>
#include <vector>

#include "sweep/executor.h"
#include "sweep/grid.h"

namespace collide {

/// A shard's CSV: its name (for messages) and its text.
struct ShardText {
    std::string name; ///< file name as given
    std::string text; ///< the whole CSV
};

/// Merges shard CSVs (given in any order). The grid's size is the product of the number of
/// distinct values in each param column (or the largest cell index + 1 when that is larger);
/// the modes are those that appear. Throws InputError at `FILE:LINE:1` for a header that
/// differs from the first file's, a malformed row or a cell and mode that appears twice (naming
/// both places), and without a file (command_error) for a cell and mode missing from every shard.
std::string merge_sweep_csv(const std::vector<ShardText>& shards);

/// Reads `files`, merges them and writes the result atomically to `output` (stdout when
/// empty). Throws InputError (or std::runtime_error for a file that cannot be read or written).
void merge_sweep_files(const std::vector<std::string>& files, const std::string& output);

/// A merged sweep read back for drawing: the plan of the whole grid and its rows' values.
struct MergedSweep {
    SweepPlan plan;             ///< the grid (axes and their values from the rows), modes and engines
    std::vector<double> values; ///< plan.rows() × model.fields, row-major, as the sweep computed them
};

/// Reads the merged CSV `csv` (merge_sweep_csv's result) of a sweep of `model`'s scenario: the
/// axes, engines and modes from its grid line, each axis's values from the rows, every value
/// parsed back by its field's type (booleans, integers, bodies by name, numbers; empty: not
/// measured). Throws InputError (command_error) when its columns are not those `model` writes
/// (another scenario), or its body names are not the scenario's.
MergedSweep read_merged_sweep(const std::string& csv, const SweepModel& model);

} // namespace collide
