#pragma once
/// \file
/// A sweep's parameter grid: the axes given by `--vary`, the detection modes, the shard, and
/// the order in which cells and rows are numbered. Everything a row carries is a function of
/// its index here, never of the thread or shard that computed it.
///
/// Numbering: the cartesian product of the axes, the first axis varying slowest, gives every
/// cell an index 0 … cells − 1. A shard K/N owns the cells whose index mod N is K − 1. Each
/// owned cell gives one row per detection mode, discrete before swept.

#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/diagnostic.h"
#include "model/scenario.h"

namespace collide {

/// Bad sweep input that is not in a file (a `--vary`, `--shard`, `--measure` or `--format` that
/// does not make sense): an InputError whose one diagnostic names no file and no position, so it
/// reads `collide sweep: error: MESSAGE` (app/errors.h). `message` names the argument.
InputError command_error(std::string message);

/// The most cells a grid may have (streamed formats).
inline constexpr std::uint64_t kMaxGridCells = 1'000'000'000;
/// The most values one axis may have.
inline constexpr std::uint64_t kMaxAxisValues = 10'000'000;
/// The most rows a sweep keeps in memory at once (json, svg, table).
inline constexpr std::uint64_t kMaxStoredRows = 10'000'000;

/// One varied param: its name, its index among the scenario's params, and its values in order.
struct Axis {
    std::string name;           ///< the param's name
    int param = -1;             ///< index into the scenario's param list
    std::vector<double> values; ///< the values the axis takes, in grid order (at least one)
};

/// Parses one `--vary` argument: `NAME=FROM:TO:STEP` (TO included when it lies on the stride
/// within rounding: count = ⌊(TO − FROM)/STEP + 1e-9⌋ + 1, value i = FROM + i·STEP, rounded to
/// the decimals FROM and STEP are written with) or `NAME=A,B,C`. Throws an InputError (command_error) naming the
/// argument: syntax, non-finite numbers, a zero step or one pointing away from TO, an unknown
/// param (the message lists `params`), more than kMaxAxisValues values.
Axis parse_vary(std::string_view argument, std::span<const std::string> params);

/// The grid of a sweep: the cartesian product of its axes.
class Grid {
public:
    Grid() = default;
    /// Builds a grid from axes; throws an InputError (command_error) when a param is varied twice or the number
    /// of cells exceeds `max_cells` (or overflows).
    explicit Grid(std::vector<Axis> axes, std::uint64_t max_cells = kMaxGridCells);

