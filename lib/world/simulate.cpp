#include "world/simulate.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>

#include "detection/dispatch.h"
#include "queries/cast.h"
#include "queries/time_of_impact.h"
#include "response/response.h"
#include "world/measure.h"

namespace collide {

namespace {

using world_detail::ApexProbe;
using world_detail::ContactProbe;
using world_detail::RunBody;
using world_detail::RunPair;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
/// Slack on cast bounds (m): a cast that ends exactly touching must not be rejected.
constexpr double kCastBoundsMargin = 1e-7;

/// Bounds that overlap by more than kTouchEpsilon on every axis. A contact needs that: were
/// the bounds to overlap by δ ≤ kTouchEpsilon on some axis, moving B by δ along it would part
/// them, so the depth (the shortest way out) is at most δ — touching, not contact.
bool bounds_overlap(const Aabb& a, const Aabb& b) {
    constexpr double e = kTouchEpsilon;
    return a.min.x < b.max.x - e && b.min.x < a.max.x - e && a.min.y < b.max.y - e && b.min.y < a.max.y - e &&
           a.min.z < b.max.z - e && b.min.z < a.max.z - e;
}

/// Bounds that overlap or come within `margin` of each other.
bool bounds_near(const Aabb& a, const Aabb& b, double margin) {
    return a.min.x <= b.max.x + margin && b.min.x <= a.max.x + margin && a.min.y <= b.max.y + margin &&
           b.min.y <= a.max.y + margin && a.min.z <= b.max.z + margin && b.min.z <= a.max.z + margin;
}

/// A hit of a pair inside a step: time from the sub-step's start and the normal from i to j.
struct PairHit {
    double time = 0;
    Vec3 normal;
};

/// One run of one scenario: the stepping loop and its bookkeeping.
class Run {
public:
    Run(const Scenario& scenario, std::span<double> values, Workspace& ws, TraceSink* trace)
        : sc_(scenario), w_(scenario.world), ws_(ws), out_(values), trace_(trace) {}

    void go() {
        std::fill(out_.begin(), out_.end(), kNaN);
        set_up_bodies();
        set_up_entries();
        ws_.frames_stepped = 0;
        if (!needs_stepping_) return;
        for (int k = 0; k < w_.frames; ++k) {
            frame_ = k;
            const double h = k == 0 ? w_.phase * w_.dt : w_.dt;
            const double start = k == 0 ? 0.0 : (k - 1 + w_.phase) * w_.dt;
            frame_time_ = (k + w_.phase) * w_.dt;
            step_ = h;
            if (h > 0) advance_step(h, start);
            if (has_characters_) character_passes();
            discrete_passes();
            if (track_rest_) note_speeds(k);
            if (trace_) send_trace(k);
            last_frame_ = k;
            ws_.frames_stepped = k + 1;
            if (!trace_ && settled()) break;
        }
        finish_entries();
    }

private:
    const Scenario& sc_;
    const WorldDef& w_;
    Workspace& ws_;
    std::span<double> out_;
    TraceSink* trace_;

    Vec3 up_{0, 1, 0};
    double bounce_speed_ = 0;  // a rebound must be faster than this to count as a bounce (m/s)
    bool exact_ = true;
    bool any_swept_pair_ = false;
    bool has_characters_ = false;
    bool track_rest_ = false;
    bool whole_run_ = false;   // some entry needs every frame (apex, final, at_rest, max_overlap)
    bool needs_stepping_ = false;
    int frame_ = 0;
    int last_frame_ = -1;
    double frame_time_ = 0;
    double step_ = 0;
    int open_contacts_ = 0;    // first_contact entries not found yet

    // ---- bodies ------------------------------------------------------------------------

