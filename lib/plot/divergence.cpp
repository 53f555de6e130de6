#include "plot/divergence.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <fmt/format.h>
#include <stdexcept>

#include "report/junit.h"

namespace collide {

namespace {

constexpr double kWidth = 720, kHeight = 320;
constexpr double kLeft = 70, kRight = 150, kTop = 36, kBottom = 44;

} // namespace

std::string render_divergence_svg(std::span<const DivergencePoint> points, std::string_view title) {
    // The decades the differences span (at least one), and the frames.
    double lo = HUGE_VAL, hi = 0;
    for (const DivergencePoint& p : points)
        for (const double d : {p.position, p.velocity})
            if (d > 0 && std::isfinite(d)) {
                lo = std::min(lo, d);
                hi = std::max(hi, d);
            }
    int dec_lo = -16, dec_hi = 0;
    if (hi > 0) {
        dec_lo = static_cast<int>(std::floor(std::log10(lo)));
        dec_hi = static_cast<int>(std::ceil(std::log10(hi)));
        if (dec_hi <= dec_lo) dec_hi = dec_lo + 1;
    }
    const int f0 = points.empty() ? 0 : points.front().frame;
    const int f1 = points.empty() ? 1 : std::max(points.back().frame, f0 + 1);
    const double w = kWidth - kLeft - kRight, h = kHeight - kTop - kBottom;
    const auto x_of = [&](int frame) { return kLeft + w * (frame - f0) / static_cast<double>(f1 - f0); };
    const auto y_of = [&](double d) {
        if (!(d > 0)) return kTop + h; // 0 (or not a number): the bottom line
        if (!std::isfinite(d)) return kTop;
        const double t = (std::log10(d) - dec_lo) / (dec_hi - dec_lo);
        return kTop + h * (1 - std::clamp(t, 0.0, 1.0));
    };
    std::string out = fmt::format(
            "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"collide-divergence\" width=\"{0}\" height=\"{1}\" "
            "viewBox=\"0 0 {0} {1}\" font-family=\"sans-serif\" font-size=\"12\">\n"
            "<rect width=\"{0}\" height=\"{1}\" fill=\"#fff\"/>\n"
            "<text x=\"{2}\" y=\"20\" font-size=\"14\">{3}</text>\n",
            kWidth, kHeight, kLeft, xml_escape(std::string(title)));
    // Decades up the side, frames along the bottom.
    const int step = std::max(1, (dec_hi - dec_lo + 7) / 8);
    for (int d = dec_lo; d <= dec_hi; d += step) {
        const double y = y_of(std::pow(10.0, d));
        out += fmt::format("<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"#ddd\"/>"
                           "<text x=\"{3}\" y=\"{4:.1f}\" text-anchor=\"end\">1e{5}</text>\n",
                           kLeft, y, kLeft + w, kLeft - 6, y + 4, d);
    }
    const int frames = f1 - f0, tick = std::max(1, frames / 8);
    for (int f = f0; f <= f1; f += tick)
        out += fmt::format("<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#888\"/>"
                           "<text x=\"{0:.1f}\" y=\"{3}\" text-anchor=\"middle\">{4}</text>\n",
                           x_of(f), kTop + h, kTop + h + 5, kTop + h + 18, f);
    out += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#888\"/>\n"
                       "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">frame</text>\n"
                       "<text x=\"14\" y=\"{}\" transform=\"rotate(-90 14 {})\" text-anchor=\"middle\">largest "
                       "difference</text>\n",
                       kLeft, kTop, w, h, kLeft + w / 2, kHeight - 6, kTop + h / 2, kTop + h / 2);
    // The first divergent frame.
    if (!points.empty())
        out += fmt::format("<line class=\"first\" x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#d00\" "
                           "stroke-dasharray=\"4 3\"/><text x=\"{3:.1f}\" y=\"{4}\" fill=\"#d00\">first: frame {5}, "
                           "t = {6:.6g} s</text>\n",
                           x_of(f0), kTop, kTop + h, x_of(f0) + 4, kTop + 12, f0, points.front().time);
    const auto series = [&](const char* name, const char* colour, auto value, int row) {
        std::string pts;
        for (const DivergencePoint& p : points)
            pts += fmt::format("{}{:.1f},{:.1f}", pts.empty() ? "" : " ", x_of(p.frame), y_of(value(p)));
        out += fmt::format("<polyline class=\"{0}\" points=\"{1}\" fill=\"none\" stroke=\"{2}\" "
                           "stroke-width=\"1.5\"/>\n"
                           "<line x1=\"{3}\" y1=\"{4}\" x2=\"{5}\" y2=\"{4}\" stroke=\"{2}\" stroke-width=\"2\"/>"
                           "<text x=\"{6}\" y=\"{7}\">{0}</text>\n",
                           name, pts, colour, kLeft + w + 12, kTop + 10 + 20 * row, kLeft + w + 32, kLeft + w + 38,
                           kTop + 14 + 20 * row);
    };
    series(
            "position (m)", "#1f77b4", [](const DivergencePoint& p) { return p.position; }, 0);
    series(
            "velocity (m/s)", "#ff7f0e", [](const DivergencePoint& p) { return p.velocity; }, 1);
    out += "</svg>\n";
    return out;
}

