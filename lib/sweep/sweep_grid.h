#pragma once
/// \file
/// A whole sweep as one library call: build the grid, execute its cells on the requested threads,
/// write the chosen format. CSV is streamed in blocks (bounded memory for any grid); the other
/// formats keep every row (at most kMaxStoredRows).

#include <cstdio>
#include <optional>
#include <string>
#include <vector>

#include "sweep/executor.h"
#include "sweep/format.h"

namespace collide {

/// What the command line asks of a sweep.
struct SweepRequest {
    std::vector<std::string> varies;          ///< `--vary` arguments, first varies slowest
    std::string engine = "collide";           ///< `--engine`: the engine every cell runs (engine/registry.h), or
                                              ///< several separated by commas, side by side (parse_engine_list)
    std::optional<DetectionChoice> detection; ///< `--detection`; empty: the scenario's own mode
    SweepFormat format = SweepFormat::table;  ///< `--format`
    std::string measure;                      ///< `--measure`; empty: `hit`, else the first field
    int jobs = 0;                             ///< `--jobs`; 0: every core
    std::string shard;                        ///< `--shard K/N` or `auto`; empty: the whole grid
    std::string output;                       ///< `-o`; empty: stdout
    std::optional<double> checkpoint;         ///< `--checkpoint SECONDS`: resumable CSV to a file (see
                                              ///< execute_grid), its finished rows kept at least this often
                                              ///< (s; 0: after every block of rows); empty: not resumable
};

/// Where a sweep reports progress.
struct SweepConsole {
    std::FILE* err = stderr; ///< progress and the summary line; nullptr: silent
    bool terminal = false;   ///< `err` is a terminal: draw a live progress line
};

/// The most rows computed per block, the unit of parallel work between two writes (and of
/// progress). Blocks start small and grow to about half a second of work, up to this.
inline constexpr std::uint64_t kSweepBlockRows = 4096;

/// Runs the sweep of `model` that `request` describes and writes it (atomically to
/// request.output, or to stdout). With request.checkpoint, the CSV (to a file) is resumable
/// (sweep/checkpoint.h): its finished rows are kept in `OUTPUT.chunks/` as they come — also
/// when the run is stopped by a signal or killed — and a run with the same request goes on
/// after them; the output is the same bytes either way. A cell that rejects its params (bad
/// input: it would fail again) removes them. Throws an InputError (command_error) for a bad request (before anything is
/// written), and whatever a cell throws (e.g. a InputError for a param value the scenario
/// rejects), leaving no partial output file.
void execute_grid(const SweepModel& model, const SweepRequest& request, const SweepConsole& console = {});

/// The plan of a request against a model (grid, modes, shard); throws an InputError (command_error).
SweepPlan plan_sweep(const SweepModel& model, const SweepRequest& request);

} // namespace collide
