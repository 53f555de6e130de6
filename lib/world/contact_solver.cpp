#include "world/contact_solver.h"

#include <algorithm>
#include <atomic>
#include <cmath>
#include <numeric>

namespace collide {

namespace {

// The velocity kernels below take a body as either state the solver keeps it in (B: BodySim, or
// SolverBody for the passes), its inverse inertia, where they need it, apart.

/// The velocity of the point at anchor r of a body (m/s).
template <class B> inline Vec3 point_velocity(const B& b, const Vec3& r) {
    return b.velocity + cross(b.angular_velocity, r);
}

/// The relative velocity of B against A at a point (anchors ra, rb).
template <class B> inline Vec3 relative_velocity(const B& a, const B& b, const Vec3& ra, const Vec3& rb) {
    return point_velocity(b, rb) - point_velocity(a, ra);
}

/// Applies impulse P at the point (+ to B, − to A); ia, ib: the bodies' inverse inertias.
template <class B> [[gnu::always_inline]] inline void apply_impulse(B& a, B& b, const Mat3& ia, const Mat3& ib,
                                                                    const Vec3& ra, const Vec3& rb, const Vec3& p) {
    // A body contacts cannot move (static, kinematic) is not written: islands solved at once
    // share it.
    if (a.inv_mass > 0) {
        a.velocity -= p * a.inv_mass;
        a.angular_velocity -= ia * cross(ra, p);
    }
    if (b.inv_mass > 0) {
        b.velocity += p * b.inv_mass;
        b.angular_velocity += ib * cross(rb, p);
    }
}

/// The relative normal velocity at a point of contact c with angular row r: the normal row,
/// n·(v_B − v_A) + ω_B·(r_B × n) − ω_A·(r_A × n), which is n·v_rel. Two balls' rows have no
/// angular part (r × n is zero for each), so it is not computed (nor r read).
template <class B> inline double normal_velocity(const B& a, const B& b, const SolverContact& c, const AngularRow& r) {
    const double linear = dot(b.velocity - a.velocity, c.normal);
    if (c.round_a && c.round_b) return linear;
    return linear + dot(b.angular_velocity, r.rb_n) - dot(a.angular_velocity, r.ra_n);
}

/// Applies a normal impulse of d (N·s) at a point of contact c with angular row r (+ to B, − to
/// A); it turns neither of two balls.
template <class B> inline void apply_normal_impulse(B& a, B& b, const SolverContact& c, const AngularRow& r, double d) {
    const Vec3 impulse = c.normal * d;
    const bool round = c.round_a && c.round_b;
    if (a.inv_mass > 0) { // (not a body contacts cannot move: see apply_impulse)
        a.velocity -= impulse * a.inv_mass;
        if (!round) a.angular_velocity -= r.ia_n * d;
    }
    if (b.inv_mass > 0) {
        b.velocity += impulse * b.inv_mass;
        if (!round) b.angular_velocity += r.ib_n * d;
    }
}

/// k(d) = 1/m_A + 1/m_B + (r_A × d)·I_A⁻¹(r_A × d) + (r_B × d)·I_B⁻¹(r_B × d).
inline double inverse_effective_mass(const BodySim& a, const BodySim& b, const Vec3& ra, const Vec3& rb,
                                     const Vec3& d) {
    const Vec3 rad = cross(ra, d), rbd = cross(rb, d);
    return a.inv_mass + b.inv_mass + dot(rad, a.inv_inertia * rad) + dot(rbd, b.inv_inertia * rbd);
}

/// The off-diagonal term of the effective-mass block of directions d1, d2.
inline double inverse_effective_mass(const BodySim& a, const BodySim& b, const Vec3& ra, const Vec3& rb, const Vec3& d1,
                                     const Vec3& d2) {
    const Vec3 ra1 = cross(ra, d1), ra2 = cross(ra, d2), rb1 = cross(rb, d1), rb2 = cross(rb, d2);
    return (a.inv_mass + b.inv_mass) * dot(d1, d2) + dot(ra1, a.inv_inertia * ra2) + dot(rb1, b.inv_inertia * rb2);
}

/// One friction update at a point: the impulse along the point's slip (its relative tangential
/// velocity less `slip_goal`, the part to keep) that would stop it, k(d)⁻¹·|slip| with d the
/// slip's direction, added to the accumulated impulse (`acc1`, `acc2` along the contact's
/// tangents) and clamped to the disc of radius `limit` (a negative limit: no clamp). Along the
/// slip, not along K⁻¹·slip: at Coulomb's limit the friction must oppose the sliding (the 2×2
/// block's coupling would turn it aside and make a sliding box slow down less and spin).
/// Returns the impulse to apply (world frame).
[[gnu::always_inline]] inline Vec3 friction_impulse(const SolverContact& c, const SolverPoint& p, const Vec3& vr,
                                                    const Vec3& slip_goal, double limit, double& acc1, double& acc2) {
    const double v1 = dot(vr - slip_goal, c.tangent1), v2 = dot(vr - slip_goal, c.tangent2);
    double n1 = acc1, n2 = acc2;
    // Along the slip's direction d = v/|v|, k(d) = q/|v|² with q = vᵀK v, so the impulse
    // −|v|/k(d)·d is −(|v|²/q)·v: no square root, one division.
    const double q = p.tangent_k.x * v1 * v1 + 2 * p.tangent_k.y * v1 * v2 + p.tangent_k.z * v2 * v2;
    if (q > 0) {
        const double f = (v1 * v1 + v2 * v2) / q;
        n1 -= f * v1;
        n2 -= f * v2;
    }
    if (limit >= 0) {
        const double len2 = n1 * n1 + n2 * n2;
        if (len2 > limit * limit) {
            const double s = limit / std::sqrt(len2);
            n1 *= s;
            n2 *= s;
        }
    }
    const double d1 = n1 - acc1, d2 = n2 - acc2;
    acc1 = n1;
    acc2 = n2;
    return c.tangent1 * d1 + c.tangent2 * d2;
}

/// The compression impulses of one manifold's touching points solved together, exactly (the
/// block solver of Box2D v2.4's b2ContactSolver, for up to kMaxManifoldPoints points): the
/// accumulated impulses λ ≥ 0 with every point's normal velocity v_n = b + A·λ ≥ 0 and, where
/// λ > 0, v_n = 0 (A the points' coupled inverse masses). Points of one manifold are nearly
/// dependent — the two ends of a stick's edge, a face's four corners — and one point at a time
/// (Gauss–Seidel) converges on them by a factor near 1 a pass. The active sets are tried from
/// the largest; a singular one (a face's four corners) is skipped, as its smaller sets give the
/// same velocities. Returns false when no set solves it (then the caller's passes do).
bool solve_impact_block(const SolverContact& c, BodySim& a, BodySim& b, const AngularRow* rows, PointInfo* infos) {
    constexpr int kMost = kMaxManifoldPoints;
    int index[kMost];
    int n = 0;
    for (int q = 0; q < c.count && n < kMost; ++q)
        if (infos[q].touching) index[n++] = q;
    if (n == 0) return true;
    double m[kMost][kMost], rhs[kMost], lambda[kMost];
    const double linear = a.inv_mass + b.inv_mass;
    for (int i = 0; i < n; ++i) {
        const AngularRow& ri = rows[index[i]];
        lambda[i] = infos[index[i]].impact_impulse;
        for (int j = 0; j < n; ++j) {
            const AngularRow& rj = rows[index[j]];
            m[i][j] = c.round_a && c.round_b ? linear : linear + dot(ri.ra_n, rj.ia_n) + dot(ri.rb_n, rj.ib_n);
        }
    }
    double scale = 0; // for the tolerances: the largest normal velocity's size
    for (int i = 0; i < n; ++i) {
        const double vn = normal_velocity(a, b, c, rows[index[i]]);
        double acc = vn;
        for (int j = 0; j < n; ++j) acc -= m[i][j] * lambda[j];
        rhs[i] = acc; // b: v_n with no impulse at all
        scale = std::max(scale, std::fabs(vn));
    }
    double diagonal = 0;
    for (int i = 0; i < n; ++i) diagonal = std::max(diagonal, m[i][i]);
    if (!(diagonal > 0)) return false;
    for (int set = (1 << n) - 1; set >= 0; --set) {
        // Solve A_SS·x = −b_S by elimination with partial pivoting.
        int s[kMost], k = 0;
        for (int i = 0; i < n; ++i)
            if (set & (1 << i)) s[k++] = i;
        double g[kMost][kMost + 1];
        for (int r = 0; r < k; ++r) {
            for (int col = 0; col < k; ++col) g[r][col] = m[s[r]][s[col]];
            g[r][k] = -rhs[s[r]];
        }
        bool singular = false;
        for (int col = 0; col < k && !singular; ++col) {
            int pivot = col;
            for (int r = col + 1; r < k; ++r)
                if (std::fabs(g[r][col]) > std::fabs(g[pivot][col])) pivot = r;
            if (!(std::fabs(g[pivot][col]) > 1e-9 * diagonal)) {
                singular = true;
                break;
            }
            if (pivot != col)
                for (int e = 0; e <= k; ++e) std::swap(g[col][e], g[pivot][e]);
            for (int r = col + 1; r < k; ++r) {
                const double f = g[r][col] / g[col][col];
                for (int e = col; e <= k; ++e) g[r][e] -= f * g[col][e];
            }
        }
        if (singular) continue;
        double x[kMost] = {};
        for (int r = k - 1; r >= 0; --r) {
            double acc = g[r][k];
            for (int e = r + 1; e < k; ++e) acc -= g[r][e] * x[s[e]];
            x[s[r]] = acc / g[r][r];
        }
        bool valid = true;
        for (int i = 0; i < n && valid; ++i) {
            if (x[i] < 0) {
                valid = x[i] >= -1e-12 * scale / diagonal;
                x[i] = 0;
            }
        }
        for (int i = 0; i < n && valid; ++i) {
            if (set & (1 << i)) continue;
            double w = rhs[i];
            for (int j = 0; j < n; ++j) w += m[i][j] * x[j];
            valid = w >= -1e-12 * scale;
        }
        if (!valid) continue;
        for (int i = 0; i < n; ++i) {
            PointInfo& info = infos[index[i]];
            const double d = x[i] - info.impact_impulse;
            info.impact_impulse = x[i];
            if (d != 0) apply_normal_impulse(a, b, c, rows[index[i]], d);
        }
        return true;
    }
    return false;
}

} // namespace

namespace {

/// Fills pair k's contacts and points into the slots prepare_contacts() gave them.
void prepare_pair(const StepContext& ctx, const ContactSet& pairs, std::size_t k, std::span<const BodySim> bodies,
                  std::span<const unsigned char> round, StepConstraints& out) {
    const PairContact& pc = pairs.pairs[k];
    int contact = out.pair_contact[k], point = out.pair_point[k];
    const BodySim& a = bodies[static_cast<std::size_t>(pc.i)];
    const BodySim& b = bodies[static_cast<std::size_t>(pc.j)];
    for (int m = 0; m < pc.count; ++m) {
        const PairManifold& pm = pairs.manifolds[static_cast<std::size_t>(pc.first + m)];
        SolverContact& c = out.contacts[static_cast<std::size_t>(contact++)];
        c.a = pc.i;
        c.b = pc.j;
        c.pair = static_cast<int>(k);
        c.manifold = m;
        c.normal = pm.normal;
        c.tangent1 = any_perpendicular(pm.normal);
        c.tangent2 = cross(pm.normal, c.tangent1);
        c.friction = pc.friction;
        c.restitution = pc.restitution;
        c.count = pm.count;
        c.impact = false;
        c.round_a = round[static_cast<std::size_t>(pc.i)] != 0;
        c.round_b = round[static_cast<std::size_t>(pc.j)] != 0;
        c.linear = (c.round_a || a.inv_inertia == zero3()) && (c.round_b || b.inv_inertia == zero3());
        c.first = point;
        point += pm.count;
        for (int q = 0; q < pm.count; ++q) {
            const ContactPoint& cp = pairs.points[static_cast<std::size_t>(pm.first + q)];
            const auto at = static_cast<std::size_t>(c.first + q);
            SolverPoint& p = out.points[at];
            AngularRow& r = out.angular[at];
            PointInfo& info = out.info[at];
            p.ra = cp.found.point - a.centre;
            p.rb = cp.found.point - b.centre;
            // (A ball's anchor does not turn with it: position correction keeps ra.)
            info.local_a = c.round_a ? Vec3{} : rotate_inverse(a.rotation, p.ra);
            info.local_b = c.round_b ? Vec3{} : rotate_inverse(b.rotation, p.rb);
            info.separation = -cp.found.depth;
            r.ra_n = c.round_a ? Vec3{} : cross(p.ra, c.normal);
            r.rb_n = c.round_b ? Vec3{} : cross(p.rb, c.normal);
            r.ia_n = a.inv_inertia * r.ra_n;
            r.ib_n = b.inv_inertia * r.rb_n;
            const double kn = a.inv_mass + b.inv_mass + dot(r.ra_n, r.ia_n) + dot(r.rb_n, r.ib_n);
            p.normal_mass = kn > 0 ? 1 / kn : 0;
            p.normal_k = kn > 0 ? kn : 0;
            const double k11 = inverse_effective_mass(a, b, p.ra, p.rb, c.tangent1);
            const double k22 = inverse_effective_mass(a, b, p.ra, p.rb, c.tangent2);
            const double k12 = inverse_effective_mass(a, b, p.ra, p.rb, c.tangent1, c.tangent2);
            p.tangent_k = Vec3{k11, k12, k22};
            const Vec3 vr = relative_velocity(a, b, p.ra, p.rb);
            info.approach = dot(vr, c.normal);
            info.slip = vr - c.normal * info.approach;
            info.touching = info.separation <= kTouchTolerance;
            info.impacting = info.touching && info.approach < -ctx.impact_speed;
            info.bounce = info.impacting && info.approach < -ctx.bounce_speed ? c.restitution : 0;
            p.bias = 0;
            p.normal_impulse = cp.normal_impulse;
            // The carried friction impulse, in this step's tangent plane.
            p.tangent1_impulse = dot(cp.tangent_impulse, c.tangent1);
            p.tangent2_impulse = dot(cp.tangent_impulse, c.tangent2);
            info.impact_impulse = 0;
            info.impact_tangent1 = info.impact_tangent2 = 0;
            c.impact = c.impact || info.impacting;
        }
    }
}

} // namespace

void prepare_contacts(const StepContext& ctx, const ContactSet& pairs, std::span<const BodySim> bodies,
                      std::span<const unsigned char> awake, std::span<const unsigned char> round, StepConstraints& out,
                      const StepThreads& threads) {
    out.impacts.clear(); // (the islands are group_islands()': it keeps them while the contacts stay)
    // Where each pair's contacts and points go (−1: the pair is left out), then the pairs filled
    // in blocks at once: each writes only its own slots, every field of them (so the arrays are
    // sized, not cleared first: last step's slots are written over, and a step of as many
    // points as the last zeroes nothing, on one thread, before the blocks start).
    // (In blocks: each block's places counted from 0, then moved on by the blocks before it.)
    out.pair_contact.resize(pairs.size());
    out.pair_point.resize(pairs.size());
    constexpr int kPlaceBlock = 4096;
    const int count = static_cast<int>(pairs.size());
    const int blocks = count > 0 ? (count - 1) / kPlaceBlock + 1 : 0;
    out.block_places.assign(2 * static_cast<std::size_t>(blocks) + 2, 0);
    threads.for_blocks(count, kPlaceBlock, [&](int begin, int end) {
        int contacts = 0, points = 0;
        for (auto k = static_cast<std::size_t>(begin); k < static_cast<std::size_t>(end); ++k) {
            const PairContact& pc = pairs.pairs[k];
            const bool left_out = (!awake[static_cast<std::size_t>(pc.i)] && !awake[static_cast<std::size_t>(pc.j)]) ||
                                  pc.cast; // (cast: its time of impact is found instead, continuous)
            out.pair_contact[k] = left_out ? -1 : contacts;
            out.pair_point[k] = points;
            if (left_out) continue;
            contacts += pc.count;
            for (int m = 0; m < pc.count; ++m) points += pairs.manifolds[static_cast<std::size_t>(pc.first + m)].count;
        }
        const auto b = static_cast<std::size_t>(begin / kPlaceBlock);
        out.block_places[2 * b + 2] = contacts;
        out.block_places[2 * b + 3] = points;
    });
    for (std::size_t b = 1; b <= static_cast<std::size_t>(blocks); ++b) { // (each block's first places)
        out.block_places[2 * b] += out.block_places[2 * b - 2];
        out.block_places[2 * b + 1] += out.block_places[2 * b - 1];
    }
    const int contacts = out.block_places[2 * static_cast<std::size_t>(blocks)];
    const int points = out.block_places[2 * static_cast<std::size_t>(blocks) + 1];
    threads.for_blocks(count, kPlaceBlock, [&](int begin, int end) {
        const auto b = static_cast<std::size_t>(begin / kPlaceBlock);
        const int contacts_before = out.block_places[2 * b], points_before = out.block_places[2 * b + 1];
        if (contacts_before == 0 && points_before == 0) return;
        for (auto k = static_cast<std::size_t>(begin); k < static_cast<std::size_t>(end); ++k) {
            if (out.pair_contact[k] >= 0) out.pair_contact[k] += contacts_before;
            out.pair_point[k] += points_before;
        }
    });
    // (Sized for overwrite: the blocks below write every field of every slot, so a grown
    // array's pages are first touched there, on every thread.)
    const auto size = [&](auto& array, int count) {
        array.clear();
        resize_for_overwrite(array, static_cast<std::size_t>(count));
    };
    size(out.contacts, contacts);
    size(out.points, points);
    size(out.angular, points);
    size(out.info, points);
    constexpr int kPairsPerBlock = 256;
    threads.for_blocks(static_cast<int>(pairs.size()), kPairsPerBlock, [&](int begin, int end) {
        for (int k = begin; k < end; ++k)
            if (out.pair_contact[static_cast<std::size_t>(k)] >= 0)
                prepare_pair(ctx, pairs, static_cast<std::size_t>(k), bodies, round, out);
    });
}

namespace {

/// The impact solve on `impacts` (contacts of `set`, ascending): solve_impacts()' three phases.
void solve_impact_list(const StepContext& ctx, StepConstraints& set, std::span<BodySim> bodies,
                       std::span<const int> impacts) {
    // The friction update of contact c's touching points, within μ times each one's impact
    // impulse so far (the designer's dial instead keeps (1 − f) of the slip the impact found).
    const auto friction = [&](const SolverContact& c, BodySim& a, BodySim& b) {
        SolverPoint* const points = set.points.data() + c.first;
        PointInfo* const infos = set.info.data() + c.first;
        for (int q = 0; q < c.count; ++q) {
            const SolverPoint& p = points[q];
            PointInfo& info = infos[q];
            if (!info.touching || (!ctx.coulomb && !info.impacting)) continue;
            const Vec3 vr = relative_velocity(a, b, p.ra, p.rb);
            const Vec3 goal = ctx.coulomb ? Vec3{} : info.slip * (1 - std::clamp(c.friction, 0.0, 1.0));
            const double limit = ctx.coulomb ? c.friction * info.impact_impulse : -1;
            apply_impulse(a, b, a.inv_inertia, b.inv_inertia, p.ra, p.rb,
                          friction_impulse(c, p, vr, goal, limit, info.impact_tangent1, info.impact_tangent2));
        }
    };
    // 1. Compression: the impulses that stop every touching point approaching (v_n ≥ 0, the
    // accumulated impulse ≥ 0), with friction.
    for (int pass = 0; pass < ctx.velocity_iterations; ++pass) {
        for (const int k : impacts) {
            const SolverContact& c = set.contacts[static_cast<std::size_t>(k)];
            BodySim& a = bodies[static_cast<std::size_t>(c.a)];
            BodySim& b = bodies[static_cast<std::size_t>(c.b)];
            SolverPoint* const points = set.points.data() + c.first;
            const AngularRow* const rows = set.angular.data() + c.first;
            PointInfo* const infos = set.info.data() + c.first;
            if (!solve_impact_block(c, a, b, rows, infos)) {
                for (int q = 0; q < c.count; ++q) { // (no exact solution found: one point at a time)
                    const SolverPoint& p = points[q];
                    PointInfo& info = infos[q];
                    if (!info.touching) continue;
                    const double vn = normal_velocity(a, b, c, rows[q]);
                    const double next = std::max(info.impact_impulse - p.normal_mass * vn, 0.0);
                    const double d = next - info.impact_impulse;
                    info.impact_impulse = next;
                    apply_normal_impulse(a, b, c, rows[q], d);
                }
            }
            friction(c, a, b);
        }
    }
    // 2. Restitution (Poisson's): each point that bounces gets e times its compression impulse
    // again. For one point that is Newton's v_n → −e·v_n, j = −(1 + e)·v_n/k; for several it
    // changes the kinetic energy by −½(1 − e²)… ≤ 0 — by (e − 1)(1 + e)/2 · λᵀAλ, with λ the
    // compression impulses and A the points' coupled inverse masses — so an elastic impact
    // (e = 1) keeps the energy and none gains any, where Newton's targets at every point at once
    // can (a tilted box landing on an edge).
    for (const int k : impacts) {
        const SolverContact& c = set.contacts[static_cast<std::size_t>(k)];
        BodySim& a = bodies[static_cast<std::size_t>(c.a)];
        BodySim& b = bodies[static_cast<std::size_t>(c.b)];
        const AngularRow* const rows = set.angular.data() + c.first;
        PointInfo* const infos = set.info.data() + c.first;
        for (int q = 0; q < c.count; ++q) {
            PointInfo& info = infos[q];
            if (!info.touching || !(info.bounce > 0) || !(info.impact_impulse > 0)) continue;
            const double d = info.bounce * info.impact_impulse;
            info.impact_impulse += d;
            apply_normal_impulse(a, b, c, rows[q], d);
        }
    }
    // 3. Friction within the cone of the whole impulse.
    for (int pass = 0; pass < ctx.velocity_iterations; ++pass)
        for (const int k : impacts) {
            const SolverContact& c = set.contacts[static_cast<std::size_t>(k)];
            if (c.restitution > 0)
                friction(c, bodies[static_cast<std::size_t>(c.a)], bodies[static_cast<std::size_t>(c.b)]);
        }
}

} // namespace

bool solve_impacts(const StepContext& ctx, StepConstraints& set, std::span<BodySim> bodies,
                   const StepThreads& threads) {
    set.impacts.clear();
    for (std::size_t k = 0; k < set.contacts.size(); ++k)
        if (set.contacts[k].impact) set.impacts.push_back(static_cast<int>(k));
    if (set.impacts.empty()) return false;
    // Islands share no body the solve moves, and each phase takes an island's impacts in the
    // order it takes all of them: on several threads the islands' impacts are solved at once,
    // island by island, with the same bits as one walk over them all.
    const SolverIslands& g = set.islands;
    const auto islands = static_cast<int>(g.islands.size());
    if (threads.threads() < 2 || islands < 2 || set.impacts.size() < 64 || !g.grouped ||
        g.contact_island.size() != set.contacts.size()) {
        solve_impact_list(ctx, set, bodies, set.impacts);
        return true;
    }
    // The impacts by island, each island's ascending (a counting sort).
    set.impact_start.assign(static_cast<std::size_t>(islands) + 1, 0);
    for (const int k : set.impacts)
        ++set.impact_start[static_cast<std::size_t>(g.contact_island[static_cast<std::size_t>(k)]) + 1];
    std::partial_sum(set.impact_start.begin(), set.impact_start.end(), set.impact_start.begin());
    set.impact_order.resize(set.impacts.size());
    set.impact_fill.assign(set.impact_start.begin(), set.impact_start.end() - 1);
    for (const int k : set.impacts)
        set.impact_order[static_cast<std::size_t>(
                set.impact_fill[static_cast<std::size_t>(g.contact_island[static_cast<std::size_t>(k)])]++)] = k;
    constexpr int kImpactIslandsPerBlock = 64;
    threads.for_blocks(islands, kImpactIslandsPerBlock, [&](int begin, int end) {
        for (int i = begin; i < end; ++i) {
            const auto from = static_cast<std::size_t>(set.impact_start[static_cast<std::size_t>(i)]);
            const auto to = static_cast<std::size_t>(set.impact_start[static_cast<std::size_t>(i) + 1]);
            if (from < to)
                solve_impact_list(ctx, set, bodies, std::span<const int>(set.impact_order).subspan(from, to - from));
        }
    });
    return true;
}

void prepare_biases(const StepContext& ctx, StepConstraints& set, const StepThreads& threads) {
    constexpr int kPointsPerBlock = 4096;
    threads.for_blocks(static_cast<int>(set.points.size()), kPointsPerBlock, [&](int begin, int end) {
        for (int k = begin; k < end; ++k) {
            const PointInfo& info = set.info[static_cast<std::size_t>(k)];
            set.points[static_cast<std::size_t>(k)].bias = info.touching ? 0.0 : -info.separation * ctx.inv_h;
        }
    });
}

namespace {

/// How far one contact's impulses moved the velocities in a pass: its largest normal change
/// (m/s) and its largest friction change, squared.
struct ContactChange {
    double normal = 0;
    double friction2 = 0;
    void raise(const ContactChange& o) {
        normal = std::max(normal, o.normal);
        friction2 = std::max(friction2, o.friction2);
    }
};

/// Raises `at` to `value` if it is larger (max is exact and commutative: the same result in
/// any order, from any thread).
void raise_to(std::atomic<double>& at, double value) {
    double now = at.load(std::memory_order_relaxed);
    while (value > now && !at.compare_exchange_weak(now, value, std::memory_order_relaxed)) {}
}

/// Islands a thread takes at a time.
constexpr int kIslandsPerBlock = 8;
/// Solver bodies a thread gathers or scatters at a time.
constexpr int kBodiesPerSlotBlock = 1024;

/// Runs f(k) for every contact k of `island`, group by group: a group's runs at once on the
/// threads, each in its order.
template <class F>
void for_island_contacts(const StepThreads& threads, const SolverIslands& g, const SolverIsland& island, F&& f) {
    for (int q = island.first_group; q < island.first_group + island.group_count; ++q) {
        const ContactGroup& group = g.groups[static_cast<std::size_t>(q)];
        const auto run = [&](int begin, int end) {
            for (int r = begin; r < end; ++r)
                for (const int k : g.chain(group.first_chain + r)) f(k);
        };
        if (group.chains > 1 && threads.threads() > 1)
            threads.for_blocks(group.chains, 1, run);
        else
            run(0, group.chains);
    }
}

/// As for_island_contacts, with f(k) returning its contact's change: the largest of them.
template <class F> ContactChange reduce_island_contacts(const StepThreads& threads, const SolverIslands& g,
                                                        const SolverIsland& island, F&& f) {
    ContactChange change;
    for (int q = island.first_group; q < island.first_group + island.group_count; ++q) {
        const ContactGroup& group = g.groups[static_cast<std::size_t>(q)];
        if (group.chains > 1 && threads.threads() > 1) {
            std::atomic<double> normal{0}, friction2{0};
            threads.for_blocks(group.chains, 1, [&](int begin, int end) {
                ContactChange local;
                for (int r = begin; r < end; ++r)
                    for (const int k : g.chain(group.first_chain + r)) local.raise(f(k));
                raise_to(normal, local.normal);
                raise_to(friction2, local.friction2);
            });
            change.raise({normal.load(std::memory_order_relaxed), friction2.load(std::memory_order_relaxed)});
        } else {
            for (int r = 0; r < group.chains; ++r)
                for (const int k : g.chain(group.first_chain + r)) change.raise(f(k));
        }
    }
    return change;
}

/// Runs f(island) for every island, islands in blocks on the threads. A large island (its parts
/// solved at once: solver_islands.h) is left out of the blocks and run after them, alone, so
/// that its parts have every thread (within a block, a call to the threads runs on its own
/// thread: world/parallel.h). Islands share no moving body: the same bits in any order.
template <class F> void for_islands(const StepThreads& threads, const SolverIslands& g, F&& f) {
    const auto large = [](const SolverIsland& island) { return island.count >= kPartitionedIsland; };
    const bool apart =
            threads.threads() > 1 && g.islands.size() > 1 && std::any_of(g.islands.begin(), g.islands.end(), large);
    threads.for_blocks(static_cast<int>(g.islands.size()), kIslandsPerBlock, [&](int begin, int end) {
        for (int i = begin; i < end; ++i)
            if (!apart || !large(g.islands[static_cast<std::size_t>(i)])) f(g.islands[static_cast<std::size_t>(i)]);
    });
    if (apart)
        for (const SolverIsland& island : g.islands)
            if (large(island)) f(island);
}

/// The friction rows of contact c's points, one at a time (the force solve's: within μ times
/// each point's normal impulse), raising `change.friction2`.
[[gnu::always_inline]] inline void solve_friction(const StepContext& ctx, const SolverBodies& bodies,
                                                  const SolverContact& c, SolverBody& a, SolverBody& b,
                                                  SolverPoint* points, ContactChange& change) {
    if (!ctx.coulomb || c.friction <= 0) return; // per_contact: a resting body slides freely
    for (int q = 0; q < c.count; ++q) {
        SolverPoint& p = points[q];
        const Vec3 vr = relative_velocity(a, b, p.ra, p.rb);
        const Vec3 d = friction_impulse(c, p, vr, Vec3{}, c.friction * p.normal_impulse, p.tangent1_impulse,
                                        p.tangent2_impulse);
        apply_impulse(a, b, bodies.inv_inertia[static_cast<std::size_t>(c.sa)],
                      bodies.inv_inertia[static_cast<std::size_t>(c.sb)], p.ra, p.rb, d);
        // |K·d| ≤ trace(K)·|d| for the 2×2 tangent mass matrix K.
        const double trace = p.tangent_k.x + p.tangent_k.z;
        change.friction2 = std::max(change.friction2, trace * trace * length_squared(d));
    }
}

/// One pass of the force solve at contact c: its points' normal rows, then their friction.
[[gnu::always_inline]] inline ContactChange solve_contact(const StepContext& ctx, StepConstraints& set,
                                                          const SolverContact& c) {
    ContactChange change;
    SolverBody& a = set.bodies.state[static_cast<std::size_t>(c.sa)];
    SolverBody& b = set.bodies.state[static_cast<std::size_t>(c.sb)];
    SolverPoint* const points = set.points.data() + c.first;
    const AngularRow* const rows = set.angular.data() + c.first;
    for (int q = 0; q < c.count; ++q) {
        SolverPoint& p = points[q];
        const double vn = normal_velocity(a, b, c, rows[q]);
        const double next = std::max(p.normal_impulse - p.normal_mass * (vn - p.bias), 0.0);
        const double d = next - p.normal_impulse;
        p.normal_impulse = next;
        apply_normal_impulse(a, b, c, rows[q], d);
        change.normal = std::max(change.normal, std::fabs(d) * p.normal_k);
    }
    solve_friction(ctx, set.bodies, c, a, b, points, change);
    return change;
}

/// A chain's couplings: how a unit normal impulse at contact l changes contact k's normal
/// velocity, through the moving body the two share (k and l are neighbours along the chain):
/// A_kl = s_k·s_l·(m_x⁻¹·n_k·n_l + (r_k × n_k)·I_x⁻¹(r_l × n_l)), s = +1 where x is the
/// contact's B, −1 where it is its A.
double chain_coupling(const StepConstraints& set, int k, int l) {
    const SolverContact& c = set.contacts[static_cast<std::size_t>(k)];
    const SolverContact& d = set.contacts[static_cast<std::size_t>(l)];
    const auto inv_mass = [&](int slot) { return set.bodies.state[static_cast<std::size_t>(slot)].inv_mass; };
    const int x = (c.a == d.a || c.a == d.b) && inv_mass(c.sa) > 0 ? c.a : c.b;
    const AngularRow& r = set.angular[static_cast<std::size_t>(c.first)];
    const AngularRow& q = set.angular[static_cast<std::size_t>(d.first)];
    const double sign = (x == c.b ? 1.0 : -1.0) * (x == d.b ? 1.0 : -1.0);
    const Vec3& rn = x == c.b ? r.rb_n : r.ra_n;
    const Vec3& in = x == d.b ? q.ib_n : q.ia_n;
    return sign * (inv_mass(x == c.a ? c.sa : c.sb) * dot(c.normal, d.normal) + dot(rn, in));
}

/// The rows of a chain's solve (kChainWork numbers per contact, from SolverIslands::chain_work).
struct ChainRows {
    double* link;     ///< A_{k,k+1}: the coupling of contact k with the next
    double* diagonal; ///< A_kk
    double* value;    ///< v₀: the row's value now
    double* goal;     ///< the least value it may end at
    double* held;     ///< λ₀ ≥ 0: the impulse it holds now
    double* delta;    ///< out: λ − λ₀
    double* upper;    ///< scratch: the elimination's c′
    double* right;    ///< scratch: … its d′
    double* active;   ///< scratch: 1 where the row pushes (ends at its goal)

