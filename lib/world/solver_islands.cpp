#include "world/solver_islands.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>

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

/// Adds a group of one run: `count` contacts from order[first], one after another.
void add_run_group(SolverIslands& out, int first, int count) {
    out.groups.push_back({first, count, static_cast<int>(out.chain_start.size()), 1});
    out.chain_start.push_back(first);
    out.chain_start.push_back(first + count);
}

/// Where a large island's contacts go: a part (0 … kIslandParts − 1), the seam between parts
/// p and p + 1 (kIslandParts + p), or between parts further apart (kFarSeams).
constexpr int kSeams = kIslandParts;                 ///< the first seam between neighbouring parts
constexpr int kFarSeams = kSeams + kIslandParts - 1; ///< seams between parts further apart
constexpr int kPlaces = kFarSeams + 1;

/// Splits the island's contacts `order[first, first + count)` into kIslandParts parts and the
/// seams between them (solver_islands.h), reordering them part by part (each in contact order),
/// then the seams; adds its groups to `out`: the parts; the seams between parts 0 and 1, 2 and
/// 3 … (they share no moving body: each touches only its two parts); those between 1 and 2, 3
/// and 4 …; and the few between parts further apart, one after another.
void split_island(std::span<const SolverContact> contacts, std::span<const BodySim> bodies, int first, int count,
                  SolverIslands& out) {
    const auto moves = [&](int body) { return bodies[static_cast<std::size_t>(body)].inv_mass > 0; };
    // The moving bodies by index, cut into parts of equal size.
    out.ranked.clear();
    for (int e = first; e < first + count; ++e) {
        const SolverContact& c = contacts[static_cast<std::size_t>(out.order[static_cast<std::size_t>(e)])];
        for (const int body : {c.a, c.b}) {
            if (!moves(body) || out.part[static_cast<std::size_t>(body)] >= 0) continue;
            out.part[static_cast<std::size_t>(body)] = 0; // seen
            out.ranked.push_back(body);
        }
    }
    std::sort(out.ranked.begin(), out.ranked.end());
    const auto n = static_cast<long long>(out.ranked.size());
    for (long long r = 0; r < n; ++r)
        out.part[static_cast<std::size_t>(out.ranked[static_cast<std::size_t>(r)])] =
                static_cast<int>(r * kIslandParts / n);
    // Each contact's place, counted, then placed stably.
    const auto place_of = [&](const SolverContact& c) {
        int pa = moves(c.a) ? out.part[static_cast<std::size_t>(c.a)] : -1;
        int pb = moves(c.b) ? out.part[static_cast<std::size_t>(c.b)] : -1;
        if (pa < 0) return pb;
        if (pb < 0 || pb == pa) return pa;
        if (pa > pb) std::swap(pa, pb);
        return pb == pa + 1 ? kSeams + pa : kFarSeams;
    };
    // The places in the order they are solved in.
    std::array<int, kPlaces> sequence{};
    int next = 0;
    for (int k = 0; k < kIslandParts; ++k) sequence[static_cast<std::size_t>(next++)] = k;
    for (int parity = 0; parity < 2; ++parity)
        for (int p = parity; p < kIslandParts - 1; p += 2) sequence[static_cast<std::size_t>(next++)] = kSeams + p;
    sequence[static_cast<std::size_t>(next++)] = kFarSeams;
    std::array<int, kPlaces> sizes{};
    for (int e = first; e < first + count; ++e)
        ++sizes[static_cast<std::size_t>(
                place_of(contacts[static_cast<std::size_t>(out.order[static_cast<std::size_t>(e)])]))];
    std::array<int, kPlaces> starts{};
    int at = 0;
    for (const int place : sequence) {
        starts[static_cast<std::size_t>(place)] = at;
        at += sizes[static_cast<std::size_t>(place)];
    }
    out.sorted.resize(static_cast<std::size_t>(count));
    for (int e = first; e < first + count; ++e) {
        const int k = out.order[static_cast<std::size_t>(e)];
        const int place = place_of(contacts[static_cast<std::size_t>(k)]);
        out.sorted[static_cast<std::size_t>(starts[static_cast<std::size_t>(place)]++)] = k;
    }
    std::copy(out.sorted.begin(), out.sorted.end(), out.order.begin() + first);
    for (const int body : out.ranked) out.part[static_cast<std::size_t>(body)] = -1; // for the next island
    // The groups: the sequence's places [from, to) as one group's runs (its empty places left out).
    at = first;
    const auto add_group = [&](int from, int to) {
        ContactGroup group;
        group.first = at;
        group.first_chain = static_cast<int>(out.chain_start.size());
        group.chains = 0;
        for (int q = from; q < to; ++q) {
            const int size = sizes[static_cast<std::size_t>(sequence[static_cast<std::size_t>(q)])];
            if (size == 0) continue;
            out.chain_start.push_back(at);
            at += size;
            ++group.chains;
        }
        group.count = at - group.first;
        if (group.chains == 0) return;
        out.chain_start.push_back(at);
        out.groups.push_back(group);
    };
    const int even_seams = kIslandParts / 2; // boundaries 0, 2, 4 …
    add_group(0, kIslandParts);
    add_group(kIslandParts, kIslandParts + even_seams);
    add_group(kIslandParts + even_seams, kFarSeams);
    add_group(kFarSeams, kPlaces);
}

