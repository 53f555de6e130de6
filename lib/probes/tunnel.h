#pragma once
/// \file
/// The tunnel probe: whether a body went through a wall, and how its run ended (TunnelLog).

#include <span>
#include <vector>

#include "engine/engine.h"

namespace collide {

/// Watches bodies against walls frame by frame and writes TunnelLog's fields: along the body's
/// approach d (its velocity at the start; towards the wall when it starts still), the wall's
/// extent [near, far] (its support points along ∓d, at each frame: a wall may move) and the
/// body's middle (halfway between its own support points along ±d); it crossed at the first
/// frame its middle lies beyond far. At the end: passed when its middle is beyond far, else
/// bounced when it moves against d faster than 1e-9 m/s, short when it moves along d faster
/// than that (it has not arrived), else stopped.
class TunnelProbes final : public EngineObserver {
public:
    /// Forgets every pair.
    void clear();
    /// Watches `body` against `wall` in `world` (at its start) and writes into `out`.
    void watch(const EngineView& world, int body, int wall, std::span<double> out);
    /// Writes the outcome (call once, after the last frame).
    void finish(const EngineView& world);
    /// True when there is nothing to watch.
    bool empty() const { return watched_.empty(); }

    void on_frame(const EngineView& world, int frame, double time) override;

private:
    struct Watched {
        int body = 0, wall = 0;
        Vec3 along; ///< the approach d (unit)
        std::span<double> out;
    };
    std::vector<Watched> watched_;
};

/// How far past the wall's far side body `body`'s middle lies along `along` (m; > 0 beyond it).
double beyond_wall(const EngineView& world, int body, int wall, const Vec3& along);

} // namespace collide
