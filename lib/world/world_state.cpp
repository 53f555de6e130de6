// The world's tables: what a body's predicates say of it, and the notifications every stage
// sends through the world's view.
#include "world/world_state.h"

#include <algorithm>

namespace collide {

bool WorldState::moves(int i) const {
    const Body& b = bodies[static_cast<std::size_t>(i)];
    const BodySim& s = sims[static_cast<std::size_t>(i)];
    switch (b.kind) {
    case BodyKind::fixed: return false;
    case BodyKind::dynamic: return !b.asleep;
    case BodyKind::kinematic:
    case BodyKind::character: return !is_zero(s.velocity) || b.spinning;
    }
    return false;
}

bool WorldState::pair_can_touch(int i, int j) const {
    const Body& a = bodies[static_cast<std::size_t>(i)];
    const Body& b = bodies[static_cast<std::size_t>(j)];
    if (a.trigger || b.trigger) return false; // a trigger only overlaps: it is in no pair
    return a.kind == BodyKind::dynamic || b.kind == BodyKind::dynamic;
}

bool WorldState::pair_is_swept(int i, int j) const {
    const Body& a = bodies[static_cast<std::size_t>(i)];
    const Body& b = bodies[static_cast<std::size_t>(j)];
    if (a.kind == BodyKind::character || b.kind == BodyKind::character) return false;
    return pair_can_touch(i, j) && (a.swept || b.swept);
}

bool WorldState::pair_is_speculative(int i, int j) const {
    const Body& a = bodies[static_cast<std::size_t>(i)];
    const Body& b = bodies[static_cast<std::size_t>(j)];
    if (a.kind == BodyKind::character || b.kind == BodyKind::character) return false;
    return pair_can_touch(i, j) && !a.swept && !b.swept && (a.speculative || b.speculative);
}

void tell_move(const WorldState& w, int index, double tau, const Vec3& accel) {
    for (const Listener& l : w.listeners)
        if (l.events & kOnMove) l.observer->on_move(*w.view, index, tau, accel);
}

void tell_contact(const WorldState& w, int a, int b, double time, std::span<const Manifold> manifolds) {
    const ContactEvent e{a, b, time, manifolds};
    for (const Listener& l : w.listeners)
        if (l.events & kOnContact) l.observer->on_contact(*w.view, e);
}

void save_velocities(const WorldState& w, StepScratch& scratch, std::span<const SolverContact> contacts) {
    if (!(w.wanted & kOnResponse)) return;
    scratch.before.resize(w.sims.size());
    for (const SolverContact& c : contacts) {
        scratch.before[static_cast<std::size_t>(c.a)] = w.sims[static_cast<std::size_t>(c.a)].velocity;
        scratch.before[static_cast<std::size_t>(c.b)] = w.sims[static_cast<std::size_t>(c.b)].velocity;
    }
}

void tell_responses(const WorldState& w, StepScratch& scratch, std::span<const SolverContact> contacts) {
    if (!(w.wanted & kOnResponse)) return;
    // Each changed body once, in body order.
    scratch.found.clear();
    for (const SolverContact& c : contacts) {
        for (const int k : {c.a, c.b})
            if (w.is_dynamic(k) &&
                !(scratch.before[static_cast<std::size_t>(k)] == w.sims[static_cast<std::size_t>(k)].velocity))
                scratch.found.push_back(k);
    }
    std::sort(scratch.found.begin(), scratch.found.end());
    scratch.found.erase(std::unique(scratch.found.begin(), scratch.found.end()), scratch.found.end());
    for (const int k : scratch.found)
        for (const Listener& l : w.listeners)
            if (l.events & kOnResponse)
                l.observer->on_response(*w.view, k, scratch.before[static_cast<std::size_t>(k)],
                                        w.sims[static_cast<std::size_t>(k)].velocity);
}

void tell_arrivals(WorldState& w, StepScratch& scratch) {
    if (!(w.wanted & kOnContact)) return;
    // A speculative gap that closed is a contact, told at the step's end. (Which contacts
    // arrived is found in blocks; they are told in order.)
    const auto m = static_cast<int>(w.constraints.contacts.size());
    scratch.arrived.resize(static_cast<std::size_t>(m));
    w.threads.for_blocks(m, 4096, [&](int begin, int end) {
        for (int k = begin; k < end; ++k) {
            const SolverContact& c = w.constraints.contacts[static_cast<std::size_t>(k)];
            bool arrived = false;
            for (int q = c.first; q < c.first + c.count; ++q) {
                const PointInfo& info = w.constraints.info[static_cast<std::size_t>(q)];
                arrived = arrived ||
                          (!info.touching && w.constraints.points[static_cast<std::size_t>(q)].normal_impulse > 0 &&
                           info.approach < 0);
            }
            scratch.arrived[static_cast<std::size_t>(k)] = arrived ? 1 : 0;
        }
    });
    for (int k = 0; k < m; ++k) {
        if (!scratch.arrived[static_cast<std::size_t>(k)]) continue;
        const SolverContact& c = w.constraints.contacts[static_cast<std::size_t>(k)];
        PairContact& pc = w.contacts.pairs[static_cast<std::size_t>(c.pair)];
        pc.told = pc.touching = true;
        scratch.manifolds.resize(1);
        Manifold& m = scratch.manifolds[0];
        const PairManifold& pm = w.contacts.manifolds_of(pc)[static_cast<std::size_t>(c.manifold)];
        m.normal = pm.normal;
        m.key = pm.key;
        m.count = pm.count;
        for (int q = 0; q < pm.count; ++q) {
            m.points[static_cast<std::size_t>(q)] = w.contacts.points_of(pm)[static_cast<std::size_t>(q)].found;
            m.points[static_cast<std::size_t>(q)].depth = 0; // arrived touching
        }
        tell_contact(w, c.a, c.b, w.frame_time, scratch.manifolds);
    }
}

} // namespace collide
