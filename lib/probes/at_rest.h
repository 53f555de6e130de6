#pragma once
/// \file
/// The at_rest probe: when a body came to rest, or that it never did.

#include <span>
#include <vector>

#include "engine/engine.h"

namespace collide {

/// Watches bodies' speeds frame by frame and writes AtRestLog's fields: rested, frame (the
/// first frame from which the body's speed stays below rest_speed until the last frame
/// stepped) and its sample time (s), when that lasts at least rest_time; else rested 0.
class AtRestProbes final : public EngineObserver {
public:
    /// Forgets every body.
    void clear();
    /// Watches `body` and writes into `out` (AtRestLog's fields).
    void watch(int body, std::span<double> out);
    /// Writes the fields (call once, after the last frame).
    void finish(const EngineView& world);
    /// True when there is nothing to watch.
    bool empty() const { return watched_.empty(); }

    void on_frame(const EngineView& world, int frame, double time) override;

private:
    struct Watched {
        int body = 0;
        std::span<double> out;
        int slow_since = -1; ///< first frame of the current run of frames below rest_speed, or −1
    };
    std::vector<Watched> watched_;
};

} // namespace collide
