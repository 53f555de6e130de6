#pragma once
/// \file
/// A golden comparison rendered for a person reading a CI log: which scenario, which line of the
/// golden, the expected and the actual line, and for each number that moved, by how much and
/// against what tolerance. Unchanged lines are trimmed to a little context around each change.

#include <string>

#include "report/golden.h"

namespace collide {

/// How to render a diff.
struct DiffStyle {
    bool color = false; ///< ANSI red/green for removed/added lines (the caller decides: a terminal, NO_COLOR unset)
    int context = 2;    ///< unchanged golden lines shown before and after each change
};

/// Renders `comparison` as
/// ```
/// scenario NAME (SCENARIO_PATH vs GOLDEN_PATH)
/// @@ line N @@
///   context
/// - expected line
/// + actual line
///   number K: expected 0.500, actual 0.512 (diff 0.012 > tolerance 0.001)
/// ```
/// ending in a newline; only the header when the logs match.
std::string render_diff(const std::string& name, const std::string& scenario_path, const std::string& golden_path,
                        const GoldenComparison& comparison, const DiffStyle& style = {});

/// Wraps `text` in the ANSI colour `code` ("31" red, "32" green, "1" bold) when `color` is set.
std::string paint(const std::string& text, const char* code, bool color);

} // namespace collide
