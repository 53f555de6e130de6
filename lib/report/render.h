#pragma once
/// \file
/// Turning measured values into the log a user reads: text (`label → value  // note`, one entry
/// a line, units, the scenario's decimals), JSON (the same entries, full-precision numbers) and
/// CSV (one row per field).

#include <span>
#include <string>

#include "model/log.h"
#include "model/scenario.h"

namespace collide {

/// The text log: one line per entry (axis_overlaps prints one line per axis, as in
/// expected/mtv.log), each `label → value` optionally followed by `  // note`, ending in a newline;
/// first the scenario's engine_header lines, when another engine than collide's ran it.
std::string render_text(const Scenario& scenario, const Layout& layout, std::span<const double> values);

/// The same entries as a JSON object with full-precision numbers (NaN → null), ending in a
/// newline: indented by `indent` spaces, or on one line when `indent` is −1 (JSON Lines).
/// (JSON: an `engine` list of those header lines, when there are any.)
std::string render_json(const Scenario& scenario, const Layout& layout, std::span<const double> values, int indent = 2);

/// CSV with header `scenario,entry,field,value,unit`, one row per measured field, full
/// precision; the scenario column (its name) lets the logs of several scenarios share one header.
std::string render_csv(const Scenario& scenario, const Layout& layout, std::span<const double> values);

} // namespace collide
