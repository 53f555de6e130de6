#pragma once
/// \file
/// A golden comparison rendered for a person reading a CI log: which scenario, which line of the
/// golden, the expected and the actual line, and for each value that moved, its full-precision
/// expected and actual value, the difference, the tolerance that applied and which printed digits
/// change. Unchanged lines are trimmed to a little context around each change.

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
///   ID.FIELD: expected 0.5, actual 0.512 (diff 0.012 > 1e-09: absolute 1e-09, relative 1e-09); 0.500 → 0.512 (…)
/// ```
/// then, under `@@ values @@`, values that moved that no line prints; ending in a newline; only
/// the header when the run matches.
std::string render_diff(const std::string& name, const std::string& scenario_path, const std::string& golden_path,
                        const GoldenComparison& comparison, const DiffStyle& style = {});

/// One value that moved, on one line without indent or newline: `ID.FIELD: expected E, actual A
/// (diff D > ALLOWED: absolute X, relative Y); PRINTED` (full-precision values), or for review
/// (no tolerance) `ID.FIELD: E → A (diff D); PRINTED`, or that it is new or no longer logged.
std::string describe_value(const ValueDiff& d);

/// Wraps `text` in the ANSI colour `code` ("31" red, "32" green, "1" bold) when `color` is set.
std::string paint(const std::string& text, const char* code, bool color);

} // namespace collide
