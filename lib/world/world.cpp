// The world's pipeline: reset, the stages of a step in order, and the notifications. Each
// stage lives in its own file (see world.h).
#include "world/world.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "detection/dispatch.h"
#include "shapes/mass.h"

namespace collide {

void WorldObserver::on_move(const World&, int, double, const Vec3&) {}
void WorldObserver::on_contact(const World&, const ContactEvent&) {}
void WorldObserver::on_response(const World&, int, const Vec3&, const Vec3&) {}
void WorldObserver::on_frame(const World&, int, double) {}

// ---- set-up --------------------------------------------------------------------------

void World::reset(const WorldDef& def, std::span<const BodyDef> defs) {
    def_ = def;
    listeners_.clear();
    wanted_ = 0;
    frame_ = -1;
    frames_stepped_ = 0;
    frame_time_ = 0;
    step_start_ = 0;
    step_ = last_step_ = 0;
    const auto n = defs.size();
    sims_.resize(n);
    bodies_.resize(n);
    contacts_.clear();
    impact_pairs_.clear();
    shape_data_.clear();
    turning_.clear();
    characters_.clear();
    const double g = length(def_.gravity);
    up_ = g > 0 ? def_.gravity * (-1.0 / g) : Vec3{0, 1, 0};
    has_characters_ = false;
    any_swept_ = false;
    any_speculative_ = false;
    any_turning_ = false;
    any_mesh_ = false;
    bool any_swept_body = false;
    std::size_t pairable = 0; // bodies that can be in a swept pair: not characters, not triggers
    for (std::size_t i = 0; i < n; ++i) {
        const BodyDef& d = defs[i];
        BodySim& s = sims_[i];
        Body& b = bodies_[i];
        s = BodySim{}; // nothing of a run before carries over (a sweep reuses its world)
        b = Body{};
        b.kind = body_kind(d);
        b.trigger = d.trigger;
        const bool dynamic = b.kind == BodyKind::dynamic;
        if (d.hull_data) shape_data_.push_back(d.hull_data); // its Hull points into them
        if (d.mesh_data) shape_data_.push_back(d.mesh_data); // its Mesh too
        b.restitution = d.restitution;
        b.friction = d.friction;
        s.rotation = normalize(d.rotation);
        if (dynamic) {
            const MassProperties mp = mass_properties(d.shape, mass_of(d));
            b.local_centre = mp.centre;
            b.inertia_local = mp.inertia;
            b.inv_inertia_local = d.fixed_rotation ? zero3() : inverse(mp.inertia);
            b.turns = !(b.inv_inertia_local == zero3());
            s.inv_mass = 1 / mp.mass;
        } else {
            b.local_centre = Vec3{};
            b.inertia_local = zero3();
            b.inv_inertia_local = b.inertia_local;
            b.turns = false;
            s.inv_mass = 0;
        }
        b.spinning = b.kind == BodyKind::kinematic && !is_zero(d.angular_velocity);
        // Turning a sphere about its own centre moves no point of it (its origin there too).
        b.round = std::holds_alternative<Sphere>(d.shape) && std::get<Sphere>(d.shape).centre == Vec3{};
        b.radius = max_distance_from(d.shape, b.local_centre);
        b.origin_offset = rotate(s.rotation, b.local_centre) * -1.0;
        s.centre = d.position - b.origin_offset;
        place_into(b.base, d.shape, Vec3{}, s.rotation);
        b.base_bounds = bounds_of(b.base);
        if ((dynamic && !b.round) || b.spinning) { // its base is placed anew as it turns
            b.turning = static_cast<int>(turning_.size());
            TurningShape& t = turning_.emplace_back();
            assign_shape(t.local, d.shape);
            t.rotation0 = s.rotation;
            t.spin_time = 0;
        }
        b.base_rotation = s.rotation;
        b.step_rotation = s.rotation;
        b.dirty = true;
        s.inv_inertia = world_inverse_inertia(s.rotation, b.inv_inertia_local);
        s.velocity = b.kind == BodyKind::fixed ? Vec3{} : d.velocity;
        s.angular_velocity = b.turns || b.spinning ? d.angular_velocity : Vec3{};
        s.start_velocity = s.velocity;
        s.start_angular = s.angular_velocity;
        s.accel = s.angular_accel = Vec3{};
        const bool driven = !dynamic;
        b.swept = !driven && !d.speculative && (d.ccd || def_.detection == Detection::swept);
        b.speculative = !driven && !b.swept && (d.speculative || def_.detection == Detection::speculative);
        // Characters.
        const bool character = b.kind == BodyKind::character;
        if (character) {
            b.character = static_cast<int>(characters_.size());
            CharacterBody& c = characters_.emplace_back();
            c.desired = d.velocity;
            c.slope_limit = d.slope_limit;
            c.step_height = d.step_height;
            c.snap_distance = d.snap_distance;
            c.on_floor = true; // a character starts as if it stood on the ground: snapping may catch it
            c.floor_height = dot(d.position, up_);
        }
        b.asleep = false;
        b.still_time = 0;
        has_characters_ = has_characters_ || character;
        any_turning_ = any_turning_ || b.spinning || (b.turns && !b.round);
        any_swept_body = any_swept_body || (b.swept && !b.trigger);
        any_speculative_ = any_speculative_ || b.speculative;
        any_mesh_ = any_mesh_ || std::holds_alternative<Mesh>(d.shape);
        pairable += !character && !b.trigger ? 1 : 0;
    }
    any_swept_ = any_swept_body && pairable >= 2;
    reach_.assign(n, 0.0);
    boxes_.resize(n);
    active_.resize(n);
    round_.resize(n);
    for (std::size_t i = 0; i < n; ++i) round_[i] = bodies_[i].round ? 1 : 0;
    // Pairs placed within the skin of each other start in contact (a crate set on a ramp).
    const StepContext ctx = make_step_context(def_, def_.phase > 0 ? def_.phase * def_.dt : def_.dt, up_);
    update_reach(ctx.h);
    update_contacts(ctx, true);
    estimate_resting_impulses(ctx);
}

/// Bodies set in contact at t = 0 start held: each contact's points start (for warm starting)
/// with a static estimate of the weight they carry, passed down the contacts from the top:
/// taking the dynamic bodies from the farthest from the ground to the nearest, each body's load
/// (its own weight over the first step, m·|g|·h, plus what rests on it) is shared equally by the
/// points of its contacts with bodies nearer the ground, each point taking its share along its
/// normal's upward part. The solver refines the estimate (torque balance, friction); without it,
/// the first steps of a tall stack would spend their iterations finding out that it is held, and
/// it would sag meanwhile.
void World::estimate_resting_impulses(const StepContext& ctx) {
    const double g = length(def_.gravity);
    if (!(g > 0) || contacts_.empty()) return;
    const int n = body_count();
    constexpr int kFar = std::numeric_limits<int>::max() / 2;
    // Levels over the initial contacts (breadth first from the bodies that do not move).
    levels_.assign(static_cast<std::size_t>(n), kFar);
    adjacency_start_.assign(static_cast<std::size_t>(n) + 1, 0);
    for (const PairContact& c : contacts_.pairs) {
        ++adjacency_start_[static_cast<std::size_t>(c.i) + 1];
        ++adjacency_start_[static_cast<std::size_t>(c.j) + 1];
    }
    for (int k = 0; k < n; ++k)
        adjacency_start_[static_cast<std::size_t>(k) + 1] += adjacency_start_[static_cast<std::size_t>(k)];
    adjacency_.resize(static_cast<std::size_t>(adjacency_start_.back()));
    fill_.assign(adjacency_start_.begin(), adjacency_start_.end() - 1);
    for (std::size_t e = 0; e < contacts_.size(); ++e) {
        const PairContact& c = contacts_.pairs[e];
        adjacency_[static_cast<std::size_t>(fill_[static_cast<std::size_t>(c.i)]++)] = static_cast<int>(e);
        adjacency_[static_cast<std::size_t>(fill_[static_cast<std::size_t>(c.j)]++)] = static_cast<int>(e);
    }
    queue_.clear();
    for (int k = 0; k < n; ++k)
        if (!is_dynamic(k)) {
            levels_[static_cast<std::size_t>(k)] = 0;
            queue_.push_back(k);
        }
    for (std::size_t head = 0; head < queue_.size(); ++head) {
        const int k = queue_[head];
        for (int e = adjacency_start_[static_cast<std::size_t>(k)];
             e < adjacency_start_[static_cast<std::size_t>(k) + 1]; ++e) {
            const PairContact& c = contacts_.pairs[static_cast<std::size_t>(adjacency_[static_cast<std::size_t>(e)])];
            const int o = c.i == k ? c.j : c.i;
            if (levels_[static_cast<std::size_t>(o)] <= levels_[static_cast<std::size_t>(k)] + 1) continue;
            levels_[static_cast<std::size_t>(o)] = levels_[static_cast<std::size_t>(k)] + 1;
            queue_.push_back(o);
        }
    }
    // From the top down (the walk's order reversed): each body's load, its weight and what rests
    // on it, is balanced by its supports' points: the least-squares impulses (smallest in sum of
    // squares) whose upward parts carry the load and whose torques about its centre cancel the
    // load's, about both horizontal axes — or, where no such impulses are all pushing (a body
    // that would tip) or its supports do not span an area, the load shared in proportion to each
    // point's upward part.
    load_.assign(static_cast<std::size_t>(n), 0.0);
    load_torque_.assign(static_cast<std::size_t>(n), Vec3{});
    const Vec3 e1 = any_perpendicular(up_), e2 = cross(up_, e1);
    for (std::size_t q = queue_.size(); q-- > 0;) {
        const int k = queue_[q];
        if (!is_dynamic(k)) continue;
        const Vec3 centre = sims_[static_cast<std::size_t>(k)].centre;
        const double force =
                load_[static_cast<std::size_t>(k)] + g * ctx.h / sims_[static_cast<std::size_t>(k)].inv_mass;
        const Vec3 torque = load_torque_[static_cast<std::size_t>(k)];
        supports_.clear();
        for (int e = adjacency_start_[static_cast<std::size_t>(k)];
             e < adjacency_start_[static_cast<std::size_t>(k) + 1]; ++e) {
            const int index = adjacency_[static_cast<std::size_t>(e)];
            const PairContact& c = contacts_.pairs[static_cast<std::size_t>(index)];
            const int o = c.i == k ? c.j : c.i;
            if (levels_[static_cast<std::size_t>(o)] >= levels_[static_cast<std::size_t>(k)]) continue;
            for (const PairManifold& pm : contacts_.manifolds_of(c)) {
                const Vec3 normal = c.i == k ? pm.normal * -1.0 : pm.normal; // from the support to k
                const double rise = dot(normal, up_);
                if (!(rise > 0)) continue;
                for (int p = 0; p < pm.count; ++p) {
                    const int point = pm.first + p;
                    const Vec3 arm =
                            cross(contacts_.points[static_cast<std::size_t>(point)].found.point - centre, normal);
                    supports_.push_back({point, o, normal, rise, dot(arm, e1), dot(arm, e2), 0});
                }
            }
        }
        if (supports_.empty()) continue;
        // A·λ = b with rows (rise, arm·e1, arm·e2): λ = Aᵀ·(A·Aᵀ)⁻¹·b.
        Mat3 aat{{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}};
        for (const Support& sp : supports_) {
            const Vec3 row{sp.rise, sp.arm1, sp.arm2};
            aat = aat + outer(row, row);
        }
        const Vec3 rhs{force, -dot(torque, e1), -dot(torque, e2)};
        const Mat3 inv = inverse(aat);
        bool balanced = !(inv == zero3()) && std::fabs(determinant(aat)) > 1e-12 * trace(aat) * trace(aat) * trace(aat);
        if (balanced) {
            const Vec3 y = inv * rhs;
            for (Support& sp : supports_) {
                sp.impulse = sp.rise * y.x + sp.arm1 * y.y + sp.arm2 * y.z;
                balanced = balanced && sp.impulse >= 0;
            }
        }
        if (!balanced) {
            double rises = 0;
            for (const Support& sp : supports_) rises += sp.rise * sp.rise;
            for (Support& sp : supports_) sp.impulse = force * sp.rise / rises;
        }
        for (const Support& sp : supports_) {
            ContactPoint& cp = contacts_.points[static_cast<std::size_t>(sp.point)];
            cp.normal_impulse += sp.impulse;
            if (!is_dynamic(sp.support)) continue;
            // The support is pushed back by the same impulse at the same point.
            const Vec3 on_support = sp.normal * -sp.impulse;
            load_[static_cast<std::size_t>(sp.support)] += sp.impulse * sp.rise;
            load_torque_[static_cast<std::size_t>(sp.support)] +=
                    cross(cp.found.point - sims_[static_cast<std::size_t>(sp.support)].centre, on_support);
        }
    }
}

void World::add_observer(WorldObserver& observer, unsigned events) {
    listeners_.push_back({&observer, events});
    wanted_ |= events;
}

// ---- pairs ---------------------------------------------------------------------------

bool World::moves(int i) const {
    const Body& b = bodies_[static_cast<std::size_t>(i)];
    const BodySim& s = sims_[static_cast<std::size_t>(i)];
    switch (b.kind) {
    case BodyKind::fixed: return false;
    case BodyKind::dynamic: return !b.asleep;
    case BodyKind::kinematic:
    case BodyKind::character: return !is_zero(s.velocity) || b.spinning;
    }
    return false;
}

bool World::pair_can_touch(int i, int j) const {
    const Body& a = bodies_[static_cast<std::size_t>(i)];
    const Body& b = bodies_[static_cast<std::size_t>(j)];
    if (a.trigger || b.trigger) return false; // a trigger only overlaps: it is in no pair
    return a.kind == BodyKind::dynamic || b.kind == BodyKind::dynamic;
}

bool World::pair_is_swept(int i, int j) const {
    const Body& a = bodies_[static_cast<std::size_t>(i)];
    const Body& b = bodies_[static_cast<std::size_t>(j)];
    if (a.kind == BodyKind::character || b.kind == BodyKind::character) return false;
    return pair_can_touch(i, j) && (a.swept || b.swept);
}

bool World::pair_is_speculative(int i, int j) const {
    const Body& a = bodies_[static_cast<std::size_t>(i)];
    const Body& b = bodies_[static_cast<std::size_t>(j)];
    if (a.kind == BodyKind::character || b.kind == BodyKind::character) return false;
    return pair_can_touch(i, j) && !a.swept && !b.swept && (a.speculative || b.speculative);
}

bool World::no_pair_can_meet() const {
    if (has_characters_ || any_turning_ || !contacts_.empty()) return false;
    const int n = body_count();
    // The proof checks every pair: past a few hundred bodies it would cost more per frame than
    // the frames it could save, so a large world just steps on (same results, bit for bit).
    constexpr int kMostBodiesToProveApart = 256;
    if (n > kMostBodiesToProveApart) return false;
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j)
            if (pair_can_touch(i, j) && !pair_drifts_apart(i, j)) return false;
    return true;
}

