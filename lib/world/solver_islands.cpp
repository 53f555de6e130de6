#include "world/solver_islands.h"

#include <algorithm>

#include "world/contact_solver.h"

namespace collide {

namespace {

int find_root(std::vector<int>& parent, int i) {
    while (parent[static_cast<std::size_t>(i)] != i) {
        const int up = parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(i)])];
        parent[static_cast<std::size_t>(i)] = up; // path halving
        i = up;
    }
    return i;
}

/// Colours the island's contacts `order[first, first + count)` and sorts them by colour
/// (stably: a colour's contacts stay in contact order), adding its groups to `out`.
void color_island(std::span<const SolverContact> contacts, std::span<const BodySim> bodies, int first, int count,
                  SolverIslands& out) {
    int sizes[kGraphColors + 1] = {};
    for (int e = first; e < first + count; ++e) {
        const SolverContact& c = contacts[static_cast<std::size_t>(out.order[static_cast<std::size_t>(e)])];
        const bool ma = bodies[static_cast<std::size_t>(c.a)].inv_mass > 0;
        const bool mb = bodies[static_cast<std::size_t>(c.b)].inv_mass > 0;
        const std::uint32_t taken = (ma ? out.used[static_cast<std::size_t>(c.a)] : 0u) |
                                    (mb ? out.used[static_cast<std::size_t>(c.b)] : 0u);
        int colour = kGraphColors;
        for (int k = 0; k < kGraphColors; ++k)
            if (!(taken & (1u << k))) {
                colour = k;
                break;
            }
        if (colour < kGraphColors) {
            if (ma) out.used[static_cast<std::size_t>(c.a)] |= 1u << colour;
            if (mb) out.used[static_cast<std::size_t>(c.b)] |= 1u << colour;
        }
        out.color[static_cast<std::size_t>(e)] = static_cast<unsigned char>(colour);
        ++sizes[colour];
    }
    // The bodies' colours are cleared for the next island.
    for (int e = first; e < first + count; ++e) {
        const SolverContact& c = contacts[static_cast<std::size_t>(out.order[static_cast<std::size_t>(e)])];
        out.used[static_cast<std::size_t>(c.a)] = 0;
        out.used[static_cast<std::size_t>(c.b)] = 0;
    }
    int starts[kGraphColors + 1];
    int at = 0;
    for (int k = 0; k <= kGraphColors; ++k) {
        starts[k] = at;
        at += sizes[k];
    }
    out.sorted.resize(static_cast<std::size_t>(count));
    for (int e = first; e < first + count; ++e)
        out.sorted[static_cast<std::size_t>(starts[out.color[static_cast<std::size_t>(e)]]++)] =
                out.order[static_cast<std::size_t>(e)];
    std::copy(out.sorted.begin(), out.sorted.end(), out.order.begin() + first);
    at = first;
    for (int k = 0; k <= kGraphColors; ++k) {
        if (sizes[k] == 0) continue;
        out.groups.push_back({at, sizes[k], k < kGraphColors});
        at += sizes[k];
    }
}

} // namespace

void group_islands(std::span<const SolverContact> contacts, std::span<const BodySim> bodies, SolverIslands& out) {
    out.clear();
    const int n = static_cast<int>(bodies.size());
    const int m = static_cast<int>(contacts.size());
    if (m == 0) return;
    out.parent.resize(static_cast<std::size_t>(n));
    for (int k = 0; k < n; ++k) out.parent[static_cast<std::size_t>(k)] = k;
    const auto moves = [&](int body) { return bodies[static_cast<std::size_t>(body)].inv_mass > 0; };
    for (const SolverContact& c : contacts) {
        if (!moves(c.a) || !moves(c.b)) continue;
        const int ra = find_root(out.parent, c.a), rb = find_root(out.parent, c.b);
        if (ra != rb) out.parent[static_cast<std::size_t>(std::max(ra, rb))] = std::min(ra, rb);
    }
    // Islands numbered in the order of their first contact; a contact that moves no body (none
    // is made today) is an island of its own.
    out.island_of.assign(static_cast<std::size_t>(n), -1);
    out.contact_island.resize(static_cast<std::size_t>(m));
    out.fill.clear();
    for (int k = 0; k < m; ++k) {
        const SolverContact& c = contacts[static_cast<std::size_t>(k)];
        int island;
        if (moves(c.a) || moves(c.b)) {
            const int root = find_root(out.parent, moves(c.a) ? c.a : c.b);
            int& id = out.island_of[static_cast<std::size_t>(root)];
            if (id < 0) {
                id = static_cast<int>(out.fill.size());
                out.fill.push_back(0);
            }
            island = id;
        } else {
            island = static_cast<int>(out.fill.size());
            out.fill.push_back(0);
        }
        out.contact_island[static_cast<std::size_t>(k)] = island;
        ++out.fill[static_cast<std::size_t>(island)];
    }
    const int islands = static_cast<int>(out.fill.size());
    out.islands.resize(static_cast<std::size_t>(islands));
    int at = 0;
    for (int i = 0; i < islands; ++i) {
        SolverIsland& island = out.islands[static_cast<std::size_t>(i)];
        island.first = at;
        island.count = out.fill[static_cast<std::size_t>(i)];
        out.fill[static_cast<std::size_t>(i)] = at;
        at += island.count;
    }
    out.order.resize(static_cast<std::size_t>(m));
    for (int k = 0; k < m; ++k)
        out.order[static_cast<std::size_t>(
                out.fill[static_cast<std::size_t>(out.contact_island[static_cast<std::size_t>(k)])]++)] = k;
    out.used.assign(static_cast<std::size_t>(n), 0u);
    out.color.resize(static_cast<std::size_t>(m));
    for (SolverIsland& island : out.islands) {
        island.first_group = static_cast<int>(out.groups.size());
        if (island.count >= kColoredIsland)
            color_island(contacts, bodies, island.first, island.count, out);
        else
            out.groups.push_back({island.first, island.count, false});
        island.group_count = static_cast<int>(out.groups.size()) - island.first_group;
    }
}

} // namespace collide
