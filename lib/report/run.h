#pragma once
/// \file
/// Running one scenario file end to end: load, apply --set and --detection, simulate, keep the
/// measured values for rendering, expectations and golden comparison.

#include <optional>
#include <string>
#include <vector>

#include "model/log.h"
#include "model/scenario.h"

namespace collide {

/// How to run a scenario, as the command line asks.
struct RunOptions {
    std::vector<std::string> sets;       ///< `NAME=VALUE` param overrides (--set)
    std::optional<Detection> detection;  ///< overrides world.detection (bodies with ccd stay swept)
    std::string trace_path;              ///< when not empty, write every body's state per frame as CSV here
};

/// A scenario after it ran: the evaluated scenario, its log layout and the measured values.
struct RunOutput {
    Scenario scenario;          ///< the scenario as run (params, sets and overrides applied)
    Layout layout;              ///< the fields of its log
    std::vector<double> values; ///< one value per layout field
};

/// Load, simulate and measure one scenario file ("-" reads stdin). Throws InputError
/// (scenario/diagnostic.h) on bad input.
RunOutput run_scenario(const std::string& path, const RunOptions& options = {});

} // namespace collide