/// True when bodies i and j drift apart on some axis under their relative velocity and gravity.
bool World::pair_drifts_apart(int i, int j) const {
    const Aabb ba = bounds(i), bb = bounds(j);
    const Vec3 dv = sims_[static_cast<std::size_t>(j)].velocity - sims_[static_cast<std::size_t>(i)].velocity;
    const Vec3 da = (is_dynamic(j) ? def_.gravity : Vec3{}) - (is_dynamic(i) ? def_.gravity : Vec3{});
    for (std::size_t k = 0; k < 3; ++k) {
        if ((bb.min[k] > ba.max[k] && dv[k] >= 0 && da[k] >= 0) || (ba.min[k] > bb.max[k] && dv[k] <= 0 && da[k] <= 0))
            return true;
    }
    return false;
}

// ---- notifications -------------------------------------------------------------------

void World::tell_move(int index, double tau, const Vec3& accel) {
    for (const Listener& l : listeners_)
        if (l.events & kOnMove) l.observer->on_move(*this, index, tau, accel);
}

void World::tell_contact(int a, int b, double time, std::span<const Manifold> manifolds) {
    const ContactEvent e{a, b, time, manifolds};
    for (const Listener& l : listeners_)
        if (l.events & kOnContact) l.observer->on_contact(*this, e);
}