Scenario scene_of_runs(std::span<const Scenario> runs, std::span<const std::string> labels) {
    if (runs.empty() || labels.size() != runs.size())
        throw std::invalid_argument("scene_of_runs: one label per run, and at least one run");
    Scenario scene = runs[0];
    std::string joined;
    for (std::size_t r = 0; r < labels.size(); ++r)
        joined += (r == 0 ? "" : r + 1 == labels.size() ? " and " : ", ") + labels[r];
    scene.name = runs[0].name + ": " + joined;
    for (BodyDef& body : scene.bodies) body.name = labels[0] + ": " + body.name;
    for (std::size_t r = 1; r < runs.size(); ++r)
        for (const BodyDef& body : runs[r].bodies) {
            if (body.is_static) continue;
            BodyDef ghost = body;
            ghost.name = labels[r] + ": " + body.name;
            scene.bodies.push_back(std::move(ghost));
        }
    scene.log.clear();
    scene.expect.clear();
    return scene;
}

Recording recording_of_runs(std::span<const Scenario> runs, std::span<const Recording* const> recordings) {
    if (runs.empty() || recordings.size() != runs.size())
        throw std::invalid_argument("recording_of_runs: one recording per run, and at least one run");
    const Recording& first = *recordings[0];
    std::vector<std::vector<std::size_t>> moving(runs.size());
    Recording out;
    out.body_count = first.body_count;
    std::size_t frames = first.frame_count();
    for (std::size_t r = 1; r < runs.size(); ++r) {
        for (std::size_t k = 0; k < runs[r].bodies.size(); ++k)
            if (!runs[r].bodies[k].is_static) moving[r].push_back(k);
        out.body_count += static_cast<int>(moving[r].size());
        frames = std::min(frames, recordings[r]->frame_count());
    }
    out.frames.assign(first.frames.begin(), first.frames.begin() + static_cast<std::ptrdiff_t>(frames));
    out.times.assign(first.times.begin(), first.times.begin() + static_cast<std::ptrdiff_t>(frames));
    out.states.reserve(frames * static_cast<std::size_t>(out.body_count));
    for (std::size_t f = 0; f < frames; ++f) {
        const auto states = first.at(f);
        out.states.insert(out.states.end(), states.begin(), states.end());
        for (std::size_t r = 1; r < runs.size(); ++r) {
            const auto ghost = recordings[r]->at(f);
            for (const std::size_t k : moving[r]) out.states.push_back(ghost[k]);
        }
    }
    out.contacts = first.contacts;
    return out;
}

Scenario scene_of_two_runs(const Scenario& a, const Scenario& b) {
    const std::array<Scenario, 2> runs{a, b};
    const std::array<std::string, 2> labels{"A", "B"};
    return scene_of_runs(runs, labels);
}

Recording recording_of_two_runs(const Scenario& b_scenario, const Recording& a, const Recording& b) {
    const std::array<Scenario, 2> runs{b_scenario, b_scenario}; // the first run's bodies are all kept
    const std::array<const Recording*, 2> recordings{&a, &b};
    return recording_of_runs(runs, recordings);
}

} // namespace collide
