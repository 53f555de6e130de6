#pragma once
/// \file
/// `collide check --html FILE`: one self-contained page (no network) for a reviewer — a summary
/// (passed, failed, pending), each scenario with its status, the golden and actual logs side by
/// side with the value-level diff of each failing one, and its plot (plot/): the new run, and,
/// when a recording is kept beside the golden, the golden's run faint under it.

#include <string>
#include <vector>

#include "app/measure.h"
#include "report/golden.h"

namespace collide {

/// One scenario (or stale golden) on the page.
struct CheckPageCase {
    std::string name;    ///< the scenario's name (file stem)
    std::string path;    ///< its file (or the stale golden)
    std::string status;  ///< "passed", "failed", "pending" (failed, result left for review) or "bad input"
    std::string reason;  ///< one line: why it failed
    std::string details; ///< the diff, expectation messages or diagnostics, as printed without colour
    std::vector<std::string> expected;          ///< the golden's lines (empty without a golden)
    std::vector<std::string> actual;            ///< this run's lines
    std::vector<ValueDiff> values;              ///< each value that moved
    const MeasuredScenario* measured = nullptr; ///< the run, for its plot (nullptr: none)
    /// The golden's recording (EXPECTED/NAME.rec, `golden: { recording: true }`): a case that
    /// did not pass draws it faint under this run. Empty: none.
    std::string golden_recording;
};

/// The page: summary counts, then one section per case in the order given (`data-scenario` and
/// `data-status` on each). Each measured scenario is simulated again with its frames recorded
/// for its plot.
std::string render_check_html(const std::vector<CheckPageCase>& cases);

} // namespace collide