void World::save_velocities(std::span<const SolverContact> contacts) {
    if (!(wanted_ & kOnResponse)) return;
    before_.resize(sims_.size());
    for (const SolverContact& c : contacts) {
        before_[static_cast<std::size_t>(c.a)] = sims_[static_cast<std::size_t>(c.a)].velocity;
        before_[static_cast<std::size_t>(c.b)] = sims_[static_cast<std::size_t>(c.b)].velocity;
    }
}

void World::tell_responses(std::span<const SolverContact> contacts) {
    if (!(wanted_ & kOnResponse)) return;
    // Each changed body once, in body order.
    found_.clear();
    for (const SolverContact& c : contacts) {
        for (const int k : {c.a, c.b})
            if (is_dynamic(k) && !(before_[static_cast<std::size_t>(k)] == sims_[static_cast<std::size_t>(k)].velocity))
                found_.push_back(k);
    }
    std::sort(found_.begin(), found_.end());
    found_.erase(std::unique(found_.begin(), found_.end()), found_.end());
    for (const int k : found_)
        for (const Listener& l : listeners_)
            if (l.events & kOnResponse)
                l.observer->on_response(*this, k, before_[static_cast<std::size_t>(k)],
                                        sims_[static_cast<std::size_t>(k)].velocity);
}

