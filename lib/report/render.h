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
/// expected/mtv.log), each `label → value` optionally followed by `  // note`, ending in a newline.
std::string render_text(const Scenario& scenario, const Layout& layout, std::span<const double> values);

/// The same entries as a JSON document with full-precision numbers (NaN → null).
std::string render_json(const Scenario& scenario, const Layout& layout, std::span<const double> values);

/// CSV with header `entry,field,value,unit`, one row per measured field, full precision.
std::string render_csv(const Scenario& scenario, const Layout& layout, std::span<const double> values);

} // namespace collide
