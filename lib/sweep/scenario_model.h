#pragma once
/// \file
/// The sweep model of a real scenario: each thread instantiates the parsed template for the
/// cell's params (no YAML, no allocation once warm), sets the detection mode and simulates.

#include "scenario/load.h"
#include "sweep/executor.h"

namespace collide {

/// A sweep model running `scenario` (copied; the template's data is shared) through each of
/// `engines` (engine/registry.h, in row order; a fresh engine world per cell and engine).
/// Columns are the log's fields, named `FIELD` when the log has one entry and `ID.FIELD`
/// otherwise. A cell whose params the scenario rejects throws InputError, its diagnostics naming
/// the params.
SweepModel scenario_sweep_model(const ScenarioTemplate& scenario,
                                const std::vector<std::string>& engines = {"collide"});

} // namespace collide
