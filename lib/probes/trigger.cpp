#include "probes/trigger.h"

#include <algorithm>

#include "detection/dispatch.h"
#include "model/log_kinds.h"
#include "queries/time_of_impact.h"

namespace collide {

namespace {
/// Slack on a piece's reach (m): rounding must never skip an entry.
constexpr double kBoundsSlack = 1e-7;
} // namespace

void TriggerProbes::clear() {
    watched_.clear();
    for (int k = 0; k < track_count_; ++k) tracks_[static_cast<std::size_t>(k)].segments.clear();
    track_count_ = 0;
    track_of_.clear();
    step_start_ = 0;
    any_swept_ = false;
}

unsigned TriggerProbes::events() const { return any_swept_ ? kOnFrame | kOnMove | kOnContact : kOnFrame; }

int TriggerProbes::track(const EngineView& world, int body) {
    int& slot = track_of_[static_cast<std::size_t>(body)];
    if (slot >= 0) return slot;
    if (track_count_ == static_cast<int>(tracks_.size())) tracks_.emplace_back();
    Track& t = tracks_[static_cast<std::size_t>(track_count_)];
    t.body = body;
    t.local = bounds_of(world.local_shape(body));
    t.clock = 0;
    t.start = world.state(body).position;
    t.segments.clear();
    slot = track_count_++;
    return slot;
}

void TriggerProbes::watch(const EngineView& world, int body, int volume, bool swept, std::span<double> out) {
    out[TriggerLog::entered] = 0;
    out[TriggerLog::exited] = 0;
    out[TriggerLog::events] = 0;
    if (track_of_.size() != static_cast<std::size_t>(world.body_count()))
        track_of_.assign(static_cast<std::size_t>(world.body_count()), -1);
    Watched w;
    w.body = body;
    w.volume = volume;
    w.swept = swept;
    w.out = out;
    if (swept) {
        any_swept_ = true;
        w.track_body = track(world, body);
        w.track_volume = track(world, volume);
        if (contact(world.placed(body), world.placed(volume)).status == ContactStatus::overlapping)
            enter(w, 0, 0.0); // inside from the start: the step of frame 0 contains t = 0
    }
    watched_.push_back(w);
}

void TriggerProbes::enter(Watched& w, int frame, double time) {
    w.inside = true;
    w.out[TriggerLog::events] += 1;
    if (w.out[TriggerLog::entered] != 0) return;
    w.out[TriggerLog::entered] = 1;
    w.out[TriggerLog::enter_frame] = frame;
    w.out[TriggerLog::enter_time] = time;
}

void TriggerProbes::leave(Watched& w, int frame, double time) {
    w.inside = false;
    if (w.out[TriggerLog::exited] != 0) return;
    w.out[TriggerLog::exited] = 1;
    w.out[TriggerLog::exit_frame] = frame;
    w.out[TriggerLog::exit_time] = time;
}

void TriggerProbes::on_move(const EngineView& world, int body, double tau, const Vec3& accel) {
    const int k = track_of_[static_cast<std::size_t>(body)];
    if (k < 0) return;
    Track& t = tracks_[static_cast<std::size_t>(k)];
    const BodyState s = world.state(body);
    t.segments.push_back({t.clock, tau, s.position, s.velocity, accel});
    t.clock += tau;
}

void TriggerProbes::on_contact(const EngineView&, const ContactEvent& e) {
    const int i = e.a, j = e.b;
    const double time = e.time;
    // A body that stood still (the world does not move it, so it reports no move) starts
    // moving after a contact: its next move starts at the contact's time.
    for (const int b : {i, j}) {
        const int k = track_of_[static_cast<std::size_t>(b)];
        if (k >= 0)
            tracks_[static_cast<std::size_t>(k)].clock = std::max(tracks_[static_cast<std::size_t>(k)].clock, time);
    }
}

void TriggerProbes::on_frame(const EngineView& world, int frame, double time) {
    for (Watched& w : watched_) {
        if (w.swept) {
            follow_step(world, w, frame, time);
            continue;
        }
        const bool now = bounds_overlap(world.bounds(w.body), world.bounds(w.volume)) &&
                         contact(world.placed(w.body), world.placed(w.volume)).status == ContactStatus::overlapping;
        if (now && !w.inside) enter(w, frame, time);
        if (!now && w.inside) leave(w, frame, time);
    }
    for (int k = 0; k < track_count_; ++k) {
        Track& t = tracks_[static_cast<std::size_t>(k)];
        t.segments.clear();
        t.clock = time;
        t.start = world.state(t.body).position;
    }
    step_start_ = time;
}

Aabb TriggerProbes::Kinematics::reach(const Aabb& local, double span) const {
    Aabb box{local.min + position, local.max + position};
    for (std::size_t k = 0; k < 3; ++k) {
        const double end = velocity[k] * span + 0.5 * accel[k] * span * span;
        double lo = std::min(0.0, end), hi = std::max(0.0, end);
        if (accel[k] != 0) { // the parabola may turn inside the span
            const double t = -velocity[k] / accel[k];
            if (t > 0 && t < span) {
                const double turn = velocity[k] * t + 0.5 * accel[k] * t * t;
                lo = std::min(lo, turn);
                hi = std::max(hi, turn);
            }
        }
        box.min[k] += lo - kBoundsSlack;
        box.max[k] += hi + kBoundsSlack;
    }
    return box;
}

TriggerProbes::Kinematics TriggerProbes::at(const Track& t, double time) {
    Kinematics still{t.start, Vec3{}, Vec3{}}; // between moves a body stands still
    for (const Segment& s : t.segments) {
        const Kinematics k{s.position, s.velocity, s.accel};
        if (s.start <= time && time < s.start + s.tau) return k.after(time - s.start);
        if (s.start + s.tau <= time) still.position = k.after(s.tau).position;
    }
    return still;
}

bool TriggerProbes::overlap(const EngineView& world, const Watched& w, const Kinematics& a, const Kinematics& v) {
    return contact(translate(world.local_shape(w.body), a.position), translate(world.local_shape(w.volume), v.position))
                   .status == ContactStatus::overlapping;
}

void TriggerProbes::follow_step(const EngineView& world, Watched& w, int frame, double end) {
    const Track& a = tracks_[static_cast<std::size_t>(w.track_body)];
    const Track& v = tracks_[static_cast<std::size_t>(w.track_volume)];
    const double begin = step_start_;
    if (end > begin) {
        cuts_.clear();
        cuts_.push_back(begin);
        cuts_.push_back(end);
        for (const Track* t : {&a, &v}) {
            for (const Segment& s : t->segments) {
                cuts_.push_back(std::clamp(s.start, begin, end));
                cuts_.push_back(std::clamp(s.start + s.tau, begin, end));
            }
        }
        std::sort(cuts_.begin(), cuts_.end());
        cuts_.erase(std::unique(cuts_.begin(), cuts_.end()), cuts_.end());
        for (std::size_t k = 0; k + 1 < cuts_.size(); ++k) {
            const double s = cuts_[k], e = cuts_[k + 1];
            follow_piece(world, w, frame, s, e, at(a, s), at(v, s));
        }
    }
    // A jump after the moves (a push-out, or the world placing a character): judged where it landed.
    if (at(a, end).position != world.state(w.body).position || at(v, end).position != world.state(w.volume).position) {
        const bool now = contact(world.placed(w.body), world.placed(w.volume)).status == ContactStatus::overlapping;
        if (now && !w.inside) enter(w, frame, end);
        if (!now && w.inside) leave(w, frame, end);
    }
}

void TriggerProbes::follow_piece(const EngineView& world, Watched& w, int frame, double s, double e,
                                 const Kinematics& a, const Kinematics& v) {
    const double span = e - s;
    const Shape& la = world.local_shape(w.body);
    const Shape& lv = world.local_shape(w.volume);
    const auto inside_after = [&](double dt) { return overlap(world, w, a.after(dt), v.after(dt)); };
    // When, going backwards from e for at most `limit` s, the shapes first touch: the exit.
    const auto last_touch = [&](double limit) {
        const Kinematics ae = a.after(span), ve = v.after(span);
        const Toi back = time_of_impact(translate(la, ae.position), Motion{ae.velocity * -1.0, ae.accel},
                                        translate(lv, ve.position), Motion{ve.velocity * -1.0, ve.accel}, limit);
        return back.status == ToiStatus::hit ? e - back.time : e - limit;
    };
    if (!w.inside) {
        // Bounds that never come near over the piece: no entry (and no time of impact to ask).
        if (!bounds_overlap(a.reach(tracks_[static_cast<std::size_t>(w.track_body)].local, span),
                            v.reach(tracks_[static_cast<std::size_t>(w.track_volume)].local, span)))
            return;
        const Toi in = time_of_impact(translate(la, a.position), Motion{a.velocity, a.accel}, translate(lv, v.position),
                                      Motion{v.velocity, v.accel}, span);
        switch (in.status) {
        case ToiStatus::miss: return;
        case ToiStatus::unsupported: // no distance for this pair: judged at the piece's end
            if (inside_after(span)) enter(w, frame, e);
            return;
        case ToiStatus::started_inside: enter(w, frame, s); break; // a jump the world made: from here
        case ToiStatus::hit: {
            if (in.time >= span) { // touching at the end, going in: the next piece goes on
                enter(w, frame, e);
                return;
            }
            if (inside_after(span)) {
                enter(w, frame, s + in.time);
                return;
            }
            // In and out within the piece (a fast body through a thin volume), or a graze.
            const double out = last_touch(span - in.time);
            if (!inside_after(0.5 * (in.time + (out - s)))) return; // touched, never overlapped
            enter(w, frame, s + in.time);
            leave(w, frame, out);
            return;
        }
        }
    }
    if (inside_after(span)) return;
    leave(w, frame, last_touch(span));
}

} // namespace collide
