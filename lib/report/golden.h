#pragma once
/// \file
/// Golden files and comparing a run with them, the way `collide check` does.
///
/// A golden is two files: `expected/NAME.log`, the text log people read, and beside it
/// `expected/NAME.values`, every logged value at full precision (a round-trip double, or `none`),
/// one `ID.FIELD = VALUE` a line, with a digest of both files so that a hand edit of either shows:
/// ```
/// # collide golden values of mtv.log: full precision, written by `collide check --update` or `collide review`
/// # digest 5d1c0e8a3b7f2a91
/// contact.depth = 0.30000000000000004
/// push_out.y = 0.901
/// ```
/// A run matches its golden when every value is within its tolerance of the golden's value
/// (|actual − expected| ≤ max(absolute, relative·|expected|); defaults 1e-9 and 1e-9, a
/// scenario's `tolerance:` and per-field `tolerance: { fields: … }` override) and the golden's
/// values, printed by the scenario as it is now, give the golden's text byte for byte: every
/// label, unit, note, count and printed precision is compared exactly, and a printed number that
/// changed is a change unless its value is within tolerance. There is no last-digit allowance.

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "model/diagnostic.h"
#include "model/log.h"
#include "model/scenario.h"

namespace collide {

/// How far apart a logged value and its golden value may be.
struct Tolerance {
    double abs = 1e-9; ///< absolute tolerance, in the value's unit
    double rel = 1e-9; ///< relative tolerance, a share of |expected|
    /// The largest difference allowed from `expected`: max(abs, rel·|expected|).
    double allowed(double expected) const;
};

/// The defaults, with the scenario's `tolerance_abs` / `tolerance_rel` overrides where set (≥ 0).
Tolerance tolerance_of(const Scenario& scenario);

/// The tolerance of logged value `key` (`ID.FIELD`): the scenario's, with that field's
/// `tolerance.fields` override where set.
Tolerance tolerance_of(const Scenario& scenario, std::string_view key);

/// `ID.FIELD` of field `index` of `layout` (the log entry's id, as `expect:` names it).
std::string value_key(const Scenario& scenario, const Layout& layout, int index);

/// The values file beside a golden log: `DIR/NAME.log` → `DIR/NAME.values`.
std::string values_path_of(const std::string& golden_log_path);

/// The frame hashes beside a golden log (probes/frame_hashes.h): `DIR/NAME.log` → `DIR/NAME.frames`.
std::string frames_path_of(const std::string& golden_log_path);

/// The run's recording beside a golden log (probes/record_file.h; `golden: { recording: true }`):
/// `DIR/NAME.log` → `DIR/NAME.rec`.
std::string recording_path_of(const std::string& golden_log_path);

/// A values file, read: `ID.FIELD` → value (NaN for `none`), in file order, and its digest line.
struct GoldenValues {
    std::vector<std::pair<std::string, double>> values; ///< in file order
    std::string digest;                                 ///< as written on the `# digest` line; empty when none
};

/// The values file of a run: a comment naming `log_name`, the digest of `log_text` and the value
/// lines, then one `ID.FIELD = VALUE` a line (shortest round-trip form; NaN `none`), ending in a
/// newline. Same inputs → same bytes.
std::string render_values(const Scenario& scenario, const Layout& layout, std::span<const double> values,
                          std::string_view log_text, const std::string& log_name);

/// Reads a values file (`shown` names it in diagnostics) and checks that its digest matches
/// `log_text` (shown as `log_shown`) and its own value lines. Returns the values, or the problems
/// found (a malformed line, a repeated key, no digest, a digest that does not match: a hand edit),
/// each naming the file and ending in the fix, the command `update` (`collide check --update NAME`).
std::pair<GoldenValues, std::vector<Diagnostic>> read_values(std::string_view text, const std::string& shown,
                                                             std::string_view log_text, const std::string& log_shown,
                                                             const std::string& update);

/// One logged value that differs from the golden's.
struct ValueDiff {
    enum Kind { changed, added, removed };
    Kind kind = changed;
    std::string key;           ///< `ID.FIELD`
    double expected = 0;       ///< the golden's value (NaN: none; unset for `added`)
    double actual = 0;         ///< this run's value (NaN: none; unset for `removed`)
    double diff = 0;           ///< |actual − expected| (infinite when only one is none)
    bool has_tolerance = true; ///< false when compared exactly (review: no scenario at hand)
    Tolerance tolerance;       ///< the tolerance that applied
    double allowed = 0;        ///< the largest difference that would have matched
    int expected_line = 0;     ///< 1-based golden line that prints it; 0 when none does
    int actual_line = 0;       ///< 1-based line of this run's log that prints it; 0 when none does
    /// What happens to the printed text: "0.020 → 0.019 (digits from the 2nd decimal change)",
    /// "prints 0.901 either way (below the printed precision)", or empty when not found.
    std::string printed;
};

/// What happened to a line.
enum class LineChangeKind {
    changed, ///< a golden line and an actual line at the same place differ (or print a value that moved)
    removed, ///< a golden line has no counterpart in the actual log
    added,   ///< an actual line has no counterpart in the golden
};

/// One differing line, with the values printed on it that moved.
struct LineChange {
    LineChangeKind kind = LineChangeKind::changed;
    int expected_line = 0;         ///< 1-based line in the golden; for `added`, the golden line it comes before
    int actual_line = 0;           ///< 1-based line in the actual log; for `removed`, the actual line it comes before
    std::string expected;          ///< the golden line (empty for `added`)
    std::string actual;            ///< the actual line (empty for `removed`)
    std::vector<ValueDiff> values; ///< the values printed on this line that moved beyond tolerance
};

/// The outcome of comparing a run with its golden.
struct GoldenComparison {
    std::vector<std::string> expected_lines; ///< the golden, split into lines
    std::vector<std::string> actual_lines;   ///< the actual log, split into lines
    std::vector<LineChange> changes;         ///< in golden line order
    std::vector<ValueDiff> values;           ///< every value that moved, in log order (also on `changes`)
    std::vector<ValueDiff> unplaced;         ///< values that moved that no line prints (also in `values`)
    /// Whether the run matches its golden.
    bool same() const { return changes.empty() && values.empty(); }
};

/// Splits a log into lines: '\n' separates, a final newline ends the last line, a '\r' before
/// a '\n' is dropped (a golden checked out with Windows line ends still matches).
std::vector<std::string> split_lines(std::string_view text);

/// Compares two texts line by line, exactly (a longest common subsequence of equal lines; runs
/// of removed and added lines pair up as changed lines). No values.
GoldenComparison compare_logs(std::string_view expected, std::string_view actual);

/// Compares a run (its scenario, layout, values and rendered text log) with a golden (its text
/// and values) under the scenario's tolerances: see the file comment.
GoldenComparison compare_golden(const Scenario& scenario, const Layout& layout, std::span<const double> values,
                                std::string_view actual_text, std::string_view golden_text,
                                const GoldenValues& golden_values);

/// Compares two goldens (text and values) exactly, for review: the text as compare_logs, and
/// every value that differs at all (`has_tolerance` false), placed on the lines whose numbers changed.
GoldenComparison compare_goldens(std::string_view expected_text, const GoldenValues& expected_values,
                                 std::string_view actual_text, const GoldenValues& actual_values);

} // namespace collide
