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

/// One scene holding two runs of one scenario: run A's bodies as `a` has them (named "A: NAME"),
/// then run B's moving bodies as `b` has them, drawn as ghosts (named "B: NAME"; its static
/// bodies are A's). `a` and `b` must have the same bodies (names, in order).
Scenario scene_of_two_runs(const Scenario& a, const Scenario& b);

/// The recording of that scene: frame k holds A's states at frame k of `a` and then B's moving
/// bodies' at frame k of `b` (both recordings of the same frames, bodies in their scenario's order).
Recording recording_of_two_runs(const Scenario& b_scenario, const Recording& a, const Recording& b);

} // namespace collide