    /// The axes, first = slowest.
    const std::vector<Axis>& axes() const { return axes_; }
    /// Number of cells (1 for a grid without axes).
    std::uint64_t cells() const { return cells_; }
    /// The position of `cell` along axis `axis` (an index into that axis's values).
    std::uint64_t coordinate(std::uint64_t cell, std::size_t axis) const {
        return (cell / stride_[axis]) % axes_[axis].values.size();
    }
    /// Writes the varied params of `cell` into `params` (the full param vector, indexed as the
    /// scenario's params); params not varied are left as they are.
    void apply(std::uint64_t cell, std::span<double> params) const;

private:
    std::vector<Axis> axes_;
    std::vector<std::uint64_t> stride_; // cells between consecutive values of each axis
    std::uint64_t cells_ = 1;
};

/// Builds the grid from `--vary` arguments, in the order given.
Grid make_grid(std::span<const std::string> varies, std::span<const std::string> params,
               std::uint64_t max_cells = kMaxGridCells);

/// Which detection modes each cell runs in.
enum class DetectionChoice : std::uint8_t { discrete, swept, speculative, both, all };

/// Parses `discrete`, `swept`, `speculative`, `both` (discrete and swept) or `all` (the three);
/// throws an InputError (command_error) otherwise.
DetectionChoice parse_detection_choice(std::string_view text);

/// The modes of a choice in row order (discrete, swept, speculative).
std::vector<Detection> modes_of(DetectionChoice choice);

/// The name of a mode as written in rows ("discrete", "swept", "speculative").
const char* detection_name(Detection mode);

/// The parts of a comma-separated list (`collide,bullet`, or a grid line's `collide, bullet`),
/// each without the spaces and tabs around it; an empty part stays (empty).
std::vector<std::string_view> split_commas(std::string_view text);

/// Parses `--engine` of a sweep: one engine name or several separated by commas
/// (`collide,bullet`), returned in row order: collide first, then the optional engines in the
/// order of kOptionalEngines (engine/registry.h), then any other name as given (the registry
/// refuses it later). Throws an InputError (command_error) for an empty name or one named twice.
std::vector<std::string> parse_engine_list(std::string_view text);

/// A slice of the grid: the cells whose index mod `count` is `index`.
struct Shard {
    std::uint64_t index = 0; ///< 0-based (K − 1 of `--shard K/N`)
    std::uint64_t count = 1; ///< N ≥ 1
    std::string source = {}; ///< for `--shard auto`: where K and N came from ("SLURM_ARRAY_TASK_ID=3 of 0-15")
};

/// Reads an environment variable: its value, or null when it is not set.
using Environment = std::function<const char*(const char* name)>;

/// Parses `--shard K/N` (1 ≤ K ≤ N), or `auto` / `auto/N`, which take K and N from the task
/// the job scheduler runs this process as (`env`; empty: the process's environment):
/// - a Slurm job array (`sbatch --array=A-B[:S]`, any first index, 0 or 1 or other):
///   SLURM_ARRAY_TASK_ID with SLURM_ARRAY_TASK_MIN, _MAX, _COUNT (and _STEP): K is the task's
///   place in the array, (ID − MIN) / STEP + 1, N is COUNT (an `auto/N` must agree with it);
/// - a Kubernetes Indexed Job: JOB_COMPLETION_INDEX (0-based) is K − 1; the pod is not told
///   the Job's completions, so N is given on the command line as `auto/N`.
/// Slurm's variables are looked at first. Throws an InputError (command_error) naming what it
/// looked for when neither is there, and naming the variable when one is not what it should be.
Shard parse_shard(std::string_view text, const Environment& env = {});

/// The rows a sweep produces, in output order: the shard's cells in grid order, each in every
/// engine of `engines` and, within each, every mode of `modes` (its variants).
struct SweepPlan {
    Grid grid;                                         ///< the whole grid
    std::vector<Detection> modes{Detection::discrete}; ///< modes per cell and engine, in row order
    std::vector<std::string> engines{"collide"};       ///< engines per cell, in row order (at least one)
    Shard shard;                                       ///< which cells this run owns

    /// Number of cells this shard owns.
    std::uint64_t shard_cells() const {
        return grid.cells() > shard.index ? (grid.cells() - shard.index + shard.count - 1) / shard.count : 0;
    }
    /// Rows per cell: its variants (engines × modes).
    std::uint64_t variants() const { return engines.size() * modes.size(); }
    /// Number of rows (owned cells × variants).
    std::uint64_t rows() const { return shard_cells() * variants(); }
    /// The grid cell of row `row`.
    std::uint64_t cell_of_row(std::uint64_t row) const { return shard.index + (row / variants()) * shard.count; }
    /// The variant of row `row` (0 … variants() − 1: engine-major, mode-minor).
    std::size_t variant_of_row(std::uint64_t row) const { return static_cast<std::size_t>(row % variants()); }
    /// The detection mode of row `row`.
    Detection mode_of_row(std::uint64_t row) const { return modes[row % modes.size()]; }
    /// The engine of row `row`, as an index into `engines`.
    std::size_t engine_of_row(std::uint64_t row) const {
        return static_cast<std::size_t>((row / modes.size()) % engines.size());
    }
    /// The row of `cell` (owned by this shard) in variant `v`.
    std::uint64_t row_of(std::uint64_t cell, std::size_t v) const { return (cell / shard.count) * variants() + v; }
    /// A variant's name for titles and rows: the mode ("swept") with one engine, the engine and
    /// the mode ("bullet swept") with several.
    std::string variant_name(std::size_t v) const {
        const char* mode = detection_name(modes[v % modes.size()]);
        return engines.size() > 1 ? engines[v / modes.size()] + " " + mode : std::string(mode);
    }
};

} // namespace collide
