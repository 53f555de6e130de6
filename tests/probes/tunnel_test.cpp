// The tunnel probe (probes/tunnel.cpp): whether a body went through a wall and how its run ended,
// against hand-worked runs: a 200 m/s bullet sampled at 60 Hz is 3.33 m on at its next frame,
// beyond a 10 cm wall; swept detection stops it (e = 0) or sends it back (e = 1); a body that
// never reaches the wall is held, stopped.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "model/log_kinds.h"
#include "probes/probe_run.h"
#include "report/render.h"

using namespace collide;
using namespace collide::test;

namespace {

/// A 5 cm ball at x = −1 m flying along +x at `speed` toward a static wall 10 cm thick at x = 0.
std::string shot(const std::string& speed, const std::string& detection, const std::string& e,
                 const std::string& frames = "60") {
    return "world: { rate: 60, frames: " + frames + ", gravity: [0, 0, 0], detection: " + detection +
           " }\n"
           "bodies:\n"
           "  wall: { static: true, box: { min: [-0.05, -2, -2], max: [0.05, 2, 2] } }\n"
           "  bullet: { sphere: { radius: 0.05 }, position: [-1, 0, 0], velocity: [" +
           speed + ", 0, 0], restitution: " + e +
           ", friction: 0 }\n"
           "log:\n  - tunnel: { body: bullet, wall: wall }\n    id: t\n";
}

} // namespace

TEST_CASE("tunnel: a 200 m/s bullet sampled at 60 Hz is past the wall at its next frame, and stays past",
          "[probes][tunnel]") {
    // Frame 0 at t = 0 (x = −1 m), frame 1 at t = 1/60 s: x = −1 + 200/60 = 2.33 m, beyond the
    // wall's far face at 0.05 m: no frame ever overlaps it.
    const ProbeRun r = run_probes(shot("200", "discrete", "0"));
    CHECK(r["t.tunneled"] == 1);
    CHECK(r["t.frame"] == 1);
    CHECK(r["t.time"] == Approx(1 / 60.0).epsilon(1e-12));
    CHECK(r["t.outcome"] == static_cast<double>(TunnelLog::passed));
}

TEST_CASE("tunnel: swept detection holds the same bullet: stopped with e = 0, bounced with e = 1", "[probes][tunnel]") {
    const ProbeRun stopped = run_probes(shot("200", "swept", "0"));
    CHECK(stopped["t.tunneled"] == 0);
    CHECK(std::isnan(stopped["t.frame"]));
    CHECK(stopped["t.outcome"] == static_cast<double>(TunnelLog::stopped));
    const ProbeRun bounced = run_probes(shot("200", "swept", "1"));
    CHECK(bounced["t.tunneled"] == 0);
    CHECK(bounced["t.outcome"] == static_cast<double>(TunnelLog::bounced));
}

TEST_CASE("tunnel: a bullet that has not reached the wall is held: still approaching, or stopped when still",
          "[probes][tunnel]") {
    // 1 m/s for 10 frames: 0.15 m on, far from the wall, still moving towards it.
    const ProbeRun short_run = run_probes(shot("1", "discrete", "0", "10"));
    CHECK(short_run["t.tunneled"] == 0);
    CHECK(short_run["t.outcome"] == static_cast<double>(TunnelLog::approaching));
    // A still ball's approach is towards the wall; it never moves, so it is held.
    const ProbeRun still = run_probes(shot("0", "discrete", "0", "10"));
    CHECK(still["t.tunneled"] == 0);
    CHECK(still["t.outcome"] == static_cast<double>(TunnelLog::stopped));
}

TEST_CASE("tunnel: the log line says what happened", "[probes][tunnel]") {
    const std::string text = [] {
        const ProbeRun r = run_probes(shot("200", "discrete", "0"));
        return render_text(r.scenario, layout_of(r.scenario), r.values);
    }();
    CHECK(text == "bullet against wall → tunneled: through at frame 1, t = 0.017 s, and ended beyond it\n");
}
