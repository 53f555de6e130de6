#pragma once
/// \file
/// The JSON a page's scripts read, written by nlohmann::json (as report/ writes logs): the data
/// of the 2D views, the 3D view (plot/scene3d.h) and a sweep's map, each inside a
/// `<script type="application/json">` element. Keys keep the order they were added in, so a
/// page is the same bytes for the same run.

#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

namespace collide {

/// A JSON value of a page's data: an object keeps its keys in the order they were added.
using PageJson = nlohmann::ordered_json;

/// `value` as compact JSON text that is also safe inside a <script> element: `<`, `>` and `&`
/// (which JSON holds only inside strings) written as \u003c, \u003e and \u0026, so no text can
/// close the element; bytes that are not UTF-8 written as U+FFFD.
std::string script_json(const PageJson& value);

/// A number for a page: null when not finite; a whole number of magnitude below 2^53 as an
/// integer (`2`, not `2.0`); else the shortest text that reads back as the same double.
PageJson json_number(double v);

/// `v` rounded to `digits` significant digits (1 to 17) first, as a page needs no more (a 2D
/// view's positions: 6), then as json_number: 0.123456789 at 6 digits is `0.123457`.
PageJson json_number(double v, int digits);

} // namespace collide