    void set_up_bodies() {
        const auto n = sc_.bodies.size();
        ws_.bodies.resize(n);
        exact_ = w_.integrator == Integrator::exact;
        const double g = length(w_.gravity);
        up_ = g > 0 ? w_.gravity * (-1.0 / g) : Vec3{0, 1, 0};
        bounce_speed_ = std::max(w_.rest_speed, g * w_.dt);
        has_characters_ = false;
        for (std::size_t i = 0; i < n; ++i) {
            const BodyDef& d = sc_.bodies[i];
            RunBody& b = ws_.bodies[i];
            b.base = place(d.shape, Vec3{}, d.rotation);
            b.base_bounds = bounds_of(b.base);
            b.position = d.position;
            b.is_static = d.is_static;
            b.character = d.character && !d.is_static;
            b.swept = !b.is_static && !b.character && (d.ccd || w_.detection == Detection::swept);
            b.velocity = b.is_static ? Vec3{} : d.velocity;
            b.desired = b.character ? d.velocity : Vec3{};
            b.fall = Vec3{};
            b.accel = (b.is_static || b.character) ? Vec3{} : w_.gravity;
            b.inv_mass = (b.is_static || b.character) ? 0.0 : 1.0 / d.mass;
            b.restitution = d.restitution;
            b.friction = d.friction;
            b.slope_limit = d.slope_limit;
            b.dirty = true;
            b.slow_since = -1;
            b.ground = -1;
            has_characters_ = has_characters_ || b.character;
        }
        ws_.pairs.clear();
        any_swept_pair_ = false;
        for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t j = i + 1; j < n; ++j) {
                const RunBody& a = ws_.bodies[i];
                const RunBody& b = ws_.bodies[j];
                if (a.is_static && b.is_static) continue;
                RunPair p;
                p.i = static_cast<int>(i);
                p.j = static_cast<int>(j);
                p.character = a.character || b.character;
                p.swept = !p.character && (a.swept || b.swept);
                any_swept_pair_ = any_swept_pair_ || p.swept;
                ws_.pairs.push_back(p);
            }
        }
        ws_.resting.resize(ws_.pairs.size());
        ws_.cast_bounds.resize(n);
    }

    const Shape& placed(int index) {
        RunBody& b = ws_.bodies[static_cast<std::size_t>(index)];
        if (b.dirty) {
            b.placed = translate(b.base, b.position);
            b.dirty = false;
        }
        return b.placed;
    }

    Aabb bounds(int index) const {
        const RunBody& b = ws_.bodies[static_cast<std::size_t>(index)];
        return Aabb{b.base_bounds.min + b.position, b.base_bounds.max + b.position};
    }

    RunBody& body(int index) { return ws_.bodies[static_cast<std::size_t>(index)]; }

    /// Gravity, less the part pressing a resting body into its ground.
    static Vec3 grounded_accel(const RunBody& b) {
        if (b.ground < 0) return b.accel;
        const double in = dot(b.accel, b.ground_normal);
        return in < 0 ? b.accel - b.ground_normal * in : b.accel;
    }

    /// The acceleration a body moves with inside a step (gravity is a kick under Euler).
    Vec3 motion_accel(const RunBody& b) const { return exact_ ? grounded_accel(b) : Vec3{}; }

    // ---- log entries ---------------------------------------------------------------------

    bool valid_body(int index) const { return index >= 0 && index < static_cast<int>(sc_.bodies.size()); }

    void set_up_entries() {
        ws_.contacts.clear();
        ws_.apexes.clear();
        track_rest_ = false;
        whole_run_ = false;
        int offset = 0;
        for (const LogDef& def : sc_.log) {
            const int count = field_count(def.request);
            const std::span<double> o = out_.subspan(static_cast<std::size_t>(offset), static_cast<std::size_t>(count));
            if (const auto* a = std::get_if<ApexLog>(&def.request)) {
                set_up_apex(*a, offset, o);
            } else if (const auto* f = std::get_if<FirstContactLog>(&def.request)) {
                o[0] = 0;
                if (valid_body(f->body) && valid_body(f->with) && f->body != f->with)
                    ws_.contacts.push_back(ContactProbe{offset, f->body, f->with, false});
            } else if (std::holds_alternative<FinalLog>(def.request) ||
                       std::holds_alternative<MaxOverlapLog>(def.request)) {
                whole_run_ = true;
            } else if (std::holds_alternative<AtRestLog>(def.request)) {
                whole_run_ = true;
                track_rest_ = true;
            } else {
                measure_at_start(def.request, o);
            }
            offset += count;
        }
        open_contacts_ = static_cast<int>(ws_.contacts.size());
        needs_stepping_ = trace_ != nullptr || whole_run_ || open_contacts_ > 0;
    }

