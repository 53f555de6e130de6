#include "app/conform_html.h"

#include <cmath>
#include <iterator>

#include <fmt/format.h>

#include "model/log.h"
#include "plot/plot.h"
#include "plot/scene3d.h"
#include "plot/view3d.h"
#include "probes/record.h"
#include "report/junit.h"

namespace collide {

namespace {

template <class... Args> void put(std::string& out, fmt::format_string<Args...> format, Args&&... args) {
    fmt::format_to(std::back_inserter(out), format, std::forward<Args>(args)...);
}

std::string esc(std::string_view text) { return xml_escape(std::string(text)); }

std::string number_text(double v) { return std::isnan(v) ? "none" : fmt::format("{:.10g}", v); }

const char* status_class(const ConformCell& c) {
    switch (c.status) {
    case CellStatus::none: return "none";
    case CellStatus::refused: return "refused";
    case CellStatus::ran: break;
    }
    return c.held() == static_cast<int>(c.outcomes.size()) ? "held" : "failed";
}

/// The table cell of `c`: a link to its section.
std::string table_cell(const ConformRow& row, const ConformCell& c, std::size_t r, std::size_t e) {
    const std::string attrs = fmt::format(" class=\"{}\" data-scenario=\"{}\" data-engine=\"{}\" data-status=\"{}\"",
                                          status_class(c), esc(row.name), esc(c.engine), status_class(c));
    if (c.status == CellStatus::none) return fmt::format("<td{}>no expectations</td>", attrs);
    if (c.status == CellStatus::refused)
        return fmt::format("<td{} title=\"{}\"><a href=\"#cell-{}-{}\">refused</a></td>", attrs, esc(c.reason), r, e);
    const ExpectOutcome* w = c.worst();
    return fmt::format("<td{} data-held=\"{}\" data-checked=\"{}\"><a href=\"#cell-{}-{}\">{}/{}</a> {} <span "
                       "class=\"time\">{:.3f} s</span></td>",
                       attrs, c.held(), c.outcomes.size(), r, e, c.held(), c.outcomes.size(),
                       w ? esc(error_text(*w)) : "", c.cpu_seconds);
}

/// The expectations of a cell that ran, one row each.
std::string outcome_table(const ConformRow& row, const ConformCell& c) {
    std::string out = "<table class=\"outcomes\"><tr><th>line</th><th>condition</th><th>measured</th><th>expected</th>"
                      "<th>error</th><th>tolerance</th><th></th></tr>\n";
    for (std::size_t i = 0; i < c.outcomes.size(); ++i) {
        const ExpectOutcome& o = c.outcomes[i];
        put(out,
            "<tr class=\"{}\"><td>{}</td><td><code>{}</code></td><td>{}</td><td>{}</td><td>{}</td><td>{:g}</td>"
            "<td>{}</td></tr>\n",
            o.passed ? "held" : "failed", i < row.lines.size() ? row.lines[i] : 0, esc(o.condition),
            number_text(o.value), number_text(o.target), esc(error_text(o)), o.tolerance, o.passed ? "held" : "failed");
    }
    return out + "</table>\n";
}

} // namespace

std::string render_conformance_html(const ConformReport& report) {
    std::string out;
    out += "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>collide conform</title>\n"
           "<style>body{font-family:sans-serif;margin:16px;color:#222}#errors{color:#b00;white-space:pre}"
           "table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #ddd;padding:3px 8px;"
           "text-align:left;vertical-align:top}td.held{background:#e6f4ea}td.failed{background:#fde7e9}"
           "td.refused,td.none{color:#777}tr.failed td{background:#fde7e9}.time{color:#666;font-size:11px}"
           "section{border-top:1px solid #ccc;padding:8px 0}section:target{background:#fffbe6}";
    out += kView3dStyle;
    out += "</style>\n";
    out += kPageErrorScript;
    out += "</head><body>\n<div id=\"errors\" hidden></div>\n<h1>collide conform</h1>\n";
    put(out,
        "<p>{} scenarios × {} engines: each scenario's <code>expect:</code> entries (closed forms) through each "
        "engine. A cell: expectations held / checked, the worst error (the one furthest outside its tolerance) and "
        "the CPU seconds of the run on one thread. Click a cell for its expectations and the 3D view of its run.</p>\n",
        report.rows.size(), report.engines.size());
    out += "<table id=\"conformance\"><tr><th>scenario</th>";
    for (const ConformEngine& e : report.engines) put(out, "<th>{}</th>", esc(e.name));
    out += "</tr>\n";
    for (std::size_t r = 0; r < report.rows.size(); ++r) {
        put(out, "<tr><th>{}</th>", esc(report.rows[r].name));
        for (std::size_t e = 0; e < report.rows[r].cells.size(); ++e)
            out += table_cell(report.rows[r], report.rows[r].cells[e], r, e);
        out += "</tr>\n";
    }
    out += "</table>\n<h2>Speed and accuracy</h2>\n<table id=\"summary\"><tr><th>engine</th><th>held</th><th>checked"
           "</th><th>scenarios run</th><th>refused</th><th>CPU s</th><th>version</th></tr>\n";
    for (std::size_t k = 0; k < report.engines.size(); ++k) {
        const EngineSummary s = summarize_engine(report, k);
        put(out,
            "<tr data-engine=\"{0}\"><td>{0}</td><td>{1}</td><td>{2}</td><td>{3}</td><td>{4} ({5} expectations)</td>"
            "<td>{6:.3f}</td><td>{7}</td></tr>\n",
            esc(report.engines[k].name), s.held, s.ran, s.scenarios, s.refused, s.unchecked, s.cpu_seconds,
            esc(report.engines[k].version));
    }
    out += "</table>\n";
    for (std::size_t r = 0; r < report.rows.size(); ++r) {
        const ConformRow& row = report.rows[r];
        for (std::size_t e = 0; e < row.cells.size(); ++e) {
            const ConformCell& c = row.cells[e];
            if (c.status == CellStatus::none) continue;
            put(out,
                "<section id=\"cell-{}-{}\" data-scenario=\"{}\" data-engine=\"{}\" data-status=\"{}\"><h2>{} by "
                "{}</h2>"
                "\n<p>{}</p>\n",
                r, e, esc(row.name), esc(c.engine), status_class(c), esc(row.name), esc(c.engine), esc(row.path));
            if (c.status == CellStatus::refused) {
                put(out, "<p class=\"reason\">refused: {}</p>\n</section>\n", esc(c.reason));
                continue;
            }
            out += outcome_table(row, c);
            if (row.scenario) {
                std::vector<double> values(static_cast<std::size_t>(layout_of(*row.scenario).offset.back()));
                const Recording rec = simulate_recorded(*row.scenario, values, c.engine);
                put(out, "<details class=\"v3d\"><summary>3D view of this run</summary>{}{}</details>\n",
                    kView3dControls,
                    view3d_element(fmt::format("cell-{}-{}-3d", r, e), render_scene3d_json(*row.scenario, rec)));
            }
            out += "</section>\n";
        }
    }
    out += view3d_scripts();
    out += kView3dLazyScript;
    out += "<script>document.body.setAttribute('data-ready', '1');</script>\n</body></html>\n";
    return out;
}

} // namespace collide
