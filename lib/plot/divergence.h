#pragma once
/// \file
/// The picture of where two runs part (`collide diverge --plot`): the largest difference in
/// position (m) and in velocity (m/s) over all bodies against the frame, on a logarithmic
/// scale, from the first divergent frame on; and the scene that shows both runs in one 3D view.

#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/scenario.h"
#include "probes/record.h"

namespace collide {

/// How two runs differ at one frame.
struct DivergencePoint {
    int frame = 0;       ///< the frame's index
    double time = 0;     ///< its time (s)
    int bodies = 0;      ///< bodies that differ
    double position = 0; ///< the largest difference in a position component (m)
    double velocity = 0; ///< the largest difference in a velocity component (m/s)
};

/// A standalone SVG chart of `points` (in frame order, the first divergent frame first): both
/// differences on a log scale (a difference of 0 drawn on the bottom line), the frame across,
/// a mark at the first divergent frame; `title` above it.
std::string render_divergence_svg(std::span<const DivergencePoint> points, std::string_view title);

/// One scene holding several runs of one scenario (two runs `diverge` compares, the engines of
/// `sim --engine A,B`, a run and its golden's): the first run's bodies as its scenario has them,
/// named "LABEL: NAME", then each other run's moving bodies, named "LABEL: NAME", as ghosts
/// (PlotOptions::ghosts_from: the first run's body count; their static bodies are the first
/// run's). Every run must have the same bodies (names, in order). Throws
/// std::invalid_argument without a label per run.
Scenario scene_of_runs(std::span<const Scenario> runs, std::span<const std::string> labels);

/// The recording of that scene: frame k holds the first run's states at its frame k, then each
/// other run's moving bodies' at its frame k (over the frames every recording has; the first
/// run's contacts).
Recording recording_of_runs(std::span<const Scenario> runs, std::span<const Recording* const> recordings);

/// scene_of_runs of runs A and B.
Scenario scene_of_two_runs(const Scenario& a, const Scenario& b);

/// recording_of_runs of runs A and B (`b_scenario`: the scenario as run B ran it).
Recording recording_of_two_runs(const Scenario& b_scenario, const Recording& a, const Recording& b);

} // namespace collide