    void set_up_apex(const ApexLog& a, int offset, std::span<double> o) {
        whole_run_ = true;
        if (!valid_body(a.body) || a.bounces < 0) return;
        const bool has_floor = valid_body(a.floor) && a.floor != a.body;
        double e = sc_.bodies[static_cast<std::size_t>(a.body)].restitution;
        if (has_floor) e = std::max(e, sc_.bodies[static_cast<std::size_t>(a.floor)].restitution);
        for (int k = 1; k <= a.bounces; ++k)
            o[static_cast<std::size_t>(a.bounces + k - 1)] = apex_after_bounces(a.drop_height, e, k);
        ApexProbe p;
        p.offset = offset;
        p.body = a.body;
        p.floor = has_floor ? a.floor : -1;
        p.wanted = a.bounces;
        p.bounces = 0;
        p.best = 0;
        p.low_offset = dot(support(body(a.body).base, up_ * -1.0), up_);
        p.top_offset = has_floor ? dot(support(body(a.floor).base, up_), up_) : 0.0;
        ws_.apexes.push_back(p);
    }

    /// Entries measured on the bodies placed at t = 0, and the pure ones.
    void measure_at_start(const LogRequest& request, std::span<double> o) {
        auto shape_of = [&](int index) -> const Shape* { return valid_body(index) ? &placed(index) : nullptr; };
        if (const auto* r = std::get_if<AxisOverlapsLog>(&request)) {
            if (valid_body(r->a) && valid_body(r->b)) measure_axis_overlaps(bounds(r->a), bounds(r->b), o);
        } else if (const auto* r = std::get_if<ContactLog>(&request)) {
            if (const Shape *a = shape_of(r->a), *b = shape_of(r->b); a && b) measure_contact(*a, *b, o);
        } else if (const auto* r = std::get_if<PushOutLog>(&request)) {
            if (const Shape *a = shape_of(r->a), *b = shape_of(r->b); a && b)
                measure_push_out(*a, *b, r->has_from ? r->from : body(r->b).position, r->skin, o);
        } else if (const auto* r = std::get_if<SplitLog>(&request)) {
            measure_split(r->velocity, r->normal, o);
        } else if (const auto* r = std::get_if<RespondLog>(&request)) {
            measure_respond(r->velocity, r->normal, r->restitution, r->friction, o);
        } else if (const auto* r = std::get_if<SlopeLog>(&request)) {
            measure_slope(r->normal, r->limit, up_, o);
        } else if (const auto* r = std::get_if<SeparatingAxisLog>(&request)) {
            if (const Shape *a = shape_of(r->a), *b = shape_of(r->b); a && b) measure_separating_axis(*a, *b, o);
        } else if (const auto* r = std::get_if<RaycastLog>(&request)) {
            ws_.targets.clear();
            for (const BodyIndex t : r->targets) {
                if (!valid_body(t)) return;
                ws_.targets.push_back(placed(t));
            }
            measure_raycast(r->origin, r->direction, r->max_distance, ws_.targets, r->targets, o);
        }
    }

    void finish_entries() {
        int offset = 0;
        for (const LogDef& def : sc_.log) {
            const int count = field_count(def.request);
            const std::span<double> o = out_.subspan(static_cast<std::size_t>(offset), static_cast<std::size_t>(count));
            if (const auto* f = std::get_if<FinalLog>(&def.request)) {
                if (valid_body(f->body)) {
                    const RunBody& b = body(f->body);
                    o[0] = b.position.x, o[1] = b.position.y, o[2] = b.position.z;
                    o[3] = b.velocity.x, o[4] = b.velocity.y, o[5] = b.velocity.z;
                }
            } else if (const auto* r = std::get_if<AtRestLog>(&def.request)) {
                if (valid_body(r->body)) finish_at_rest(body(r->body), o);
            } else if (std::holds_alternative<MaxOverlapLog>(def.request)) {
                finish_max_overlap(o);
            }
            offset += count;
        }
        for (const ApexProbe& p : ws_.apexes) {
            if (p.bounces >= 1 && p.bounces <= p.wanted) out_[static_cast<std::size_t>(p.offset + p.bounces - 1)] = p.best;
            out_[static_cast<std::size_t>(p.offset + 2 * p.wanted)] = p.bounces;
        }
    }