// ---- the frame -----------------------------------------------------------------------

void World::step_frame() {
    const int k = frames_stepped_;
    if (k >= def_.frames) return;
    frame_ = k;
    const double h = k == 0 ? def_.phase * def_.dt : def_.dt;
    step_start_ = k == 0 ? 0.0 : (k - 1 + def_.phase) * def_.dt;
    frame_time_ = (k + def_.phase) * def_.dt;
    if (h > 0) {
        step(h);
    } else { // a frame at t = 0 (phase 0): no time passes, but characters find their footing
        const StepContext ctx = make_step_context(def_, def_.dt, up_);
        if (has_characters_) character_passes(ctx);
        update_contacts(ctx, false);
    }
    frames_stepped_ = k + 1;
    if (!(wanted_ & kOnFrame)) return;
    states_.resize(bodies_.size());
    for (int i = 0; i < body_count(); ++i) states_[static_cast<std::size_t>(i)] = state(i);
    for (const Listener& l : listeners_)
        if (l.events & kOnFrame) l.observer->on_frame(*this, k, frame_time_);
}

void World::step(double h) {
    last_step_ = step_ > 0 ? step_ : h;
    step_ = h;
    const StepContext ctx = make_step_context(def_, h, up_);
    // Warm-start impulses of steady forces grow with the step.
    if (last_step_ != h) {
        const double scale = h / last_step_;
        for (ContactPoint& cp : contacts_.points) {
            cp.normal_impulse *= scale;
            cp.tangent_impulse = cp.tangent_impulse * scale;
        }
    }
    // A swept pair whose contact has a gap at every point is not the solver's: its time of impact
    // within the step, if it has one, is found and solved there (continuous), so an impact inside
    // the step gets the impulse of that instant and no friction acts across the gap.
    if (any_swept_)
        for (PairContact& pc : contacts_.pairs) pc.cast = !pc.touching && pair_is_swept(pc.i, pc.j);
    // 1. prepare, 2. impacts (on the velocities before gravity).
    for (int i = 0; i < body_count(); ++i) active_[static_cast<std::size_t>(i)] = is_dynamic(i) && !is_asleep(i);
    prepare_contacts(ctx, contacts_, sims_, active_, round_, solver_, threads_);
    group_islands(solver_.contacts, sims_, solver_.islands);
    save_velocities(solver_.contacts);
    if (solve_impacts(ctx, solver_, sims_)) tell_responses(solver_.contacts);
    // The gaps' bounds from the velocities the step's motion starts with; 3. integrate
    // velocities; 4. solve.
    prepare_biases(ctx, solver_, threads_);
    integrate_velocities(ctx);
    warm_start(solver_, sims_, threads_);
    solve_velocities(ctx, solver_, sims_, threads_);
    // 5. integrate positions, with the times of impact of swept pairs.
    begin_motion(ctx);
    continuous(ctx);
    end_motion(ctx);
    // 6. restitution, 7. store impulses.
    save_velocities(solver_.contacts);
    if (apply_restitution(ctx, solver_, sims_, threads_)) tell_responses(solver_.contacts);
    // A speculative gap that closed is a contact (told now, at the step's end).
    if (wanted_ & kOnContact) {
        for (const SolverContact& c : solver_.contacts) {
            bool arrived = false;
            for (int q = c.first; q < c.first + c.count; ++q) {
                const PointInfo& info = solver_.info[static_cast<std::size_t>(q)];
                arrived =
                        arrived || (!info.touching && solver_.points[static_cast<std::size_t>(q)].normal_impulse > 0 &&
                                    info.approach < 0);
            }
            if (!arrived) continue;
            PairContact& pc = contacts_.pairs[static_cast<std::size_t>(c.pair)];
            pc.told = pc.touching = true;
            manifolds_.resize(1);
            Manifold& m = manifolds_[0];
            const PairManifold& pm = contacts_.manifolds_of(pc)[static_cast<std::size_t>(c.manifold)];
            m.normal = pm.normal;
            m.key = pm.key;
            m.count = pm.count;
            for (int q = 0; q < pm.count; ++q) {
                m.points[static_cast<std::size_t>(q)] = contacts_.points_of(pm)[static_cast<std::size_t>(q)].found;
                m.points[static_cast<std::size_t>(q)].depth = 0; // arrived touching
            }
            tell_contact(c.a, c.b, frame_time_, manifolds_);
        }
    }
    store_impulses(solver_, contacts_, threads_);
    // 8. characters.
    if (has_characters_) character_passes(ctx);
    // 9. correct positions, 10. update contacts at the corrected poses (with the next step's reach).
    if (correct_positions(ctx, solver_, sims_, threads_)) {
        touched_.assign(sims_.size(), 0);
        for (const SolverContact& c : solver_.contacts)
            touched_[static_cast<std::size_t>(c.a)] = touched_[static_cast<std::size_t>(c.b)] = 1;
        threads_.for_blocks(body_count(), kBodiesPerBlock, [&](int begin, int end) {
            for (int k = begin; k < end; ++k)
                if (touched_[static_cast<std::size_t>(k)]) refresh_body(k);
        });
    }
    update_reach(def_.dt);
    update_contacts(ctx, false);
    // 11. sleep.
    update_sleep(ctx);
}

} // namespace collide
