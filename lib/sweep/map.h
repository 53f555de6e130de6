#pragma once
/// \file
/// The outcome map shared by the table and SVG formats: the grid seen as panels of rows (the
/// first axis) × columns (the second axis), one panel per combination of any further axes and
/// per variant (engine and detection mode, SweepPlan), and the measured value in each place.

#include <cmath>
#include <cstdint>
#include <limits>
#include <span>
#include <string>

#include <fmt/format.h>

#include "sweep/executor.h"

namespace collide {

/// A view of a plan's values as maps of one measure.
struct OutcomeMap {
    const SweepModel& model;
    const SweepPlan& plan;
    std::span<const double> values;
    int measure = 0;

    /// Rows per panel (values of the first axis; 1 without axes).
    std::uint64_t rows() const { return axes().empty() ? 1 : axes()[0].values.size(); }
    /// Columns per panel (values of the second axis; 1 with fewer than two axes).
    std::uint64_t columns() const { return axes().size() < 2 ? 1 : axes()[1].values.size(); }
    /// Combinations of the axes after the second (1 when there are none).
    std::uint64_t extras() const { return plan.grid.cells() / (rows() * columns()); }
    const std::vector<Axis>& axes() const { return plan.grid.axes(); }
    FieldType type() const { return model.fields[measure].type; }

    /// The grid cell at row i, column j of the panel for extra combination e.
    std::uint64_t cell(std::uint64_t i, std::uint64_t j, std::uint64_t e) const {
        return (i * columns() + j) * extras() + e;
    }
    /// The measure of `cell` in variant v (SweepPlan::variant_of_row); false when the cell
    /// belongs to another shard.
    bool value(std::uint64_t cell, std::size_t v, double& out) const {
        if (cell % plan.shard.count != plan.shard.index) return false;
        out = values[plan.row_of(cell, v) * model.fields.size() + measure];
        return true;
    }
    /// The smallest and largest finite values of the measure (both NaN when there are none).
    std::pair<double, double> range() const {
        double lo = std::numeric_limits<double>::quiet_NaN(), hi = lo;
        const std::size_t width = model.fields.size();
        for (std::uint64_t row = 0; row < plan.rows(); ++row) {
            const double v = values[row * width + measure];
            if (!std::isfinite(v)) continue;
            if (!(v >= lo)) lo = v;
            if (!(v <= hi)) hi = v;
        }
        return {lo, hi};
    }
    /// "z = 3, w = 1": the values of the axes after the second for extra combination e.
    std::string extra_label(std::uint64_t e) const {
        std::string label;
        const std::uint64_t base = e; // e is the cell index of the combination in a grid without the first two axes
        for (std::size_t a = 2; a < axes().size(); ++a) {
            if (!label.empty()) label += ", ";
            label += fmt::format("{} = {}", axes()[a].name, axes()[a].values[plan.grid.coordinate(base, a)]);
        }
        return label;
    }
    /// "speed" / "offset" as the heading of rows and columns, or empty.
    std::string row_name() const { return axes().empty() ? std::string() : axes()[0].name; }
    std::string column_name() const { return axes().size() < 2 ? std::string() : axes()[1].name; }
};

} // namespace collide