    void finish_at_rest(const RunBody& b, std::span<double> o) {
        o[0] = 0;
        if (b.slow_since < 0 || last_frame_ < 0) return;
        const double lasted = (last_frame_ - b.slow_since) * w_.dt;
        if (lasted < w_.rest_time * (1 - 1e-12)) return;
        o[0] = 1;
        o[1] = b.slow_since;
        o[2] = (b.slow_since + w_.phase) * w_.dt;
    }

    void finish_max_overlap(std::span<double> o) {
        double deepest = 0;
        int a = -1, b = -1;
        for (const RunPair& p : ws_.pairs) {
            if (!bounds_overlap(bounds(p.i), bounds(p.j))) continue;
            const ContactQuery q = contact(placed(p.i), placed(p.j));
            if (q.status == ContactStatus::overlapping && q.contact.depth > deepest) {
                deepest = q.contact.depth;
                a = p.i;
                b = p.j;
            }
        }
        o[0] = deepest;
        o[1] = a;
        o[2] = b;
    }

    /// True when nothing left to measure can change: every first_contact found and no entry
    /// needs the whole run, or only unfound first_contact entries remain and no pair can ever
    /// meet again (every pair drifts apart on some axis under its relative velocity and
    /// gravity, so every later frame is free flight).
    bool settled() const {
        if (whole_run_) return false;
        if (open_contacts_ == 0) return true;
        return no_pair_can_meet();
    }

    bool no_pair_can_meet() const {
        if (has_characters_) return false;
        for (const RunPair& p : ws_.pairs) {
            const RunBody& a = ws_.bodies[static_cast<std::size_t>(p.i)];
            const RunBody& b = ws_.bodies[static_cast<std::size_t>(p.j)];
            const Aabb ba = bounds(p.i), bb = bounds(p.j);
            const Vec3 dv = b.velocity - a.velocity;
            const Vec3 da = b.accel - a.accel;
            bool apart = false;
            for (std::size_t k = 0; k < 3 && !apart; ++k) {
                apart = (bb.min[k] > ba.max[k] && dv[k] >= 0 && da[k] >= 0) ||
                        (ba.min[k] > bb.max[k] && dv[k] <= 0 && da[k] <= 0);
            }
            if (!apart) return false;
        }
        return true;
    }

    void note_speeds(int k) {
        for (RunBody& b : ws_.bodies) {
            if (length(b.velocity) < w_.rest_speed) {
                if (b.slow_since < 0) b.slow_since = k;
            } else {
                b.slow_since = -1;
            }
        }
    }

    void send_trace(int k) {
        ws_.states.resize(ws_.bodies.size());
        for (std::size_t i = 0; i < ws_.bodies.size(); ++i)
            ws_.states[i] = BodyState{ws_.bodies[i].position, ws_.bodies[i].velocity};
        trace_->frame(k, frame_time_, ws_.states);
    }

    /// A contact (discrete) or impact (swept) of bodies i and j at `time`: settles the
    /// first_contact entries watching that pair.
    void note_contact(int i, int j, double time) {
        if (open_contacts_ == 0) return;
        for (ContactProbe& p : ws_.contacts) {
            if (p.found) continue;
            if (!((p.body == i && p.with == j) || (p.body == j && p.with == i))) continue;
            p.found = true;
            --open_contacts_;
            const Vec3 at = body(p.body).position;
            const std::size_t o = static_cast<std::size_t>(p.offset);
            out_[o] = 1;
            out_[o + 1] = frame_;
            out_[o + 2] = time;
            out_[o + 3] = at.x;
            out_[o + 4] = at.y;
            out_[o + 5] = at.z;
        }
    }

    // ---- apex tracking -----------------------------------------------------------------

