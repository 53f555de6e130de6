#pragma once
/// \file
/// Comparing a golden text log with the log a run just produced, the way `collide check` does:
/// the label of each line (everything up to and including the first " → ") must match exactly;
/// the rest of the line is split into numbers and text, the text must match exactly (a unit or a
/// word that changed is a change), and numbers match within a tolerance. Lines are aligned with a
/// longest common subsequence under that equality, so added and removed lines are found too.
///
/// Two numbers match when |a − e| ≤ max(abs, rel·|e|), or when they differ by at most one unit
/// in the last printed place of the more precise of the two (0.031 vs 0.032 printed with three
/// decimals: a value that rounds differently, not a change). Numbers printed without a decimal
/// point on both sides (frames, counts, axis indices) get no such slack: they are exact.

#include <string>
#include <string_view>
#include <vector>

#include "model/scenario.h"

namespace collide {

/// How far apart two printed numbers may be and still match (besides the last-digit rule).
struct Tolerance {
    double abs = 1e-9; ///< absolute tolerance, in the value's unit
    double rel = 1e-9; ///< relative tolerance, a share of |expected|
};

/// The defaults, with the scenario's `tolerance_abs` / `tolerance_rel` overrides where set (≥ 0).
Tolerance tolerance_of(const Scenario& scenario);

/// One number on a line that did not match.
struct NumberDiff {
    int index = 0;             ///< 1-based position among the numbers of the line's value part
    std::string expected_text; ///< as printed in the golden
    std::string actual_text;   ///< as printed by the run
    double expected = 0;
    double actual = 0;
    double diff = 0;    ///< |actual − expected|
    double allowed = 0; ///< the largest difference that would have matched
};

/// What happened to a line.
enum class LineChangeKind {
    changed, ///< a golden line and an actual line at the same place differ
    removed, ///< a golden line has no counterpart in the actual log
    added,   ///< an actual line has no counterpart in the golden
};

/// One differing line.
struct LineChange {
    LineChangeKind kind = LineChangeKind::changed;
    int expected_line = 0; ///< 1-based line in the golden; for `added`, the golden line it comes before
    int actual_line = 0;   ///< 1-based line in the actual log; for `removed`, the actual line it comes before
    std::string expected;  ///< the golden line (empty for `added`)
    std::string actual;    ///< the actual line (empty for `removed`)
    /// For `changed` lines whose text matches and only numbers moved: each number that moved.
    /// Empty when text changed too (or the line was added or removed).
    std::vector<NumberDiff> numbers;
};

/// The outcome of comparing two logs.
struct GoldenComparison {
    std::vector<std::string> expected_lines; ///< the golden, split into lines
    std::vector<std::string> actual_lines;   ///< the actual log, split into lines
    std::vector<LineChange> changes;         ///< in line order; empty when the logs match
    /// Whether the logs match.
    bool same() const { return changes.empty(); }
};

/// Splits a log into lines: '\n' separates, a final newline ends the last line, a '\r' before
/// a '\n' is dropped (a golden checked out with Windows line ends still matches).
std::vector<std::string> split_lines(std::string_view text);

/// Whether two lines match under `tolerance`. When `numbers` is given and the lines have the
/// same text but different numbers, it receives each number that moved (and is cleared first).
bool lines_match(std::string_view expected, std::string_view actual, const Tolerance& tolerance,
                 std::vector<NumberDiff>* numbers = nullptr);

/// Compares a golden log with an actual log, line by line, under `tolerance`.
GoldenComparison compare_logs(std::string_view expected, std::string_view actual, const Tolerance& tolerance);

} // namespace collide
