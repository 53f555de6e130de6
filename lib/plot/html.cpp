#include <algorithm>
#include <cmath>
#include <iterator>

#include <fmt/format.h>

#include "plot/plot.h"
#include "report/junit.h"

namespace collide {

namespace {

/// Numbers kept for the page's script (frames are skipped evenly beyond it).
constexpr std::size_t kDataBudget = 240000;

template <class... Args> void put(std::string& out, fmt::format_string<Args...> format, Args&&... args) {
    fmt::format_to(std::back_inserter(out), format, std::forward<Args>(args)...);
}

/// A string as a JSON string literal that is also safe inside a <script> element.
std::string js_string(std::string_view text) {
    std::string out = "\"";
    for (const char c : text) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '<': out += "\\u003c"; break;
        case '>': out += "\\u003e"; break;
        case '&': out += "\\u0026"; break;
        default:
            if (static_cast<unsigned char>(c) < 0x20)
                put(out, "\\u{:04x}", static_cast<int>(c));
            else
                out += c;
        }
    }
    return out + "\"";
}

/// A number for the script: 6 significant digits, never NaN (null).
std::string js_number(double v) { return std::isfinite(v) ? fmt::format("{:.6g}", v) : "null"; }

} // namespace

const char* const kPageErrorScript =
        "<script>window.addEventListener('error',function(e){var d=document.getElementById('errors');"
        "d.hidden=false;d.textContent+='error: '+e.message+'\\n';});</script>\n";

