// The resting estimate: bodies set in contact at t = 0 start holding their weight.
#include "world/resting.h"

#include <cmath>
#include <limits>

namespace collide {

void estimate_resting_impulses(const StepContext& ctx, WorldState& w, StepScratch& scratch) {
    const double g = length(w.def.gravity);
    if (!(g > 0) || w.contacts.empty()) return;
    const int n = w.body_count();
    constexpr int kFar = std::numeric_limits<int>::max() / 2;
    // Levels over the initial contacts (breadth first from the bodies that do not move).
    scratch.levels.assign(static_cast<std::size_t>(n), kFar);
    scratch.adjacency_start.assign(static_cast<std::size_t>(n) + 1, 0);
    for (const PairContact& c : w.contacts.pairs) {
        ++scratch.adjacency_start[static_cast<std::size_t>(c.i) + 1];
        ++scratch.adjacency_start[static_cast<std::size_t>(c.j) + 1];
    }
    for (int k = 0; k < n; ++k)
        scratch.adjacency_start[static_cast<std::size_t>(k) + 1] +=
                scratch.adjacency_start[static_cast<std::size_t>(k)];
    scratch.adjacency.resize(static_cast<std::size_t>(scratch.adjacency_start.back()));
    scratch.fill.assign(scratch.adjacency_start.begin(), scratch.adjacency_start.end() - 1);
    for (std::size_t e = 0; e < w.contacts.size(); ++e) {
        const PairContact& c = w.contacts.pairs[e];
        scratch.adjacency[static_cast<std::size_t>(scratch.fill[static_cast<std::size_t>(c.i)]++)] =
                static_cast<int>(e);
        scratch.adjacency[static_cast<std::size_t>(scratch.fill[static_cast<std::size_t>(c.j)]++)] =
                static_cast<int>(e);
    }
    scratch.queue.clear();
    for (int k = 0; k < n; ++k)
        if (!w.is_dynamic(k)) {
            scratch.levels[static_cast<std::size_t>(k)] = 0;
            scratch.queue.push_back(k);
        }
    for (std::size_t head = 0; head < scratch.queue.size(); ++head) {
        const int k = scratch.queue[head];
        for (int e = scratch.adjacency_start[static_cast<std::size_t>(k)];
             e < scratch.adjacency_start[static_cast<std::size_t>(k) + 1]; ++e) {
            const PairContact& c =
                    w.contacts.pairs[static_cast<std::size_t>(scratch.adjacency[static_cast<std::size_t>(e)])];
            const int o = c.i == k ? c.j : c.i;
            if (scratch.levels[static_cast<std::size_t>(o)] <= scratch.levels[static_cast<std::size_t>(k)] + 1)
                continue;
            scratch.levels[static_cast<std::size_t>(o)] = scratch.levels[static_cast<std::size_t>(k)] + 1;
            scratch.queue.push_back(o);
        }
    }
    // From the top down (the walk's order reversed): each body's load, its weight and what rests
    // on it, is balanced by its supports' points: the least-squares impulses (smallest in sum of
    // squares) whose upward parts carry the load and whose torques about its centre cancel the
    // load's, about both horizontal axes — or, where no such impulses are all pushing (a body
    // that would tip) or its supports do not span an area, the load shared in proportion to each
    // point's upward part.
    scratch.load.assign(static_cast<std::size_t>(n), 0.0);
    scratch.load_torque.assign(static_cast<std::size_t>(n), Vec3{});
    const Vec3 e1 = any_perpendicular(w.up), e2 = cross(w.up, e1);
    for (std::size_t q = scratch.queue.size(); q-- > 0;) {
        const int k = scratch.queue[q];
        if (!w.is_dynamic(k)) continue;
        const Vec3 centre = w.sims[static_cast<std::size_t>(k)].centre;
        const double force =
                scratch.load[static_cast<std::size_t>(k)] + g * ctx.h / w.sims[static_cast<std::size_t>(k)].inv_mass;
        const Vec3 torque = scratch.load_torque[static_cast<std::size_t>(k)];
        scratch.supports.clear();
        for (int e = scratch.adjacency_start[static_cast<std::size_t>(k)];
             e < scratch.adjacency_start[static_cast<std::size_t>(k) + 1]; ++e) {
            const int index = scratch.adjacency[static_cast<std::size_t>(e)];
            const PairContact& c = w.contacts.pairs[static_cast<std::size_t>(index)];
            const int o = c.i == k ? c.j : c.i;
            if (scratch.levels[static_cast<std::size_t>(o)] >= scratch.levels[static_cast<std::size_t>(k)]) continue;
            for (const PairManifold& pm : w.contacts.manifolds_of(c)) {
                const Vec3 normal = c.i == k ? pm.normal * -1.0 : pm.normal; // from the support to k
                const double rise = dot(normal, w.up);
                if (!(rise > 0)) continue;
                for (int p = 0; p < pm.count; ++p) {
                    const int point = pm.first + p;
                    const Vec3 arm =
                            cross(w.contacts.points[static_cast<std::size_t>(point)].found.point - centre, normal);
                    scratch.supports.push_back({point, o, normal, rise, dot(arm, e1), dot(arm, e2), 0});
                }
            }
        }
        if (scratch.supports.empty()) continue;
        // A·λ = b with rows (rise, arm·e1, arm·e2): λ = Aᵀ·(A·Aᵀ)⁻¹·b.
        Mat3 aat{{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}};
        for (const Support& sp : scratch.supports) {
            const Vec3 row{sp.rise, sp.arm1, sp.arm2};
            aat = aat + outer(row, row);
        }
        const Vec3 rhs{force, -dot(torque, e1), -dot(torque, e2)};
        const Mat3 inv = inverse(aat);
        bool balanced = !(inv == zero3()) && std::fabs(determinant(aat)) > 1e-12 * trace(aat) * trace(aat) * trace(aat);
        if (balanced) {
            const Vec3 y = inv * rhs;
            for (Support& sp : scratch.supports) {
                sp.impulse = sp.rise * y.x + sp.arm1 * y.y + sp.arm2 * y.z;
                balanced = balanced && sp.impulse >= 0;
            }
        }
        if (!balanced) {
            double rises = 0;
            for (const Support& sp : scratch.supports) rises += sp.rise * sp.rise;
            for (Support& sp : scratch.supports) sp.impulse = force * sp.rise / rises;
        }
        for (const Support& sp : scratch.supports) {
            ContactPoint& cp = w.contacts.points[static_cast<std::size_t>(sp.point)];
            cp.normal_impulse += sp.impulse;
            if (!w.is_dynamic(sp.support)) continue;
            // The support is pushed back by the same impulse at the same point.
            const Vec3 on_support = sp.normal * -sp.impulse;
            scratch.load[static_cast<std::size_t>(sp.support)] += sp.impulse * sp.rise;
            scratch.load_torque[static_cast<std::size_t>(sp.support)] +=
                    cross(cp.found.point - w.sims[static_cast<std::size_t>(sp.support)].centre, on_support);
        }
    }
}

} // namespace collide
