#include "world/world.h"

#include "world/broadphase.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <vector>

#include "detection/dispatch.h"
#include "queries/cast.h"
#include "queries/time_of_impact.h"
#include "response/response.h"

namespace collide {

void WorldObserver::on_move(const World&, int, double, const Vec3&) {}
void WorldObserver::on_contact(const World&, int, int, double) {}
void WorldObserver::on_response(const World&, int, const Vec3&, const Vec3&) {}
void WorldObserver::on_frame(const World&, int, double) {}

namespace {

/// Slack on cast bounds (m): a cast that ends exactly touching must not be rejected.
constexpr double kCastBoundsMargin = 1e-7;

/// Broadphase boxes grow by at least this fraction of the median body size (m/m): enough that a
/// push-out rarely moves a body out of its grown box, small enough that a loose grid of bodies
/// (spheres 0.4 m wide, 0.5 m apart) gives no candidates between neighbours.
constexpr double kBroadFraction = 0.1;

/// Bounds that overlap or come within `margin` of each other.
bool bounds_near(const Aabb& a, const Aabb& b, double margin) {
    return a.min.x <= b.max.x + margin && b.min.x <= a.max.x + margin && a.min.y <= b.max.y + margin &&
           b.min.y <= a.max.y + margin && a.min.z <= b.max.z + margin && b.min.z <= a.max.z + margin;
}

} // namespace

// ---- set-up --------------------------------------------------------------------------

void World::reset(const WorldDef& def, std::span<const BodyDef> defs) {
    def_ = def;
    listeners_.clear();
    wanted_ = 0;
    frame_ = -1;
    frames_stepped_ = 0;
    frame_time_ = 0;
    const auto n = defs.size();
    bodies_.resize(n);
    exact_ = def_.integrator == Integrator::exact;
    const double g = length(def_.gravity);
    up_ = g > 0 ? def_.gravity * (-1.0 / g) : Vec3{0, 1, 0};
    bounce_speed_ = std::max(def_.rest_speed, g * def_.dt);
    has_characters_ = false;
    any_turning_ = false;
    for (std::size_t i = 0; i < n; ++i) {
        const BodyDef& d = defs[i];
        StepBody& b = bodies_[i];
        place_into(b.base, d.shape, Vec3{}, d.rotation);
        b.base_bounds = bounds_of(b.base);
        b.position = d.position;
        b.is_static = d.is_static;
        b.kinematic = d.kinematic && !d.is_static;
        b.character = d.character && !d.is_static && !b.kinematic;
        b.trigger = d.trigger;
        const bool driven = b.is_static || b.kinematic || b.character; // never moved by contacts
        b.swept = !driven && !d.speculative && (d.ccd || def_.detection == Detection::swept);
        b.speculative = !driven && !b.swept && (d.speculative || def_.detection == Detection::speculative);
        b.velocity = b.is_static ? Vec3{} : d.velocity;
        b.desired = b.character ? d.velocity : Vec3{};
        b.fall = Vec3{};
        b.accel = driven ? Vec3{} : def_.gravity;
        b.inv_mass = driven ? 0.0 : 1.0 / mass_of(d);
        b.restitution = d.restitution;
        b.friction = d.friction;
        b.slope_limit = d.slope_limit;
        b.step_height = b.character ? d.step_height : 0.0;
        b.snap_distance = b.character ? d.snap_distance : 0.0;
        b.on_floor = b.character; // a character starts as if it stood on the ground: snapping may catch it
        b.was_on_floor = false;
        b.floor_normal = Vec3{};
        b.steps = 0;
        b.stepping = false;
        b.last_step = -1;
        b.floor_height = dot(b.position, up_);
        b.dirty = true;
        b.ground = -1;
        b.floor_body = -1;
        b.rotation0 = b.rotation = d.rotation;
        b.turning = b.kinematic && !(d.angular_velocity == Vec3{});
        if (b.turning) {
            b.omega = d.angular_velocity;
            b.spin_time = 0;
            b.spin_radius = max_distance_from(b.base, Vec3{});
            assign_shape(b.local, d.shape);
        }
        has_characters_ = has_characters_ || b.character;
        any_turning_ = any_turning_ || b.turning;
    }
    // Which kinds of pair exist (a pair of two bodies that never respond never enters):
    // a swept body and any other non-character body; a speculative body and any other body
    // that is neither a character nor swept.
    active_.resize(n);
    std::size_t non_character = 0, plain = 0;
    bool any_swept = false, any_speculative = false;
    for (std::size_t i = 0; i < n; ++i) {
        const StepBody& b = bodies_[i];
        active_[i] = (b.inv_mass != 0 || b.character) && !b.trigger ? 1 : 0;
        if (b.trigger) continue; // a trigger only overlaps: it is in no pair
        non_character += b.character ? 0 : 1;
        plain += !b.character && !b.swept ? 1 : 0;
        any_swept = any_swept || b.swept;
        any_speculative = any_speculative || b.speculative;
    }
    any_swept_pair_ = any_swept && non_character >= 2;
    any_speculative_pair_ = any_speculative && plain >= 2;
    pairs_.clear();
    extra_.clear();
    cast_pairs_.clear();
    spec_pairs_.clear();
    boxes_.resize(n);
    cast_bounds_.resize(n);
    // A world of a few bodies keeps every pair in fixed lists, made once here, instead of asking
    // the broadphase each step (which would give them all anyway): the same pairs, same order.
    fixed_pairs_ = n <= static_cast<std::size_t>(kFlatBodies);
    if (fixed_pairs_) {
        for (int i = 0; i < static_cast<int>(n); ++i) {
            for (int j = i + 1; j < static_cast<int>(n); ++j) {
                const StepPair p = make_pair(i, j);
                if (p.swept) cast_pairs_.push_back(p);
                if (p.speculative) spec_pairs_.push_back(p);
                if (body(i).inv_mass + body(j).inv_mass > 0 && !body(i).trigger && !body(j).trigger)
                    pairs_.push_back(p);
            }
        }
    }
    if (def_.friction_model == FrictionModel::coulomb) ground_at_start();
}

/// Coulomb friction only: a dynamic body placed within the skin of a base (static, kinematic,
/// or itself resting) that its gravity presses it into starts out resting on the nearest one,
/// so friction holds it from t = 0 (a crate set on a ramp, a box set on a floor).
void World::ground_at_start() {
    const int n = static_cast<int>(bodies_.size());
    const double reach = def_.skin + kGroundGap;
    if (!fixed_pairs_) {
        for (int k = 0; k < n; ++k) boxes_[static_cast<std::size_t>(k)] = bounds(k);
        build_broadphase(boxes_, reach); // grown boxes meet when the bounds come within 2·reach
    }
    for (int i = 0; i < n; ++i) {
        StepBody& b = body(i);
        if (b.inv_mass == 0 || b.accel == Vec3{} || b.trigger) continue;
        double nearest = reach;
        if (fixed_pairs_) { // a few bodies: every one
            found_.resize(static_cast<std::size_t>(n));
            for (int k = 0; k < n; ++k) found_[static_cast<std::size_t>(k)] = k;
        } else {
            broad_.query(broad_.grown(i), found_);
        }
        for (const int j : found_) {
            if (j == i || !is_base(j) || body(j).trigger) continue;
            if (!bounds_near(bounds(i), bounds(j), reach)) continue;
            const DistanceResult d = distance(placed(j), placed(i)); // normal from the base to the body
            if (!d.supported || !(d.distance > 0) || d.distance > nearest) continue;
            const StepBody& under = body(j);
            if (dot(b.accel, d.normal) >= 0 || dot(b.velocity - under.velocity, d.normal) >= bounce_speed_) continue;
            nearest = d.distance;
            b.ground = j;
            b.ground_normal = d.normal;
        }
        if (b.ground >= 0) {
            const double leaving = dot(b.velocity - body(b.ground).velocity, b.ground_normal);
            if (leaving < 0) b.velocity -= b.ground_normal * leaving;
        }
    }
}

/// Pair (i, j), i < j, with its kind.
World::StepPair World::make_pair(int i, int j) const {
    const StepBody& a = bodies_[static_cast<std::size_t>(i)];
    const StepBody& b = bodies_[static_cast<std::size_t>(j)];
    StepPair p;
    p.i = i;
    p.j = j;
    if (a.trigger || b.trigger) return p; // a trigger only overlaps: neither cast nor speculative
    p.character = a.character || b.character;
    p.swept = !p.character && (a.swept || b.swept);
    p.speculative = !p.character && !p.swept && (a.speculative || b.speculative);
    return p;
}

/// Rebuilds the broadphase over `boxes`, grown by at least `margin` (m).
void World::build_broadphase(std::span<const Aabb> boxes, double margin) {
    broad_.build(boxes, active_, std::max(margin, kCastBoundsMargin), kBroadFraction);
}

namespace {
inline PairKey key_of(int i, int j) { return pair_key(i, j); }
} // namespace

// ---- notifications -------------------------------------------------------------------

inline void World::tell_move(int index, double tau, const Vec3& accel) {
    for (const Listener& l : listeners_)
        if (l.events & kOnMove) l.observer->on_move(*this, index, tau, accel);
}
inline void World::tell_contact(int i, int j, double time) {
    if (!(wanted_ & kOnContact)) return;
    for (const Listener& l : listeners_)
        if (l.events & kOnContact) l.observer->on_contact(*this, std::min(i, j), std::max(i, j), time);
}
inline void World::tell_response(int index, const Vec3& before, const Vec3& after) {
    for (const Listener& l : listeners_)
        if (l.events & kOnResponse) l.observer->on_response(*this, index, before, after);
}

// ---- bodies --------------------------------------------------------------------------

inline World::StepBody& World::body(int index) { return bodies_[static_cast<std::size_t>(index)]; }

constexpr double kInfinity = std::numeric_limits<double>::infinity();

/// Slower than this (m/s) along its ground, a resting body is not sliding.
constexpr double kSlideEpsilon = 1e-9;

/// The acceleration of a body while it rests on its ground: gravity less the part pressing it
/// into the ground (the normal force N/m). Under Coulomb friction, less μ·N/m against the
/// sliding velocity relative to the ground (kinetic friction), or, when it does not slide and
/// the rest of gravity is at most μ·N/m, nothing at all (static friction holds it).
inline Vec3 World::grounded_accel(const StepBody& b) const {
    if (b.ground < 0) return b.accel;
    const Vec3& n = b.ground_normal;
    const double in = dot(b.accel, n);
    if (in >= 0) return b.accel;
    const Vec3 along = b.accel - n * in;
    if (def_.friction_model != FrictionModel::coulomb) return along;
    const StepBody& g = bodies_[static_cast<std::size_t>(b.ground)];
    const double limit = combine_coefficients(def_.friction_combine, b.friction, g.friction) * -in;
    if (!(limit > 0)) return along;
    const Vec3 slide = slide_velocity(b.velocity - g.velocity, n);
    const double speed = length(slide);
    if (speed > kSlideEpsilon) return along - slide * (limit / speed);
    const double pull = length(along);
    if (pull <= limit) return Vec3{};
    return along * (1 - limit / pull);
}

/// How long until kinetic friction stops a resting body's slide along its ground under the
/// acceleration `a` (s); infinity when it does not slow down.
inline double World::time_to_stop(const StepBody& b, const Vec3& a) const {
    if (b.ground < 0 || def_.friction_model != FrictionModel::coulomb) return kInfinity;
    const StepBody& g = bodies_[static_cast<std::size_t>(b.ground)];
    const Vec3 slide = slide_velocity(b.velocity - g.velocity, b.ground_normal);
    const double speed = length(slide);
    if (!(speed > kSlideEpsilon)) return kInfinity;
    const double rate = dot(a, slide) / speed; // d(speed)/dt along the slide
    return rate < 0 ? speed / -rate : kInfinity;
}

/// Removes what is left of a resting body's slide along its ground (after it stopped).
inline void World::stop_sliding(StepBody& b) {
    const StepBody& g = bodies_[static_cast<std::size_t>(b.ground)];
    b.velocity -= slide_velocity(b.velocity - g.velocity, b.ground_normal);
}

/// The acceleration a body moves with inside a step (gravity is a kick under Euler).
inline Vec3 World::motion_accel(const StepBody& b) const { return exact_ ? grounded_accel(b) : Vec3{}; }

bool World::no_pair_can_meet() const {
    if (has_characters_ || any_turning_) return false; // a turning body's bounds change
    if (fixed_pairs_) {
        for (const StepPair& p : pairs_)
            if (!pair_drifts_apart(p.i, p.j)) return false;
        return true;
    }
    const int n = body_count();
    // The proof checks every pair: past a few hundred bodies it would cost more per frame than
    // the frames it could save, so a large world just steps on (same results, bit for bit).
    constexpr int kMostBodiesToProveApart = 256;
    if (n > kMostBodiesToProveApart) return false;
    for (int i = 0; i < n; ++i) {
        for (int j = i + 1; j < n; ++j) {
            if (!active_[static_cast<std::size_t>(i)] && !active_[static_cast<std::size_t>(j)]) continue;
            if (is_trigger(i) || is_trigger(j)) continue;
            if (!pair_drifts_apart(i, j)) return false;
        }
    }
    return true;
}

/// True when bodies i and j drift apart on some axis under their relative velocity and gravity.
inline bool World::pair_drifts_apart(int i, int j) const {
    const StepBody& a = bodies_[static_cast<std::size_t>(i)];
    const StepBody& b = bodies_[static_cast<std::size_t>(j)];
    const Aabb ba = bounds(i), bb = bounds(j);
    const Vec3 dv = b.velocity - a.velocity;
    const Vec3 da = b.accel - a.accel;
    for (std::size_t k = 0; k < 3; ++k) {
        if ((bb.min[k] > ba.max[k] && dv[k] >= 0 && da[k] >= 0) || (ba.min[k] > bb.max[k] && dv[k] <= 0 && da[k] <= 0))
            return true;
    }
    return false;
}

// ---- the frame -----------------------------------------------------------------------

void World::step_frame() {
    const int k = frames_stepped_;
    if (k >= def_.frames) return;
    frame_ = k;
    const double h = k == 0 ? def_.phase * def_.dt : def_.dt;
    const double start = k == 0 ? 0.0 : (k - 1 + def_.phase) * def_.dt;
    frame_time_ = (k + def_.phase) * def_.dt;
    step_ = h;
    if (h > 0) advance_step(h, start);
    if (has_characters_) character_passes();
    discrete_passes();
    frames_stepped_ = k + 1;
    if (!(wanted_ & kOnFrame)) return;
    states_.resize(bodies_.size());
    for (std::size_t i = 0; i < bodies_.size(); ++i)
        states_[i] = BodyState{bodies_[i].position, bodies_[i].velocity, bodies_[i].rotation};
    for (const Listener& l : listeners_)
        if (l.events & kOnFrame) l.observer->on_frame(*this, k, frame_time_);
}

// ---- motion --------------------------------------------------------------------------

[[gnu::always_inline]] inline void World::move(int index, double tau) {
    StepBody& b = body(index);
    if (b.is_static || tau <= 0) return;
    Vec3 a = motion_accel(b);
    if (b.velocity == Vec3{} && a == Vec3{} && !b.turning) return;
    if (b.ground >= 0 && exact_) {
        // Kinetic friction may stop the slide inside this move: move to that moment, stop,
        // then let static friction decide the rest.
        const double stop = time_to_stop(b, a);
        if (stop < tau) {
            advance_body(index, stop, a);
            stop_sliding(b);
            tau -= stop;
            a = motion_accel(b);
            if (b.velocity == Vec3{} && a == Vec3{}) return;
        }
    }
    advance_body(index, tau, a);
}

/// Moves body `index` for `tau` s with constant acceleration `a` (m/s²), telling observers.
[[gnu::always_inline]] inline void World::advance_body(int index, double tau, const Vec3& a) {
    StepBody& b = body(index);
    if (wanted_ & kOnMove) tell_move(index, tau, a);
    b.position += b.velocity * tau + a * (0.5 * tau * tau);
    b.velocity += a * tau;
    b.dirty = true;
    if (b.turning) [[unlikely]]
        turn_body(b, tau);
}

/// Turns a turning kinematic body on by `tau` s: its rotation exp(ω·t)·q0 at its new time, and
/// its shape placed anew from the local shape (out of line: the common move stays small).
[[gnu::noinline]] void World::turn_body(StepBody& b, double tau) {
    b.spin_time += tau;
    b.rotation = spin_rotation(b.omega, b.spin_time) * b.rotation0;
    place_into(b.base, b.local, Vec3{}, b.rotation);
    b.base_bounds = bounds_of(b.base);
}

[[gnu::always_inline]] inline void World::move_all(double tau) {
    for (int i = 0; i < static_cast<int>(bodies_.size()); ++i) move(i, tau);
}

/// One step of `h` s starting at time `start`.
[[gnu::always_inline]] inline void World::advance_step(double h, double start) {
    for (int i = 0; i < static_cast<int>(bodies_.size()); ++i) {
        StepBody& b = body(i);
        if (b.is_static) continue;
        if (b.ground >= 0) keep_or_release_ground(i);
        if (b.character) {
            b.fall += def_.gravity * h;
            b.velocity = b.desired + b.fall;
            if (b.floor_body >= 0) b.velocity += carried_velocity(b);
        } else if (!exact_) {
            const double stop = time_to_stop(b, grounded_accel(b));
            if (stop < h) { // friction stops the slide within the kick
                stop_sliding(b);
                b.velocity += grounded_accel(b) * (h - stop);
            } else {
                b.velocity += grounded_accel(b) * h;
            }
        }
    }
    if (any_speculative_pair_) speculate(h);
    if (any_swept_pair_)
        cast_step(h, start);
    else
        move_all(h);
    if (any_speculative_pair_) arrive();
}

/// Swept detection over one step of `h` s starting at `start`: impacts in time order.
void World::cast_step(double h, double start) {
    // Candidates: swept pairs whose bounds over the step come near; a body whose bounds over
    // the rest of the step leave its grown box after an impact is looked up again.
    if (fixed_pairs_) {
        for (StepPair& p : cast_pairs_) p.resting = false;
    } else {
        update_cast_bounds(h);
        build_broadphase(cast_bounds_, def_.skin);
        broad_.pairs(keys_);
        cast_pairs_.clear();
        for (const PairKey key : keys_) {
            const StepPair p = make_pair(pair_first(key), pair_second(key));
            if (p.swept) cast_pairs_.push_back(p);
        }
    }
    double remaining = h;
    double now = start;
    int impacts = 0;
    while (remaining > 0) {
        update_cast_bounds(remaining);
        for (int k = 0; k < body_count() && !fixed_pairs_; ++k) {
            if (!broad_.refit(k, cast_bounds_[static_cast<std::size_t>(k)])) continue;
            broad_.query(broad_.grown(k), found_);
            for (const int o : found_) {
                if (o == k) continue;
                const StepPair p = make_pair(std::min(k, o), std::max(k, o));
                if (!p.swept) continue;
                const auto at = std::lower_bound(cast_pairs_.begin(), cast_pairs_.end(), key_of(p.i, p.j),
                                                 [](const StepPair& e, PairKey key) { return key_of(e.i, e.j) < key; });
                if (at == cast_pairs_.end() || at->i != p.i || at->j != p.j) cast_pairs_.insert(at, p);
            }
        }
        int best = -1;
        PairHit best_hit;
        for (std::size_t k = 0; k < cast_pairs_.size(); ++k) {
            const StepPair& p = cast_pairs_[k];
            // A body is not cast against its ground, but a mesh ground is a whole level: its walls too.
            const bool on_ground = body(p.i).ground == p.j || body(p.j).ground == p.i;
            if (!p.swept || p.resting ||
                (on_ground && !std::holds_alternative<Mesh>(placed(p.i)) && !std::holds_alternative<Mesh>(placed(p.j))))
                continue;
            if (!bounds_near(cast_bounds_[static_cast<std::size_t>(p.i)], cast_bounds_[static_cast<std::size_t>(p.j)],
                             kCastBoundsMargin))
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
        StepPair& p = cast_pairs_[static_cast<std::size_t>(best)];
        const Vec3 n = best_hit.normal;
        if (dot(relative_velocity(p.i, p.j, n), n) >= 0) {
            p.resting = true; // touching without approaching
            try_ground(p.i, p.j, n);
            continue;
        }
        tell_contact(p.i, p.j, now);
        respond_pair(p.i, p.j, n);
        if (try_ground(p.i, p.j, n)) p.resting = true;
        if (++impacts >= kMaxImpactsPerStep) {
            zero_approach(p.i, p.j, n);
            move_all(remaining);
            break;
        }
    }
}

/// A body others can rest on: static, kinematic (but not turning: resting follows a ground's
/// velocity, not its turning), or itself resting on something.
inline bool World::is_base(int index) const {
    const StepBody& b = bodies_[static_cast<std::size_t>(index)];
    return b.is_static || (b.kinematic && !b.turning) || b.ground >= 0;
}

/// After a swept touch of i and j (normal n from i to j): a free dynamic body against a
/// base (is_base) that rebounds from it slower than the bounce threshold while its gravity
/// presses it in comes to rest on it. True when it did.
inline bool World::try_ground(int i, int j, const Vec3& n) {
    int mover = -1, base = -1;
    Vec3 out;
    if (is_base(j) && !is_base(i))
        mover = i, base = j, out = n * -1.0;
    else if (is_base(i) && !is_base(j))
        mover = j, base = i, out = n;
    if (mover < 0) return false;
    StepBody& b = body(mover);
    if (b.inv_mass == 0) return false; // static, kinematic or a character
    const StepBody& under = body(base);
    const double leaving = dot(b.velocity - under.velocity, out);
    if (leaving >= bounce_speed_ || dot(b.accel - grounded_accel(under), out) >= 0) return false;
    b.velocity -= out * leaving;
    b.ground = base;
    b.ground_normal = out;
    return true;
}

/// At a step's start: a resting body stays on its ground while it still touches it and
/// does not leave it faster than the bounce threshold.
inline void World::keep_or_release_ground(int index) {
    StepBody& b = body(index);
    const StepBody& under = body(b.ground);
    const double leaving = dot(b.velocity - under.velocity, b.ground_normal);
    const DistanceResult d = distance(placed(index), placed(b.ground));
    if (leaving >= bounce_speed_ || !d.supported || d.distance > def_.skin + kGroundGap || !is_base(b.ground)) {
        b.ground = -1;
        return;
    }
    if (leaving < 0) b.velocity -= b.ground_normal * leaving;
}

inline void World::update_cast_bounds(double span) {
    for (std::size_t i = 0; i < bodies_.size(); ++i) {
        const StepBody& b = bodies_[i];
        Aabb box = bounds(static_cast<int>(i));
        if (b.turning) { // whatever way it turns, it stays within its spin radius of its origin
            const Vec3 r{b.spin_radius, b.spin_radius, b.spin_radius};
            box = Aabb{b.position - r, b.position + r};
        }
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
        cast_bounds_[i] = box;
    }
}

/// The first impact of a swept pair within `span` s, normal from i to j; empty when they
/// miss or start inside (the discrete pass resolves that).
inline std::optional<World::PairHit> World::pair_impact(const StepPair& p, double span) {
    const StepBody& a = body(p.i);
    const StepBody& b = body(p.j);
    const Vec3 aa = motion_accel(a), ab = motion_accel(b);
    const Shape& sa = placed(p.i);
    const Shape& sb = placed(p.j);
    if (a.turning || b.turning) { // conservative advancement; only one of them turns (both: neither responds)
        const bool first = a.turning;
        const StepBody& spinner = first ? a : b;
        const StepBody& other = first ? b : a;
        const Toi toi = time_of_impact_turning(first ? sa : sb,
                                               TurningMotion{spinner.position, spinner.velocity, spinner.omega},
                                               first ? sb : sa, Motion{other.velocity, first ? ab : aa}, span);
        if (toi.status != ToiStatus::hit) return std::nullopt;
        return PairHit{toi.time, first ? toi.normal : toi.normal * -1.0};
    }
    if (aa == ab) {
        // Straight relative motion: closed-form sphere casts against what it meets.
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
inline bool World::cast_answers(const Shape& obstacle) {
    return std::holds_alternative<Aabb>(obstacle) || std::holds_alternative<Obb>(obstacle) ||
           std::holds_alternative<Sphere>(obstacle) || std::holds_alternative<Triangle>(obstacle);
}

/// A sphere moving at `velocity` against a still obstacle; normal from the sphere to it.
inline std::optional<World::PairHit> World::cast_sphere_shape(const Sphere& s, const Vec3& velocity,
                                                              const Shape& obstacle, double span) {
    std::optional<CastHit> hit;
    if (const auto* box = std::get_if<Aabb>(&obstacle))
        hit = cast_sphere_box(s, velocity, *box, span);
    else if (const auto* obb = std::get_if<Obb>(&obstacle))
        hit = cast_sphere_box(s, velocity, *obb, span);
    else if (const auto* ball = std::get_if<Sphere>(&obstacle))
        hit = cast_sphere_sphere(s, velocity, *ball, span);
    else if (const auto* tri = std::get_if<Triangle>(&obstacle))
        hit = cast_sphere_triangle(s, velocity, *tri, span);
    if (!hit || hit->started_inside) return std::nullopt;
    return PairHit{hit->time, hit->normal};
}

// ---- responses -----------------------------------------------------------------------

/// Body `index`'s velocity at the contact with `other` (n: the contact normal pointing from
/// `index` to `other`): its velocity, plus ω × (p − position) for a turning body, with p the
/// other's point deepest towards it.
inline Vec3 World::surface_velocity(int index, int other, const Vec3& n) const {
    const StepBody& b = bodies_[static_cast<std::size_t>(index)];
    if (!b.turning) return b.velocity;
    const Vec3 p = support(placed(other), n * -1.0);
    return b.velocity + cross(b.omega, p - b.position);
}

/// The velocity of j relative to i at their contact (normal n from i to j).
inline Vec3 World::relative_velocity(int i, int j, const Vec3& n) const {
    return surface_velocity(j, i, n * -1.0) - surface_velocity(i, j, n);
}

/// What character `c` standing on a kinematic body gets from it: that body's velocity at the
/// character's foot (its lowest point along −up); nothing when the body under it is not kinematic.
inline Vec3 World::carried_velocity(const StepBody& c) const {
    const StepBody& under = bodies_[static_cast<std::size_t>(c.floor_body)];
    if (!under.kinematic) return Vec3{};
    if (!under.turning) return under.velocity;
    const Vec3 foot = support(translate(c.base, c.position), up_ * -1.0);
    return under.velocity + cross(under.omega, foot - under.position);
}

/// Velocities of an approaching pair after the response, shared by inverse mass.
inline void World::respond_pair(int i, int j, const Vec3& n, const double* approach) {
    StepBody& a = body(i);
    StepBody& b = body(j);
    const double wa = a.inv_mass, wb = b.inv_mass;
    if (wa + wb <= 0) return;
    const Vec3 sa = surface_velocity(i, j, n), sb = surface_velocity(j, i, n * -1.0);
    const Vec3 actual = sb - sa;
    // A speculative arrival responds as the impact it stood for: at its approach speed.
    const Vec3 rel = approach ? actual + n * (*approach - dot(actual, n)) : actual;
    if (dot(rel, n) >= 0) return;
    const double e = combine_coefficients(def_.restitution_combine, a.restitution, b.restitution);
    const double f = combine_coefficients(def_.friction_combine, a.friction, b.friction);
    const Vec3 after = def_.friction_model == FrictionModel::coulomb ? respond_coulomb(rel, n, e, f)
                                                                     : respond_velocity(rel, n, e, f);
    const Vec3 va = a.velocity, vb = b.velocity;
    if (wa == 0) {
        b.velocity = sa + after;
    } else if (wb == 0) {
        a.velocity = sb - after;
    } else {
        const Vec3 change = after - actual;
        const double total = wa + wb;
        a.velocity -= change * (wa / total);
        b.velocity += change * (wb / total);
    }
    if (wanted_ & kOnResponse) {
        tell_response(i, va, a.velocity);
        tell_response(j, vb, b.velocity);
    }
}

/// Speculative contacts (Catto, "Continuous Collision", GDC 2013; Box2D's speculative margin):
/// before a step of `h` s, a speculative pair whose gap (less the skin) is smaller than how far
/// its motion would close it this step loses exactly the approaching velocity beyond the gap,
/// so it arrives a skin apart at the step's end — no time of impact, no sub-steps. Pairs that
/// already overlap are left to the discrete pass.
void World::speculate(double h) {
    update_cast_bounds(h);
    if (!fixed_pairs_) {
        build_broadphase(cast_bounds_, def_.skin); // grown boxes meet when the bounds come within 2·skin
        broad_.pairs(keys_);
        spec_pairs_.clear();
        for (const PairKey key : keys_) {
            const StepPair p = make_pair(pair_first(key), pair_second(key));
            if (p.speculative) spec_pairs_.push_back(p);
        }
    }
    for (StepPair& p : spec_pairs_) {
        if (body(p.i).ground == p.j || body(p.j).ground == p.i) continue;
        if (body(p.i).turning || body(p.j).turning) continue; // not straight: the discrete pass takes it
        if (!bounds_near(cast_bounds_[static_cast<std::size_t>(p.i)], cast_bounds_[static_cast<std::size_t>(p.j)],
                         def_.skin))
            continue;
        StepBody& a = body(p.i);
        StepBody& b = body(p.j);
        const double wa = a.inv_mass, wb = b.inv_mass;
        if (wa + wb <= 0) continue;
        const DistanceResult d = distance(placed(p.i), placed(p.j));
        if (!d.supported || !(d.distance > 0)) continue;
        const Vec3& n = d.normal;
        const double vn = dot(b.velocity - a.velocity, n);
        const double an = dot(motion_accel(b) - motion_accel(a), n);
        const double room = std::max(0.0, d.distance - def_.skin);
        if (-(vn * h + 0.5 * an * h * h) <= room) continue;
        const double change = -(room + 0.5 * an * h * h) / h - vn; // > 0: less approach
        a.velocity -= n * (change * wa / (wa + wb));
        b.velocity += n * (change * wb / (wa + wb));
        p.arriving = true;
        p.normal = n;
        p.approach = vn;
    }
}

/// After the step: each pair a speculative contact slowed has arrived; it is a contact, and
/// it responds (restitution, friction) as the impact at its approach speed would have.
void World::arrive() {
    for (StepPair& p : spec_pairs_) {
        if (!p.arriving) continue;
        p.arriving = false;
        tell_contact(p.i, p.j, frame_time_);
        const double approach = p.approach;
        respond_pair(p.i, p.j, p.normal, &approach);
        if (def_.friction_model == FrictionModel::coulomb) try_ground(p.i, p.j, p.normal);
    }
}

/// Remove whatever of the pair's relative velocity still approaches along n.
inline void World::zero_approach(int i, int j, const Vec3& n) {
    StepBody& a = body(i);
    StepBody& b = body(j);
    const double wa = a.inv_mass, wb = b.inv_mass;
    const double amount = dot(relative_velocity(i, j, n), n);
    if (amount >= 0 || wa + wb <= 0) return;
    const Vec3 change = n * (-amount);
    a.velocity -= change * (wa / (wa + wb));
    b.velocity += change * (wb / (wa + wb));
}

/// Push j out of i along the contact by depth + skin, shared by inverse mass.
inline void World::push_pair(int i, int j, const Contact& c) {
    StepBody& a = body(i);
    StepBody& b = body(j);
    const double wa = a.inv_mass, wb = b.inv_mass;
    const double amount = c.depth + def_.skin;
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

/// Body `index` was pushed while the discrete pass handles a pair: when it left
/// its grown box, the pairs it may now meet join extra_ (those after that pair are handled in
/// this pass; those before it were apart when this pass reached them, as a loop over all pairs
/// would have found, and are handled from the next pass on).
void World::refit_discrete(int index) {
    if (fixed_pairs_ || !broad_.refit(index, bounds(index))) return; // fixed: every pair is listed
    broad_.query(broad_.grown(index), found_);
    const auto before = [](const StepPair& e, PairKey key) { return key_of(e.i, e.j) < key; };
    for (const int o : found_) {
        if (o == index) continue;
        const int i = std::min(index, o), j = std::max(index, o);
        if (body(i).inv_mass + body(j).inv_mass <= 0 || body(i).trigger || body(j).trigger) continue;
        const PairKey key = key_of(i, j);
        const auto known = std::lower_bound(pairs_.begin(), pairs_.end(), key, before);
        if (known != pairs_.end() && known->i == i && known->j == j) continue;
        const auto at = std::lower_bound(extra_.begin(), extra_.end(), key, before);
        if (at != extra_.end() && at->i == i && at->j == j) continue;
        extra_.insert(at, make_pair(i, j));
    }
}

/// The discrete passes over the broadphase's candidates, in (i, j) order: the same pairs, in
/// the same order, as a loop over every pair i < j skipping those whose bounds are apart.
[[gnu::always_inline]] inline void World::discrete_passes() {
    if (fixed_pairs_) {
        for (StepPair& p : pairs_) p.touched = false;
    } else {
        const int n = body_count();
        for (int k = 0; k < n; ++k) boxes_[static_cast<std::size_t>(k)] = bounds(k);
        build_broadphase(boxes_, def_.skin);
        broad_.pairs(keys_);
        pairs_.clear();
        extra_.clear();
        for (const PairKey key : keys_) {
            const int i = pair_first(key), j = pair_second(key);
            if (body(i).inv_mass + body(j).inv_mass > 0 && !body(i).trigger && !body(j).trigger)
                pairs_.push_back(make_pair(i, j)); // else static or character on both sides, or a trigger
        }
    }
    const auto after = [](PairKey key, const StepPair& e) { return key < key_of(e.i, e.j); };
    bool touched = false;
    // One pair of a pass: true when it overlapped (pushed out, responded).
    const auto handle = [&](StepPair& p) {
        const int i = p.i, j = p.j;
        if (!bounds_overlap(bounds(i), bounds(j))) return false;
        const ContactQuery q = contact(placed(i), placed(j));
        if (q.status != ContactStatus::overlapping) return false;
        p.touched = true;
        p.normal = q.contact.normal;
        tell_contact(i, j, frame_time_);
        push_pair(i, j, q.contact);
        respond_pair(i, j, q.contact.normal);
        // Under Coulomb friction a contact that leaves a body resting grounds it, as a cast does.
        if (def_.friction_model == FrictionModel::coulomb) try_ground(i, j, q.contact.normal);
        refit_discrete(i); // p may move from here on
        refit_discrete(j);
        return true;
    };
    for (int pass = 0; pass < kDiscretePasses; ++pass) {
        bool found = false;
        if (fixed_pairs_) { // every pair, listed once at reset
            for (StepPair& p : pairs_)
                if (handle(p)) found = touched = true;
            if (!found) break;
            continue;
        }
        std::size_t next = 0; // in pairs_
        PairKey last = 0;
        bool started = false;
        for (;;) {
            const std::size_t e =
                    extra_.empty() || !started
                            ? 0
                            : static_cast<std::size_t>(std::upper_bound(extra_.begin(), extra_.end(), last, after) -
                                                       extra_.begin());
            const bool have_pair = next < pairs_.size(), have_extra = e < extra_.size();
            if (!have_pair && !have_extra) break;
            StepPair& p = have_extra && (!have_pair ||
                                         key_of(extra_[e].i, extra_[e].j) < key_of(pairs_[next].i, pairs_[next].j))
                                  ? extra_[e]
                                  : pairs_[next++];
            last = key_of(p.i, p.j);
            started = true;
            if (handle(p)) found = touched = true;
        }
        if (!extra_.empty()) {
            merged_.clear();
            std::merge(pairs_.begin(), pairs_.end(), extra_.begin(), extra_.end(), std::back_inserter(merged_),
                       [](const StepPair& a, const StepPair& b) { return key_of(a.i, a.j) < key_of(b.i, b.j); });
            pairs_.swap(merged_);
            extra_.clear();
        }
        if (!found) break;
    }
    if (!touched) return;
    for (int pass = 0; pass < kVelocityPasses; ++pass) {
        bool changed = false;
        for (const StepPair& p : pairs_) {
            if (p.touched && dot(relative_velocity(p.i, p.j, p.normal), p.normal) < -1e-12) {
                zero_approach(p.i, p.j, p.normal);
                changed = true;
            }
        }
        if (!changed) break;
    }
}

// ---- characters ----------------------------------------------------------------------

void World::character_passes() {
    const int count = static_cast<int>(bodies_.size());
    for (StepBody& b : bodies_) {
        b.was_on_floor = b.on_floor || b.stepping;
        b.on_floor = b.stepping = false;
        b.floor_body = -1;
    }
    // Only characters move here: each is looked up again whenever it leaves its grown box.
    for (int k = 0; k < count; ++k) boxes_[static_cast<std::size_t>(k)] = bounds(k);
    build_broadphase(boxes_, def_.skin);
    for (int pass = 0; pass < def_.character_iterations; ++pass) {
        bool found = false;
        for (int c = 0; c < count; ++c) {
            if (!body(c).character || body(c).trigger) continue;
            broad_.query(broad_.grown(c), found_);
            for (std::ptrdiff_t at = 0; at < static_cast<std::ptrdiff_t>(found_.size()); ++at) {
                const int o = found_[static_cast<std::size_t>(at)];
                if (o == c || body(o).trigger || !bounds_overlap(bounds(o), bounds(c))) continue;
                const ContactQuery q = contact(placed(o), placed(c));
                if (q.status != ContactStatus::overlapping) continue;
                found = true;
                tell_contact(o, c, frame_time_);
                character_contact(c, o, q.contact);
                if (broad_.refit(c, bounds(c))) { // moved out of its grown box: look again, after o
                    broad_.query(broad_.grown(c), found_);
                    at = (std::upper_bound(found_.begin(), found_.end(), o) - found_.begin()) - 1;
                }
            }
        }
        if (!found) break;
    }
    for (int c = 0; c < count; ++c) {
        if (body(c).character && !body(c).trigger && body(c).snap_distance > 0) {
            snap_to_ground(c);
            broad_.refit(c, bounds(c));
        }
    }
    // A character left standing within the skin of a floor (as it starts) stands on it too:
    // carrying by a kinematic floor starts with the first step.
    for (int c = 0; c < count; ++c) {
        StepBody& b = body(c);
        if (!b.character || b.trigger || b.floor_body >= 0) continue;
        const double reach = def_.skin + kGroundGap;
        Vec3 n;
        int below = -1;
        const double drop = drop_distance(c, placed(c), reach, &n, &below);
        if (below >= 0 && drop < reach && is_walkable(n, b.slope_limit, up_)) b.floor_body = below;
    }
}

/// Character `index` overlaps `o`; n points from o to the character.
inline void World::character_contact(int index, int obstacle, const Contact& hit) {
    StepBody& c = body(index);
    const StepBody& o = body(obstacle);
    const Vec3 n = hit.normal;
    const double rise = dot(n, up_);
    c.dirty = true;
    if (rise > 0 && is_walkable(n, c.slope_limit, up_)) {
        // A floor: lift straight up until clear by the skin, so a slope holds the character.
        c.position += up_ * ((hit.depth + def_.skin) / rise);
        c.fall = Vec3{};
        c.velocity = dot(c.desired, n) < 0 ? slide_velocity(c.desired, n) : c.desired;
        c.on_floor = true;
        c.floor_normal = n;
        c.floor_height = dot(c.position, up_);
        c.floor_body = obstacle;
        return;
    }
    // A wall the character walks into: a step it can climb, or a wall to slide along.
    if (c.step_height > 0 && (c.on_floor || c.was_on_floor || c.stepping) && dot(c.desired, n) < 0 &&
        try_step(index, obstacle))
        return;
    // A wall: out along the normal, slide along it, friction takes its share of the travel.
    c.position += n * (hit.depth + def_.skin);
    const double f = std::clamp(combine_coefficients(def_.friction_combine, c.friction, o.friction), 0.0, 1.0);
    if (dot(c.velocity, n) < 0) {
        c.position -= slide_velocity(c.velocity, n) * (f * step_);
        c.velocity = respond_velocity(c.velocity, n, 0, f);
    }
    if (dot(c.fall, n) < 0) c.fall = respond_velocity(c.fall, n, 0, f);
}

/// True when `shape` (character `index` somewhere else) overlaps any other body.
bool World::overlaps_any(int index, const Shape& shape) const {
    const Aabb box = bounds_of(shape);
    broad_.query(box, probe_);
    for (const int o : probe_) {
        if (o == index || bodies_[static_cast<std::size_t>(o)].trigger || !bounds_overlap(bounds(o), box)) continue;
        if (contact(placed(o), shape).status == ContactStatus::overlapping) return true;
    }
    return false;
}

/// How far `shape` (character `index`) can move down, along −up, before it touches another
/// body, within `reach` (m); `reach` when nothing is in the way. `normal` receives the surface
/// normal there (pointing up at the character) when something is.
double World::drop_distance(int index, const Shape& shape, double reach, Vec3* normal, int* below) const {
    double best = reach;
    const Motion down{up_ * -reach, Vec3{}};
    const Aabb box = bounds_of(shape);
    const Vec3 grow{reach, reach, reach};
    broad_.query(Aabb{box.min - grow, box.max + grow}, probe_);
    for (const int o : probe_) {
        if (o == index || bodies_[static_cast<std::size_t>(o)].trigger || !bounds_near(bounds(o), box, reach)) continue;
        const Toi toi = time_of_impact(placed(o), Motion{}, shape, down, 1.0);
        if (toi.status != ToiStatus::hit || toi.time * reach >= best) continue;
        best = toi.time * reach;
        if (normal) *normal = toi.normal;
        if (below) *below = o;
    }
    return best;
}

/// Stair walking (Unity's stepOffset, Jolt's WalkStairs): when the top of `obstacle` is within
/// the step height of the floor the character last stood on, lift character `index` by its step
/// height; if it is clear there, lower it onto what is under it (a skin above it) and keep its
/// walking velocity. A rounded character reaching a step's edge lands on the edge and climbs
/// it frame by frame at its walking speed. False (nothing changed) when the lifted character
/// still overlaps something (the step is too high) or has nothing under it to land on.
bool World::try_step(int index, int obstacle) {
    StepBody& c = body(index);
    const double top = dot(support(placed(obstacle), up_), up_);
    if (top - c.floor_height > c.step_height) return false; // too high to step onto
    const Shape lifted = translate(c.base, c.position + up_ * c.step_height);
    if (overlaps_any(index, lifted)) return false;
    Vec3 n;
    int below = -1;
    const double drop = drop_distance(index, lifted, c.step_height, &n, &below);
    if (drop >= c.step_height) return false;
    c.position += up_ * (c.step_height - drop + def_.skin);
    c.dirty = true;
    c.fall = Vec3{};
    c.velocity = c.desired;
    if (c.last_step != obstacle) ++c.steps; // one step however many frames climbing it takes
    c.last_step = obstacle;
    c.stepping = true;
    if (is_walkable(n, c.slope_limit, up_)) {
        c.on_floor = true;
        c.floor_normal = n;
        c.floor_body = below;
    }
    return true;
}

/// A character that stood on the ground last frame and walks off it (down a step or a slope)
/// is lowered onto ground within its snap distance instead of flying off.
void World::snap_to_ground(int index) {
    StepBody& c = body(index);
    if (c.on_floor || !c.was_on_floor || dot(c.velocity, up_) > 0) return;
    Vec3 n;
    int below = -1;
    const double drop = drop_distance(index, placed(index), c.snap_distance + def_.skin, &n, &below);
    if (drop >= c.snap_distance + def_.skin || !is_walkable(n, c.slope_limit, up_)) return;
    c.position -= up_ * std::max(0.0, drop - def_.skin);
    c.dirty = true;
    c.fall = Vec3{};
    c.velocity = dot(c.desired, n) < 0 ? slide_velocity(c.desired, n) : c.desired;
    c.on_floor = true;
    c.floor_normal = n;
    c.floor_body = below;
}

void World::add_observer(WorldObserver& observer, unsigned events) {
    listeners_.push_back({&observer, events});
    wanted_ |= events;
}

} // namespace collide