std::string render_plot_html(const Scenario& sc, const Recording& rec, const PlotOptions& options,
                             std::string_view log) {
    const std::vector<ViewMap> maps = plan_views(sc, rec, options);
    const auto n = static_cast<std::size_t>(rec.body_count);
    std::vector<std::size_t> dynamic;
    for (std::size_t i = 0; i < n; ++i)
        if (!sc.bodies[i].is_static) dynamic.push_back(i);
    const std::size_t frames = rec.frame_count();
    std::size_t keep = std::max<std::size_t>(2, kDataBudget / (6 * std::max<std::size_t>(dynamic.size(), 1)));
    keep = std::min(keep, frames);
    std::vector<std::size_t> kept;
    if (keep >= 1 && frames >= 1) {
        if (keep == 1) {
            kept.push_back(0);
        } else {
            for (std::size_t i = 0; i < keep; ++i) kept.push_back((i * (frames - 1) + (keep - 1) / 2) / (keep - 1));
            kept.erase(std::unique(kept.begin(), kept.end()), kept.end());
        }
    }

    std::string data = "{\"views\":[";
    for (std::size_t v = 0; v < maps.size(); ++v) {
        const ViewMap& m = maps[v];
        put(data,
            "{}{{\"name\":\"{}\",\"h\":{},\"v\":{},\"ox\":{},\"oy\":{},\"s\":{},\"umin\":{},\"vmax\":{},\"w\":{},"
            "\"ht\":{}}}",
            v ? "," : "", plot_view_name(m.view), m.h, m.v, js_number(m.ox), js_number(m.oy), js_number(m.scale),
            js_number(m.umin), js_number(m.vmax), js_number(m.width()), js_number(m.height()));
    }
    data += "],\"bodies\":[";
    for (std::size_t d = 0; d < dynamic.size(); ++d)
        put(data, "{}{{\"name\":{},\"index\":{}}}", d ? "," : "", js_string(sc.bodies[dynamic[d]].name), dynamic[d]);
    data += "],\"frames\":[";
    for (std::size_t k = 0; k < kept.size(); ++k) put(data, "{}{}", k ? "," : "", rec.frames[kept[k]]);
    data += "],\"times\":[";
    for (std::size_t k = 0; k < kept.size(); ++k) put(data, "{}{}", k ? "," : "", js_number(rec.times[kept[k]]));
    data += "],\"states\":[";
    for (std::size_t k = 0; k < kept.size(); ++k) {
        data += k ? ",[" : "[";
        const auto states = rec.at(kept[k]);
        for (std::size_t d = 0; d < dynamic.size(); ++d) {
            const BodyState& b = states[dynamic[d]];
            put(data, "{}{},{},{},{},{},{}", d ? "," : "", js_number(b.position.x), js_number(b.position.y),
                js_number(b.position.z), js_number(b.velocity.x), js_number(b.velocity.y), js_number(b.velocity.z));
        }
        data += "]";
    }
    data += "]}";

    std::string out;
    out.reserve(data.size() + 65536);
    put(out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>collide: {}</title>\n"
        "<style>body{{font-family:sans-serif;margin:16px;color:#222}}#errors{{color:#b00;white-space:pre}}"
        ".main{{display:flex;gap:16px;align-items:flex-start}}.plot{{flex:1 1 auto;min-width:0}}"
        ".plot svg{{max-width:100%;height:auto}}"
        ".log{{background:#f4f4f4;padding:8px;font-size:12px;flex:0 0 380px;margin:0;white-space:pre-wrap}}"
        ".controls{{margin:8px 0}}#frame{{width:420px;vertical-align:middle}}"
        "#readout{{font-family:monospace;min-height:1.4em;margin:6px 0}}svg .body.hover .track{{stroke-width:3}}"
        "</style>\n",
        xml_escape(sc.name));
    out += kPageErrorScript;
    put(out, "</head><body>\n<div id=\"errors\" hidden></div>\n<h1>{}</h1>\n", xml_escape(sc.name));
    put(out,
        "<div class=\"controls\"><button id=\"play\" type=\"button\">▶ play</button> "
        "<input id=\"frame\" type=\"range\" min=\"0\" max=\"{}\" value=\"0\" aria-label=\"frame\"> "
        "<span id=\"frameinfo\"></span></div>\n<div id=\"readout\">hover a body for its state</div>\n",
        kept.empty() ? 0 : kept.size() - 1);
    out += "<div class=\"main\"><div class=\"plot\">\n";
    out += render_plot_svg_interactive(sc, rec, maps);
    put(out, "</div><pre class=\"log\" id=\"log\">{}</pre></div>\n", xml_escape(std::string(log)));
    out += "<script type=\"application/json\" id=\"data\">";
    out += data;
    out += "</script>\n<script>\n";
    out += R"JS((function () {
  'use strict';
  var D = JSON.parse(document.getElementById('data').textContent);
  var svg = document.querySelector('svg.collide-plot');
  var slider = document.getElementById('frame'), info = document.getElementById('frameinfo');
  var readout = document.getElementById('readout'), play = document.getElementById('play');
  var slot = {};
  D.bodies.forEach(function (b, d) { slot[b.index] = d; });
  var views = Array.prototype.map.call(svg.querySelectorAll('g.view'), function (g) {
    return Array.prototype.slice.call(g.querySelectorAll('g.now'));
  });
  var current = 0, timer = null;
  function at(k, d, axis) { return D.states[k][d * 6 + axis]; }
  function show(k) {
    if (!D.states.length) return;
    current = k;
    D.views.forEach(function (v, vi) {
      (views[vi] || []).forEach(function (el) {
        var d = slot[+el.getAttribute('data-index')];
        var dx = (at(k, d, v.h) - at(0, d, v.h)) * v.s, dy = -(at(k, d, v.v) - at(0, d, v.v)) * v.s;
        el.setAttribute('transform', 'translate(' + dx.toFixed(1) + ' ' + dy.toFixed(1) + ')');
      });
    });
    info.textContent = 'frame ' + D.frames[k] + ' · t = ' + D.times[k].toFixed(3) + ' s';
  }
  function fmt3(k, d, o) {
    return '(' + [0, 1, 2].map(function (a) { return at(k, d, o + a).toFixed(3); }).join(', ') + ')';
  }
  slider.addEventListener('input', function () { show(+slider.value); });
  play.addEventListener('click', function () {
    if (timer) { clearInterval(timer); timer = null; play.textContent = '▶ play'; return; }
    play.textContent = '❚❚ pause';
    timer = setInterval(function () {
      var k = (current + 1) % Math.max(D.states.length, 1);
      slider.value = k;
      show(k);
    }, 50);
  });
  var hovered = null;
  svg.addEventListener('mousemove', function (e) {
    var ctm = svg.getScreenCTM();
    if (!ctm || !D.states.length) return;
    var p = svg.createSVGPoint();
    p.x = e.clientX; p.y = e.clientY;
    p = p.matrixTransform(ctm.inverse());
    var best = -1, bestDist = 30;
    D.views.forEach(function (v) {
      if (p.x < v.ox || p.x > v.ox + v.w || p.y < v.oy || p.y > v.oy + v.ht) return;
      D.bodies.forEach(function (b, d) {
        var x = v.ox + (at(current, d, v.h) - v.umin) * v.s, y = v.oy + (v.vmax - at(current, d, v.v)) * v.s;
        var dist = Math.hypot(x - p.x, y - p.y);
        if (dist < bestDist) { bestDist = dist; best = d; }
      });
    });
    if (hovered) hovered.forEach(function (g) { g.classList.remove('hover'); });
    hovered = null;
    if (best < 0) return;
    var b = D.bodies[best];
    hovered = Array.prototype.filter.call(svg.querySelectorAll('g.body'), function (g) {
      return g.getAttribute('data-body') === b.name;
    });
    hovered.forEach(function (g) { g.classList.add('hover'); });
    readout.textContent = b.name + ' · frame ' + D.frames[current] + ' · t = ' + D.times[current].toFixed(3) +
      ' s · position ' + fmt3(current, best, 0) + ' m · velocity ' + fmt3(current, best, 3) + ' m/s';
  });
  var wanted = /frame=(\d+)/.exec(location.hash); // a link to a frame: page.html#frame=K (a kept frame)
  var start = wanted ? Math.min(+wanted[1], Math.max(D.states.length - 1, 0)) : 0;
  slider.value = start;
  show(start);
  document.body.setAttribute('data-ready', '1');
})();
)JS";
    out += "</script>\n</body></html>\n";
    return out;
}

} // namespace collide
