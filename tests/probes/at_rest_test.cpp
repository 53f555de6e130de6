// The at_rest probe in free flight, where every speed is known in closed form: a still or
// slowly drifting body rests from frame 0; a body whose speed v(t) = |v0 + g·t| stays below
// rest_speed from some frame to the end rests from that frame if that lasts rest_time, and not
// at all if it speeds up again before the end or the slow spell is too short.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "probes/probe_run.h"

using namespace collide;
using namespace collide::test;

namespace {

/// One free body b with velocity `v` under gravity `g` (no other body), `frames` frames at 60 Hz.
std::string free_body(const std::string& v, const std::string& g, int frames, const std::string& extra = "") {
    return "world: { rate: 60, frames: " + std::to_string(frames) + ", phase: 0.5, gravity: " + g +
           ", rest_speed: 0.01" + extra + " }\nbodies:\n  b: { sphere: { radius: 0.5 }, velocity: " + v +
           " }\nlog:\n  - at_rest: { body: b }\n";
}

} // namespace

TEST_CASE("at_rest: when free flight stays slower than rest_speed to the end, for at least rest_time", "[probes]") {
    // Rising under g = +0.01 m/s² from −0.02 m/s: slower than 0.01 m/s for 1 s < t < 3 s. Frames
    // are sampled at t_k = (k + 0.5)/60: frame 59 (t = 0.992 s) is still at 0.01008 m/s, frame
    // 60 (1.008 s) at 0.00992 m/s.
    struct Case {
        const char* what;
        std::string yaml;
        double rested, frame;
    };
    const Case cases[] = {
            {"still", free_body("[0, 0, 0]", "[0, 0, 0]", 30), 1, 0},
            {"drifting at half rest_speed", free_body("[0.003, 0, 0.004]", "[0, 0, 0]", 30), 1, 0},
            {"moving at 1 m/s", free_body("[1, 0, 0]", "[0, 0, 0]", 30), 0, NAN},
            {"slowing to the end (2.49 s)", free_body("[0, -0.02, 0]", "[0, 0.01, 0]", 150), 1, 60},
            {"slow from 1 s to 3 s, run to 3.99 s", free_body("[0, -0.02, 0]", "[0, 0.01, 0]", 240), 0, NAN},
            {"slow for 0.18 s < rest_time 0.25 s", free_body("[0, -0.02, 0]", "[0, 0.01, 0]", 72), 0, NAN},
            {"slow for 0.18 s ≥ rest_time 0.1 s", free_body("[0, -0.02, 0]", "[0, 0.01, 0]", 72, ", rest_time: 0.1"), 1,
             60},
    };
    int checked = 0;
    for (const Case& c : cases) {
        INFO(c.what);
        const ProbeRun r = run_probes(c.yaml);
        CHECK(r["at_rest.rested"] == c.rested);
        if (c.rested == 1) {
            CHECK(r["at_rest.frame"] == c.frame);
            CHECK(r["at_rest.time"] == Approx((c.frame + 0.5) / 60).margin(1e-12));
        } else {
            CHECK(std::isnan(r["at_rest.frame"]));
            CHECK(std::isnan(r["at_rest.time"]));
        }
        ++checked;
    }
    CHECK(checked == 7);
}
