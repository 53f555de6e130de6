#include "report/diff.h"

#include <algorithm>
#include <fmt/format.h>

namespace collide {

namespace {

/// Decimals printed in a number's text ("0.512" → 3); −1 for scientific notation.
int decimals_in(const std::string& text) {
    if (text.find_first_of("eE") != std::string::npos) return -1;
    const std::size_t point = text.find('.');
    return point == std::string::npos ? 0 : static_cast<int>(text.size() - point - 1);
}

/// |diff| printed with as many decimals as the more precise number showed, so it is exact.
std::string diff_text(const NumberDiff& d) {
    const int de = decimals_in(d.expected_text);
    const int da = decimals_in(d.actual_text);
    if (de < 0 || da < 0) return fmt::format("{:.2e}", d.diff);
    return fmt::format("{:.{}f}", d.diff, std::max(de, da));
}

std::string number_line(const NumberDiff& d) {
    return fmt::format("  number {}: expected {}, actual {} (diff {} > tolerance {:g})\n", d.index, d.expected_text,
                       d.actual_text, diff_text(d), d.allowed);
}

/// The golden line a change sits at, for grouping and context (added lines sit before it).
int anchor(const LineChange& c) { return c.expected_line; }

/// The last golden line a change consumes (an added line consumes none).
int last_consumed(const LineChange& c) {
    return c.kind == LineChangeKind::added ? c.expected_line - 1 : c.expected_line;
}

} // namespace

std::string paint(const std::string& text, const char* code, bool color) {
    if (!color) return text;
    return fmt::format("\x1b[{}m{}\x1b[0m", code, text);
}

std::string render_diff(const std::string& name, const std::string& scenario_path, const std::string& golden_path,
                        const GoldenComparison& comparison, const DiffStyle& style) {
    std::string out = paint(fmt::format("scenario {} ({} vs {})", name, scenario_path, golden_path), "1", style.color);
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
            for (; shown < anchor(change); ++shown) out += "  " + golden[static_cast<std::size_t>(shown - 1)] + "\n";
            if (change.kind != LineChangeKind::added) {
                out += paint("- " + change.expected, "31", style.color) + "\n";
                shown = change.expected_line + 1;
            }
            if (change.kind != LineChangeKind::removed) out += paint("+ " + change.actual, "32", style.color) + "\n";
            for (const NumberDiff& d : change.numbers) out += number_line(d);
        }
        const int stop = std::min(golden_count, last + context);
        for (; shown <= stop; ++shown) out += "  " + golden[static_cast<std::size_t>(shown - 1)] + "\n";
        k = end;
    }
    return out;
}

} // namespace collide