    double height_of(const ApexProbe& p, const Vec3& position) const {
        const double floor_top =
            p.floor >= 0 ? dot(ws_.bodies[static_cast<std::size_t>(p.floor)].position, up_) + p.top_offset : 0.0;
        return dot(position, up_) + p.low_offset - floor_top;
    }

    /// The highest point of body `index` while it moves for `tau` s from its current state.
    void watch_segment(int index, const RunBody& b, double tau) {
        for (ApexProbe& p : ws_.apexes) {
            if (p.body != index || p.bounces < 1) continue;
            const Vec3 a = motion_accel(b);
            const Vec3 end = b.position + b.velocity * tau + a * (0.5 * tau * tau);
            double top = std::max(height_of(p, b.position), height_of(p, end));
            const double vs = dot(b.velocity, up_), as = dot(a, up_);
            if (as < 0 && vs > 0 && vs + as * tau < 0) top = std::max(top, height_of(p, b.position) + vs * vs / (-2 * as));
            p.best = std::max(p.best, top);
        }
    }

    /// A response changed body `index`'s velocity from `before`: count a bounce if it turned
    /// the vertical velocity from down to up fast enough.
    void watch_response(int index, const Vec3& before, const Vec3& after) {
        for (ApexProbe& p : ws_.apexes) {
            if (p.body != index) continue;
            if (!(dot(before, up_) < 0 && dot(after, up_) > bounce_speed_)) continue;
            if (p.bounces >= 1 && p.bounces <= p.wanted)
                out_[static_cast<std::size_t>(p.offset + p.bounces - 1)] = p.best;
            ++p.bounces;
            p.best = height_of(p, body(index).position);
        }
    }

    // ---- motion --------------------------------------------------------------------------

    void move(int index, double tau) {
        RunBody& b = body(index);
        if (b.is_static || tau <= 0) return;
        const Vec3 a = motion_accel(b);
        if (b.velocity == Vec3{} && a == Vec3{}) return;
        if (!ws_.apexes.empty()) watch_segment(index, b, tau);
        b.position += b.velocity * tau + a * (0.5 * tau * tau);
        b.velocity += a * tau;
        b.dirty = true;
    }

    void move_all(double tau) {
        for (int i = 0; i < static_cast<int>(ws_.bodies.size()); ++i) move(i, tau);
    }

    /// One step of `h` s starting at time `start`.
    void advance_step(double h, double start) {
        for (int i = 0; i < static_cast<int>(ws_.bodies.size()); ++i) {
            RunBody& b = body(i);
            if (b.is_static) continue;
            if (b.ground >= 0) keep_or_release_ground(i);
            if (b.character) {
                b.fall += w_.gravity * h;
                b.velocity = b.desired + b.fall;
            } else if (!exact_) {
                b.velocity += grounded_accel(b) * h;
            }
        }
        if (!any_swept_pair_) {
            move_all(h);
            return;
        }
        std::fill(ws_.resting.begin(), ws_.resting.end(), static_cast<unsigned char>(0));
        double remaining = h;
        double now = start;
        int impacts = 0;
        while (remaining > 0) {
            update_cast_bounds(remaining);
            int best = -1;
            PairHit best_hit;
            for (std::size_t k = 0; k < ws_.pairs.size(); ++k) {
                const RunPair& p = ws_.pairs[k];
                if (!p.swept || ws_.resting[k] || body(p.i).ground == p.j || body(p.j).ground == p.i) continue;
                if (!bounds_near(ws_.cast_bounds[static_cast<std::size_t>(p.i)],
                                 ws_.cast_bounds[static_cast<std::size_t>(p.j)], kCastBoundsMargin))
                    continue;
                const std::optional<PairHit> hit = pair_impact(p, remaining);
                if (hit && (best < 0 || hit->time < best_hit.time)) {
                    best = static_cast<int>(k);
                    best_hit = *hit;
                }
            }
            if (best < 0) {
                move_all(remaining);
                break;
            }
            const double tau = std::min(best_hit.time, remaining);
            move_all(tau);
            now += tau;
            remaining -= tau;
            const RunPair& p = ws_.pairs[static_cast<std::size_t>(best)];
            const Vec3 n = best_hit.normal;
            if (dot(body(p.j).velocity - body(p.i).velocity, n) >= 0) {
                ws_.resting[static_cast<std::size_t>(best)] = 1; // touching without approaching
                try_ground(p.i, p.j, n);
                continue;
            }
            note_contact(p.i, p.j, now);
            respond_pair(p.i, p.j, n);
            if (try_ground(p.i, p.j, n)) ws_.resting[static_cast<std::size_t>(best)] = 1;
            if (++impacts >= kMaxImpactsPerStep) {
                zero_approach(p.i, p.j, n);
                move_all(remaining);
                break;
            }
        }
    }

