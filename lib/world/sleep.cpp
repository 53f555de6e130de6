// Sleep (Box2D's islands, simplified): dynamic bodies joined by contacts form islands; an
// island that rests on a static or kinematic body and whose every body has been still for
// rest_time falls asleep, and wakes as a whole when
// one of its bodies moves again or a moving kinematic body or character touches it.
#include <algorithm>
#include <limits>

#include "world/world.h"

namespace collide {

int World::island_root(int i) {
    while (island_[static_cast<std::size_t>(i)] != i) {
        const int up = island_[static_cast<std::size_t>(island_[static_cast<std::size_t>(i)])];
        island_[static_cast<std::size_t>(i)] = up; // path halving
        i = up;
    }
    return i;
}

void World::update_sleep(const StepContext& ctx) {
    if (!def_.sleep) return;
    const int n = body_count();
    const double enough = def_.rest_time * (1 - 1e-12);
    bool any_asleep = false, any_ready = false;
    for (int k = 0; k < n; ++k) {
        Body& b = body(k);
        if (b.kind != BodyKind::dynamic) continue;
        any_asleep = any_asleep || b.asleep;
        if (b.asleep) continue;
        b.still_time = fastest_speed(k) < def_.rest_speed ? b.still_time + ctx.h : 0.0;
        any_ready = any_ready || b.still_time >= enough;
    }
    // An island sleeps only when every body of it has been still long enough, and only a
    // sleeping one can wake: with neither, the islands need not be found (a rain in mid-air).
    if (!any_asleep && !any_ready) return;
    island_.resize(static_cast<std::size_t>(n));
    for (int k = 0; k < n; ++k) island_[static_cast<std::size_t>(k)] = k;
    island_still_.assign(static_cast<std::size_t>(n), std::numeric_limits<double>::infinity());
    island_wake_.assign(static_cast<std::size_t>(n), 0);
    for (const PairContact& c : contacts_.pairs) {
        const bool di = is_dynamic(c.i), dj = is_dynamic(c.j);
        if (di && dj) {
            const int a = island_root(c.i), b = island_root(c.j);
            if (a != b) island_[static_cast<std::size_t>(std::max(a, b))] = std::min(a, b);
        }
    }
    for (int k = 0; k < n; ++k) {
        if (!is_dynamic(k)) continue;
        const int r = island_root(k);
        island_still_[static_cast<std::size_t>(r)] =
                std::min(island_still_[static_cast<std::size_t>(r)], body(k).still_time);
    }
    // An island rests on something when it touches a body that is not dynamic (bit 2); one that
    // touches nothing so (a body in free flight, however slow) never sleeps: its drift goes on.
    // A kinematic body or a character that moves keeps what it touches awake (bit 1).
    for (const PairContact& c : contacts_.pairs) {
        const bool di = is_dynamic(c.i), dj = is_dynamic(c.j);
        if (di == dj) continue;
        unsigned char& flags = island_wake_[static_cast<std::size_t>(island_root(di ? c.i : c.j))];
        flags |= 2;
        if (moves(di ? c.j : c.i)) flags |= 1;
    }
    for (int k = 0; k < n; ++k) {
        Body& b = body(k);
        if (b.kind != BodyKind::dynamic) continue;
        const int r = island_root(k);
        const bool sleep =
                island_wake_[static_cast<std::size_t>(r)] == 2 && island_still_[static_cast<std::size_t>(r)] >= enough;
        if (sleep && !b.asleep) {
            b.asleep = true;
            sims_[static_cast<std::size_t>(k)].velocity = Vec3{};
            sims_[static_cast<std::size_t>(k)].angular_velocity = Vec3{};
        } else if (!sleep && b.asleep) {
            b.asleep = false;
            b.still_time = 0;
        }
    }
}

} // namespace collide
