#include "probes/apex.h"

#include <algorithm>
#include <cmath>

#include "response/response.h"

namespace collide {

void ApexProbes::clear() { watched_.clear(); }

void ApexProbes::watch(const ApexLog& request, const EngineView& world, double e_body, double e_floor,
                       std::span<double> out) {
    const bool has_floor = request.floor >= 0 && request.floor < world.body_count() && request.floor != request.body;
    const double e = std::max(e_body, has_floor ? e_floor : 0.0);
    const Vec3 up = world.up();
    Watched w;
    w.request = request;
    w.out = out;
    w.floor = has_floor ? request.floor : -1;
    w.low_offset = dot(support(world.local_shape(request.body), up * -1.0), up);
    w.top_offset = has_floor ? dot(support(world.local_shape(request.floor), up), up) : 0.0;
    // Without drop_height: the height it starts at, measured as its apexes are.
    const double drop = std::isnan(request.drop_height) ? height(world, w, world.state(request.body).position)
                                                        : request.drop_height;
    for (int k = 1; k <= request.bounces; ++k)
        out[static_cast<std::size_t>(request.analytic(k))] = apex_after_bounces(drop, e, k);
    w.bounce_speed = std::max(world.def().rest_speed, length(world.def().gravity) * world.def().dt);
    watched_.push_back(w);
}

double ApexProbes::height(const EngineView& world, const Watched& w, const Vec3& position) const {
    const Vec3 up = world.up();
    const double floor_top = w.floor >= 0 ? dot(world.state(w.floor).position, up) + w.top_offset : 0.0;
    return dot(position, up) + w.low_offset - floor_top;
}

void ApexProbes::on_move(const EngineView& world, int body, double tau, const Vec3& accel) {
    for (Watched& w : watched_) {
        if (w.request.body != body || w.bounces < 1) continue;
        const BodyState s = world.state(body);
        const Vec3 up = world.up();
        const Vec3 end = s.position + s.velocity * tau + accel * (0.5 * tau * tau);
        double top = std::max(height(world, w, s.position), height(world, w, end));
        const double vs = dot(s.velocity, up), as = dot(accel, up);
        if (as < 0 && vs > 0 && vs + as * tau < 0)
            top = std::max(top, height(world, w, s.position) + vs * vs / (-2 * as));
        w.best = std::max(w.best, top);
    }
}

void ApexProbes::on_response(const EngineView& world, int body, const Vec3& before, const Vec3& after) {
    for (Watched& w : watched_) {
        if (w.request.body != body) continue;
        const Vec3 up = world.up();
        if (!(dot(before, up) < 0 && dot(after, up) > w.bounce_speed)) continue;
        if (w.bounces >= 1 && w.bounces <= w.request.bounces)
            w.out[static_cast<std::size_t>(w.request.apex(w.bounces))] = w.best;
        ++w.bounces;
        w.best = height(world, w, world.state(body).position);
    }
}

void ApexProbes::finish() {
    for (const Watched& w : watched_) {
        if (w.bounces >= 1 && w.bounces <= w.request.bounces)
            w.out[static_cast<std::size_t>(w.request.apex(w.bounces))] = w.best;
        // The bounces asked for that happened: apex_1 … apex_bounces are measured, the rest none.
        w.out[static_cast<std::size_t>(w.request.bounce_count())] = std::min(w.bounces, w.request.bounces);
    }
}

} // namespace collide
