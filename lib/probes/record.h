#pragma once
/// \file
/// A whole run kept in memory: every sampled frame's body states and every contact, as a
/// TraceSink (probes/simulate.h) collects them. Plots (plot/) and the CSV trace are drawn from it.

#include <span>
#include <utility>
#include <vector>

#include "probes/simulate.h"

namespace collide {

/// Every sampled frame of one run and the contacts found while stepping.
struct Recording {
    int body_count = 0;                 ///< bodies per frame (Scenario::bodies order)
    std::vector<int> frames;            ///< frame index of each kept frame
    std::vector<double> times;          ///< its time (s)
    std::vector<BodyState> states;      ///< frames.size() × body_count states (m, m/s), frame-major
    std::vector<TraceContact> contacts; ///< every contact, in the order found

    /// How many frames were kept.
    std::size_t frame_count() const { return frames.size(); }
    /// The bodies' states at kept frame `k` (0 ≤ k < frame_count()).
    std::span<const BodyState> at(std::size_t k) const {
        const auto n = static_cast<std::size_t>(body_count);
        return std::span<const BodyState>(states).subspan(k * n, n);
    }
};

/// A TraceSink that records everything into a Recording (contacts included).
class RecordingSink final : public TraceSink {
public:
    void frame(int frame, double time, std::span<const BodyState> bodies) override;
    bool wants_contacts() const override { return true; }
    void contact(const TraceContact& c) override { recording_.contacts.push_back(c); }
    /// What was recorded so far.
    const Recording& recording() const { return recording_; }
    /// Takes the recording out (the sink is empty afterwards).
    Recording take() { return std::move(recording_); }

private:
    Recording recording_;
};

/// Simulates `scenario` (as simulate() does, into `values`, with `engine`: Workspace::use_engine)
/// and records every frame and contact.
Recording simulate_recorded(const Scenario& scenario, std::span<double> values, std::string_view engine = "collide");

} // namespace collide
