#pragma once
/// \file
/// The apex probe: heights a bouncing body reaches after each bounce.

#include <span>
#include <vector>

#include "engine/engine.h"
#include "model/log_kinds.h"

namespace collide {

/// Watches bouncing bodies and writes ApexLog's fields. Heights are of the body's lowest point
/// (along the world's up) above the floor body's highest point (or above 0). A bounce is a
/// response that turns the vertical velocity from down to up faster than max(rest_speed,
/// |g|·dt) (slower rebounds are resting contact). apex_k is the highest point between bounce k
/// and bounce k + 1 (or the end), on the continuous motion: inside a step whose vertical
/// velocity turns from up to down, the parabola's top y0 + vy0²/(2g). analytic_k is
/// apex_after_bounces(drop_height, max(e_body, e_floor), k); bounces counts the bounces asked
/// for that happened (at most the request's bounces: apex_1 … apex_bounces are measured).
class ApexProbes final : public EngineObserver {
public:
    /// Forgets every body.
    void clear();
    /// Watches the request's body in `world` (already reset) and writes into `out` (ApexLog's
    /// fields, sized request.field_count()); the analytic heights are written now, with the
    /// restitutions e_body and e_floor (the floor's is 0 without one).
    void watch(const ApexLog& request, const EngineView& world, double e_body, double e_floor, std::span<double> out);
    /// Writes the last apex and the bounce counts (call once, after the last frame).
    void finish();
    /// True when there is nothing to watch.
    bool empty() const { return watched_.empty(); }

    void on_move(const EngineView& world, int body, double tau, const Vec3& accel) override;
    void on_response(const EngineView& world, int body, const Vec3& before, const Vec3& after) override;

private:
    struct Watched {
        ApexLog request;
        std::span<double> out;
        int floor = -1;          ///< the floor body, or −1
        int bounces = 0;         ///< bounces seen so far
        double best = 0;         ///< highest height since the last bounce (m)
        double low_offset = 0;   ///< the body's lowest point along up, relative to its position (m)
        double top_offset = 0;   ///< the floor's highest point along up, relative to its position (m)
        double bounce_speed = 0; ///< a rebound faster than this is a bounce (m/s)
    };
    double height(const EngineView& world, const Watched& w, const Vec3& position) const;
    std::vector<Watched> watched_;
};

} // namespace collide