/// Orders island `island`'s contacts along it into out.chain_order when they form a chain
/// (solver_islands.h): each contact a single point, each moving body in at most two of them,
/// no two sharing both bodies, and no loop. Leaves the island unchanged otherwise.
void find_chain(std::span<const SolverContact> contacts, std::span<const BodySim> bodies, SolverIsland& island,
                SolverIslands& out) {
    const auto moves = [&](int body) { return bodies[static_cast<std::size_t>(body)].inv_mass > 0; };
    const auto contact_at = [&](int e) { return out.order[static_cast<std::size_t>(island.first + e)]; };
    // Each moving body's two contacts (links[2·body], links[2·body + 1]).
    bool chain = true;
    for (int e = 0; e < island.count && chain; ++e) {
        const SolverContact& c = contacts[static_cast<std::size_t>(contact_at(e))];
        chain = c.count == 1;
        for (const int body : {c.a, c.b}) {
            if (!chain || !moves(body)) continue;
            int* link = out.links.data() + 2 * static_cast<std::size_t>(body);
            if (link[0] < 0)
                link[0] = contact_at(e);
            else if (link[1] < 0 && link[0] != contact_at(e))
                link[1] = contact_at(e);
            else
                chain = false;
        }
    }
    // A contact's neighbour through one of its bodies: the body's other contact.
    const auto neighbour = [&](int k, int body) {
        if (!moves(body)) return -1;
        const int* link = out.links.data() + 2 * static_cast<std::size_t>(body);
        return link[0] == k ? link[1] : link[0];
    };
    int start = -1;
    for (int e = 0; e < island.count && chain && start < 0; ++e) {
        const int k = contact_at(e);
        const SolverContact& c = contacts[static_cast<std::size_t>(k)];
        const int na = neighbour(k, c.a), nb = neighbour(k, c.b);
        if (na >= 0 && na == nb) chain = false; // two contacts of one pair
        if (na < 0 || nb < 0) start = k;        // an end (the first found, in contact order)
    }
    if (chain && start >= 0) {
        const int first = static_cast<int>(out.chain_order.size());
        int previous = -1, k = start, walked = 0;
        while (k >= 0 && walked <= island.count) {
            out.chain_order.push_back(k);
            ++walked;
            const SolverContact& c = contacts[static_cast<std::size_t>(k)];
            const int na = neighbour(k, c.a), nb = neighbour(k, c.b);
            const int next = na >= 0 && na != previous ? na : (nb != previous ? nb : -1);
            previous = k;
            k = next;
        }
        if (walked == island.count) {
            island.chain_first = first;
        } else {
            out.chain_order.resize(static_cast<std::size_t>(first)); // a loop, or a chain with a branch
        }
    }
    for (int e = 0; e < island.count; ++e) { // (links back to none, for the next island)
        const SolverContact& c = contacts[static_cast<std::size_t>(contact_at(e))];
        for (const int body : {c.a, c.b})
            out.links[2 * static_cast<std::size_t>(body)] = out.links[2 * static_cast<std::size_t>(body) + 1] = -1;
    }
}

} // namespace

void group_islands(std::span<const SolverContact> contacts, std::span<const BodySim> bodies, SolverIslands& out,
                   const StepThreads& threads) {
    const int n = static_cast<int>(bodies.size());
    const int m = static_cast<int>(contacts.size());
    // The grouping depends only on each contact's two bodies and whether each moves: the same
    // as last time (a pile at rest, step after step) gives the same islands, kept.
    const bool was_grouped = out.grouped && out.last.size() == contacts.size();
    out.last.resize(contacts.size());
    std::atomic<bool> changed{false};
    constexpr int kKeysPerBlock = 4096;
    threads.for_blocks(m, kKeysPerBlock, [&](int begin, int end) {
        bool differs = false;
        for (auto k = static_cast<std::size_t>(begin); k < static_cast<std::size_t>(end); ++k) {
            const SolverContact& c = contacts[k];
            const std::uint64_t key = (static_cast<std::uint64_t>(static_cast<std::uint32_t>(c.a)) << 33) |
                                      (static_cast<std::uint64_t>(static_cast<std::uint32_t>(c.b)) << 2) |
                                      (bodies[static_cast<std::size_t>(c.a)].inv_mass > 0 ? 2u : 0u) |
                                      (bodies[static_cast<std::size_t>(c.b)].inv_mass > 0 ? 1u : 0u);
            differs = differs || out.last[k] != key;
            out.last[k] = key;
        }
        if (differs) changed.store(true, std::memory_order_relaxed);
    });
    if (was_grouped && !changed.load()) return;
    out.clear();
    out.grouped = true;
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
    out.part.assign(static_cast<std::size_t>(n), -1);
    out.links.assign(2 * static_cast<std::size_t>(n), -1);
    for (SolverIsland& island : out.islands) {
        island.first_group = static_cast<int>(out.groups.size());
        island.chain_first = -1;
        if (island.count >= kPartitionedIsland) {
            split_island(contacts, bodies, island.first, island.count, out);
        } else {
            add_run_group(out, island.first, island.count);
            if (island.count >= kShortestChain) find_chain(contacts, bodies, island, out);
        }
        island.group_count = static_cast<int>(out.groups.size()) - island.first_group;
    }
    out.chain_work.resize(kChainWork * out.chain_order.size());
}

} // namespace collide
