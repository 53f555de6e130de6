#pragma once
/// \file
/// `collide diverge`: where two runs part. It reads two recordings (`sim --record`) or two CSV
/// traces (`sim --trace`) — or runs one scenario two ways (two values of a param, two engines,
/// two thread counts) and records both — and prints the
/// first frame at which any body's state differs beyond a tolerance (default: any bit), the
/// bodies that differ there and by how much, the contacts one run had and the other did not,
/// and how the difference grows over the frames after.

#include <iosfwd>
#include <string>
#include <vector>

namespace collide {

/// What `collide diverge` was asked to do.
struct DivergeRequest {
    /// Two recordings or traces; or one scenario file, run two ways (`set` or `engines`).
    std::vector<std::string> files;
    /// A run of the scenario two ways by a param: `NAME=V1,V2` (--set).
    std::string set;
    /// A run of the scenario by two engines: `A,B` (--engine).
    std::string engines;
    /// A run of the scenario on two thread counts: `N1,N2`, each a count or `auto` (--jobs).
    std::string jobs;
    /// The largest difference that is no difference (per number, in its unit); 0: any bit.
    double tolerance = 0;
    /// How many bodies to name at the first divergent frame (the largest differences first).
    int show = 10;
    /// When set: draw the divergence here, `.svg` (the largest position and velocity difference
    /// against the frame) or `.html` (that, and the 3D view of both runs from the first divergent
    /// frame on: A solid, B as ghosts).
    std::string plot_path;
    /// With two files and an HTML plot: the scenario both runs are of (its shapes; each run's
    /// params from its recording).
    std::string scenario;
};

/// Compares, prints the report on `out` and problems on `err` (one located line each).
/// Returns 0 when the runs never differ, 1 when they do, 2 on bad input.
int diverge_command(const DivergeRequest& request, std::ostream& out, std::ostream& err);

} // namespace collide
