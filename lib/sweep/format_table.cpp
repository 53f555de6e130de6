#include <algorithm>
#include <cmath>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "sweep/format.h"
#include "sweep/map.h"

namespace collide {

namespace {

constexpr std::string_view kRamp = ".:-=+*#%@"; // low → high
constexpr std::size_t kMaxWidth = 120;          // side by side only up to this many columns

/// The width of a UTF-8 line in terminal columns: one per character (every byte that is not
/// a continuation byte; the table draws only single-width characters).
std::size_t display_width(std::string_view line) {
    return static_cast<std::size_t>(std::count_if(
            line.begin(), line.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

/// Pads `line` with spaces or cuts it to `width` columns, never inside a UTF-8 character.
void fit_to_width(std::string& line, std::size_t width) {
    std::size_t columns = 0, i = 0;
    for (; i < line.size(); ++i) {
        if ((static_cast<unsigned char>(line[i]) & 0xC0) == 0x80) continue; // inside a character
        if (columns == width) break;
        ++columns;
    }
    if (i < line.size())
        line.resize(i);
    else
        line.append(width - columns, ' ');
}

/// The mark for one value: `#`/`.` for booleans, a shade of the ramp for numbers, blank for
/// a value not measured.
char mark_of(FieldType type, double v, double lo, double hi) {
    if (std::isnan(v)) return ' ';
    if (type == FieldType::boolean) return v != 0 ? '#' : '.';
    if (!std::isfinite(v)) return v > 0 ? kRamp.back() : kRamp.front();
    if (!(hi > lo)) return kRamp[kRamp.size() / 2];
    const double t = (v - lo) / (hi - lo);
    const auto level = static_cast<std::size_t>(std::clamp(t, 0.0, 1.0) * (static_cast<double>(kRamp.size()) - 1e-9));
    return kRamp[std::min(level, kRamp.size() - 1)];
}

/// One panel as lines of equal width: a title, the column ticks, then one line per row.
std::vector<std::string> draw_panel(const OutcomeMap& map, std::uint64_t e, std::size_t m, double lo, double hi) {
    const auto& axes = map.axes();
    const std::uint64_t rows = map.rows(), columns = map.columns();
    std::vector<std::string> row_labels(rows);
    std::size_t label_width = map.row_name().size();
    for (std::uint64_t i = 0; i < rows; ++i) {
        if (!axes.empty()) row_labels[i] = fmt::format("{}", axes[0].values[i]);
        label_width = std::max(label_width, row_labels[i].size());
    }
    const std::size_t map_width = 2 * columns;
    std::size_t width = label_width + 1 + std::max<std::size_t>(map_width, map.column_name().size() + 2);

    std::vector<std::string> lines;
    std::string title = map.plan.variant_name(m);
    if (map.extras() > 1) title += " at " + map.extra_label(e);
    width = std::max(width, display_width(title)); // the title is never cut ("collide discrete")
    lines.push_back(title);

    // Column heading and ticks: each value's label starts above its column, where it fits.
    std::string heading(label_width + 1, ' ');
    heading += map.column_name().empty() ? std::string() : map.column_name() + " →";
    lines.push_back(heading);
    std::string ticks(label_width, ' ');
    ticks.replace(0, map.row_name().size(), map.row_name());
    ticks += ' ';
    if (axes.size() >= 2) {
        // Labels at a regular stride: every `every`-th column, wide enough for the longest label.
        std::size_t longest = 0;
        for (std::uint64_t j = 0; j < columns; ++j)
            longest = std::max(longest, fmt::format("{}", axes[1].values[j]).size());
        const std::uint64_t every = (longest + 2) / 2;
        for (std::uint64_t j = 0; j < columns; j += every) {
            const std::string label = fmt::format("{}", axes[1].values[j]);
            ticks.resize(label_width + 1 + 2 * j, ' ');
            ticks += label;
        }
    }
    lines.push_back(ticks);

    for (std::uint64_t i = 0; i < rows; ++i) {
        std::string line(label_width - row_labels[i].size(), ' ');
        line += row_labels[i];
        line += ' ';
        for (std::uint64_t j = 0; j < columns; ++j) {
            double v = 0;
            line += map.value(map.cell(i, j, e), m, v) ? mark_of(map.type(), v, lo, hi) : ' ';
            line += ' ';
        }
        lines.push_back(std::move(line));
    }
    for (std::string& line : lines) fit_to_width(line, width);
    return lines;
}

void append_lines(const std::vector<std::string>& lines, std::string& out) {
    for (const std::string& line : lines) {
        const auto end = line.find_last_not_of(' ');
        out.append(line, 0, end == std::string::npos ? 0 : end + 1);
        out += '\n';
    }
}

} // namespace

std::string render_sweep_table(const SweepModel& model, const SweepPlan& plan, std::span<const double> values,
                               int measure) {
    const OutcomeMap map{model, plan, values, measure};
    const auto [lo, hi] = map.range();
    std::string out;

    // Header: which measure, over which params, and what the marks mean.
    out += fmt::format("{}: {} over ", model.name, model.columns[measure]);
    if (map.axes().empty()) out += "a single cell";
    for (std::size_t a = 0; a < map.axes().size(); ++a) {
        if (a > 0) out += " × ";
        out += map.axes()[a].name;
        out += a == 0 ? " (rows)" : a == 1 ? " (columns)" : "";
    }
    if (plan.shard.count > 1) out += fmt::format(", shard {}/{}", plan.shard.index + 1, plan.shard.count);
    out += '\n';
    if (map.type() == FieldType::boolean) {
        const auto [yes, no] = boolean_words(model.fields[static_cast<std::size_t>(measure)]);
        out += fmt::format("# {0} true ({1})   . {0} false ({2})   blank: not measured\n", model.columns[measure], yes,
                           no);
    } else if (std::isnan(lo)) {
        out += "no value was measured\n";
    } else {
        out += fmt::format("{} from {:.6g} to {:.6g}   blank: not measured\n", kRamp, lo, hi);
    }
    if (plan.shard.count > 1) out += "cells of other shards are blank\n";

    for (std::uint64_t e = 0; e < map.extras(); ++e) {
        std::vector<std::vector<std::string>> panels;
        for (std::size_t v = 0; v < plan.variants(); ++v) panels.push_back(draw_panel(map, e, v, lo, hi));
        // Side by side as many as fit in kMaxWidth columns, the next ones below them.
        for (std::size_t first = 0; first < panels.size();) {
            std::size_t last = first + 1, total = display_width(panels[first].front()) + 4;
            while (last < panels.size() && total + display_width(panels[last].front()) + 4 <= kMaxWidth)
                total += display_width(panels[last++].front()) + 4;
            out += '\n';
            std::vector<std::string> joined(panels[first].size());
            for (std::size_t k = 0; k < joined.size(); ++k)
                for (std::size_t p = first; p < last; ++p) joined[k] += (p > first ? "    " : "") + panels[p][k];
            append_lines(joined, out);
            first = last;
        }
    }
    return out;
}

} // namespace collide
