#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>

#include <fmt/format.h>

#include "plot/plot.h"
#include "plot/scene3d.h"
#include "plot/script_json.h"
#include "plot/view3d.h"
#include "report/junit.h"
#include "sweep/format.h"
#include "sweep/map.h"

namespace collide {

namespace {

template <class... Args> void put(std::string& out, fmt::format_string<Args...> format, Args&&... args) {
    fmt::format_to(std::back_inserter(out), format, std::forward<Args>(args)...);
}

/// A number as the map and its text show it: 6 significant digits.
std::string num(double v) { return std::isfinite(v) ? fmt::format("{:.6g}", v) : "null"; }

/// A number for the page's data: 6 significant digits, as the page draws it.
PageJson jnum(double v) { return json_number(v, 6); }

/// An outline (metres, y up-negative as outline_of gives it at 1 px per m: its true size) as JSON.
PageJson outline_json(const Outline& o) {
    if (o.radius > 0) return PageJson{{"c", PageJson::array({jnum(o.cx), jnum(o.cy), jnum(o.radius)})}};
    PageJson points = PageJson::array();
    for (const auto& [x, y] : o.poly) {
        points.push_back(jnum(x));
        points.push_back(jnum(y));
    }
    return PageJson{{"p", std::move(points)}};
}

std::string cell_colour(FieldType type, double v, double lo, double hi) {
    if (std::isnan(v)) return "#8b949e";
    if (type == FieldType::boolean) return v != 0 ? "#39d3c3" : "#ff7b72";
    const double t = hi > lo ? std::clamp((v - lo) / (hi - lo), 0.0, 1.0) : 0.5;
    return fmt::format("hsl({:.0f},70%,{:.0f}%)", 260 - 200 * t, 30 + 35 * t);
}

} // namespace

std::string render_sweep_html(const SweepModel& model, const SweepPlan& plan, std::span<const double> values,
                              int measure) {
    const OutcomeMap map{model, plan, values, measure};
    const auto [lo, hi] = map.range();
    const auto& axes = map.axes();
    const std::uint64_t rows = map.rows(), columns = map.columns(), extras = map.extras();
    const FieldType type = model.fields[static_cast<std::size_t>(measure)].type;
    const std::size_t width = model.fields.size();

    // Every row's frames, drawn in the side view of the first row's run.
    PageJson frames_json = PageJson::array(), statics_json = PageJson::array(), bodies_json = PageJson::array();
    std::string runs3d_json = Scene3dRuns(Scene3dOptions{}).json(); // no runs: empty lists
    ViewMap view;
    bool have_frames = false;
    if (model.run_cell && plan.rows() > 0) {
        std::vector<double> params(model.default_params);
        const auto run_row = [&](std::uint64_t row) {
            plan.grid.apply(plan.cell_of_row(row), params);
            return model.run_cell(params, plan.engine_of_row(row), plan.mode_of_row(row));
        };
        const CellRun first = run_row(0);
        const std::vector<ViewMap> views = plan_views(first.scenario, first.recording, {});
        view = views.front();
        view.scale = 1; // outlines in metres, at their true size (the page scales them)
        std::vector<std::size_t> dynamic;
        // The window: the static bodies' finite bounds and where the moving bodies start, plus 1 m.
        double u0 = 1e300, u1 = -1e300, v0 = 1e300, v1 = -1e300;
        const auto h = static_cast<std::size_t>(view.h), v = static_cast<std::size_t>(view.v);
        for (std::size_t i = 0; i < first.scenario.bodies.size(); ++i) {
            const BodyDef& b = first.scenario.bodies[i];
            const Aabb box = bounds_of(place(b.shape, b.position, b.rotation));
            if (!b.is_static) {
                dynamic.push_back(i);
                bodies_json.push_back(PageJson{{"name", b.name}, {"o", outline_json(outline_of(b, view))}});
            } else {
                statics_json.push_back(PageJson{{"name", b.name},
                                                {"x", jnum(b.position[h])},
                                                {"y", jnum(b.position[v])},
                                                {"o", outline_json(outline_of(b, view))}});
            }
            if (!is_finite(box.min) || !is_finite(box.max)) continue;
            const Aabb at = b.is_static ? box : Aabb{box.min, box.max};
            u0 = std::min(u0, at.min[h]), u1 = std::max(u1, at.max[h]);
            v0 = std::min(v0, at.min[v]), v1 = std::max(v1, at.max[v]);
        }
        if (u0 > u1) u0 = -1, u1 = 1, v0 = -1, v1 = 1;
        view.umin = u0 - 1, view.umax = u1 + 1, view.vmin = v0 - 1, view.vmax = v1 + 1;
        const std::size_t per_row = std::max<std::size_t>(
                2, kHtmlFrameBudget / (2 * std::max<std::size_t>(dynamic.size(), 1) * plan.rows()));
        Scene3dOptions budget3d; // the 3D view of every row within about 4 MB of tracks
        budget3d.track_budget = std::max<std::size_t>(1024, 4'000'000 / plan.rows());
        budget3d.contact_budget = std::max<std::size_t>(16, 200'000 / plan.rows());
        Scene3dRuns runs3d(budget3d);
        for (std::uint64_t row = 0; row < plan.rows(); ++row) {
            const CellRun run = row == 0 ? first : run_row(row);
            runs3d.add(run.scenario, run.recording);
            const std::size_t n = run.recording.frame_count();
            const std::size_t step = std::max<std::size_t>(1, (n + per_row - 1) / per_row);
            PageJson row_json = PageJson::array();
            for (const std::size_t d : dynamic) {
                PageJson points = PageJson::array();
                for (std::size_t k = 0; k < n; k += step) {
                    const Vec3 p = run.recording.at(k)[d].position;
                    points.push_back(jnum(p[h]));
                    points.push_back(jnum(p[v]));
                }
                row_json.push_back(std::move(points));
            }
            frames_json.push_back(std::move(row_json));
        }
        have_frames = true;
        runs3d_json = runs3d.json();
    }

    // The outcome map: one panel per extra combination and mode, one rect per cell.
    const int cell = static_cast<int>(
            std::clamp<std::uint64_t>(360 / std::max<std::uint64_t>(std::max(rows, columns), 1), 4, 24));
    std::string panels;
    for (std::uint64_t e = 0; e < extras; ++e)
        for (std::size_t m = 0; m < plan.variants(); ++m) {
            const int w = static_cast<int>(columns) * cell + 70, ht = static_cast<int>(rows) * cell + 54;
            const std::string variant = plan.variant_name(m);
            const std::string engine =
                    plan.engines.size() > 1
                            ? fmt::format(" data-engine=\"{}\"", xml_escape(plan.engines[m / plan.modes.size()]))
                            : std::string();
            put(panels, "<figure class=\"panel\"><figcaption>{}{}{}</figcaption><svg width=\"{}\" height=\"{}\">\n",
                variant, extras > 1 ? ", " : "", extras > 1 ? xml_escape(map.extra_label(e)) : "", w, ht);
            for (std::uint64_t i = 0; i < rows; ++i)
                for (std::uint64_t j = 0; j < columns; ++j) {
                    const std::uint64_t c = map.cell(i, j, e);
                    double value = std::numeric_limits<double>::quiet_NaN();
                    if (!map.value(c, m, value)) continue;
                    const std::uint64_t row = plan.row_of(c, m);
                    put(panels,
                        "<rect data-cell=\"{}\" data-mode=\"{}\"{} data-row=\"{}\" x=\"{}\" y=\"{}\" width=\"{}\" "
                        "height=\"{}\" fill=\"{}\"><title>{}</title></rect>",
                        c, variant, engine, row, 60 + static_cast<int>(j) * cell, 10 + static_cast<int>(i) * cell,
                        cell - 1, cell - 1, cell_colour(type, value, lo, hi),
                        xml_escape(fmt::format("cell {}: {}", c, num(value))));
                }
            // Tick values: about five per axis, always the first.
            const std::uint64_t row_step = std::max<std::uint64_t>(1, (rows + 4) / 5);
            const std::uint64_t column_step = std::max<std::uint64_t>(1, (columns + 4) / 5);
            if (!axes.empty())
                for (std::uint64_t i = 0; i < rows; i += row_step)
                    put(panels, "<text x=\"56\" y=\"{}\" class=\"tick\" text-anchor=\"end\">{}</text>",
                        10 + static_cast<int>(i) * cell + cell - 2, num(axes[0].values[i]));
            if (axes.size() > 1)
                for (std::uint64_t j = 0; j < columns; j += column_step)
                    put(panels, "<text x=\"{}\" y=\"{}\" class=\"tick\">{}</text>", 60 + static_cast<int>(j) * cell,
                        static_cast<int>(rows) * cell + 24, num(axes[1].values[j]));
            if (!axes.empty())
                put(panels, "<text x=\"2\" y=\"{}\" class=\"axis\">{} ↓</text>", 8, xml_escape(map.row_name()));
            if (axes.size() > 1)
                put(panels, "<text x=\"60\" y=\"{}\" class=\"axis\">{} →</text>", ht - 4,
                    xml_escape(map.column_name()));
            panels += "</svg></figure>\n";
        }

    PageJson axes_json = PageJson::array(), strides = PageJson::array(), modes = PageJson::array(),
             shown = PageJson::array();
    for (std::size_t a = 0; a < axes.size(); ++a) {
        PageJson values_json = PageJson::array();
        for (const double x : axes[a].values) values_json.push_back(jnum(x));
        axes_json.push_back(PageJson{{"name", axes[a].name}, {"values", std::move(values_json)}});
        std::uint64_t stride = 1;
        for (std::size_t b = a + 1; b < axes.size(); ++b) stride *= axes[b].values.size();
        strides.push_back(stride);
    }
    for (std::size_t m = 0; m < plan.variants(); ++m) modes.push_back(plan.variant_name(m));
    for (std::uint64_t row = 0; row < plan.rows(); ++row)
        shown.push_back(jnum(values[row * width + static_cast<std::size_t>(measure)]));
    const std::string data =
            script_json(PageJson{{"axes", std::move(axes_json)},
                                 {"strides", std::move(strides)},
                                 {"modes", std::move(modes)},
                                 {"shard", PageJson::array({plan.shard.index, plan.shard.count})},
                                 {"measure", model.columns[static_cast<std::size_t>(measure)]},
                                 {"boolean", type == FieldType::boolean},
                                 {"values", std::move(shown)},
                                 {"view",
                                  {{"h", std::string(1, "xyz"[view.h])},
                                   {"v", std::string(1, "xyz"[view.v])},
                                   {"umin", jnum(view.umin)},
                                   {"umax", jnum(view.umax)},
                                   {"vmin", jnum(view.vmin)},
                                   {"vmax", jnum(view.vmax)}}},
                                 {"statics", std::move(statics_json)},
                                 {"bodies", std::move(bodies_json)},
                                 {"frames", have_frames ? std::move(frames_json) : PageJson::array()}});

    std::string out;
    put(out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>collide sweep: {0}</title>\n"
        "<style>body{{font-family:sans-serif;margin:16px;color:#222}}#errors{{color:#b00;white-space:pre}}"
        ".maps,.cells{{display:flex;gap:20px;flex-wrap:wrap}}.panel{{margin:0}}rect[data-cell]{{cursor:pointer}}"
        "rect.selected{{stroke:#000;stroke-width:2}}.axis{{font-size:12px}}.tick{{font-size:10px;fill:#555}}figcaption{"
        "{font-weight:bold}}"
        ".cellview svg{{background:#fff;border:1px solid #999}}.controls label{{margin-right:16px}}"
        "#cells3d .cellview{{flex:1 1 560px;margin:0;min-width:0}}#cells3d .view3d{{height:70vh}}{1}"
        "</style>\n",
        xml_escape(model.name), kView3dStyle);
    out += kPageErrorScript;
    put(out, "</head><body>\n<div id=\"errors\" hidden></div>\n<h1>{}: {}</h1>\n", xml_escape(model.name),
        xml_escape(model.columns[static_cast<std::size_t>(measure)]));
    out += plan.engines.size() > 1 ? "<p>Each square is one cell of the grid; click one (or move the sliders) to draw "
                                     "its frames, every engine and detection mode side by side. Colour: "
                                   : "<p>Each square is one cell of the grid; click one (or move the sliders) to draw "
                                     "its frames, every detection mode side by side. Colour: ";
    const auto [yes, no] = boolean_words(model.fields[static_cast<std::size_t>(measure)]);
    out += type == FieldType::boolean ? fmt::format("<span style=\"color:#1a9e90\">■ true ({})</span>, <span "
                                                    "style=\"color:#e0534a\">■ false ({})</span>",
                                                    yes, no)
                                      : fmt::format("from {} (dark) to {} (light)", num(lo), num(hi));
    out += ", grey: not measured.</p>\n<div class=\"maps\">\n" + panels + "</div>\n";
    out += "<div class=\"controls\" id=\"sliders\"></div>\n<div id=\"caption\"></div>\n<div class=\"cells\" "
           "id=\"cells\"></div>\n";
    out += "<div class=\"cells\" id=\"cells3d\"></div>\n"; // the selected cell's runs in 3D
    out += "<script type=\"application/json\" id=\"data\">" + data + "</script>\n";
    out += "<script type=\"application/json\" id=\"runs3d\">" + runs3d_json + "</script>\n";
    out += view3d_scripts();
    out += "<script>\n";
    out += R"JS((function () {
  'use strict';
  var D = JSON.parse(document.getElementById('data').textContent);
  var NS = 'http://www.w3.org/2000/svg';
  var sliders = document.getElementById('sliders'), caption = document.getElementById('caption');
  var cellsDiv = document.getElementById('cells');
  var inputs = [];
  var cellRects = Array.prototype.slice.call(document.querySelectorAll('rect[data-cell]'));
  D.axes.slice(0, 2).forEach(function (axis, a) {
    var label = document.createElement('label');
    var input = document.createElement('input');
    input.type = 'range'; input.min = 0; input.max = axis.values.length - 1; input.value = 0;
    input.setAttribute('aria-label', axis.name);
    var span = document.createElement('span');
    label.appendChild(document.createTextNode(axis.name + ' '));
    label.appendChild(input); label.appendChild(span);
    sliders.appendChild(label);
    input.addEventListener('input', function () { select(cellFromSliders()); });
    inputs.push({input: input, span: span});
  });
  function cellFromSliders() {
    var c = 0;
    inputs.forEach(function (s, a) { c += (+s.input.value) * D.strides[a]; });
    return c;
  }
  function coordinate(c, a) { return Math.floor(c / D.strides[a]) % D.axes[a].values.length; }
  function el(name, attrs, parent) {
    var e = document.createElementNS(NS, name);
    Object.keys(attrs).forEach(function (k) { e.setAttribute(k, attrs[k]); });
    if (parent) parent.appendChild(e);
    return e;
  }
  var W = 520, H = 360, V = D.view;
  var s = Math.min(W / (V.umax - V.umin), H / (V.vmax - V.vmin));
  function X(u) { return (u - V.umin) * s; }
  function Y(v) { return (V.vmax - v) * s; }
  // A body's outline at its true size; one under 4 px across also gets a cross on its centre
  // (a marker, never a larger outline that would reach into its neighbours).
  function shape(o, x, y, attrs, parent) {
    var mark = function (cx, cy, size) {
      if (size >= 4) return;
      el('path', {d: 'M-4 0h8M0 -4v8', transform: 'translate(' + cx.toFixed(1) + ' ' + cy.toFixed(1) + ')', fill: 'none',
        stroke: attrs.stroke, opacity: attrs.opacity || 1, class: 'tiny'}, parent);
    };
    if (o.c) {
      attrs.cx = x + o.c[0] * s; attrs.cy = y + o.c[1] * s; attrs.r = o.c[2] * s;
      var circle = el('circle', attrs, parent);
      mark(attrs.cx, attrs.cy, 2 * attrs.r);
      return circle;
    }
    var pts = [], x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity, mx = 0, my = 0;
    for (var i = 0; i < o.p.length; i += 2) {
      var px = x + o.p[i] * s, py = y + o.p[i + 1] * s;
      pts.push(px.toFixed(1) + ',' + py.toFixed(1));
      x0 = Math.min(x0, px); x1 = Math.max(x1, px); y0 = Math.min(y0, py); y1 = Math.max(y1, py);
      mx += 2 * px / o.p.length; my += 2 * py / o.p.length;
    }
    attrs.points = pts.join(' ');
    var polygon = el('polygon', attrs, parent);
    if (pts.length) mark(mx, my, Math.max(x1 - x0, y1 - y0));
    return polygon;
  }
  var colours = ['#1f77b4', '#ff7f0e', '#2ca02c', '#d62728', '#9467bd'];
  function draw(row, mode) {
    var fig = document.createElement('figure');
    fig.className = 'cellview';
    var cap = document.createElement('figcaption');
    var value = D.values[row];
    cap.textContent = mode + ': ' + D.measure + ' = ' + (value === null ? 'not measured' : D.boolean ? (value ? 'true' : 'false') : value);
    fig.appendChild(cap);
    var svg = el('svg', {width: (V.umax - V.umin) * s, height: (V.vmax - V.vmin) * s, 'data-mode': mode});
    fig.appendChild(svg);
    D.statics.forEach(function (b) { shape(b.o, X(b.x), Y(b.y), {fill: '#c9c9c9', stroke: '#777'}, svg); });
    var frames = D.frames[row] || [];
    D.bodies.forEach(function (b, d) {
      var f = frames[d] || [], n = f.length / 2, path = [];
      for (var k = 0; k < n; ++k) {
        var x = X(f[2 * k]), y = Y(f[2 * k + 1]);
        path.push((k ? 'L' : 'M') + x.toFixed(1) + ' ' + y.toFixed(1));
        if (x < -50 || x > W + 50 || y < -50 || y > H + 50) continue;
        shape(b.o, x, y, {fill: 'none', stroke: colours[d % colours.length], opacity: (0.2 + 0.7 * k / Math.max(n - 1, 1)).toFixed(2), class: 'ring'}, svg);
      }
      if (path.length) el('path', {d: path.join(''), fill: 'none', stroke: colours[d % colours.length], 'stroke-dasharray': '3 3', class: 'track'}, svg);
    });
    var axis = el('text', {x: 4, y: (V.vmax - V.vmin) * s - 4, 'font-size': 11}, svg);
    axis.textContent = V.h + ' from ' + V.umin.toFixed(2) + ' to ' + V.umax.toFixed(2) + ' m (' + (frames[0] ? frames[0].length / 2 : 0) + ' frames)';
    cellsDiv.appendChild(fig);
  }
  function select(c) {
    inputs.forEach(function (sl, a) {
      sl.input.value = coordinate(c, a);
      sl.span.textContent = ' = ' + D.axes[a].values[coordinate(c, a)];
    });
    document.querySelectorAll('rect.selected').forEach(function (r) { r.classList.remove('selected'); });
    cellRects.forEach(function (r) { if (+r.getAttribute('data-cell') === c) r.classList.add('selected'); });
    while (cellsDiv.firstChild) cellsDiv.removeChild(cellsDiv.firstChild);
    if (c % D.shard[1] !== D.shard[0]) { caption.textContent = 'cell ' + c + ' belongs to another shard'; return; }
    caption.textContent = 'cell ' + c + ': ' + D.axes.map(function (a, i) { return a.name + ' = ' + a.values[coordinate(c, i)]; }).join(', ');
    D.modes.forEach(function (mode, m) { draw(Math.floor(c / D.shard[1]) * D.modes.length + m, mode); });
    draw3d(c);
  }
  // The selected cell's runs in 3D, one view per mode (each with its own controls).
  var R3 = JSON.parse(document.getElementById('runs3d').textContent), views3d = [];
  var cells3d = document.getElementById('cells3d');
  function draw3d(c) {
    views3d.forEach(function (v) { v.dispose(); });
    views3d = [];
    while (cells3d.firstChild) cells3d.removeChild(cells3d.firstChild);
    D.modes.forEach(function (mode, m) {
      var row = Math.floor(c / D.shard[1]) * D.modes.length + m, run = R3.runs[row];
      if (!run) return;
      var fig = document.createElement('figure');
      fig.className = 'cellview';
      fig.innerHTML = '<figcaption>' + mode + ' in 3D</figcaption><div class="v3d-controls"><button type="button">▶ play</button> ' +
        '<input type="range" aria-label="frame"> <span></span><div class="v3d-readout"></div></div><div class="view3d" data-mode="' + mode + '"></div>';
      cells3d.appendChild(fig);
      try {
        var v = Collide3D.create(fig.querySelector('.view3d'), {scene: R3.scenes[run.s], run: run.run},
          {readout: fig.querySelector('.v3d-readout')});
        Collide3D.player({slider: fig.querySelector('input'), play: fig.querySelector('button'),
          info: fig.querySelector('span'), hash: false}, [v]);
        views3d.push(v);
      } catch (e) {
        fig.querySelector('.view3d').textContent = 'The 3D view needs WebGL: ' + e.message;
        console.error('3D view: ' + e.message);
      }
    });
  }
  cellRects.forEach(function (r) {
    r.addEventListener('click', function () { select(+r.getAttribute('data-cell')); });
  });
  var wanted = /cell=(\d+)/.exec(location.hash); // a link to a cell: page.html#cell=N
  select(wanted ? +wanted[1] : D.shard[0]);
  document.body.setAttribute('data-ready', '1');
})();
)JS";
    out += "</script>\n</body></html>\n";
    return out;
}

} // namespace collide
