#pragma once
/// \file
/// The first_contact probe: the first contact (discrete) or impact (swept) of two bodies.

#include <span>
#include <vector>

#include "engine/engine.h"

namespace collide {

/// Watches a world for the first contact of each of its pairs and writes FirstContactLog's
/// fields: hit, frame (the frame whose step found it), time (s: the frame's sample time for a
/// discrete contact, the impact time for a swept one) and the body's position then (m, before
/// any push-out or response). A pair never found keeps hit 0 and the rest NaN.
class FirstContactProbes final : public EngineObserver {
public:
    /// Forgets every pair.
    void clear();
    /// Watches `body` against `with` and writes into `out` (FirstContactLog's fields); hit is
    /// set to 0 now. Reuses storage.
    void watch(int body, int with, std::span<double> out);
    /// How many pairs are not found yet.
    int open() const { return open_; }
    /// True when there is nothing to watch.
    bool empty() const { return watched_.empty(); }

    void on_contact(const EngineView& world, const ContactEvent& e) override;

private:
    struct Watched {
        int body = 0;
        int with = 0;
        std::span<double> out;
        bool found = false;
    };
    std::vector<Watched> watched_;
    int open_ = 0;
};

} // namespace collide
