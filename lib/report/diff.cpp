#include "report/diff.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "io/safe_text.h"

namespace collide {

namespace {

/// A value as the values file writes it: shortest round-trip form, NaN `none`.
std::string value_text(double v) { return std::isnan(v) ? std::string("none") : fmt::format("{}", v); }

/// The golden line a change sits at, for grouping and context (added lines sit before it).
int anchor(const LineChange& c) { return c.expected_line; }

/// The last golden line a change consumes (an added line consumes none).
int last_consumed(const LineChange& c) {
    return c.kind == LineChangeKind::added ? c.expected_line - 1 : c.expected_line;
}

} // namespace

std::string describe_value(const ValueDiff& d) {
    std::string out;
    switch (d.kind) {
    case ValueDiff::added:
        return fmt::format("{}: new value {} (the golden has no such value)", d.key, value_text(d.actual));
    case ValueDiff::removed:
        return fmt::format("{}: no longer logged (the golden has {})", d.key, value_text(d.expected));
    case ValueDiff::changed: break;
    }
    if (d.has_tolerance)
        out = fmt::format("{}: expected {}, actual {} (diff {:.3g} > {:.3g}: absolute {:g}, relative {:g})", d.key,
                          value_text(d.expected), value_text(d.actual), d.diff, d.allowed, d.tolerance.abs,
                          d.tolerance.rel);
    else
        out = fmt::format("{}: {} → {} (diff {:.3g})", d.key, value_text(d.expected), value_text(d.actual), d.diff);
    if (!d.printed.empty()) out += "; " + d.printed;
    return out;
}

std::string paint(const std::string& text, const char* code, bool color) {
    if (!color) return text;
    return fmt::format("\x1b[{}m{}\x1b[0m", code, text);
}

std::string render_diff(const std::string& name, const std::string& scenario_path, const std::string& golden_path,
                        const GoldenComparison& comparison, const DiffStyle& style) {
    // Golden lines and paths are input (a golden may be hand-edited): shown with control and
    // bidirectional characters escaped (io/safe_text.h), so only the diff's own colours reach a terminal.
    const auto safe = [](const std::string& text) { return escape_unsafe(text); };
    std::string out = paint(fmt::format("scenario {} ({} vs {})", safe(name), safe(scenario_path), safe(golden_path)),
                            "1", style.color);
    out += '\n';
    const auto& changes = comparison.changes;
    const auto& golden = comparison.expected_lines;
    const int context = std::max(0, style.context);
    const int golden_count = static_cast<int>(golden.size());

    std::size_t k = 0;
    while (k < changes.size()) {
        // A hunk: changes whose context windows touch.
        std::size_t end = k + 1;
        while (end < changes.size() && anchor(changes[end]) - last_consumed(changes[end - 1]) <= 2 * context + 1) ++end;
        const int first = anchor(changes[k]);
        const int last = last_consumed(changes[end - 1]);
        out += paint(last > first ? fmt::format("@@ lines {}-{} @@", first, last) : fmt::format("@@ line {} @@", first),
                     "36", style.color);
        out += '\n';
        int shown = std::max(1, first - context); // next golden line to print as context (1-based)
        for (std::size_t c = k; c < end; ++c) {
            const LineChange& change = changes[c];
            for (; shown < anchor(change); ++shown)
                out += "  " + safe(golden[static_cast<std::size_t>(shown - 1)]) + "\n";
            if (change.kind != LineChangeKind::added) {
                out += paint("- " + safe(change.expected), "31", style.color) + "\n";
                shown = change.expected_line + 1;
            }
            if (change.kind != LineChangeKind::removed)
                out += paint("+ " + safe(change.actual), "32", style.color) + "\n";
            for (const ValueDiff& d : change.values) out += "  " + describe_value(d) + "\n";
        }
        const int stop = std::min(golden_count, last + context);
        for (; shown <= stop; ++shown) out += "  " + safe(golden[static_cast<std::size_t>(shown - 1)]) + "\n";
        k = end;
    }
    if (!comparison.unplaced.empty()) {
        out += paint("@@ values @@", "36", style.color) + "\n";
        for (const ValueDiff& d : comparison.unplaced) out += "  " + describe_value(d) + "\n";
    }
    return out;
}

} // namespace collide
