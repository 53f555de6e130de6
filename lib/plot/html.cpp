#include <algorithm>
#include <cmath>
#include <iterator>
#include <type_traits>

#include <fmt/format.h>

#include "math/overloaded.h"
#include "plot/plot.h"
#include "plot/scene3d.h"
#include "plot/script_json.h"
#include "plot/view3d.h"
#include "report/junit.h"

namespace collide {

namespace {

/// Numbers kept for the page's script (frames are skipped evenly beyond it).
constexpr std::size_t kDataBudget = 240000;

template <class... Args> void put(std::string& out, fmt::format_string<Args...> format, Args&&... args) {
    fmt::format_to(std::back_inserter(out), format, std::forward<Args>(args)...);
}

/// A number for the script: 6 significant digits (what a picture of a few hundred pixels
/// needs), never NaN (null).
PageJson js_number(double v) { return json_number(v, 6); }

} // namespace

std::string script_string(std::string_view text) { return script_json(PageJson(std::string(text))); }

const char* const kPageErrorScript =
        "<script>window.addEventListener('error',function(e){var d=document.getElementById('errors');"
        "d.hidden=false;d.textContent+='error: '+e.message+'\\n';});</script>\n";

namespace {

/// A body's outline points in its own frame, for the page's script to turn and project:
/// {"c":[centre],"r":radius} (sphere), {"k":[a, b, radius]} (capsule) or {"p":[corners...]}.
PageJson local_outline_json(const BodyDef& body) {
    PageJson numbers = PageJson::array();
    const auto vec = [&](const Vec3& v) {
        for (std::size_t a = 0; a < 3; ++a) numbers.push_back(js_number(v[a]));
    };
    return std::visit(Overloaded{
                              [&](const Sphere& s) {
                                  vec(s.centre);
                                  return PageJson{{"c", std::move(numbers)}, {"r", js_number(s.radius)}};
                              },
                              [&](const Capsule& c) {
                                  vec(c.a);
                                  vec(c.b);
                                  numbers.push_back(js_number(c.radius));
                                  return PageJson{{"k", std::move(numbers)}};
                              },
                              [&](const auto& shape) {
                                  using T = std::decay_t<decltype(shape)>;
                                  if constexpr (std::is_same_v<T, Aabb>) {
                                      for (const Vec3& c : corners_of(to_obb(shape))) vec(c);
                                  } else if constexpr (std::is_same_v<T, Obb>) {
                                      for (const Vec3& c : corners_of(shape)) vec(c);
                                  } else if constexpr (std::is_same_v<T, Triangle>) {
                                      for (const Vec3& c : {shape.a, shape.b, shape.c}) vec(c);
                                  } else if constexpr (std::is_same_v<T, Hull>) {
                                      for (int k = 0; k < shape.count(); ++k) vec(shape.point(k));
                                  }
                                  return PageJson{{"p", std::move(numbers)}};
                              },
                      },
                      body.shape);
}

/// The 2D views' data for the page's script: views, moving bodies, kept frames, their states and,
/// for bodies that turn, their outline points and rotation at each kept frame.
std::string flat_data(const Scenario& sc, const Recording& rec, const std::vector<ViewMap>& maps, std::size_t markers) {
    const auto n = static_cast<std::size_t>(rec.body_count);
    std::vector<std::size_t> dynamic, turning;
    for (std::size_t i = 0; i < n && dynamic.size() < markers; ++i)
        if (!sc.bodies[i].is_static) dynamic.push_back(i);
    for (std::size_t d = 0; d < dynamic.size(); ++d)
        if (turns_in(rec, dynamic[d])) turning.push_back(d);
    const std::size_t frames = rec.frame_count();
    const std::size_t per_frame = 6 * std::max<std::size_t>(dynamic.size(), 1) + 4 * turning.size();
    std::size_t keep = std::max<std::size_t>(2, kDataBudget / per_frame);
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

    PageJson views = PageJson::array(), bodies = PageJson::array(), turns = PageJson::array();
    for (const ViewMap& m : maps)
        views.push_back(PageJson{{"name", plot_view_name(m.view)},
                                 {"h", m.h},
                                 {"v", m.v},
                                 {"ox", js_number(m.ox)},
                                 {"oy", js_number(m.oy)},
                                 {"s", js_number(m.scale)},
                                 {"umin", js_number(m.umin)},
                                 {"vmax", js_number(m.vmax)},
                                 {"w", js_number(m.width())},
                                 {"ht", js_number(m.height())}});
    for (const std::size_t i : dynamic) bodies.push_back(PageJson{{"name", sc.bodies[i].name}, {"index", i}});
    for (const std::size_t t : turning)
        turns.push_back(PageJson{{"d", t}, {"o", local_outline_json(sc.bodies[dynamic[t]])}});
    PageJson kept_frames = PageJson::array(), times = PageJson::array(), states = PageJson::array(),
             rotations = PageJson::array();
    for (const std::size_t k : kept) {
        kept_frames.push_back(rec.frames[k]);
        times.push_back(js_number(rec.times[k]));
        const auto at = rec.at(k);
        PageJson row = PageJson::array(), turned = PageJson::array();
        for (const std::size_t i : dynamic)
            for (const double v : {at[i].position.x, at[i].position.y, at[i].position.z, at[i].velocity.x,
                                   at[i].velocity.y, at[i].velocity.z})
                row.push_back(js_number(v));
        for (const std::size_t t : turning) {
            const Quat& q = at[dynamic[t]].rotation;
            for (const double v : {q.w, q.x, q.y, q.z}) turned.push_back(json_number(v, 9));
        }
        states.push_back(std::move(row));
        rotations.push_back(std::move(turned));
    }
    return script_json(PageJson{{"views", std::move(views)},
                                {"bodies", std::move(bodies)},
                                {"turning", std::move(turns)},
                                {"frames", std::move(kept_frames)},
                                {"times", std::move(times)},
                                {"states", std::move(states)},
                                {"rotations", std::move(rotations)}});
}

/// The 2D views' script: an object with frames, times and show(frameNumber) for the player,
/// and hover read-outs. Turning bodies' markers are drawn anew at each frame, turned.
constexpr const char* kFlatScript = R"JS(function flatView(D, svg, readout) {
  'use strict';
  var slot = {};
  D.bodies.forEach(function (b, d) { slot[b.index] = d; });
  var turning = {};
  D.turning.forEach(function (t, j) { turning[t.d] = {o: t.o, j: j}; });
  var views = Array.prototype.map.call(svg.querySelectorAll('g.view'), function (g) {
    return Array.prototype.slice.call(g.querySelectorAll('g.now'));
  });
  var current = 0;
  function at(k, d, axis) { return D.states[k][d * 6 + axis]; }
  function rotate(q, p) { // p turned by the unit quaternion q = [w, x, y, z]
    var w = q[0], x = q[1], y = q[2], z = q[3];
    var tx = 2 * (y * p[2] - z * p[1]), ty = 2 * (z * p[0] - x * p[2]), tz = 2 * (x * p[1] - y * p[0]);
    return [p[0] + w * tx + (y * tz - z * ty), p[1] + w * ty + (z * tx - x * tz), p[2] + w * tz + (x * ty - y * tx)];
  }
  function hull(p) { // convex hull of 2D points (monotone chain)
    p = p.slice().sort(function (a, b) { return a[0] - b[0] || a[1] - b[1]; });
    if (p.length < 3) return p;
    function cross(o, a, b) { return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]); }
    var lower = [], upper = [];
    p.forEach(function (q) { while (lower.length >= 2 && cross(lower[lower.length - 2], lower[lower.length - 1], q) <= 0) lower.pop(); lower.push(q); });
    for (var i = p.length - 1; i >= 0; --i) { var q = p[i]; while (upper.length >= 2 && cross(upper[upper.length - 2], upper[upper.length - 1], q) <= 0) upper.pop(); upper.push(q); }
    return lower.slice(0, -1).concat(upper.slice(0, -1));
  }
  // A turning body's marker at kept frame k in view v: its outline turned as at that frame.
  function drawTurned(el, v, k, d, t) {
    var q = D.rotations[k].slice(4 * t.j, 4 * t.j + 4), base = [at(k, d, 0), at(k, d, 1), at(k, d, 2)];
    function px(p) { return [v.ox + (base[v.h] + p[v.h] - v.umin) * v.s, v.oy + (v.vmax - base[v.v] - p[v.v]) * v.s]; }
    var shape = el.firstElementChild, mark = shape.nextElementSibling, o = t.o; // mark: a tiny body's cross
    el.removeAttribute('transform');
    function moveMark(x, y) { if (mark) mark.setAttribute('transform', 'translate(' + x.toFixed(1) + ' ' + y.toFixed(1) + ')'); }
    if (o.c) {
      var c = px(rotate(q, o.c));
      shape.setAttribute('cx', c[0].toFixed(1)); shape.setAttribute('cy', c[1].toFixed(1));
      moveMark(c[0], c[1]);
      return;
    }
    var pts = [];
    if (o.k) {
      [0, 3].forEach(function (i) {
        var e = px(rotate(q, o.k.slice(i, i + 3)));
        for (var a = 0; a < 24; ++a) pts.push([e[0] + o.k[6] * v.s * Math.cos(a * Math.PI / 12), e[1] + o.k[6] * v.s * Math.sin(a * Math.PI / 12)]);
      });
    } else {
      for (var i = 0; i + 2 < o.p.length; i += 3) pts.push(px(rotate(q, o.p.slice(i, i + 3))));
    }
    var outline = hull(pts), mx = 0, my = 0;
    outline.forEach(function (p) { mx += p[0] / outline.length; my += p[1] / outline.length; });
    shape.setAttribute('points', outline.map(function (p) { return p[0].toFixed(1) + ',' + p[1].toFixed(1); }).join(' '));
    moveMark(mx, my);
  }
  function showKept(k) {
    if (!D.states.length) return;
    current = k;
    D.views.forEach(function (v, vi) {
      (views[vi] || []).forEach(function (el) {
        var d = slot[+el.getAttribute('data-index')];
        if (turning[d]) { drawTurned(el, v, k, d, turning[d]); return; }
        var dx = (at(k, d, v.h) - at(0, d, v.h)) * v.s, dy = -(at(k, d, v.v) - at(0, d, v.v)) * v.s;
        el.setAttribute('transform', 'translate(' + dx.toFixed(1) + ' ' + dy.toFixed(1) + ')');
      });
    });
  }
  function fmt3(k, d, o) {
    return '(' + [0, 1, 2].map(function (a) { return at(k, d, o + a).toFixed(3); }).join(', ') + ')';
  }
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
  return {
    frames: D.frames, times: D.times,
    show: function (f) { var k = 0; while (k + 1 < D.frames.length && D.frames[k + 1] <= f) ++k; showKept(k); }
  };
}
)JS";

} // namespace

