#pragma once
/// \file
/// `collide conform --format html`: one self-contained page (no network) — the table of
/// scenarios × engines (each cell: held / checked, the worst error, CPU seconds; a link to its
/// section), the per-engine speed–accuracy summary, and per cell its expectations (condition,
/// measured, expected, error, tolerance, held) and the 3D view of that run (plot/view3d.h), built
/// when it is opened.

#include <string>

#include "app/conform.h"

namespace collide {

/// The page. Each cell that ran is simulated again by its engine with its frames recorded for
/// its 3D view (the same run: engines are deterministic). The table's cells carry
/// `data-scenario`, `data-engine`, `data-status`, `data-held` and `data-checked`; each cell's
/// section is `#cell-R-E` (row and engine index) with the same attributes, and its view is the
/// `details.v3d` in it.
std::string render_conformance_html(const ConformReport& report);

} // namespace collide
