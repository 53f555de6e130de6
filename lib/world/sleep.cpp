// Sleep (Box2D's islands, simplified): dynamic bodies joined by contacts form islands; an
// island that rests on a static or kinematic body and whose every body has been still for
// rest_time falls asleep, and wakes as a whole when
// one of its bodies moves again or a moving kinematic body or character touches it.
#include <algorithm>
#include <atomic>
#include <limits>

#include "world/sleep.h"

namespace collide {

namespace {

/// The root of body `i`'s island in the union–find parents `island` (path halving).
int island_root(std::vector<int>& island, int i) {
    while (island[static_cast<std::size_t>(i)] != i) {
        const int up = island[static_cast<std::size_t>(island[static_cast<std::size_t>(i)])];
        island[static_cast<std::size_t>(i)] = up; // path halving
        i = up;
    }
    return i;
}

} // namespace

void update_sleep(const StepContext& ctx, WorldState& w, StepScratch& scratch) {
    if (!w.def.sleep) return;
    const int n = w.body_count();
    const double enough = w.def.rest_time * (1 - 1e-12);
    // Each body's still time, in blocks (whether any sleeps, and any is ready to: either is
    // the same whichever block finds it), kept beside the islands' parents for the islands'
    // least (+∞: not a dynamic body, in no island's least).
    scratch.island.resize(static_cast<std::size_t>(n));
    scratch.still.resize(static_cast<std::size_t>(n));
    std::atomic<bool> any_asleep_at{false}, any_ready_at{false};
    w.threads.for_blocks(n, kBodiesPerBlock, [&](int begin, int end) {
        bool asleep = false, ready = false;
        for (int k = begin; k < end; ++k) {
            Body& b = w.body(k);
            scratch.island[static_cast<std::size_t>(k)] = k;
            scratch.still[static_cast<std::size_t>(k)] = std::numeric_limits<double>::infinity();
            if (b.kind != BodyKind::dynamic) continue;
            asleep = asleep || b.asleep;
            if (!b.asleep) {
                b.still_time = w.fastest_speed(k) < w.def.rest_speed ? b.still_time + ctx.h : 0.0;
                ready = ready || b.still_time >= enough;
            }
            scratch.still[static_cast<std::size_t>(k)] = b.still_time;
        }
        if (asleep) any_asleep_at.store(true, std::memory_order_relaxed);
        if (ready) any_ready_at.store(true, std::memory_order_relaxed);
    });
    const bool any_asleep = any_asleep_at.load(), any_ready = any_ready_at.load();
    // An island sleeps only when every body of it has been still long enough, and only a
    // sleeping one can wake: with neither, the islands need not be found (a rain in mid-air).
    if (!any_asleep && !any_ready) return;
    scratch.island_still.assign(static_cast<std::size_t>(n), std::numeric_limits<double>::infinity());
    scratch.island_wake.assign(static_cast<std::size_t>(n), 0);
    for (const PairContact& c : w.contacts.pairs) {
        const bool di = w.is_dynamic(c.i), dj = w.is_dynamic(c.j);
        if (di && dj) {
            const int a = island_root(scratch.island, c.i), b = island_root(scratch.island, c.j);
            if (a != b) scratch.island[static_cast<std::size_t>(std::max(a, b))] = std::min(a, b);
        }
    }
    // Every body's root, once (finding it halves paths, a write: on this thread), then only read;
    // each island's least still time from the compact table beside it.
    for (int k = 0; k < n; ++k) {
        const int r = island_root(scratch.island, k);
        scratch.island[static_cast<std::size_t>(k)] = r;
        scratch.island_still[static_cast<std::size_t>(r)] =
                std::min(scratch.island_still[static_cast<std::size_t>(r)], scratch.still[static_cast<std::size_t>(k)]);
    }
    // An island rests on something when it touches a body that is not dynamic (bit 2); one that
    // touches nothing so (a body in free flight, however slow) never sleeps: its drift goes on.
    // A kinematic body or a character that moves keeps what it touches awake (bit 1).
    for (const PairContact& c : w.contacts.pairs) {
        const bool di = w.is_dynamic(c.i), dj = w.is_dynamic(c.j);
        if (di == dj) continue;
        unsigned char& flags =
                scratch.island_wake[static_cast<std::size_t>(scratch.island[static_cast<std::size_t>(di ? c.i : c.j)])];
        flags |= 2;
        if (w.moves(di ? c.j : c.i)) flags |= 1;
    }
    // Each body falls asleep or wakes with its island, in blocks.
    w.threads.for_blocks(n, kBodiesPerBlock, [&](int begin, int end) {
        for (int k = begin; k < end; ++k) {
            Body& b = w.body(k);
            if (b.kind != BodyKind::dynamic) continue;
            const auto r = static_cast<std::size_t>(scratch.island[static_cast<std::size_t>(k)]);
            const bool sleep = scratch.island_wake[r] == 2 && scratch.island_still[r] >= enough;
            if (sleep && !b.asleep) {
                b.asleep = true;
                w.sims[static_cast<std::size_t>(k)].velocity = Vec3{};
                w.sims[static_cast<std::size_t>(k)].angular_velocity = Vec3{};
            } else if (!sleep && b.asleep) {
                b.asleep = false;
                b.still_time = 0;
            }
        }
    });
}

} // namespace collide
