#include "app/check_html.h"

#include <cmath>
#include <iterator>

#include <fmt/format.h>

#include "plot/plot.h"
#include "plot/scene3d.h"
#include "plot/view3d.h"
#include "probes/record.h"
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
           "summary{cursor:pointer}.plot svg{max-width:100%;height:auto}details.v3d .view3d{height:75vh}";
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
            std::vector<double> values(c.measured->values.size());
            const Recording rec = simulate_recorded(c.measured->scenario, values);
            PlotOptions plot;
            plot.id = fmt::format("s{}-", k);
            put(out, "<details{}><summary>plot</summary><div class=\"plot\">\n{}</div></details>\n", ok ? "" : " open",
                render_plot_svg(c.measured->scenario, rec, plot));
            // The 3D view, built when opened (check_html's script below).
            put(out, "<details class=\"v3d\"{}><summary>3D view</summary>{}{}</details>\n", ok ? "" : " open",
                kView3dControls,
                view3d_element(fmt::format("s{}-3d", k), render_scene3d_json(c.measured->scenario, rec)));
        }
        out += "</section>\n";
    }
    out += view3d_scripts();
    out += kView3dLazyScript;
    out += "<script>document.body.setAttribute('data-ready', '1');</script>\n</body></html>\n";
    return out;
}

} // namespace collide