    /// A body others can rest on: static, or itself resting on something.
    bool is_base(int index) const {
        const RunBody& b = ws_.bodies[static_cast<std::size_t>(index)];
        return b.is_static || b.ground >= 0;
    }

    /// After a swept touch of i and j (normal n from i to j): a free dynamic body against a
    /// base (is_base) that rebounds from it slower than the bounce threshold while its gravity
    /// presses it in comes to rest on it. True when it did.
    bool try_ground(int i, int j, const Vec3& n) {
        int mover = -1, base = -1;
        Vec3 out;
        if (is_base(j) && !is_base(i)) mover = i, base = j, out = n * -1.0;
        else if (is_base(i) && !is_base(j)) mover = j, base = i, out = n;
        if (mover < 0) return false;
        RunBody& b = body(mover);
        if (b.is_static || b.character) return false;
        const RunBody& under = body(base);
        const double leaving = dot(b.velocity - under.velocity, out);
        if (leaving >= bounce_speed_ || dot(b.accel - grounded_accel(under), out) >= 0) return false;
        b.velocity -= out * leaving;
        b.ground = base;
        b.ground_normal = out;
        return true;
    }

    /// At a step's start: a resting body stays on its ground while it still touches it and
    /// does not leave it faster than the bounce threshold.
    void keep_or_release_ground(int index) {
        RunBody& b = body(index);
        const RunBody& under = body(b.ground);
        const double leaving = dot(b.velocity - under.velocity, b.ground_normal);
        const DistanceResult d = distance(placed(index), placed(b.ground));
        if (leaving >= bounce_speed_ || !d.supported || d.distance > w_.skin + kGroundGap || !is_base(b.ground)) {
            b.ground = -1;
            return;
        }
        if (leaving < 0) b.velocity -= b.ground_normal * leaving;
    }

    void update_cast_bounds(double span) {
        for (std::size_t i = 0; i < ws_.bodies.size(); ++i) {
            const RunBody& b = ws_.bodies[i];
            Aabb box = bounds(static_cast<int>(i));
            if (!b.is_static) {
                const Vec3 a = motion_accel(b);
                Vec3 lo, hi;
                for (std::size_t k = 0; k < 3; ++k) {
                    const double end = b.velocity[k] * span + 0.5 * a[k] * span * span;
                    lo[k] = std::min(0.0, end);
                    hi[k] = std::max(0.0, end);
                    if (a[k] != 0) {
                        const double t = -b.velocity[k] / a[k];
                        if (t > 0 && t < span) {
                            const double turn = b.velocity[k] * t + 0.5 * a[k] * t * t;
                            lo[k] = std::min(lo[k], turn);
                            hi[k] = std::max(hi[k], turn);
                        }
                    }
                }
                box.min += lo;
                box.max += hi;
            }
            ws_.cast_bounds[i] = box;
        }
    }

