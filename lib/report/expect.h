#pragma once
/// \file
/// Checking a scenario's `expect:` conditions against the values its run measured. `sim` and
/// `check` both print each failed expectation with the values involved and exit 1.

#include <limits>
#include <span>
#include <string>
#include <vector>

#include "model/log.h"
#include "model/scenario.h"

namespace collide {

/// The outcome of one `expect:` condition.
struct ExpectOutcome {
    bool passed = false;
    std::string condition; ///< as written: `swept.apex_1 = swept.analytic_1 within 1e-6`
    std::string unit;      ///< the value's unit ("m", "s", …; empty when unitless or not logged)
    double value = std::numeric_limits<double>::quiet_NaN();  ///< measured; NaN: not measured
    double target = std::numeric_limits<double>::quiet_NaN(); ///< the number, or other + plus
    /// How far the value misses its target: |value − target| for equals, how far it is above
    /// the bound for at_most (below it for at_least; 0 within the bound). Passed ⇔ error ≤
    /// tolerance (and both are measured); NaN when either is not.
    double error = std::numeric_limits<double>::quiet_NaN();
    double tolerance = 0; ///< the condition's tolerance (in the value's unit)
    /// `FILE:LINE:COLUMN: expectation failed: CONDITION (VALUES)` when it failed, e.g.
    /// `scenarios/tunnel.yaml:24:5: expectation failed: first_contact.hit equals true (got false)`;
    /// `FILE:LINE:COLUMN: expectation held: CONDITION` when it passed.
    std::string message;
};

/// Checks every condition of `scenario.expect`, in order, against `values` (laid out by
/// `layout`). `equals`: |v − target| ≤ tolerance; `at_most`: v ≤ target + tolerance;
/// `at_least`: v ≥ target − tolerance; the target is `number` or the logged value `other` plus
/// `plus`.
/// A value that was not measured (NaN) never passes; neither does a name the layout lacks.
std::vector<ExpectOutcome> check_expectations(const Scenario& scenario, const Layout& layout,
                                              std::span<const double> values);

} // namespace collide