std::string render_plot_html(const Scenario& sc, const Recording& rec, const PlotOptions& options,
                             std::string_view log) {
    const bool flat = options.flat, three_d = options.view3d || !options.flat;
    std::string out;
    put(out,
        "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>collide: {}</title>\n"
        "<style>body{{font-family:sans-serif;margin:0 16px 16px;color:#222}}#errors{{color:#b00;white-space:pre}}"
        ".bar{{position:sticky;top:0;z-index:5;background:#fff;padding:6px 0 4px;border-bottom:1px solid #ddd}}"
        ".bar h1{{font-size:18px;margin:0 0 4px}}"
        ".main{{display:flex;gap:16px;align-items:flex-start;flex-wrap:wrap;margin-top:12px}}.plot{{flex:1 1 "
        "560px;min-width:0}}.plot svg{{max-width:100%;height:auto}}"
        ".log{{background:#f4f4f4;padding:8px;font-size:12px;flex:0 0 380px;margin:0;white-space:pre-wrap}}"
        ".controls{{margin:0}}#frame{{width:min(420px,50vw);vertical-align:middle}}"
        "#readout{{font-family:monospace;min-height:1.4em;margin:2px 0 0;white-space:nowrap;overflow:hidden;"
        "text-overflow:ellipsis}}svg .body.hover .track{{stroke-width:3}}{}</style>\n",
        xml_escape(sc.name), three_d ? kView3dStyle : "");
    out += kPageErrorScript;
    put(out, "</head><body>\n<div id=\"errors\" hidden></div>\n<div class=\"bar\"><h1>{}</h1>\n", xml_escape(sc.name));
    out += "<div class=\"controls\"><button id=\"play\" type=\"button\">▶ play</button> "
           "<input id=\"frame\" type=\"range\" min=\"0\" max=\"0\" value=\"0\" aria-label=\"frame\"> "
           "<span id=\"frameinfo\"></span></div>\n<div id=\"readout\">hover a body for its state</div></div>\n";
    out += options.preface;
    if (three_d) {
        Scene3dOptions scene;
        scene.ghosts_from = options.ghosts_from;
        scene.ghost_note = options.ghost_note;
        out += "<div class=\"view3d-box\">" + view3d_element("view3d", render_scene3d_json(sc, rec, scene)) +
               "</div>\n";
    }
    out += "<div class=\"main\">\n";
    std::vector<ViewMap> maps;
    const std::size_t markers = three_d ? kMarkerBudgetWith3d : SIZE_MAX;
    if (flat) {
        maps = plan_views(sc, rec, options);
        out += "<div class=\"plot\">\n" + render_plot_svg_interactive(sc, rec, maps, markers, options) + "</div>\n";
    }
    put(out, "<pre class=\"log\" id=\"log\">{}</pre></div>\n", xml_escape(std::string(log)));
    if (flat)
        out += "<script type=\"application/json\" id=\"data\">" + flat_data(sc, rec, maps, markers) + "</script>\n";
    out += view3d_scripts(three_d);
    out += "<script>\n";
    out += kFlatScript;
    out += R"JS((function () {
  'use strict';
  var readout = document.getElementById('readout'), views = [];
  var data = document.getElementById('data');
  if (data) views.push(flatView(JSON.parse(data.textContent), document.querySelector('svg.collide-plot'), readout));
  var box = document.getElementById('view3d');
  if (box) {
    try {
      views.push(Collide3D.create(box, JSON.parse(document.getElementById('view3d-data').textContent), {readout: readout}));
    } catch (e) {
      box.textContent = 'The 3D view needs WebGL: ' + e.message;
      console.error('3D view: ' + e.message);
    }
  }
  if (views.length)
    Collide3D.player({slider: document.getElementById('frame'), play: document.getElementById('play'),
      info: document.getElementById('frameinfo')}, views);
  document.body.setAttribute('data-ready', '1');
})();
)JS";
    out += "</script>\n</body></html>\n";
    return out;
}

} // namespace collide
