#include "probes/tunnel.h"

#include <cmath>

#include "model/log_kinds.h"
#include "shapes/shapes.h"

namespace collide {

namespace {
constexpr double kStill = 1e-9; ///< m/s along the approach: slower is still
} // namespace

double beyond_wall(const EngineView& world, int body, int wall, const Vec3& along) {
    const Shape& w = world.placed(wall);
    const Shape& b = world.placed(body);
    const double far = dot(support(w, along), along);
    const double middle = 0.5 * (dot(support(b, along), along) + dot(support(b, along * -1.0), along));
    return middle - far;
}

void TunnelProbes::clear() { watched_.clear(); }

void TunnelProbes::watch(const EngineView& world, int body, int wall, std::span<double> out) {
    Vec3 along = world.state(body).velocity;
    if (!(length(along) > 0)) {
        const Shape& w = world.placed(wall);
        const Vec3 centre = (support(w, {1, 0, 0}) + support(w, {-1, 0, 0})) * 0.5;
        const Vec3 c2 = (support(w, {0, 1, 0}) + support(w, {0, -1, 0})) * 0.5;
        const Vec3 c3 = (support(w, {0, 0, 1}) + support(w, {0, 0, -1})) * 0.5;
        along = Vec3{centre.x, c2.y, c3.z} - world.state(body).position;
    }
    const double n = length(along);
    out[TunnelLog::tunneled] = 0;
    if (!(n > 0) || !std::isfinite(n)) return; // it is where the wall's middle is: no approach
    watched_.push_back({body, wall, along * (1 / n), out});
}

void TunnelProbes::on_frame(const EngineView& world, int frame, double time) {
    for (Watched& w : watched_) {
        if (w.out[TunnelLog::tunneled] != 0) continue;
        if (beyond_wall(world, w.body, w.wall, w.along) > 0) {
            w.out[TunnelLog::tunneled] = 1;
            w.out[TunnelLog::frame] = frame;
            w.out[TunnelLog::time] = time;
        }
    }
}

void TunnelProbes::finish(const EngineView& world) {
    for (const Watched& w : watched_) {
        if (beyond_wall(world, w.body, w.wall, w.along) > 0)
            w.out[TunnelLog::outcome] = TunnelLog::passed;
        else if (const double v = dot(world.state(w.body).velocity, w.along); v < -kStill)
            w.out[TunnelLog::outcome] = TunnelLog::bounced;
        else if (v > kStill)
            w.out[TunnelLog::outcome] = TunnelLog::approaching;
        else
            w.out[TunnelLog::outcome] = TunnelLog::stopped;
    }
}

} // namespace collide
