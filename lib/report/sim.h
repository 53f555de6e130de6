#pragma once
/// \file
/// `collide sim`: run scenario files and print their logs, checking their expectations.

#include <iosfwd>
#include <string>
#include <vector>

#include "report/run.h"

namespace collide {

/// Output formats of `collide sim`.
enum class LogFormat { text, json, csv };

/// What `collide sim` was asked to do.
struct SimRequest {
    std::vector<std::string> files; ///< scenario files, "-" for stdin
    RunOptions options;             ///< --set, --detection, --trace
    LogFormat format = LogFormat::text;
    std::string output;             ///< -o FILE (written atomically); empty: `out`
};

/// Run every file, print the logs (to `out` or the output file) and diagnostics and failed
/// expectations (to `err`). Returns the exit code: 0 ok, 1 a failed expectation, 2 bad input
/// (then nothing is written to the output file).
int run_sim(const SimRequest& request, std::ostream& out, std::ostream& err);

/// `collide validate`: load and check each file without running it; one line per problem on
/// `err` as FILE:LINE:COLUMN: error: ..., a line per good file on `out`. Returns 0 or 2.
int run_validate(const std::vector<std::string>& files, std::ostream& out, std::ostream& err);

} // namespace collide
