#pragma once
/// \file
/// Measuring one scenario file end to end, as `sim` and `check` do: load, apply --set and
/// --detection, simulate, keep the measured values for rendering, expectations and golden
/// comparison.

#include <optional>
#include <string>
#include <vector>

#include "model/log.h"
#include "model/scenario.h"
#include "plot/plot.h"
#include "probes/frame_hashes.h"
#include "probes/trace_csv.h"

namespace collide {

/// How to simulate a scenario, as the command line asks.
struct SimOptions {
    std::vector<std::string> sets;      ///< `NAME=VALUE` param overrides (--set)
    std::optional<Detection> detection; ///< overrides world.detection (bodies with ccd stay swept)
    std::string engine = "collide";     ///< the engine that runs it (--engine; engine/registry.h)
    std::string trace_path;  ///< when not empty, stream the run's CSV trace here (probes/trace_csv.h; "-": stdout)
    std::string record_path; ///< when not empty, stream the run's recording here (probes/record_file.h)
    std::string plot_path;   ///< when not empty, `sim` draws the run here (.svg or .html)
    PlotOptions plot;        ///< what the plot shows (--view)
    bool progress = false;   ///< draw a live progress line on stderr (a terminal): loading, stepping
    int jobs = 1;            ///< threads collide's world steps on (--jobs; 0: every core; the same bits for any)
};

/// A scenario after it was simulated: the evaluated scenario, its log layout and the measured
/// values (in the units of each layout field).
struct MeasuredScenario {
    Scenario scenario;                  ///< the scenario as run (params, sets and overrides applied)
    Layout layout;                      ///< the fields of its log
    std::vector<double> values;         ///< one value per layout field
    std::optional<Recording> recording; ///< every frame and contact, when a trace or plot was asked for
    std::string engine = "collide";     ///< the engine that ran it
    /// Every frame's hash and every body's (probes/frame_hashes.h), when the scenario keeps
    /// them beside its golden (`golden: { frame_hashes: true }`).
    std::optional<FrameHashes> frame_hashes;
    /// CPU seconds the calling thread spent running the engine and the probes (simulate(), not
    /// loading): the whole run's work when it steps on one thread (`jobs` 1, and every engine but
    /// collide's). Not deterministic: never in a log or golden.
    double cpu_seconds = 0;
    /// True when its `expect:` is checked: only collide's own engine is held to them (they
    /// state collide's answers; another engine's behaviour is pinned by its golden).
    bool checks_expectations() const { return engine == "collide"; }
};

/// CPU seconds the calling thread has used so far (CLOCK_THREAD_CPUTIME_ID): differences time a
/// piece of work on this thread whatever else the machine runs.
double thread_cpu_seconds();

/// Loads, simulates and measures one scenario file ("-" reads stdin) with options.engine (whose
/// header lines the scenario then carries: engine/registry.h). Throws InputError
/// (model/diagnostic.h) on bad input (an engine this build lacks, a scenario it cannot run), std::runtime_error when
/// the trace cannot be written.
MeasuredScenario measure_scenario(const std::string& path, const SimOptions& options = {});

} // namespace collide