    /// The first impact of a swept pair within `span` s, normal from i to j; empty when they
    /// miss or start inside (the discrete pass resolves that).
    std::optional<PairHit> pair_impact(const RunPair& p, double span) {
        const RunBody& a = body(p.i);
        const RunBody& b = body(p.j);
        const Vec3 aa = motion_accel(a), ab = motion_accel(b);
        const Shape& sa = placed(p.i);
        const Shape& sb = placed(p.j);
        if (aa == ab) {
            // Straight relative motion: closed-form casts of a sphere against what it meets.
            if (const auto* s = std::get_if<Sphere>(&sa)) {
                if (auto hit = cast_sphere_shape(*s, a.velocity - b.velocity, sb, span)) return hit;
                if (cast_answers(sb)) return std::nullopt;
            } else if (const auto* s2 = std::get_if<Sphere>(&sb)) {
                if (auto hit = cast_sphere_shape(*s2, b.velocity - a.velocity, sa, span)) {
                    hit->normal = hit->normal * -1.0;
                    return hit;
                }
                if (cast_answers(sa)) return std::nullopt;
            }
        }
        const Toi toi = time_of_impact(sa, Motion{a.velocity, aa}, sb, Motion{b.velocity, ab}, span);
        if (toi.status != ToiStatus::hit) return std::nullopt;
        return PairHit{toi.time, toi.normal};
    }

    /// True for the obstacles cast_sphere_shape answers in closed form.
    static bool cast_answers(const Shape& obstacle) {
        return std::holds_alternative<Aabb>(obstacle) || std::holds_alternative<Obb>(obstacle) ||
               std::holds_alternative<Sphere>(obstacle) || std::holds_alternative<Triangle>(obstacle);
    }

    /// A sphere moving at `velocity` against a still obstacle; normal from the sphere to it.
    static std::optional<PairHit> cast_sphere_shape(const Sphere& s, const Vec3& velocity, const Shape& obstacle,
                                                    double span) {
        std::optional<CastHit> hit;
        if (const auto* box = std::get_if<Aabb>(&obstacle)) hit = cast_sphere_box(s, velocity, *box, span);
        else if (const auto* obb = std::get_if<Obb>(&obstacle)) hit = cast_sphere_box(s, velocity, *obb, span);
        else if (const auto* ball = std::get_if<Sphere>(&obstacle)) hit = cast_sphere_sphere(s, velocity, *ball, span);
        else if (const auto* tri = std::get_if<Triangle>(&obstacle)) hit = cast_sphere_triangle(s, velocity, *tri, span);
        if (!hit || hit->started_inside) return std::nullopt;
        return PairHit{hit->time, hit->normal};
    }

    // ---- responses -----------------------------------------------------------------------

    /// Velocities of an approaching pair after the response, shared by inverse mass.
    void respond_pair(int i, int j, const Vec3& n) {
        RunBody& a = body(i);
        RunBody& b = body(j);
        const double wa = a.inv_mass, wb = b.inv_mass;
        if (wa + wb <= 0) return;
        const Vec3 rel = b.velocity - a.velocity;
        if (dot(rel, n) >= 0) return;
        const double e = std::max(a.restitution, b.restitution);
        const double f = std::max(a.friction, b.friction);
        const Vec3 after = respond_velocity(rel, n, e, f);
        const Vec3 va = a.velocity, vb = b.velocity;
        if (wa == 0) {
            b.velocity = a.velocity + after;
        } else if (wb == 0) {
            a.velocity = b.velocity - after;
        } else {
            const Vec3 change = after - rel;
            const double total = wa + wb;
            a.velocity -= change * (wa / total);
            b.velocity += change * (wb / total);
        }
        if (!ws_.apexes.empty()) {
            watch_response(i, va, a.velocity);
            watch_response(j, vb, b.velocity);
        }
    }

    /// Remove whatever of the pair's relative velocity still approaches along n.
    void zero_approach(int i, int j, const Vec3& n) {
        RunBody& a = body(i);
        RunBody& b = body(j);
        const double wa = a.inv_mass, wb = b.inv_mass;
        const double amount = dot(b.velocity - a.velocity, n);
        if (amount >= 0 || wa + wb <= 0) return;
        const Vec3 change = n * (-amount);
        a.velocity -= change * (wa / (wa + wb));
        b.velocity += change * (wb / (wa + wb));
    }

