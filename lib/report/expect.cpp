#include "report/expect.h"
#include "scenario/load.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

namespace collide {

namespace {

const char* op_word(ExpectOp op) {
    switch (op) {
    case ExpectOp::equals: return "equals";
    case ExpectOp::at_most: return "at_most";
    case ExpectOp::at_least: return "at_least";
    }
    return "?";
}

/// A value as a reader wants it: booleans true/false, bodies by name, integers whole, numbers
/// with ten significant digits (enough to see a difference the tolerance cares about).
std::string show(const Scenario& scenario, FieldType type, double v) {
    if (std::isnan(v)) return "none (not measured)";
    switch (type) {
    case FieldType::boolean: return v != 0 ? "true" : "false";
    case FieldType::integer: return fmt::format("{:.0f}", v);
    case FieldType::body:
        if (v >= 0 && v < static_cast<double>(scenario.bodies.size()))
            return scenario.bodies[static_cast<std::size_t>(v)].name;
        return "none";
    case FieldType::number: break;
    }
    return fmt::format("{:.10g}", v);
}

std::string where(const Scenario& scenario, const SourceMark& mark) {
    return fmt::format("{}:{}:{}", display_name(scenario.file), mark.line, mark.column);
}

/// The condition as written, or rebuilt from its parts when the loader kept no text.
std::string condition_text(const ExpectDef& def, FieldType type) {
    if (!def.text.empty()) return def.text;
    std::string target = def.other;
    if (!target.empty() && def.plus != 0)
        target += fmt::format(" {} {:g}", def.plus < 0 ? '-' : '+', std::fabs(def.plus));
    if (target.empty())
        target = type == FieldType::boolean ? (def.number != 0 ? "true" : "false") : fmt::format("{:g}", def.number);
    return fmt::format("{} {} {}", def.value, op_word(def.op), target);
}

} // namespace

std::vector<ExpectOutcome> check_expectations(const Scenario& scenario, const Layout& layout,
                                              std::span<const double> values) {
    std::vector<ExpectOutcome> outcomes;
    outcomes.reserve(scenario.expect.size());
    for (const ExpectDef& def : scenario.expect) {
        const std::string at = where(scenario, def.mark);
        const int vi = layout.find(scenario, def.value);
        const int oi = def.other.empty() ? -2 : layout.find(scenario, def.other);
        if (vi < 0 || static_cast<std::size_t>(vi) >= values.size() || oi == -1 ||
            (oi >= 0 && static_cast<std::size_t>(oi) >= values.size())) {
            const std::string& missing =
                    (vi < 0 || static_cast<std::size_t>(vi) >= values.size()) ? def.value : def.other;
            ExpectOutcome missed;
            missed.condition = condition_text(def, FieldType::number);
            missed.message =
                    fmt::format("{}: expectation failed: {} (no logged value {})", at, missed.condition, missing);
            missed.tolerance = def.tolerance;
            outcomes.push_back(std::move(missed));
            continue;
        }
        const FieldType type = layout.fields[static_cast<std::size_t>(vi)].type;
        const double v = values[static_cast<std::size_t>(vi)];
        const double target = oi >= 0 ? values[static_cast<std::size_t>(oi)] + def.plus : def.number;
        const double tol = def.tolerance;
        bool passed = false;
        if (!std::isnan(v) && !std::isnan(target)) {
            switch (def.op) {
            case ExpectOp::equals: passed = std::fabs(v - target) <= tol; break;
            case ExpectOp::at_most: passed = v <= target + tol; break;
            case ExpectOp::at_least: passed = v >= target - tol; break;
            }
        }
        ExpectOutcome outcome;
        outcome.condition = condition_text(def, type);
        outcome.unit = std::string(layout.fields[static_cast<std::size_t>(vi)].unit);
        outcome.value = v;
        outcome.target = target;
        outcome.tolerance = tol;
        if (!std::isnan(v) && !std::isnan(target)) {
            switch (def.op) {
            case ExpectOp::equals: outcome.error = std::fabs(v - target); break;
            case ExpectOp::at_most: outcome.error = std::max(0.0, v - target); break;
            case ExpectOp::at_least: outcome.error = std::max(0.0, target - v); break;
            }
        }
        const std::string& condition = outcome.condition;
        if (passed) {
            outcome.passed = true;
            outcome.message = fmt::format("{}: expectation held: {}", at, condition);
            outcomes.push_back(std::move(outcome));
            continue;
        }
        // What to show: the value, and the target when it is another logged value.
        std::string detail;
        const std::string shown = show(scenario, type, v);
        if (oi >= 0) {
            const FieldType other_type = layout.fields[static_cast<std::size_t>(oi)].type;
            detail = fmt::format("{} = {} vs {} = {}", def.value, shown, def.other,
                                 show(scenario, other_type, values[static_cast<std::size_t>(oi)]));
        } else {
            detail = fmt::format("got {}", shown);
        }
        const bool numeric = type == FieldType::number || type == FieldType::integer;
        if (numeric && !std::isnan(v) && !std::isnan(target)) {
            switch (def.op) {
            case ExpectOp::equals:
                detail += fmt::format(", diff {:.1e} > tolerance {:g}", std::fabs(v - target), tol);
                break;
            case ExpectOp::at_most: detail += fmt::format(", over by {:.3g}, tolerance {:g}", v - target, tol); break;
            case ExpectOp::at_least: detail += fmt::format(", under by {:.3g}, tolerance {:g}", target - v, tol); break;
            }
        }
        outcome.message = fmt::format("{}: expectation failed: {} ({})", at, condition, detail);
        outcomes.push_back(std::move(outcome));
    }
    return outcomes;
}

} // namespace collide
