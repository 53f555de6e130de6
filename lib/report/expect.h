#pragma once
/// \file
/// Checking a scenario's `expect:` conditions against the values its run measured. `sim` and
/// `check` both print each failed expectation with the values involved and exit 1.

#include <span>
#include <string>
#include <vector>

#include "model/log.h"
#include "model/scenario.h"

namespace collide {

/// The outcome of one `expect:` condition.
struct ExpectOutcome {
    bool passed = false;
    /// `FILE:LINE:COLUMN: expectation failed: CONDITION (VALUES)` when it failed, e.g.
    /// `scenarios/tunnel.yaml:24:5: expectation failed: first_contact.hit equals true (got false)`;
    /// `FILE:LINE:COLUMN: expectation held: CONDITION` when it passed.
    std::string message;
};

/// Checks every condition of `scenario.expect`, in order, against `values` (laid out by
/// `layout`). `equals`: |v − target| ≤ tolerance; `at_most`: v ≤ target + tolerance;
/// `at_least`: v ≥ target − tolerance; the target is `number` or the logged value `other`.
/// A value that was not measured (NaN) never passes; neither does a name the layout lacks.
std::vector<ExpectOutcome> check_expectations(const Scenario& scenario, const Layout& layout,
                                              std::span<const double> values);

} // namespace collide