    /// Push j out of i along the contact by depth + skin, shared by inverse mass.
    void push_pair(int i, int j, const Contact& c) {
        RunBody& a = body(i);
        RunBody& b = body(j);
        const double wa = a.inv_mass, wb = b.inv_mass;
        const double amount = c.depth + w_.skin;
        if (wa == 0) {
            b.position += c.normal * amount;
            b.dirty = true;
        } else if (wb == 0) {
            a.position -= c.normal * amount;
            a.dirty = true;
        } else {
            const double total = wa + wb;
            a.position -= c.normal * (amount * wa / total);
            b.position += c.normal * (amount * wb / total);
            a.dirty = b.dirty = true;
        }
    }

    void discrete_passes() {
        bool touched = false;
        for (RunPair& p : ws_.pairs) p.touched = false;
        for (int pass = 0; pass < kDiscretePasses; ++pass) {
            bool found = false;
            for (RunPair& p : ws_.pairs) {
                const RunBody& a = body(p.i);
                const RunBody& b = body(p.j);
                if (a.inv_mass + b.inv_mass <= 0) continue; // static or character on both sides
                if (!bounds_overlap(bounds(p.i), bounds(p.j))) continue;
                const ContactQuery q = contact(placed(p.i), placed(p.j));
                if (q.status != ContactStatus::overlapping) continue;
                found = touched = true;
                p.touched = true;
                p.normal = q.contact.normal;
                note_contact(p.i, p.j, frame_time_);
                push_pair(p.i, p.j, q.contact);
                respond_pair(p.i, p.j, q.contact.normal);
            }
            if (!found) break;
        }
        if (!touched) return;
        for (int pass = 0; pass < kVelocityPasses; ++pass) {
            bool changed = false;
            for (const RunPair& p : ws_.pairs) {
                if (p.touched && dot(body(p.j).velocity - body(p.i).velocity, p.normal) < -1e-12) {
                    zero_approach(p.i, p.j, p.normal);
                    changed = true;
                }
            }
            if (!changed) break;
        }
    }

    // ---- characters ----------------------------------------------------------------------

    void character_passes() {
        const int count = static_cast<int>(ws_.bodies.size());
        for (int pass = 0; pass < w_.character_iterations; ++pass) {
            bool found = false;
            for (int c = 0; c < count; ++c) {
                if (!body(c).character) continue;
                for (int o = 0; o < count; ++o) {
                    if (o == c || !bounds_overlap(bounds(o), bounds(c))) continue;
                    const ContactQuery q = contact(placed(o), placed(c));
                    if (q.status != ContactStatus::overlapping) continue;
                    found = true;
                    note_contact(std::min(o, c), std::max(o, c), frame_time_);
                    character_contact(body(c), body(o), q.contact);
                }
            }
            if (!found) break;
        }
    }

    /// Character `c` overlaps `o`; n points from o to the character.
    void character_contact(RunBody& c, const RunBody& o, const Contact& hit) {
        const Vec3 n = hit.normal;
        const double rise = dot(n, up_);
        c.dirty = true;
        if (rise > 0 && is_walkable(n, c.slope_limit, up_)) {
            // A floor: lift straight up until clear by the skin, so a slope holds the character.
            c.position += up_ * ((hit.depth + w_.skin) / rise);
            c.fall = Vec3{};
            c.velocity = dot(c.desired, n) < 0 ? slide_velocity(c.desired, n) : c.desired;
            return;
        }
        // A wall: out along the normal, slide along it, friction takes its share of the travel.
        c.position += n * (hit.depth + w_.skin);
        const double f = std::clamp(std::max(c.friction, o.friction), 0.0, 1.0);
        if (dot(c.velocity, n) < 0) {
            c.position -= slide_velocity(c.velocity, n) * (f * step_);
            c.velocity = respond_velocity(c.velocity, n, 0, f);
        }
        if (dot(c.fall, n) < 0) c.fall = respond_velocity(c.fall, n, 0, f);
    }
};

} // namespace

void simulate(const Scenario& scenario, std::span<double> values, Workspace& workspace, TraceSink* trace) {
    Run(scenario, values, workspace, trace).go();
}

std::vector<double> simulate(const Scenario& scenario) {
    std::vector<double> values(static_cast<std::size_t>(layout_of(scenario).offset.back()));
    Workspace workspace;
    simulate(scenario, values, workspace);
    return values;
}

} // namespace collide
