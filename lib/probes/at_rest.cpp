#include "probes/at_rest.h"

#include "model/log_kinds.h"

namespace collide {

void AtRestProbes::clear() { watched_.clear(); }

void AtRestProbes::watch(int body, std::span<double> out) { watched_.push_back({body, out, -1}); }

void AtRestProbes::on_frame(const EngineView& world, int frame, double) {
    for (Watched& w : watched_) {
        if (world.fastest_speed(w.body) < world.def().rest_speed) { // its turning too
            if (w.slow_since < 0) w.slow_since = frame;
        } else {
            w.slow_since = -1;
        }
    }
}

void AtRestProbes::finish(const EngineView& world) {
    const WorldDef& def = world.def();
    const int last_frame = world.frames_stepped() - 1;
    for (const Watched& w : watched_) {
        w.out[AtRestLog::rested] = 0;
        if (w.slow_since < 0 || last_frame < 0) continue;
        const double lasted = (last_frame - w.slow_since) * def.dt;
        if (lasted < def.rest_time * (1 - 1e-12)) continue;
        w.out[AtRestLog::rested] = 1;
        w.out[AtRestLog::frame] = w.slow_since;
        w.out[AtRestLog::time] = (w.slow_since + def.phase) * def.dt;
    }
}

} // namespace collide
