#pragma once
/// \file
/// `collide sim`: measure scenario files and print their logs, checking their expectations.

#include <iosfwd>
#include <string>
#include <vector>

#include "app/measure.h"

namespace collide {

/// Output formats of `collide sim`: text; json (always a list, one object per file); jsonl
/// (JSON Lines: one object per file, a line each); csv (one header, a `scenario` column).
enum class LogFormat { text, json, jsonl, csv };

/// What `collide sim` was asked to do.
struct SimRequest {
    std::vector<std::string> files;     ///< scenario files, "-" for stdin
    SimOptions options;                 ///< --set, --detection, --trace
    LogFormat format = LogFormat::text; ///< --format
    std::string output;                 ///< -o FILE (written atomically); empty: `out`
};

/// Measures every file and prints the logs (to `out` or the output file), diagnostics and
/// failed expectations (to `err`). Every file is tried, its problems printed as they come.
/// Returns the exit code: 0 ok, 1 a failed expectation, 2 bad input or an output file that
/// cannot be written (then no output file is written).
int sim_command(const SimRequest& request, std::ostream& out, std::ostream& err);

} // namespace collide
