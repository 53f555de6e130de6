#pragma once
/// \file
/// The 3D view in a page: the scripts it needs (three.js and plot/view3d.js, embedded into the
/// library at build time; no network, no CDN) and the markup of one view. The data it draws is
/// plot/scene3d.h's.
///
/// three.js is the npm package `three` at the version third_party/three/README.md pins, its
/// `build/three.module.min.js` byte for byte. That file is an ES module, which a page opened
/// from file:// cannot import; the page runs it as a classic script instead, its closing
/// `export{local as Name, ...}` turned into the global object `THREE` (three_classic_script).

#include <string>
#include <string_view>

namespace collide {

/// three.js as vendored: third_party/three/three.module.min.js (an ES module).
extern const std::string_view kThreeModuleSource;
/// The 3D view's script: lib/plot/view3d.js (window.Collide3D).
extern const std::string_view kView3dSource;

/// An ES module whose only export is its final `export{a as B, c, ...};` statement, as a classic
/// script defining `var THREE = {B: a, c: c, ...}` (the module's body runs in a strict function).
/// Throws std::invalid_argument when the module does not end in such a statement.
std::string three_classic_script(std::string_view module);

/// The <script> elements of the 3D view: three.js (when `with_three`) and view3d.js. Once per page.
std::string view3d_scripts(bool with_three = true);

/// A view's container and its data: <div class="view3d" id="ID"></div> and
/// <script type="application/json" id="ID-data">JSON</script>.
std::string view3d_element(std::string_view id, std::string_view json);

/// The CSS of the 3D view's container, labels and legend: the container as wide as the page and
/// nearly as tall as the window (the canvas follows it: view3d.js), its labels, scale and legend.
extern const char* const kView3dStyle;

/// A view's own controls (play button, frame slider, frame read-out, body read-out), placed
/// before its view3d_element in a page that shows several runs, each in a `<details class="v3d">`.
extern const char* const kView3dControls;

/// The script that builds each `details.v3d`'s view when it is first opened (and those open from
/// the start), with its own controls; at most 8 views live at once (WebGL limits a page's
/// contexts), the one opened longest ago is let go and built again when opened again.
extern const char* const kView3dLazyScript;

} // namespace collide
