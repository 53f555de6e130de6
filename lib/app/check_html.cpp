#include "app/check_html.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>

#include <fmt/format.h>

#include "model/diagnostic.h"
#include "plot/divergence.h"
#include "plot/plot.h"
#include "plot/scene3d.h"
#include "plot/view3d.h"
#include "probes/record.h"
#include "probes/record_file.h"
#include "report/diff.h"
#include "report/junit.h"

namespace collide {

namespace {

template <class... Args> void put(std::string& out, fmt::format_string<Args...> format, Args&&... args) {
    fmt::format_to(std::back_inserter(out), format, std::forward<Args>(args)...);
}

std::string esc(std::string_view text) { return xml_escape(std::string(text)); }

std::string value_text(double v) { return std::isnan(v) ? "none" : fmt::format("{}", v); }

/// The golden and actual logs side by side, lines that differ marked.
std::string side_by_side(const CheckPageCase& c) {
    std::string out = "<table class=\"logs\"><tr><th>golden</th><th>this run</th></tr>\n";
    const std::size_t n = std::max(c.expected.size(), c.actual.size());
    for (std::size_t i = 0; i < n; ++i) {
        const std::string e = i < c.expected.size() ? c.expected[i] : "";
        const std::string a = i < c.actual.size() ? c.actual[i] : "";
        put(out, "<tr{}><td>{}</td><td>{}</td></tr>\n", e == a ? "" : " class=\"differs\"", esc(e), esc(a));
    }
    return out + "</table>\n";
}

std::string value_table(const CheckPageCase& c) {
    if (c.values.empty()) return {};
    std::string out = "<table class=\"values\"><tr><th>value</th><th>expected</th><th>actual</th><th>difference</th>"
                      "<th>allowed</th><th>printed</th></tr>\n";
    for (const ValueDiff& d : c.values)
        put(out, "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>\n", esc(d.key),
            value_text(d.expected), value_text(d.actual), value_text(d.diff), value_text(d.allowed), esc(d.printed));
    return out + "</table>\n";
}

/// The run a recording holds (probes/record_file.h), every frame and contact, and its header.
Recording read_recording(const std::string& path, RunInfo& info) {
    RunReader reader(path);
    Recording rec;
    RunFrame frame;
    while (reader.next(frame)) {
        rec.body_count = static_cast<int>(frame.bodies.size());
        rec.frames.push_back(frame.frame);
        rec.times.push_back(frame.time);
        rec.states.insert(rec.states.end(), frame.bodies.begin(), frame.bodies.end());
        rec.contacts.insert(rec.contacts.end(), frame.contacts.begin(), frame.contacts.end());
    }
    info = reader.info();
    return rec;
}

/// "" when both runs were sampled at the same times; otherwise a sentence saying that the
/// pictures pair their frames by order over the frames both have (the scenario's dt or duration
/// changed since the golden was blessed).
std::string sampling_note(const std::array<const Recording*, 2>& runs) {
    const Recording &now = *runs[0], &golden = *runs[1];
    bool same = now.frame_count() == golden.frame_count();
    for (std::size_t f = 0; same && f < now.frame_count(); ++f) same = now.times[f] == golden.times[f];
    if (same) return "";
    return fmt::format(" The two runs were sampled at different times ({} frames against the golden's {}: the "
                       "scenario's dt or duration changed): the pictures pair the k-th frame of each, over the {} "
                       "frames both have.",
                       now.frame_count(), golden.frame_count(), std::min(now.frame_count(), golden.frame_count()));
}

/// What a case's pictures draw: its run, or (a case that did not pass, with a recording kept
/// beside its golden) its run and, as ghosts, the golden's; `note` says which, or why the
/// golden's could not be drawn.
struct CasePictures {
    Scenario scenario;
    Recording recording;
    PlotOptions plot;
    Scene3dOptions scene;
    std::string note; ///< HTML, trusted
};

CasePictures pictures_of(const CheckPageCase& c, std::size_t k) {
    CasePictures p;
    std::vector<double> values(c.measured->values.size());
    p.scenario = c.measured->scenario;
    p.recording = simulate_recorded(c.measured->scenario, values, c.measured->engine);
    p.plot.id = fmt::format("s{}-", k);
    if (c.status == "passed") return p;
    if (c.golden_recording.empty()) {
        p.note = "<p class=\"overlay\">The golden's run is not drawn under this one: the scenario keeps no "
                 "recording beside its golden (<code>golden: { recording: true }</code> keeps one).</p>\n";
        return p;
    }
    try {
        RunInfo info;
        const Recording golden = read_recording(c.golden_recording, info);
        std::vector<std::string> names;
        for (const BodyDef& b : p.scenario.bodies) names.push_back(b.name);
        if (info.bodies != names)
            throw InputError(
                    c.golden_recording, 0, 0,
                    fmt::format("its bodies are not this run's ({} against {})", info.bodies.size(), names.size()));
        const std::array<Scenario, 2> runs{p.scenario, p.scenario};
        const std::array<std::string, 2> labels{"new", "golden"};
        const std::array<const Recording*, 2> recordings{&p.recording, &golden};
        Recording both = recording_of_runs(runs, recordings);
        p.scenario = scene_of_runs(runs, labels);
        p.recording = std::move(both);
        p.plot.ghosts_from = p.scene.ghosts_from = c.measured->scenario.bodies.size();
        p.plot.ghost_note = p.scene.ghost_note =
                fmt::format("faint: the golden's run ({}), as recorded when it was blessed", c.golden_recording);
        p.note = fmt::format("<p class=\"overlay\">Under this run (<b>new</b>), faint: the <b>golden</b>'s run, "
                             "recorded by <code>{}</code> when the golden was blessed ({}).{}</p>\n",
                             esc(info.build.empty() ? info.engine : info.build), esc(c.golden_recording),
                             sampling_note(recordings));
    } catch (const std::exception& e) {
        p.note =
                fmt::format("<p class=\"overlay bad\">The golden's recording cannot be drawn: {}</p>\n", esc(e.what()));
    }
    return p;
}

} // namespace

std::string render_check_html(const std::vector<CheckPageCase>& cases) {
    int passed = 0, failed = 0, pending = 0, bad = 0;
    for (const CheckPageCase& c : cases) {
        passed += c.status == "passed";
        failed += c.status == "failed" || c.status == "pending";
        pending += c.status == "pending";
        bad += c.status == "bad input";
    }
    std::string out;
    out += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>collide check</title>\n"
           "<style>body{font-family:sans-serif;margin:16px;color:#222}#errors{color:#b00;white-space:pre}"
           ".passed{color:#1a7f37}.failed,.pending,.bad{color:#cf222e}section{border-top:1px solid #ccc;"
           "padding:8px 0}table{border-collapse:collapse;font-size:12px}td,th{border:1px solid #ddd;padding:2px 6px;"
           "vertical-align:top;text-align:left}.logs td{font-family:monospace;white-space:pre-wrap;width:50%}"
           "tr.differs td{background:#fff1c2}pre{background:#f4f4f4;padding:6px;font-size:12px;overflow:auto}"
           "summary{cursor:pointer}.plot svg{max-width:100%;height:auto}.overlay{color:#555}.overlay.bad{color:#cf222e}"
           "details.v3d .view3d{height:75vh}";
    out += kView3dStyle;
    out += "</style>\n";
    out += kPageErrorScript;
    out += "</head><body>\n<div id=\"errors\" hidden></div>\n<h1>collide check</h1>\n";
    put(out,
        "<p id=\"summary\"><span class=\"passed\">{} passed</span>, <span class=\"failed\">{} failed</span>, "
        "<span class=\"pending\">{} pending</span> (left for <code>collide review</code>){}</p>\n",
        passed, failed, pending, bad ? fmt::format(", <span class=\"bad\">{} bad input</span>", bad) : "");
    out += "<ul>\n";
    for (const CheckPageCase& c : cases)
        put(out, "<li><a href=\"#s-{0}\">{0}</a> <span class=\"{1}\">{2}</span></li>\n", esc(c.name),
            c.status == "bad input" ? "bad" : c.status, esc(c.status));
    out += "</ul>\n";
    for (std::size_t k = 0; k < cases.size(); ++k) {
        const CheckPageCase& c = cases[k];
        const bool ok = c.status == "passed";
        put(out,
            "<section id=\"s-{0}\" data-scenario=\"{0}\" data-status=\"{1}\"><h2>{0} <span "
            "class=\"{2}\">{1}</span></h2>\n",
            esc(c.name), esc(c.status), c.status == "bad input" ? "bad" : c.status);
        put(out, "<p>{}{}</p>\n", esc(c.path), c.reason.empty() ? "" : " — " + esc(c.reason));
        if (!ok) {
            if (!c.values.empty()) out += value_table(c);
            if (!c.expected.empty() || !c.actual.empty()) out += side_by_side(c);
            if (!c.details.empty())
                put(out, "<details><summary>as printed</summary><pre>{}</pre></details>\n", esc(c.details));
        }
        if (c.measured) {
            const CasePictures p = pictures_of(c, k);
            out += p.note;
            put(out, "<details{}><summary>plot</summary><div class=\"plot\">\n{}</div></details>\n", ok ? "" : " open",
                render_plot_svg(p.scenario, p.recording, p.plot));
            // The 3D view, built when opened (check_html's script below).
            put(out, "<details class=\"v3d\"{}><summary>3D view</summary>{}{}</details>\n", ok ? "" : " open",
                kView3dControls,
                view3d_element(fmt::format("s{}-3d", k), render_scene3d_json(p.scenario, p.recording, p.scene)));
        }
        out += "</section>\n";
    }
    out += view3d_scripts();
    out += kView3dLazyScript;
    out += "<script>document.body.setAttribute('data-ready', '1');</script>\n</body></html>\n";
    return out;
}

} // namespace collide
