#include "plot/view3d.h"

#include <algorithm>
#include <cctype>
#include <stdexcept>

#include <fmt/format.h>

namespace collide {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}

/// True when `text` holds "</script" in any case (it would end the element early).
bool closes_script(std::string_view text) {
    static constexpr std::string_view kTag = "</script";
    for (std::size_t at = text.find("</"); at != std::string_view::npos; at = text.find("</", at + 1)) {
        const std::string_view rest = text.substr(at, kTag.size());
        if (rest.size() == kTag.size() && std::equal(rest.begin(), rest.end(), kTag.begin(), [](char a, char b) {
                return std::tolower(static_cast<unsigned char>(a)) == b;
            }))
            return true;
    }
    return false;
}

} // namespace

std::string three_classic_script(std::string_view module) {
    const std::string_view body = trim(module);
    const std::size_t at = body.rfind("export{");
    if (at == std::string_view::npos || body.back() != ';' || body[body.size() - 2] != '}')
        throw std::invalid_argument("three_classic_script: the module does not end in export{...};");
    const std::string_view list = body.substr(at + 7, body.size() - 2 - (at + 7));
    std::string object;
    std::size_t from = 0;
    while (from <= list.size()) {
        const std::size_t comma = std::min(list.find(',', from), list.size());
        const std::string_view item = trim(list.substr(from, comma - from));
        from = comma + 1;
        if (item.empty()) continue;
        const std::size_t as = item.find(" as ");
        const std::string_view local = trim(item.substr(0, as));
        const std::string_view name = as == std::string_view::npos ? local : trim(item.substr(as + 4));
        object += fmt::format("{}{}:{}", object.empty() ? "" : ",", name, local);
    }
    std::string out = "var THREE=(function(){\"use strict\";\n";
    out += body.substr(0, at);
    out += "\nreturn{" + object + "};})();\n";
    return out;
}

std::string view3d_scripts(bool with_three) {
    std::string out;
    if (with_three) {
        const std::string three = three_classic_script(kThreeModuleSource);
        if (closes_script(three)) throw std::logic_error("three.js holds </script");
        out += "<script>/* three.js, MIT licence: third_party/three/LICENSE */\n" + three + "</script>\n";
    }
    if (closes_script(kView3dSource)) throw std::logic_error("view3d.js holds </script");
    out += "<script>\n";
    out += kView3dSource;
    out += "</script>\n";
    return out;
}

std::string view3d_element(std::string_view id, std::string_view json) {
    return fmt::format("<div class=\"view3d\" id=\"{0}\"></div>\n<script type=\"application/json\" id=\"{0}-data\">{1}"
                       "</script>\n",
                       id, json);
}

const char* const kView3dStyle =
        ".view3d{position:relative;width:100%;height:calc(100vh - 120px);min-height:300px;overflow:hidden;"
        "border:1px solid #ccc;box-sizing:border-box;background:#f7f7f5;touch-action:none}"
        ".view3d canvas{display:block;position:absolute;left:0;top:0}"
        ".view3d-labels{position:absolute;left:0;top:0;pointer-events:none}"
        ".view3d-label{position:absolute;font:11px sans-serif;white-space:nowrap;color:#222;"
        "text-shadow:0 0 3px #fff,0 0 3px #fff}.view3d-label.axis{font-weight:bold;font-size:13px}"
        ".view3d-label.x{color:#c00}.view3d-label.y{color:#080}.view3d-label.z{color:#00c}"
        ".view3d-scale{position:absolute;left:6px;bottom:4px;font:12px sans-serif;color:#444;pointer-events:none;"
        "text-shadow:0 0 3px #fff,0 0 3px #fff}"
        ".view3d-legend{font:12px sans-serif;margin:4px 0}.view3d-legend .it{margin-right:12px;"
        "white-space:nowrap;display:inline-block}.view3d-legend .sw{display:inline-block;width:11px;height:11px;"
        "margin-right:4px;vertical-align:-1px;border:1px solid #777}.view3d-legend .sw.trig{background:rgba(31,119,"
        "180,.28)}.view3d-legend .sw.ghost{background:rgba(120,120,120,.3);border-style:dashed}"
        ".view3d-legend .ln{display:inline-block;width:20px;border-top:2px solid #555;margin-right:4px;"
        "vertical-align:3px}.view3d-legend .dot{display:inline-block;width:6px;height:6px;border-radius:3px;"
        "background:#111;margin-right:4px;vertical-align:1px}.view3d-legend .dot.red{background:#d00}"
        ".view3d-legend .dot.green{background:#080}.view3d-legend .note{color:#666;margin-top:2px}";

const char* const kView3dControls =
        "<div class=\"v3d-controls\"><button type=\"button\" class=\"v3d-play\">▶ play</button> <input "
        "type=\"range\" class=\"v3d-frame\" min=\"0\" max=\"0\" value=\"0\" aria-label=\"frame\"> <span "
        "class=\"v3d-info\"></span><div class=\"v3d-readout\">hover a body for its state</div></div>\n";

const char* const kView3dLazyScript = R"JS(<script>
(function () {
  'use strict';
  var live = [];
  function build(d) {
    if (d.collideViewer) return;
    var box = d.querySelector('.view3d'), data = document.getElementById(box.id + '-data');
    while (live.length >= 8) { var old = live.shift(); old.collideViewer.dispose(); old.collideViewer = null; }
    try {
      var c = d.querySelector('.v3d-controls');
      d.collideViewer = Collide3D.create(box, JSON.parse(data.textContent), {readout: c.querySelector('.v3d-readout')});
      Collide3D.player({slider: c.querySelector('.v3d-frame'), play: c.querySelector('.v3d-play'),
        info: c.querySelector('.v3d-info'), hash: false}, [d.collideViewer]);
      live.push(d);
    } catch (e) {
      box.textContent = 'The 3D view needs WebGL: ' + e.message;
      console.error('3D view: ' + e.message);
    }
  }
  Array.prototype.forEach.call(document.querySelectorAll('details.v3d'), function (d) {
    d.addEventListener('toggle', function () { if (d.open) build(d); });
    if (d.open) build(d);
  });
})();
</script>
)JS";

} // namespace collide
