// Continuous detection: the bodies move over the step along the motions the solver gave them,
// stopping at each time of impact of a swept pair that is not in contact yet. At an impact the
// pair's manifold gets an impact's impulse and the rest of the step is solved again for the two
// bodies (Box2D v2's time-of-impact sub-step, rewritten): a ball that lands without bouncing
// rests on the floor for the rest of the step instead of sinking into it.
#include <algorithm>

#include "queries/cast.h"
#include "queries/time_of_impact.h"
#include "world/continuous.h"

#include "world/contacts_update.h"
#include "world/integrate.h"

namespace collide {

namespace {

/// Slack on cast bounds (m): a cast that ends exactly touching must not be rejected.
constexpr double kCastBoundsMargin = 1e-7;

/// True for the obstacles the closed-form sphere casts answer.
bool cast_answers(const Shape& obstacle) {
    return std::holds_alternative<Aabb>(obstacle) || std::holds_alternative<Obb>(obstacle) ||
           std::holds_alternative<Sphere>(obstacle) || std::holds_alternative<Triangle>(obstacle);
}

/// A sphere moving at `velocity` against a still obstacle: time and normal from the sphere to it.
std::optional<std::pair<double, Vec3>> cast_sphere_shape(const Sphere& s, const Vec3& velocity, const Shape& obstacle,
                                                         double span) {
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
    return std::pair{hit->time, hit->normal};
}

} // namespace

/// The box body `k` can reach over the next `span` s of its motion.
namespace {

/// The box body `k` can reach over the next `span` s of its motion.
Aabb cast_bounds(const BodySim& s, const Body& b, const Aabb& now, double span) {
    Aabb box = now;
    const bool turning =
            (b.turns && !b.round && !(is_zero(s.angular_velocity) && is_zero(s.angular_accel))) || b.spinning;
    if (turning) { // whatever way it turns, it stays within its radius of its reference point
        const Vec3 r{b.radius, b.radius, b.radius};
        box = Aabb{s.centre - r, s.centre + r};
    }
    if (b.kind == BodyKind::fixed || b.asleep) return box;
    Vec3 lo, hi;
    for (std::size_t k = 0; k < 3; ++k) {
        const double v = s.velocity[k], a = s.accel[k];
        const double end = v * span + 0.5 * a * span * span;
        lo[k] = std::min(0.0, end);
        hi[k] = std::max(0.0, end);
        if (a != 0) {
            const double t = -v / a;
            if (t > 0 && t < span) {
                const double turn = v * t + 0.5 * a * t * t;
                lo[k] = std::min(lo[k], turn);
                hi[k] = std::max(hi[k], turn);
            }
        }
    }
    return Aabb{box.min + lo, box.max + hi};
}

std::optional<std::pair<double, Vec3>> pair_impact(const WorldState& w, int i, int j, double span);
bool resolve_impact(const StepContext& ctx, WorldState& w, StepScratch& scratch, int i, int j, double remaining,
                    double now);

} // namespace

void move_continuously(const StepContext& ctx, WorldState& w, StepScratch& scratch) {
    w.impact_pairs.clear();
    if (!w.any_swept) {
        advance(w, ctx.h);
        return;
    }
    const int n = w.body_count();
    // Candidates: swept pairs whose bounds over the step come near, not touching already. A pair
    // touching (a body on a level's floor) is the solver's; one in contact with a gap at every
    // point (marked `cast` at the step's start: near a wall, just above the floor) is cast too.
    const auto candidate = [&](int i, int j) {
        if (!w.pair_is_swept(i, j)) return false;
        if (!w.moves(i) && !w.moves(j)) return false;
        const PairContact* c = find_contact(w, i, j);
        return !c || c->cast;
    };
    for (int k = 0; k < n; ++k) {
        scratch.boxes[static_cast<std::size_t>(k)] = cast_bounds(
                w.sims[static_cast<std::size_t>(k)], w.bodies[static_cast<std::size_t>(k)], w.bounds(k), ctx.h);
        scratch.active[static_cast<std::size_t>(k)] = w.moves(k) ? 1 : 0;
    }
    w.broad.build(scratch.boxes, scratch.active, std::max(ctx.skin, kCastBoundsMargin), kBroadFraction);
    w.broad.pairs(scratch.keys, w.threads);
    scratch.cast_pairs.clear();
    for (const PairKey key : scratch.keys)
        if (candidate(pair_first(key), pair_second(key))) scratch.cast_pairs.push_back(key);
    double remaining = ctx.h;
    double now = w.step_start;
    int impacts = 0;
    while (remaining > 0) {
        int best = -1;
        double best_time = 0;
        for (std::size_t k = 0; k < scratch.cast_pairs.size(); ++k) {
            const int i = pair_first(scratch.cast_pairs[k]), j = pair_second(scratch.cast_pairs[k]);
            if (!bounds_near(scratch.boxes[static_cast<std::size_t>(i)], scratch.boxes[static_cast<std::size_t>(j)],
                             kCastBoundsMargin))
                continue;
            const auto hit = pair_impact(w, i, j, remaining);
            // A pair may meet again later in the step (a tumbling box's next corner), but not at
            // the instant it was just solved at: the impact left it touching, not approaching.
            if (hit && !(hit->first > 0) &&
                std::find(scratch.resolved.begin(), scratch.resolved.end(), scratch.cast_pairs[k]) !=
                        scratch.resolved.end())
                continue;
            if (hit && std::find(scratch.pressing.begin(), scratch.pressing.end(), scratch.cast_pairs[k]) !=
                               scratch.pressing.end())
                continue;
            if (hit && (best < 0 || hit->first < best_time)) {
                best = static_cast<int>(k);
                best_time = hit->first;
            }
        }
        if (best < 0) {
            advance(w, remaining);
            break;
        }
        const double tau = std::min(best_time, remaining);
        advance(w, tau);
        now += tau;
        remaining -= tau;
        const PairKey key = scratch.cast_pairs[static_cast<std::size_t>(best)];
        if (tau > 0) scratch.resolved.clear(); // (the pairs solved at this instant)
        scratch.resolved.push_back(key);
        const int i = pair_first(key), j = pair_second(key);
        if (resolve_impact(ctx, w, scratch, i, j, remaining, now)) scratch.pressing.push_back(key);
        // The two bodies' motions changed: their bounds over the rest of the step, and pairs
        // they may now meet.
        for (const int k : {i, j}) {
            scratch.boxes[static_cast<std::size_t>(k)] = cast_bounds(
                    w.sims[static_cast<std::size_t>(k)], w.bodies[static_cast<std::size_t>(k)], w.bounds(k), remaining);
            if (!w.broad.refit(k, scratch.boxes[static_cast<std::size_t>(k)])) continue;
            w.broad.query(w.broad.grown(k), scratch.found);
            for (const int o : scratch.found) {
                if (o == k) continue;
                const PairKey pk = pair_key(std::min(k, o), std::max(k, o));
                if (!candidate(std::min(k, o), std::max(k, o))) continue;
                const auto at = std::lower_bound(scratch.cast_pairs.begin(), scratch.cast_pairs.end(), pk);
                if (at == scratch.cast_pairs.end() || *at != pk) scratch.cast_pairs.insert(at, pk);
            }
        }
        if (++impacts >= kMaxImpactsPerStep) {
            advance(w, remaining);
            break;
        }
    }
    scratch.resolved.clear();
    scratch.pressing.clear();
}

namespace {

/// The earliest time of impact of pair (i, j) within `span` s of their motions, and its normal
/// (from i to j), or none.
std::optional<std::pair<double, Vec3>> pair_impact(const WorldState& w, int i, int j, double span) {
    const BodySim& a = w.sims[static_cast<std::size_t>(i)];
    const BodySim& b = w.sims[static_cast<std::size_t>(j)];
    const Body& ba = w.bodies[static_cast<std::size_t>(i)];
    const Body& bb = w.bodies[static_cast<std::size_t>(j)];
    const Shape& sa = w.placed(i);
    const Shape& sb = w.placed(j);
    const auto turning = [](const BodySim& s, const Body& body) {
        return body.turns && !body.round && !(is_zero(s.angular_velocity) && is_zero(s.angular_accel));
    };
    const bool ta = turning(a, ba), tb = turning(b, bb);
    if (!ta && !tb && !ba.spinning && !bb.spinning) {
        if (a.accel == b.accel) {
            // Straight relative motion: closed-form sphere casts against what it meets.
            if (const auto* s = std::get_if<Sphere>(&sa)) {
                if (auto hit = cast_sphere_shape(*s, a.velocity - b.velocity, sb, span)) return hit;
                if (cast_answers(sb)) return std::nullopt;
            } else if (const auto* s2 = std::get_if<Sphere>(&sb)) {
                if (auto hit = cast_sphere_shape(*s2, b.velocity - a.velocity, sa, span)) {
                    hit->second = hit->second * -1.0;
                    return hit;
                }
                if (cast_answers(sa)) return std::nullopt;
            }
        }
        const Toi toi = time_of_impact(sa, Motion{a.velocity, a.accel}, sb, Motion{b.velocity, b.accel}, span);
        if (toi.status != ToiStatus::hit) return std::nullopt;
        return std::pair{toi.time, toi.normal};
    }
    if ((ba.spinning != bb.spinning) && !ta && !tb) {
        // One kinematic body turning at a constant rate about its origin: conservative advancement.
        const bool first = ba.spinning;
        const BodySim& spinner = first ? a : b;
        const BodySim& other = first ? b : a;
        const Toi toi = time_of_impact_turning(
                first ? sa : sb, TurningMotion{spinner.centre, spinner.velocity, spinner.angular_velocity},
                first ? sb : sa, Motion{other.velocity, other.accel}, span);
        if (toi.status != ToiStatus::hit) return std::nullopt;
        return std::pair{toi.time, first ? toi.normal : toi.normal * -1.0};
    }
    // A body turning free of torque is cast along that turn, as advance_body moves it.
    const auto motion = [](const BodySim& s, const Body& body, bool turns) {
        RigidMotion m{s.centre,        s.velocity,  s.accel, turns || body.spinning ? s.angular_velocity : Vec3{},
                      s.angular_accel, std::nullopt};
        if (body.free_turn && turns) {
            m.free = FreeTurnMotion{body.step_rotation, body.inv_inertia_local, body.free_body_momentum,
                                    body.free_elapsed};
            m.angular_velocity = world_inverse_inertia(s.rotation, body.inv_inertia_local) * body.free_momentum;
            m.angular_acceleration = Vec3{};
        }
        return m;
    };
    const Toi toi = time_of_impact_rigid(sa, motion(a, ba, ta), sb, motion(b, bb, tb), span);
    if (toi.status != ToiStatus::hit) return std::nullopt;
    return std::pair{toi.time, toi.normal};
}

/// The impact of pair (i, j) at time `now` and the rest of the step (`remaining` s) for the
/// two; true when the pair still presses on after it (then not cast again this step).
bool resolve_impact(const StepContext& ctx, WorldState& w, StepScratch& scratch, int i, int j, double remaining,
                    double now) {
    scratch.manifolds.resize(kMaxPairManifolds);
    const ManifoldQuery q = manifolds(w.placed(i), w.placed(j), ctx.skin, scratch.manifolds);
    if (q.status != ContactStatus::overlapping || q.count == 0) return false;
    // A body turning free of torque has come here along the turn itself (advance_body): its
    // angular velocity at this instant is I(q)⁻¹·L, with the energy its turn keeps (the
    // constant rate that takes it through the whole step would give 15% more, for a box
    // tumbling at 40 rad/s).
    const bool came_turning[2] = {w.bodies[static_cast<std::size_t>(i)].free_turn,
                                  w.bodies[static_cast<std::size_t>(j)].free_turn};
    for (const int k : {i, j})
        if (w.bodies[static_cast<std::size_t>(k)].free_turn)
            spin_from_momentum(w.sims[static_cast<std::size_t>(k)], w.bodies[static_cast<std::size_t>(k)]);
    // A pair's second impact in one step (a spinning box's next corner) is its contact from now
    // on (find_impact_pair takes the latest); it was told already if its first was.
    const PairContact* earlier = find_impact_pair(w, i, j);
    const bool told_earlier = earlier && earlier->told;
    PairContact& pc = w.impact_pairs.add(
            i, j, std::span<const Manifold>(scratch.manifolds.data(), static_cast<std::size_t>(q.count)));
    pc.friction = combine_coefficients(w.def.friction_combine, w.bodies[static_cast<std::size_t>(i)].friction,
                                       w.bodies[static_cast<std::size_t>(j)].friction);
    pc.restitution = combine_coefficients(w.def.restitution_combine, w.bodies[static_cast<std::size_t>(i)].restitution,
                                          w.bodies[static_cast<std::size_t>(j)].restitution);
    // The bodies of the sub-solve: the pair, then every body touching either in this step's
    // contacts, held still (infinite mass) while the pair's impact and the rest of its step are
    // solved. Indices are local: 0 is i, 1 is j.
    scratch.sub_bodies.clear();
    scratch.sub_index.clear();
    const auto local = [&](int global, bool frozen) {
        for (std::size_t k = 0; k < scratch.sub_index.size(); ++k)
            if (scratch.sub_index[k] == global) return static_cast<int>(k);
        scratch.sub_index.push_back(global);
        BodySim s = w.sims[static_cast<std::size_t>(global)];
        if (frozen) {
            s.inv_mass = 0;
            s.inv_inertia = zero3();
        }
        scratch.sub_bodies.push_back(s);
        return static_cast<int>(scratch.sub_bodies.size()) - 1;
    };
    local(i, false);
    local(j, false);
    // The new manifold(s), prepared at the bodies' poses now.
    scratch.sub_pairs.clear();
    PairContact& sub_pc = scratch.sub_pairs.add_copy(w.impact_pairs, pc);
    sub_pc.i = 0;
    sub_pc.j = 1;
    static constexpr unsigned char kAwake[2] = {1, 1};
    const unsigned char round[2] = {static_cast<unsigned char>(w.bodies[static_cast<std::size_t>(i)].round),
                                    static_cast<unsigned char>(w.bodies[static_cast<std::size_t>(j)].round)};
    StepContext sub = ctx;
    sub.impact_speed = kTouchTolerance; // at a time of impact every approach is an impact
    prepare_contacts(sub, scratch.sub_pairs, scratch.sub_bodies, kAwake, round, scratch.sub_constraints, w.threads);
    // The pair's points with a gap (a tumbling box's other corners) are not the rest of the
    // step's solve: they are cast, as the pair was (a time of impact of their own, later in the
    // step), so they push nothing before they touch — a speculative push there would stop the
    // box's free turn and bring the corner down without its bounce. Likewise a point the impact
    // sends away (below).
    const auto leave_to_cast = [&](std::size_t k) {
        SolverPoint& p = scratch.sub_constraints.points[k];
        p.normal_mass = 0;
        p.normal_impulse = p.tangent1_impulse = p.tangent2_impulse = 0;
        p.tangent_k = Vec3{};
    };
    const std::size_t pair_points = scratch.sub_constraints.points.size();
    for (std::size_t k = 0; k < pair_points; ++k)
        if (!scratch.sub_constraints.info[k].touching) leave_to_cast(k);
    bool approaching = false;
    for (const PointInfo& p : scratch.sub_constraints.info) approaching = approaching || p.impacting;
    // Touching without approaching: in contact from now on, no impact (the rest of the step is
    // solved all the same, so that it does not sink in).
    if (approaching)
        tell_contact(w, i, j, now,
                     std::span<const Manifold>(scratch.manifolds.data(), static_cast<std::size_t>(q.count)));
    w.impact_pairs.pairs.back().told = approaching || told_earlier; // told at its time of impact
    w.impact_pairs.pairs.back().touching = true;
    // Their other contacts of this step, with the anchors they were prepared with.
    for (const SolverContact& c : w.constraints.contacts) {
        if (c.a != i && c.a != j && c.b != i && c.b != j) continue;
        if ((c.a == i && c.b == j) || (c.a == j && c.b == i)) continue;
        SolverContact copy = c;
        copy.pair = -1; // not the new contact
        copy.a = local(c.a, c.a != i && c.a != j);
        copy.b = local(c.b, c.b != i && c.b != j);
        copy.impact = false;
        copy.first = scratch.sub_constraints.add_points(c.count);
        for (int q = 0; q < c.count; ++q) {
            const auto from = static_cast<std::size_t>(c.first + q), to = static_cast<std::size_t>(copy.first + q);
            SolverPoint& sp = scratch.sub_constraints.points[to] = w.constraints.points[from];
            AngularRow& sr = scratch.sub_constraints.angular[to] = w.constraints.angular[from];
            PointInfo& si = scratch.sub_constraints.info[to] = w.constraints.info[from];
            sp.normal_impulse = si.impact_impulse = 0;
            sp.tangent1_impulse = sp.tangent2_impulse = si.impact_tangent1 = si.impact_tangent2 = 0;
            si.impacting = false;
            si.touching = true;
            sp.bias = 0;
            // A body held still does not turn either.
            if (copy.a >= 2) sr.ia_n = Vec3{};
            if (copy.b >= 2) sr.ib_n = Vec3{};
        }
        scratch.sub_constraints.contacts.push_back(copy);
    }
    // The impact, at this instant.
    const Vec3 before_i = w.sims[static_cast<std::size_t>(i)].velocity,
               before_j = w.sims[static_cast<std::size_t>(j)].velocity;
    solve_impacts(sub, scratch.sub_constraints, scratch.sub_bodies);
    // A touching point that bounced (restitution), clear of touching within the rest of the
    // step at the speed it leaves with, is cast from here too: gravity or the turn may bring it back
    // within the step (its own time of impact, and its bounce), where the rest of the step's
    // solve would hold it at the step's end velocity — off, for a box turning fast.
    for (const SolverContact& c : scratch.sub_constraints.contacts) {
        if (c.pair != 0) continue;
        const BodySim& a = scratch.sub_bodies[static_cast<std::size_t>(c.a)];
        const BodySim& b = scratch.sub_bodies[static_cast<std::size_t>(c.b)];
        for (int q = 0; q < c.count; ++q) {
            const auto k = static_cast<std::size_t>(c.first + q);
            const SolverPoint& p = scratch.sub_constraints.points[k];
            const Vec3 va = a.velocity + cross(a.angular_velocity, p.ra),
                       vb = b.velocity + cross(b.angular_velocity, p.rb);
            const PointInfo& info = scratch.sub_constraints.info[k];
            if (info.touching && info.bounce > 0 && dot(vb - va, c.normal) * remaining > kTouchTolerance)
                leave_to_cast(k);
        }
    }
    for (int k = 0; k < 2; ++k) {
        BodySim& s = w.sims[static_cast<std::size_t>(scratch.sub_index[static_cast<std::size_t>(k)])];
        s.velocity = scratch.sub_bodies[static_cast<std::size_t>(k)].velocity;
        s.angular_velocity = scratch.sub_bodies[static_cast<std::size_t>(k)].angular_velocity;
        // An impact's torque ends a free turn: the step's end carries the momentum it left,
        // through the turn from here.
        Body& b = w.bodies[static_cast<std::size_t>(scratch.sub_index[static_cast<std::size_t>(k)])];
        b.free_turn = false;
        b.step_rotation = s.rotation;
    }
    if (w.wanted & kOnResponse) {
        for (const auto& [k, before] : {std::pair{i, before_i}, std::pair{j, before_j}}) {
            if (!w.is_dynamic(k) || before == w.sims[static_cast<std::size_t>(k)].velocity) continue;
            for (const Listener& l : w.listeners)
                if (l.events & kOnResponse)
                    l.observer->on_response(*w.view, k, before, w.sims[static_cast<std::size_t>(k)].velocity);
        }
    }
    if (!(remaining > 0)) return false;
    // The rest of the step for the two: gravity over it, then the force solve, then the
    // constant acceleration that takes each from its velocity now to the solved one.
    sub.h = remaining;
    sub.inv_h = 1 / remaining;
    prepare_biases(sub, scratch.sub_constraints, w.threads);
    for (int k = 0; k < 2; ++k) {
        const int g = scratch.sub_index[static_cast<std::size_t>(k)];
        BodySim& s = scratch.sub_bodies[static_cast<std::size_t>(k)];
        s.start_velocity = s.velocity;
        s.start_angular = s.angular_velocity;
        if (w.is_dynamic(g)) s.velocity += ctx.gravity * remaining;
    }
    gather_solver_bodies(scratch.sub_constraints, scratch.sub_bodies, w.threads);
    for (int pass = 0; pass < sub.velocity_iterations; ++pass) {
        if (solve_contacts(sub, scratch.sub_constraints).converged(sub.velocity_tolerance)) break;
    }
    scatter_solver_bodies(scratch.sub_constraints, scratch.sub_bodies, w.threads);
    for (int k = 0; k < 2; ++k) {
        const int g = scratch.sub_index[static_cast<std::size_t>(k)];
        if (!w.is_dynamic(g)) continue;
        const BodySim& l = scratch.sub_bodies[static_cast<std::size_t>(k)];
        BodySim& s = w.sims[static_cast<std::size_t>(g)];
        bool pushed = false;
        for (const SolverContact& c : scratch.sub_constraints.contacts) {
            if (c.a != k && c.b != k) continue;
            for (const SolverPoint& p : scratch.sub_constraints.points_of(c))
                pushed = pushed || p.normal_impulse != 0 || p.tangent1_impulse != 0 || p.tangent2_impulse != 0;
        }
        if (ctx.exact) {
            s.velocity = l.start_velocity;
            s.angular_velocity = l.start_angular;
            s.accel = pushed ? (l.velocity - l.start_velocity) * sub.inv_h : ctx.gravity;
            s.angular_accel = (l.angular_velocity - l.start_angular) * sub.inv_h;
            // A body nothing pushes turns free of torque again. So does one that came in turning
            // free of torque, from the angular velocity the solve left (the contact's torque a
            // kick now, then the turn that keeps its energy): a box that landed tumbling at 40
            // rad/s and pivots on a corner, turned at the mean rate and its momentum carried
            // (end_motion), gained 4% of its energy in a step. (One that came in not turning
            // keeps the mean rate: a cube landing flat on a slope tips by the mean.)
            Body& b = w.bodies[static_cast<std::size_t>(g)];
            if (b.turns && !b.round && (!pushed || came_turning[k])) {
                s.angular_velocity = l.angular_velocity;
                s.angular_accel = Vec3{};
                if (!is_zero(s.angular_velocity)) {
                    b.free_turn = true;
                    turn_freely(s, b, remaining);
                }
            }
        } else {
            s.velocity = l.velocity;
            s.angular_velocity = l.angular_velocity;
            s.accel = s.angular_accel = Vec3{};
        }
    }
    // Whether the pair still presses on after its impact (a box that has come to rest on an
    // edge): then it is the solver's for the rest of the step, not cast again.
    bool pressing = false;
    for (const SolverContact& c : scratch.sub_constraints.contacts) {
        if (c.pair != 0) continue;
        for (const SolverPoint& p : scratch.sub_constraints.points_of(c)) pressing = pressing || p.normal_impulse != 0;
    }
    // The new contact's impulses over the rest of the step, grown to a whole step for the next
    // one's warm start.
    const double scale = ctx.h / remaining;
    const PairContact& impact = w.impact_pairs.pairs.back();
    for (const SolverContact& c : scratch.sub_constraints.contacts) {
        if (c.pair != 0) continue;
        const PairManifold& pm = w.impact_pairs.manifolds_of(impact)[static_cast<std::size_t>(c.manifold)];
        const std::span<ContactPoint> points = w.impact_pairs.points_of(pm);
        const std::span<const SolverPoint> solved = scratch.sub_constraints.points_of(c);
        for (int p = 0; p < c.count; ++p) {
            points[static_cast<std::size_t>(p)].normal_impulse =
                    solved[static_cast<std::size_t>(p)].normal_impulse * scale;
            points[static_cast<std::size_t>(p)].tangent_impulse =
                    tangent_impulse(c, solved[static_cast<std::size_t>(p)]) * scale;
        }
        break;
    }
    return pressing;
}

} // namespace

} // namespace collide
