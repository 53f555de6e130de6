#include "probes/trace_csv.h"

#include <fmt/format.h>
#include <iterator>

namespace collide {

std::string_view trace_csv_header() {
    return "frame,time,kind,body,with,x,y,z,vx,vy,vz,qw,qx,qy,qz,nx,ny,nz,depth,wx,wy,wz\n";
}

void append_trace_contact(std::string& out, const Scenario& scenario, const TraceContact& t) {
    const auto name = [&](int i) -> const std::string& { return scenario.bodies[static_cast<std::size_t>(i)].name; };
    const Vec3 n = t.normal + Vec3{0, 0, 0}; // −0 + 0 is +0: a normal's zero parts print as 0
    fmt::format_to(std::back_inserter(out), "{},{},contact,{},{},{},{},{},,,,,,,,{},{},{},{},,,\n", t.frame, t.time,
                   name(t.a), name(t.b), t.point.x, t.point.y, t.point.z, n.x, n.y, n.z, t.depth);
}

void append_trace_states(std::string& out, const Scenario& scenario, int frame, double time,
                         std::span<const BodyState> bodies) {
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        const BodyState& b = bodies[i];
        const Quat& q = b.rotation; // the world's: a turning kinematic body's changes
        const Vec3& w = b.angular_velocity;
        fmt::format_to(std::back_inserter(out), "{},{},state,{},,{},{},{},{},{},{},{},{},{},{},,,,,{},{},{}\n", frame,
                       time, scenario.bodies[i].name, b.position.x, b.position.y, b.position.z, b.velocity.x,
                       b.velocity.y, b.velocity.z, q.w, q.x, q.y, q.z, w.x, w.y, w.z);
    }
}

std::string trace_csv(const Scenario& scenario, const Recording& rec) {
    std::string text(trace_csv_header());
    std::size_t c = 0;
    for (std::size_t k = 0; k < rec.frame_count(); ++k) {
        const int frame = rec.frames[k];
        for (; c < rec.contacts.size() && rec.contacts[c].frame <= frame; ++c)
            append_trace_contact(text, scenario, rec.contacts[c]);
        append_trace_states(text, scenario, frame, rec.times[k], rec.at(k));
    }
    return text;
}

TraceCsvSink::TraceCsvSink(const Scenario& scenario, OutputFile& out) : scenario_(scenario), out_(out) {
    out_.write(trace_csv_header());
}

void TraceCsvSink::contact(const TraceContact& c) { pending_.push_back(c); }

void TraceCsvSink::frame(int frame, double time, std::span<const BodyState> bodies) {
    rows_.clear();
    std::size_t n = 0;
    for (; n < pending_.size() && pending_[n].frame <= frame; ++n) append_trace_contact(rows_, scenario_, pending_[n]);
    pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(n));
    append_trace_states(rows_, scenario_, frame, time, bodies);
    out_.write(rows_);
}

} // namespace collide