    ChainRows(double* work, int m)
            : link(work), diagonal(work + m), value(work + 2 * m), goal(work + 3 * m), held(work + 4 * m),
              delta(work + 5 * m), upper(work + 6 * m), right(work + 7 * m), active(work + 8 * m) {}
};

/// A chain's rows solved together, exactly: the impulses λ = λ₀ + δ ≥ 0 that bring every row
/// that pushes to its goal (v₀ + A·δ = goal) and leave every other at or above it (λ = 0,
/// v ≥ goal − slack), A tridiagonal along the chain (A_kk diagonal, A_{k,k+1} = A_{k+1,k} link).
/// Active sets are tried from every row pushing — a row that would pull lets go, one that
/// would sink pushes again — each solved by elimination along the chain (Thomas's algorithm).
/// False when none settles within as many tries as rows, or a pivot vanishes.
bool solve_chain_rows(int m, const ChainRows& r, double slack) {
    for (int k = 0; k < m; ++k) r.active[k] = 1;
    for (int attempt = 0; attempt <= m; ++attempt) {
        for (int k = 0; k < m; ++k) {
            const bool on = r.active[k] != 0;
            const double below = on && k > 0 ? r.link[k - 1] : 0.0, above = on && k + 1 < m ? r.link[k] : 0.0;
            const double diagonal = on ? r.diagonal[k] : 1.0, goal = on ? r.goal[k] - r.value[k] : -r.held[k];
            const double pivot = diagonal - (k > 0 ? below * r.upper[k - 1] : 0.0);
            if (!(pivot > 1e-12 * diagonal)) return false;
            r.upper[k] = above / pivot;
            r.right[k] = (goal - (k > 0 ? below * r.right[k - 1] : 0.0)) / pivot;
        }
        r.delta[m - 1] = r.right[m - 1];
        for (int k = m - 2; k >= 0; --k) r.delta[k] = r.right[k] - r.upper[k] * r.delta[k + 1];
        bool settled = true;
        for (int k = 0; k < m; ++k) {
            if (r.active[k] != 0) {
                if (r.held[k] + r.delta[k] < 0) r.active[k] = 0, settled = false;
                continue;
            }
            const double v = r.value[k] + r.diagonal[k] * r.delta[k] + (k > 0 ? r.link[k - 1] * r.delta[k - 1] : 0.0) +
                             (k + 1 < m ? r.link[k] * r.delta[k + 1] : 0.0);
            if (v < r.goal[k] - slack) r.active[k] = 1, settled = false;
        }
        if (settled) return true;
    }
    return false;
}

/// One pass of the force solve over a chain island (solver_islands.h): the normal rows of all
/// its contacts at once, exactly (solve_chain_rows(): v_n = bias where a point pushes, ≥ bias
/// where it does not), then each contact's friction, one at a time. Where the rows do not
/// settle, the pass goes one contact at a time instead.
ContactChange solve_chain_pass(const StepContext& ctx, StepConstraints& set, const SolverIsland& island) {
    const auto body = [&](int slot) -> SolverBody& { return set.bodies.state[static_cast<std::size_t>(slot)]; };
    const int m = island.count;
    const int* const order = set.islands.chain_order.data() + island.chain_first;
    const ChainRows rows(set.islands.chain_work.data() + kChainWork * static_cast<std::size_t>(island.chain_first), m);
    const auto contact = [&](int k) -> const SolverContact& {
        return set.contacts[static_cast<std::size_t>(order[k])];
    };
    for (int k = 0; k < m; ++k) {
        const SolverContact& c = contact(k);
        const SolverPoint& p = set.points[static_cast<std::size_t>(c.first)];
        rows.value[k] = normal_velocity(body(c.sa), body(c.sb), c, set.angular[static_cast<std::size_t>(c.first)]);
        rows.diagonal[k] = p.normal_k;
        rows.goal[k] = p.bias;
        rows.held[k] = p.normal_impulse;
    }
    const bool settled = solve_chain_rows(m, rows, 0.01 * ctx.velocity_tolerance);
    double* const delta = rows.delta;
    ContactChange change;
    if (!settled) {
        for (int k = 0; k < m; ++k) change.raise(solve_contact(ctx, set, contact(k)));
        return change;
    }
    for (int k = 0; k < m; ++k) {
        const SolverContact& c = contact(k);
        SolverPoint& p = set.points[static_cast<std::size_t>(c.first)];
        const double next = std::max(p.normal_impulse + delta[k], 0.0);
        const double d = next - p.normal_impulse;
        p.normal_impulse = next;
        apply_normal_impulse(body(c.sa), body(c.sb), c, set.angular[static_cast<std::size_t>(c.first)], d);
        change.normal = std::max(change.normal, std::fabs(d) * p.normal_k);
    }
    for (int k = 0; k < m; ++k) {
        const SolverContact& c = contact(k);
        solve_friction(ctx, set.bodies, c, body(c.sa), body(c.sb), set.points.data() + c.first, change);
    }
    return change;
}

/// Contact c's warm start: the impulses its points carried.
inline void warm_start_contact(StepConstraints& set, const SolverContact& c) {
    SolverBody& a = set.bodies.state[static_cast<std::size_t>(c.sa)];
    SolverBody& b = set.bodies.state[static_cast<std::size_t>(c.sb)];
    const Mat3& ia = set.bodies.inv_inertia[static_cast<std::size_t>(c.sa)];
    const Mat3& ib = set.bodies.inv_inertia[static_cast<std::size_t>(c.sb)];
    for (const SolverPoint& p : set.points_of(c)) {
        if (p.normal_impulse == 0 && p.tangent1_impulse == 0 && p.tangent2_impulse == 0) continue;
        apply_impulse(a, b, ia, ib, p.ra, p.rb, c.normal * p.normal_impulse + tangent_impulse(c, p));
    }
}

/// Contact c's restitution (stage 4); true when it changed a velocity.
inline bool restitute_contact(const StepContext& ctx, StepConstraints& set, const SolverContact& c) {
    bool changed = false;
    SolverBody& a = set.bodies.state[static_cast<std::size_t>(c.sa)];
    SolverBody& b = set.bodies.state[static_cast<std::size_t>(c.sb)];
    for (int q = c.first; q < c.first + c.count; ++q) {
        SolverPoint& p = set.points[static_cast<std::size_t>(q)];
        const PointInfo& info = set.info[static_cast<std::size_t>(q)];
        const AngularRow& row = set.angular[static_cast<std::size_t>(q)];
        // Only gap points that arrived (took an impulse, approaching faster than the impact
        // speed): a touching point's impact had its restitution already. One that arrived
        // still approaches at the speed that closed its gap (s/h); it leaves at −e·approach
        // when it came faster than the bounce speed, else it stays (v_n = 0).
        if (info.touching || p.normal_impulse <= 0 || info.approach >= -ctx.impact_speed) continue;
        const double target = info.approach < -ctx.bounce_speed ? -c.restitution * info.approach : 0.0;
        const double vn = normal_velocity(a, b, c, row);
        if (vn >= target) continue;
        const double next = std::max(p.normal_impulse - p.normal_mass * (vn - target), 0.0);
        const double d = next - p.normal_impulse;
        p.normal_impulse = next;
        if (d != 0) changed = true;
        apply_normal_impulse(a, b, c, row, d);
    }
    return changed;
}

/// One pass of position correction over contact k's rows; returns its deepest separation
/// before the pass (m, ≤ 0) and sets `moved` when it moved a body.
inline double correct_contact(StepConstraints& set, std::span<BodySim> bodies, int k, bool& moved) {
    double deepest = 0;
    for (int r = set.row_first[static_cast<std::size_t>(k)]; r < set.row_first[static_cast<std::size_t>(k) + 1]; ++r) {
        const PositionRow& row = set.position_rows[static_cast<std::size_t>(r)];
        BodySim& a = bodies[static_cast<std::size_t>(row.a)];
        BodySim& b = bodies[static_cast<std::size_t>(row.b)];
        if (row.point < 0) { // the push turns neither: each moves by its share of it
            const double s = row.base + dot(b.centre - a.centre, row.normal);
            deepest = std::min(deepest, s);
            if (s >= 0) continue;
            const double correction = std::max(kCorrectionFactor * s, -kMaxCorrection);
            if (row.share_a > 0) a.centre += row.normal * (correction * row.share_a);
            if (row.share_b > 0) b.centre -= row.normal * (correction * row.share_b);
            moved = true;
            continue;
        }
        const SolverContact& c = set.contacts[static_cast<std::size_t>(row.contact)];
        const SolverPoint& p = set.points[static_cast<std::size_t>(row.point)];
        const PointInfo& info = set.info[static_cast<std::size_t>(row.point)];
        // A ball's anchor stays where it touches; another body's turns with it.
        const Vec3 ra = c.round_a ? p.ra : rotate(a.rotation, info.local_a);
        const Vec3 rb = c.round_b ? p.rb : rotate(b.rotation, info.local_b);
        // Both anchors started at the point: the separation has grown by how far B's anchor
        // moved from A's along the normal.
        const double s = info.separation + dot((b.centre + rb) - (a.centre + ra), c.normal);
        deepest = std::min(deepest, s);
        if (s >= 0) continue;
        const double correction = std::max(kCorrectionFactor * s, -kMaxCorrection);
        // The arms the push turns a body by: none for a ball (it passes through its centre).
        const Vec3 arm_a = c.round_a ? Vec3{} : ra, arm_b = c.round_b ? Vec3{} : rb;
        const double kk = inverse_effective_mass(a, b, arm_a, arm_b, c.normal);
        if (!(kk > 0)) continue;
        const Vec3 impulse = c.normal * (-correction / kk);
        if (a.inv_mass > 0) {
            a.centre -= impulse * a.inv_mass;
            if (!c.round_a) {
                const Vec3 ta = a.inv_inertia * cross(ra, impulse);
                if (!is_zero(ta)) a.rotation = normalize(exp_rotation(ta * -1.0) * a.rotation);
            }
        }
        if (b.inv_mass > 0) {
            b.centre += impulse * b.inv_mass;
            if (!c.round_b) {
                const Vec3 tb = b.inv_inertia * cross(rb, impulse);
                if (!is_zero(tb)) b.rotation = normalize(exp_rotation(tb) * b.rotation);
            }
        }
        moved = true;
    }
    return deepest;
}

/// True when position correction can solve chain island `island`'s rows together: every
/// contact of it turns neither body (balls, bodies that cannot turn), so its separation is
/// linear in the bodies' centres (PositionRow with no point).
bool linear_chain(const StepConstraints& set, const SolverIsland& island) {
    if (island.chain_first < 0) return false;
    for (int k = 0; k < island.count; ++k)
        if (!set.contacts[static_cast<std::size_t>(
                                  set.islands.chain_order[static_cast<std::size_t>(island.chain_first + k)])]
                     .linear)
            return false;
    return true;
}

/// One pass of position correction over a linear chain island (linear_chain()): every
/// separation brought to 0 at once where the push is needed (solve_chain_rows(): pushes ≥ 0,
/// a row pushed ends touching, one not pushed at or above touching), the bodies moved by it;
/// one contact at a time (correct_contact()) where a point is deeper than kMaxCorrection or
/// the rows do not settle. Returns the deepest separation before the pass (m, ≤ 0) and sets
/// `moved` when it moved a body.
double correct_chain_pass(StepConstraints& set, std::span<BodySim> bodies, const SolverIsland& island, bool& moved) {
    const int m = island.count;
    const int* const order = set.islands.chain_order.data() + island.chain_first;
    const ChainRows rows(set.islands.chain_work.data() + kChainWork * static_cast<std::size_t>(island.chain_first), m);
    const auto row_of = [&](int k) -> const PositionRow& {
        return set.position_rows[static_cast<std::size_t>(set.row_first[static_cast<std::size_t>(order[k])])];
    };
    double deepest = 0;
    for (int k = 0; k < m; ++k) {
        const PositionRow& row = row_of(k);
        const BodySim& a = bodies[static_cast<std::size_t>(row.a)];
        const BodySim& b = bodies[static_cast<std::size_t>(row.b)];
        rows.value[k] = row.base + dot(b.centre - a.centre, row.normal);
        rows.diagonal[k] = a.inv_mass + b.inv_mass;
        rows.goal[k] = 0;
        rows.held[k] = 0;
        deepest = std::min(deepest, rows.value[k]);
        if (k + 1 == m) continue;
        // The coupling through the moving body the two rows share (chain_coupling()'s, linear).
        const PositionRow& next = row_of(k + 1);
        const int x = (row.a == next.a || row.a == next.b) && a.inv_mass > 0 ? row.a : row.b;
        const double sign = (x == row.b ? 1.0 : -1.0) * (x == next.b ? 1.0 : -1.0);
        rows.link[k] = sign * bodies[static_cast<std::size_t>(x)].inv_mass * dot(row.normal, next.normal);
    }
    if (deepest >= -kTouchTolerance) return deepest; // nothing deeper than touching
    if (deepest < -kMaxCorrection || !solve_chain_rows(m, rows, 0.01 * kTouchTolerance)) {
        for (int k = 0; k < m; ++k) correct_contact(set, bodies, order[k], moved);
        return deepest;
    }
    for (int k = 0; k < m; ++k) {
        const double push = rows.delta[k];
        if (!(push > 0)) continue;
        const PositionRow& row = row_of(k);
        BodySim& a = bodies[static_cast<std::size_t>(row.a)];
        BodySim& b = bodies[static_cast<std::size_t>(row.b)];
        if (a.inv_mass > 0) a.centre -= row.normal * (push * a.inv_mass);
        if (b.inv_mass > 0) b.centre += row.normal * (push * b.inv_mass);
        moved = true;
    }
    return deepest;
}

} // namespace

void gather_solver_bodies(StepConstraints& set, std::span<const BodySim> bodies, const StepThreads& threads) {
    SolverBodies& s = set.bodies;
    if (s.slot.size() < bodies.size()) s.slot.resize(bodies.size(), -1);
    const int n = static_cast<int>(bodies.size());
    const int m = static_cast<int>(set.contacts.size());
    // In blocks: every contact marks its two bodies (0; a mark is only ever set, each store
    // atomic), the marked bodies get slots in the order of their indices (each block's count
    // first, then its slots after the blocks before it), and each contact reads its bodies'.
    constexpr int kMarkBlock = 4096;
    threads.for_blocks(m, kMarkBlock, [&](int begin, int end) {
        for (int k = begin; k < end; ++k) {
            const SolverContact& c = set.contacts[static_cast<std::size_t>(k)];
            std::atomic_ref<int>(s.slot[static_cast<std::size_t>(c.a)]).store(0, std::memory_order_relaxed);
            std::atomic_ref<int>(s.slot[static_cast<std::size_t>(c.b)]).store(0, std::memory_order_relaxed);
        }
    });
    const int blocks = n > 0 ? (n - 1) / kMarkBlock + 1 : 0;
    s.block_first.assign(static_cast<std::size_t>(blocks) + 1, 0);
    threads.for_blocks(n, kMarkBlock, [&](int begin, int end) {
        int marked = 0;
        for (int i = begin; i < end; ++i) marked += s.slot[static_cast<std::size_t>(i)] == 0 ? 1 : 0;
        s.block_first[static_cast<std::size_t>(begin / kMarkBlock) + 1] = marked;
    });
    std::partial_sum(s.block_first.begin(), s.block_first.end(), s.block_first.begin());
    s.body.resize(static_cast<std::size_t>(s.block_first[static_cast<std::size_t>(blocks)]));
    threads.for_blocks(n, kMarkBlock, [&](int begin, int end) {
        int next = s.block_first[static_cast<std::size_t>(begin / kMarkBlock)];
        for (int i = begin; i < end; ++i) {
            int& slot = s.slot[static_cast<std::size_t>(i)];
            if (slot != 0) continue;
            slot = next++;
            s.body[static_cast<std::size_t>(slot)] = i;
        }
    });
    threads.for_blocks(m, kMarkBlock, [&](int begin, int end) {
        for (int k = begin; k < end; ++k) {
            SolverContact& c = set.contacts[static_cast<std::size_t>(k)];
            c.sa = s.slot[static_cast<std::size_t>(c.a)];
            c.sb = s.slot[static_cast<std::size_t>(c.b)];
        }
    });
    threads.for_blocks(static_cast<int>(s.body.size()), kMarkBlock, [&](int begin, int end) {
        for (int k = begin; k < end; ++k) s.slot[static_cast<std::size_t>(s.body[static_cast<std::size_t>(k)])] = -1;
    });              // (ready for the next gather)
    s.state.clear(); // (sized for overwrite: the blocks below write every slot whole)
    s.inv_inertia.clear();
    resize_for_overwrite(s.state, s.body.size());
    resize_for_overwrite(s.inv_inertia, s.body.size());
    threads.for_blocks(static_cast<int>(s.body.size()), kBodiesPerSlotBlock, [&](int begin, int end) {
        for (int k = begin; k < end; ++k) {
            const BodySim& b = bodies[static_cast<std::size_t>(s.body[static_cast<std::size_t>(k)])];
            s.state[static_cast<std::size_t>(k)] = {b.velocity, b.angular_velocity, b.inv_mass};
            s.inv_inertia[static_cast<std::size_t>(k)] = b.inv_inertia;
        }
    });
}

void scatter_solver_bodies(const StepConstraints& set, std::span<BodySim> bodies, const StepThreads& threads) {
    const SolverBodies& s = set.bodies;
    threads.for_blocks(static_cast<int>(s.body.size()), kBodiesPerSlotBlock, [&](int begin, int end) {
        for (int k = begin; k < end; ++k) {
            const SolverBody& state = s.state[static_cast<std::size_t>(k)];
            if (!(state.inv_mass > 0)) continue; // (never written)
            BodySim& b = bodies[static_cast<std::size_t>(s.body[static_cast<std::size_t>(k)])];
            b.velocity = state.velocity;
            b.angular_velocity = state.angular_velocity;
        }
    });
}

void warm_start(StepConstraints& set, const StepThreads& threads) {
    const SolverIslands& g = set.islands;
    for_islands(threads, g, [&](const SolverIsland& island) {
        for_island_contacts(threads, g, island,
                            [&](int k) { warm_start_contact(set, set.contacts[static_cast<std::size_t>(k)]); });
    });
}

PassChange solve_contacts(const StepContext& ctx, StepConstraints& set) {
    ContactChange change;
    for (const SolverContact& c : set.contacts) change.raise(solve_contact(ctx, set, c));
    return {std::max(change.normal, std::sqrt(change.friction2))};
}

void solve_velocities(const StepContext& ctx, StepConstraints& set, const StepThreads& threads) {
    const SolverIslands& g = set.islands;
    for_islands(threads, g, [&](const SolverIsland& island) {
        if (island.chain_first >= 0) { // its couplings, once a step
            const int* const order = g.chain_order.data() + island.chain_first;
            double* const link =
                    set.islands.chain_work.data() + kChainWork * static_cast<std::size_t>(island.chain_first);
            for (int k = 0; k + 1 < island.count; ++k) link[k] = chain_coupling(set, order[k], order[k + 1]);
        }
        for (int pass = 0; pass < ctx.velocity_iterations; ++pass) {
            const ContactChange change =
                    island.chain_first >= 0
                            ? solve_chain_pass(ctx, set, island)
                            : reduce_island_contacts(threads, g, island, [&](int k) {
                                  return solve_contact(ctx, set, set.contacts[static_cast<std::size_t>(k)]);
                              });
            if (PassChange{std::max(change.normal, std::sqrt(change.friction2))}.converged(ctx.velocity_tolerance))
                break;
        }
    });
}

bool apply_restitution(const StepContext& ctx, StepConstraints& set, const StepThreads& threads) {
    std::atomic<bool> changed{false};
    const SolverIslands& g = set.islands;
    for_islands(threads, g, [&](const SolverIsland& island) {
        for_island_contacts(threads, g, island, [&](int k) {
            // (Read before written: threads writing one flag for every contact would fight over its line.)
            if (restitute_contact(ctx, set, set.contacts[static_cast<std::size_t>(k)]) &&
                !changed.load(std::memory_order_relaxed))
                changed.store(true, std::memory_order_relaxed);
        });
    });
    return changed.load();
}

void store_impulses(const StepConstraints& set, ContactSet& pairs, const StepThreads& threads) {
    constexpr int kBlock = 1024;
    threads.for_blocks(static_cast<int>(set.contacts.size()), kBlock, [&](int begin, int end) {
        for (int k = begin; k < end; ++k) {
            const SolverContact& c = set.contacts[static_cast<std::size_t>(k)];
            const PairContact& pc = pairs.pairs[static_cast<std::size_t>(c.pair)];
            const PairManifold& pm = pairs.manifolds[static_cast<std::size_t>(pc.first + c.manifold)];
            for (int q = 0; q < c.count; ++q) {
                const SolverPoint& p = set.points[static_cast<std::size_t>(c.first + q)];
                ContactPoint& cp = pairs.points[static_cast<std::size_t>(pm.first + q)];
                cp.normal_impulse = p.normal_impulse;
                cp.tangent_impulse = tangent_impulse(c, p);
            }
        }
    });
}

bool correct_positions(const StepContext& ctx, StepConstraints& set, std::span<BodySim> bodies,
                       const StepThreads& threads) {
    // The passes' rows, found once, contact by contact (row_first[k] is contact k's first): a
    // point of a pair that turns neither body (balls, bodies that cannot turn) needs only its
    // normal, its separation at the start less its anchors' offset along the normal, and each
    // body's share of the push; another keeps its contact and point.
    // (In blocks: each block's rows counted from 0, then moved on by the blocks before it.)
    const std::size_t m = set.contacts.size();
    set.row_first.resize(m + 1);
    constexpr int kRowBlock = 4096;
    const int blocks = m > 0 ? static_cast<int>((m - 1) / kRowBlock) + 1 : 0;
    set.block_rows.assign(static_cast<std::size_t>(blocks) + 1, 0);
    threads.for_blocks(static_cast<int>(m), kRowBlock, [&](int begin, int end) {
        int rows = 0;
        for (auto k = static_cast<std::size_t>(begin); k < static_cast<std::size_t>(end); ++k) {
            set.row_first[k] = rows;
            const SolverContact& c = set.contacts[k];
            const bool moves = bodies[static_cast<std::size_t>(c.a)].inv_mass != 0 ||
                               bodies[static_cast<std::size_t>(c.b)].inv_mass != 0;
            rows += moves ? c.count : 0;
        }
        set.block_rows[static_cast<std::size_t>(begin / kRowBlock) + 1] = rows;
    });
    std::partial_sum(set.block_rows.begin(), set.block_rows.end(), set.block_rows.begin());
    const int rows = set.block_rows[static_cast<std::size_t>(blocks)];
    threads.for_blocks(static_cast<int>(m), kRowBlock, [&](int begin, int end) {
        const int before = set.block_rows[static_cast<std::size_t>(begin / kRowBlock)];
        if (before != 0)
            for (auto k = static_cast<std::size_t>(begin); k < static_cast<std::size_t>(end); ++k)
                set.row_first[k] += before;
    });
    set.row_first[m] = rows;
    set.position_rows.clear(); // (sized for overwrite: the blocks below write every row whole)
    resize_for_overwrite(set.position_rows, static_cast<std::size_t>(rows));
    threads.for_blocks(static_cast<int>(m), 1024, [&](int begin, int end) {
        for (int k = begin; k < end; ++k) {
            const SolverContact& c = set.contacts[static_cast<std::size_t>(k)];
            const BodySim& a = bodies[static_cast<std::size_t>(c.a)];
            const BodySim& b = bodies[static_cast<std::size_t>(c.b)];
            if (a.inv_mass == 0 && b.inv_mass == 0) continue;
            const double k_linear = a.inv_mass + b.inv_mass; // > 0: one body moves
            for (int q = 0; q < c.count; ++q) {
                const SolverPoint& p = set.points[static_cast<std::size_t>(c.first + q)];
                const PointInfo& info = set.info[static_cast<std::size_t>(c.first + q)];
                PositionRow& row =
                        set.position_rows[static_cast<std::size_t>(set.row_first[static_cast<std::size_t>(k)] + q)];
                row = PositionRow{};
                row.a = c.a;
                row.b = c.b;
                row.normal = c.normal;
                if (c.linear) {
                    row.point = -1;
                    // A ball's anchor stays where it touches (and one that cannot turn is not turned).
                    const Vec3 ra = c.round_a ? p.ra : rotate(a.rotation, info.local_a);
                    const Vec3 rb = c.round_b ? p.rb : rotate(b.rotation, info.local_b);
                    row.base = info.separation + dot(rb - ra, c.normal);
                    row.share_a = a.inv_mass / k_linear;
                    row.share_b = b.inv_mass / k_linear;
                } else {
                    row.point = c.first + q;
                    row.contact = k;
                }
            }
        }
    });
    // Each island's passes, until nothing of it is deeper than touching.
    std::atomic<bool> moved{false};
    const SolverIslands& g = set.islands;
    for_islands(threads, g, [&](const SolverIsland& island) {
        if (linear_chain(set, island)) {
            bool here = false;
            for (int pass = 0; pass < ctx.position_iterations; ++pass)
                if (correct_chain_pass(set, bodies, island, here) >= -kTouchTolerance) break;
            if (here && !moved.load(std::memory_order_relaxed)) moved.store(true, std::memory_order_relaxed);
            return;
        }
        for (int pass = 0; pass < ctx.position_iterations; ++pass) {
            const ContactChange deepest = reduce_island_contacts(threads, g, island, [&](int k) {
                bool here = false;
                const double s = correct_contact(set, bodies, k, here);
                // (Read before written: threads writing one flag for every contact would fight over its line.)
                if (here && !moved.load(std::memory_order_relaxed)) moved.store(true, std::memory_order_relaxed);
                return ContactChange{-s, 0};
            });
            if (-deepest.normal >= -kTouchTolerance) break; // nothing deeper than touching is left
        }
    });
    return moved.load();
}

} // namespace collide
