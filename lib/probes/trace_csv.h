#pragma once
/// \file
/// The CSV trace of a run (`sim --trace`), written row by row as the world steps: memory stays
/// bounded whatever the frame count. Columns:
/// `frame,time,kind,body,with,x,y,z,vx,vy,vz,qw,qx,qy,qz,nx,ny,nz,depth,wx,wy,wz`; per sampled
/// frame its contacts (kind `contact`: body and with the pair, x y z the point in m, n the unit
/// normal from body to with, depth in m, 0 for a swept touch), then every body's state (kind
/// `state`: position m, velocity m/s, rotation as a unit quaternion w x y z, angular velocity
/// rad/s in the world frame; the angular velocity comes last so that readers of the older
/// columns find them where they were). A contact found after the
/// last sampled frame is not written.

#include <string>
#include <string_view>
#include <vector>

#include "io/atomic_file.h"
#include "model/scenario.h"
#include "probes/record.h"
#include "probes/simulate.h"

namespace collide {

/// The trace's header line, with its '\n'.
std::string_view trace_csv_header();

/// Appends the row of contact `c` (with its '\n') to `out`; body names from `scenario`.
void append_trace_contact(std::string& out, const Scenario& scenario, const TraceContact& c);

/// Appends one `state` row per body of frame `frame` at `time` (s) to `out`.
void append_trace_states(std::string& out, const Scenario& scenario, int frame, double time,
                         std::span<const BodyState> bodies);

/// The whole trace of a recorded run as one string (the bytes TraceCsvSink streams).
std::string trace_csv(const Scenario& scenario, const Recording& recording);

/// A TraceSink that writes the CSV trace to an OutputFile as frames happen. Contacts are held
/// until their frame is sampled (at most one frame's worth). Throws OutputError (from the
/// output) when a row cannot be written. The caller commits the output after the run.
class TraceCsvSink final : public TraceSink {
public:
    /// Writes the header at once; `scenario` and `out` must outlive the sink.
    TraceCsvSink(const Scenario& scenario, OutputFile& out);
    void frame(int frame, double time, std::span<const BodyState> bodies) override;
    bool wants_contacts() const override { return true; }
    void contact(const TraceContact& c) override;

private:
    const Scenario& scenario_;
    OutputFile& out_;
    std::vector<TraceContact> pending_; ///< contacts whose frame is not sampled yet
    std::string rows_;                  ///< the rows of the frame being written (reused)
};

/// Hands every frame and contact to two sinks (a plot's recording and a streamed trace).
class TeeSink final : public TraceSink {
public:
    /// Both sinks must outlive the tee.
    TeeSink(TraceSink& first, TraceSink& second) : first_(first), second_(second) {}
    void frame(int frame, double time, std::span<const BodyState> bodies) override {
        first_.frame(frame, time, bodies);
        second_.frame(frame, time, bodies);
    }
    bool wants_contacts() const override { return first_.wants_contacts() || second_.wants_contacts(); }
    void contact(const TraceContact& c) override {
        if (first_.wants_contacts()) first_.contact(c);
        if (second_.wants_contacts()) second_.contact(c);
    }

private:
    TraceSink& first_;
    TraceSink& second_;
};

/// Hands every frame and contact to each of several sinks, in order.
class FanSink final : public TraceSink {
public:
    /// Every sink must outlive the fan.
    explicit FanSink(std::span<TraceSink* const> sinks) : sinks_(sinks) {}
    void frame(int frame, double time, std::span<const BodyState> bodies) override {
        for (TraceSink* s : sinks_) s->frame(frame, time, bodies);
    }
    bool wants_contacts() const override {
        for (const TraceSink* s : sinks_)
            if (s->wants_contacts()) return true;
        return false;
    }
    void contact(const TraceContact& c) override {
        for (TraceSink* s : sinks_)
            if (s->wants_contacts()) s->contact(c);
    }

private:
    std::span<TraceSink* const> sinks_;
};

} // namespace collide
