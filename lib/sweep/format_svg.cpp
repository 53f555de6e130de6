#include <algorithm>
#include <cmath>
#include <iterator>

#include <fmt/format.h>

#include "report/junit.h"
#include "sweep/format.h"
#include "sweep/map.h"

namespace collide {

namespace {

struct Rgb {
    int r = 0, g = 0, b = 0;
};

constexpr Rgb kCaught{0x39, 0xd3, 0xc3}; // a boolean field that is true (the tunnel: caught)
constexpr Rgb kMissed{0xff, 0x7b, 0x72}; // … and missed
constexpr Rgb kNone{0x8b, 0x94, 0x9e};   // not measured
// A perceptually ordered ramp (viridis' five anchors), low → high.
constexpr Rgb kRamp[] = {
        {0x44, 0x01, 0x54}, {0x3b, 0x52, 0x8b}, {0x21, 0x91, 0x8c}, {0x5e, 0xc9, 0x62}, {0xfd, 0xe7, 0x25}};

std::string hex(Rgb c) { return fmt::format("#{:02x}{:02x}{:02x}", c.r, c.g, c.b); }

Rgb ramp(double t) {
    constexpr int n = static_cast<int>(std::size(kRamp));
    t = std::clamp(t, 0.0, 1.0) * (n - 1);
    const int k = std::min(static_cast<int>(t), n - 2);
    const double f = t - k;
    const auto mix = [f](int a, int b) { return static_cast<int>(std::lround(a + (b - a) * f)); };
    return {mix(kRamp[k].r, kRamp[k + 1].r), mix(kRamp[k].g, kRamp[k + 1].g), mix(kRamp[k].b, kRamp[k + 1].b)};
}

/// Text for an SVG element or attribute: the same escaping as the JUnit report's.
std::string escape(std::string_view text) { return xml_escape(std::string(text)); }

/// The colour of a value (empty: leave the background, the cell belongs to another shard).
std::string colour_of(FieldType type, double v, double lo, double hi) {
    if (std::isnan(v)) return hex(kNone);
    if (type == FieldType::boolean) return hex(v != 0 ? kCaught : kMissed);
    if (!std::isfinite(v)) return hex(ramp(v > 0 ? 1 : 0));
    return hex(ramp(hi > lo ? (v - lo) / (hi - lo) : 0.5));
}

/// Indices of the values to label on an axis of n values: at most about 10, evenly spaced,
/// always the first and (when it does not crowd) the last.
std::vector<std::uint64_t> ticks(std::uint64_t n) {
    const std::uint64_t step = std::max<std::uint64_t>(1, (n + 9) / 10);
    std::vector<std::uint64_t> t;
    for (std::uint64_t i = 0; i < n; i += step) t.push_back(i);
    if (t.back() != n - 1 && n - 1 - t.back() >= step / 2 + 1) t.push_back(n - 1);
    return t;
}

template <class... Args> void put(std::string& out, fmt::format_string<Args...> format, Args&&... args) {
    fmt::format_to(std::back_inserter(out), format, std::forward<Args>(args)...);
}

} // namespace

std::string render_sweep_svg(const SweepModel& model, const SweepPlan& plan, std::span<const double> values,
                             int measure) {
    const OutcomeMap map{model, plan, values, measure};
    const auto [lo, hi] = map.range();
    const auto& axes = map.axes();
    const std::uint64_t rows = map.rows(), columns = map.columns();

    // Geometry (px): square cells that make a panel about 480 px on its longer side.
    const int cell = static_cast<int>(std::clamp<std::uint64_t>(480 / std::max(rows, columns), 1, 24));
    const int map_w = static_cast<int>(columns) * cell, map_h = static_cast<int>(rows) * cell;
    const int left = 90, top = 70, gap_x = 100, gap_y = 70, legend_h = 60;
    const int panel_w = std::max(map_w, 160), panel_h = map_h + 30;
    const int n_modes = static_cast<int>(plan.modes.size());
    const int n_engines = static_cast<int>(plan.engines.size());
    const int n_lines = static_cast<int>(map.extras()) * n_engines; // lines of panels
    const int width = left + n_modes * panel_w + (n_modes - 1) * gap_x + 30;
    const int height = top + n_lines * panel_h + (n_lines - 1) * gap_y + 60 + legend_h;

    std::string out;
    put(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    put(out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0}\" height=\"{1}\" viewBox=\"0 0 {0} {1}\" "
        "font-family=\"Helvetica, Arial, sans-serif\" font-size=\"12\" fill=\"#24292f\">\n",
        width, height);
    put(out, "<rect width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>\n", width, height);
    std::string subtitle;
    for (std::size_t a = 0; a < axes.size(); ++a) subtitle += (a > 0 ? " × " : "by ") + axes[a].name;
    if (plan.shard.count > 1) subtitle += fmt::format(" (shard {}/{})", plan.shard.index + 1, plan.shard.count);
    put(out, "<title>{}: {} {}</title>\n", escape(model.name), escape(model.columns[measure]), escape(subtitle));
    put(out, "<text x=\"{}\" y=\"28\" font-size=\"18\" font-weight=\"bold\">{}: {}</text>\n", left, escape(model.name),
        escape(model.columns[measure]));
    put(out, "<text x=\"{}\" y=\"48\" font-size=\"13\" fill=\"#57606a\">{}</text>\n", left, escape(subtitle));

    for (int line = 0; line < n_lines; ++line) {
        const int e = line / n_engines; // the combination of further axes
        for (int m = 0; m < n_modes; ++m) {
            const auto variant = static_cast<std::size_t>((line % n_engines) * n_modes + m);
            const int x0 = left + m * (panel_w + gap_x);
            const int y0 = top + line * (panel_h + gap_y) + 20;
            std::string title = plan.variant_name(variant);
            if (map.extras() > 1) title += " at " + map.extra_label(static_cast<std::uint64_t>(e));
            put(out, "<g transform=\"translate({},{})\">\n", x0, y0);
            put(out, "<text x=\"0\" y=\"-8\" font-size=\"14\" font-weight=\"bold\">{}</text>\n", escape(title));
            // Cells, one rect per run of equal colour along a row.
            for (std::uint64_t i = 0; i < rows; ++i) {
                std::uint64_t j = 0;
                while (j < columns) {
                    double v = 0;
                    const bool present = map.value(map.cell(i, j, e), variant, v);
                    const std::string colour = present ? colour_of(map.type(), v, lo, hi) : std::string();
                    std::uint64_t k = j + 1;
                    for (; k < columns; ++k) {
                        double w = 0;
                        const bool p = map.value(map.cell(i, k, e), variant, w);
                        if (p != present || (p && colour_of(map.type(), w, lo, hi) != colour)) break;
                    }
                    if (present)
                        put(out, "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>\n", j * cell,
                            i * cell, (k - j) * cell, cell, colour);
                    j = k;
                }
            }
            put(out, "<rect x=\"0\" y=\"0\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#57606a\"/>\n", map_w,
                map_h);
            // Row ticks (first axis) on the left, column ticks (second axis) below.
            if (!axes.empty()) {
                for (std::uint64_t i : ticks(rows))
                    put(out, "<text x=\"-6\" y=\"{}\" text-anchor=\"end\" dominant-baseline=\"middle\">{}</text>\n",
                        static_cast<double>(i * cell) + cell / 2.0, axes[0].values[i]);
                put(out,
                    "<text transform=\"translate(-62,{}) rotate(-90)\" text-anchor=\"middle\" "
                    "font-weight=\"bold\">{}</text>\n",
                    map_h / 2.0, escape(axes[0].name));
            }
            if (axes.size() >= 2) {
                for (std::uint64_t j : ticks(columns))
                    put(out, "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n",
                        static_cast<double>(j * cell) + cell / 2.0, map_h + 16, axes[1].values[j]);
                put(out, "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-weight=\"bold\">{}</text>\n", map_w / 2.0,
                    map_h + 34, escape(axes[1].name));
            }
            put(out, "</g>\n");
        }
    }

    // Legend.
    const int ly = height - legend_h;
    put(out, "<g transform=\"translate({},{})\">\n", left, ly);
    const std::string& name = model.columns[measure];
    if (map.type() == FieldType::boolean) {
        put(out, "<rect x=\"0\" y=\"0\" width=\"14\" height=\"14\" fill=\"{}\"/>\n", hex(kCaught));
        const auto [yes, no] = boolean_words(model.fields[static_cast<std::size_t>(measure)]);
        put(out, "<text x=\"20\" y=\"11\">{} true ({})</text>\n", escape(name), yes);
        put(out, "<rect x=\"170\" y=\"0\" width=\"14\" height=\"14\" fill=\"{}\"/>\n", hex(kMissed));
        put(out, "<text x=\"190\" y=\"11\">{} false ({})</text>\n", escape(name), no);
    } else {
        put(out, "<defs><linearGradient id=\"ramp\" x1=\"0\" x2=\"1\" y1=\"0\" y2=\"0\">");
        for (std::size_t k = 0; k < std::size(kRamp); ++k)
            put(out, "<stop offset=\"{}\" stop-color=\"{}\"/>", static_cast<double>(k) / (std::size(kRamp) - 1),
                hex(kRamp[k]));
        put(out, "</linearGradient></defs>\n");
        put(out, "<rect x=\"0\" y=\"0\" width=\"200\" height=\"14\" fill=\"url(#ramp)\"/>\n");
        if (std::isnan(lo)) {
            put(out, "<text x=\"210\" y=\"11\">{}: no value was measured</text>\n", escape(name));
        } else {
            put(out, "<text x=\"0\" y=\"30\">{:.6g}</text>\n", lo);
            put(out, "<text x=\"200\" y=\"30\" text-anchor=\"end\">{:.6g}</text>\n", hi);
            put(out, "<text x=\"210\" y=\"11\">{}{}</text>\n", escape(name),
                model.fields[measure].unit.empty() ? std::string() : " (" + escape(model.fields[measure].unit) + ")");
        }
    }
    put(out, "<rect x=\"340\" y=\"0\" width=\"14\" height=\"14\" fill=\"{}\"/>\n", hex(kNone));
    put(out, "<text x=\"360\" y=\"11\">not measured</text>\n");
    if (plan.shard.count > 1) put(out, "<text x=\"0\" y=\"48\">white: cells of other shards</text>\n");
    put(out, "</g>\n</svg>\n");
    return out;
}

} // namespace collide
