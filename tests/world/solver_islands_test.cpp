// Islands, parts and seams of a step's contacts: worked out by hand for small graphs (a chain,
// two separate stacks, a body touching only static ones) and checked as properties on a large one
// (parts' runs share no body that moves; every contact once; contact order kept in each run; a
// seam joins two parts).
#include <catch2/catch.hpp>

#include <algorithm>
#include <set>
#include <vector>

#include "world/contact_solver.h"
#include "world/solver_islands.h"

using namespace collide;

namespace {

/// Bodies: the first `fixed` cannot move (inv_mass 0), the rest can.
std::vector<BodySim> make_bodies(int fixed, int moving) {
    std::vector<BodySim> out(static_cast<std::size_t>(fixed + moving));
    for (int k = fixed; k < fixed + moving; ++k) out[static_cast<std::size_t>(k)].inv_mass = 1;
    return out;
}

SolverContact contact(int a, int b) {
    SolverContact c;
    c.a = a;
    c.b = b;
    return c;
}

/// The contacts of island i, in its order.
std::vector<int> island_contacts(const SolverIslands& g, std::size_t i) {
    const SolverIsland& island = g.islands[i];
    return {g.order.begin() + island.first, g.order.begin() + island.first + island.count};
}

} // namespace

TEST_CASE("contacts through a static body join no islands; islands are numbered by their first contact",
          "[world][islands]") {
    // Body 0 is the ground; 1–2 and 3–4 are two stacks on it, 5 rests alone.
    const std::vector<BodySim> bodies = make_bodies(1, 5);
    const std::vector<SolverContact> contacts{contact(0, 3), contact(0, 1), contact(1, 2), contact(3, 4),
                                              contact(0, 5)};
    SolverIslands g;
    group_islands(contacts, bodies, g);
    REQUIRE(g.islands.size() == 3);
    CHECK(island_contacts(g, 0) == std::vector<int>{0, 3}); // the 3–4 stack: its first contact is the first
    CHECK(island_contacts(g, 1) == std::vector<int>{1, 2});
    CHECK(island_contacts(g, 2) == std::vector<int>{4});
    for (const SolverIsland& island : g.islands) {
        REQUIRE(island.group_count == 1); // below kPartitionedIsland: one run, in contact order
        CHECK(g.groups[static_cast<std::size_t>(island.first_group)].chains == 1);
    }
}

TEST_CASE("a chain joined through moving bodies is one island, whatever order its contacts come in",
          "[world][islands]") {
    const std::vector<BodySim> bodies = make_bodies(0, 5);
    const std::vector<SolverContact> contacts{contact(3, 4), contact(0, 1), contact(2, 3), contact(1, 2)};
    SolverIslands g;
    group_islands(contacts, bodies, g);
    REQUIRE(g.islands.size() == 1);
    CHECK(island_contacts(g, 0) == std::vector<int>{0, 1, 2, 3});
}

namespace {

/// A grid of side × side moving bodies on a static floor (body 0): every body touches the floor
/// and its right and upper neighbours (side² + 2·side·(side − 1) contacts, one island).
std::vector<SolverContact> grid_contacts(int side) {
    const auto at = [&](int x, int y) { return 1 + x + side * y; };
    std::vector<SolverContact> contacts;
    for (int y = 0; y < side; ++y)
        for (int x = 0; x < side; ++x) {
            contacts.push_back(contact(0, at(x, y)));
            if (x + 1 < side) contacts.push_back(contact(at(x, y), at(x + 1, y)));
            if (y + 1 < side) contacts.push_back(contact(at(x, y), at(x, y + 1)));
        }
    return contacts;
}

} // namespace

namespace {

/// The part of each moving body: the index, within the parts' group, of the run it is in (−1:
/// none); checks that no two runs of the group share a moving body and that runs keep contact
/// order, and adds the group's contacts to `seen`.
std::vector<int> check_runs(const SolverIslands& g, const ContactGroup& group, std::span<const SolverContact> contacts,
                            std::span<const BodySim> bodies, std::multiset<int>& seen) {
    std::vector<int> owner(bodies.size(), -1);
    for (int r = 0; r < group.chains; ++r) {
        int last = -1;
        for (const int k : g.chain(group.first_chain + r)) {
            seen.insert(k);
            CHECK(k > last); // a run keeps contact order
            last = k;
            const SolverContact& c = contacts[static_cast<std::size_t>(k)];
            for (const int body : {c.a, c.b}) {
                if (bodies[static_cast<std::size_t>(body)].inv_mass == 0) continue; // the floor is shared
                int& o = owner[static_cast<std::size_t>(body)];
                if (o < 0) o = r;
                CHECK(o == r);
            }
        }
    }
    return owner;
}

} // namespace

TEST_CASE("a large island's parts share no moving body, hold every contact once and keep contact order",
          "[world][islands]") {
    constexpr int side = 30;
    const std::vector<BodySim> bodies = make_bodies(1, side * side);
    const std::vector<SolverContact> contacts = grid_contacts(side);
    REQUIRE(static_cast<int>(contacts.size()) >= kPartitionedIsland);
    SolverIslands g;
    group_islands(contacts, bodies, g);
    REQUIRE(g.islands.size() == 1);
    const SolverIsland& island = g.islands[0];
    CHECK(island.count == static_cast<int>(contacts.size()));
    // The parts at once; the seams between parts 0|1, 2|3, 4|5, 6|7 at once; then 1|2, 3|4, 5|6.
    // (Bands 3.75 rows tall: no contact joins parts further apart.)
    REQUIRE(island.group_count == 3);
    const ContactGroup& parts = g.groups[static_cast<std::size_t>(island.first_group)];
    const ContactGroup& even = g.groups[static_cast<std::size_t>(island.first_group + 1)];
    const ContactGroup& odd = g.groups[static_cast<std::size_t>(island.first_group + 2)];
    REQUIRE(parts.chains == kIslandParts);
    CHECK(even.chains == kIslandParts / 2);
    CHECK(odd.chains == kIslandParts / 2 - 1);
    CHECK(parts.first == island.first);
    CHECK(even.first == parts.first + parts.count);
    CHECK(odd.first == even.first + even.count);
    CHECK(parts.count + even.count + odd.count == island.count);

    std::multiset<int> seen;
    const std::vector<int> part = check_runs(g, parts, contacts, bodies, seen);
    (void)check_runs(g, even, contacts, bodies, seen);
    (void)check_runs(g, odd, contacts, bodies, seen);
    CHECK(seen.size() == contacts.size());
    CHECK(std::set<int>(seen.begin(), seen.end()).size() == contacts.size());
    // Every moving body is in a part; a seam of run q joins parts 2q and 2q + 1 (even) or
    // 2q + 1 and 2q + 2 (odd).
    for (std::size_t b = 1; b < bodies.size(); ++b) CHECK(part[b] >= 0);
    const auto check_seams = [&](const ContactGroup& group, int offset) {
        for (int q = 0; q < group.chains; ++q)
            for (const int k : g.chain(group.first_chain + q)) {
                const SolverContact& c = contacts[static_cast<std::size_t>(k)];
                CHECK(c.a != 0);
                const int low = std::min(part[static_cast<std::size_t>(c.a)], part[static_cast<std::size_t>(c.b)]);
                const int high = std::max(part[static_cast<std::size_t>(c.a)], part[static_cast<std::size_t>(c.b)]);
                CHECK(low == 2 * q + offset);
                CHECK(high == low + 1);
            }
    };
    check_seams(even, 0);
    check_seams(odd, 1);
    // Parts are bands of kIslandParts equal shares of the 900 bodies by index (112 or 113 each,
    // about 3.75 rows): the seams are the 30 upward contacts across each of the 7 cuts, plus the
    // one sideways contact a cut inside a row passes through.
    const int seams = even.count + odd.count;
    CHECK(seams >= (kIslandParts - 1) * side);
    CHECK(seams <= (kIslandParts - 1) * (side + 1));
}

TEST_CASE("contacts joining parts that are not neighbours are solved last, one after another", "[world][islands]") {
    // A chain of 600 bodies on the floor (1199 contacts, 75 bodies a part), and links from body
    // 1 (part 0) to bodies 200 (part 2) and 500 (part 6): seams further apart than one cut.
    std::vector<SolverContact> contacts;
    const int n = 600;
    for (int k = 0; k < n; ++k) {
        contacts.push_back(contact(0, 1 + k));
        if (k + 1 < n) contacts.push_back(contact(1 + k, 2 + k));
    }
    contacts.push_back(contact(1, 500));
    contacts.push_back(contact(1, 200));
    const std::vector<BodySim> bodies = make_bodies(1, n);
    SolverIslands g;
    group_islands(contacts, bodies, g);
    REQUIRE(g.islands.size() == 1);
    REQUIRE(g.islands[0].group_count == 4);
    const ContactGroup& far = g.groups[3];
    REQUIRE(far.chains == 1);
    const std::span<const int> run = g.chain(far.first_chain);
    CHECK(std::vector<int>(run.begin(), run.end()) == std::vector<int>{2 * n - 1, 2 * n}); // contact order
    CHECK(far.first + far.count == g.islands[0].first + g.islands[0].count);
}

TEST_CASE("an island just below the partitioned size is one run in contact order; at the size it splits",
          "[world][islands]") {
    // A chain of moving bodies, each on the floor and touching the next: 2n − 1 contacts.
    const auto chain = [](int n) {
        std::vector<SolverContact> contacts;
        for (int k = 0; k < n; ++k) {
            contacts.push_back(contact(0, 1 + k));
            if (k + 1 < n) contacts.push_back(contact(1 + k, 2 + k));
        }
        return contacts;
    };
    const int below = kPartitionedIsland / 2; // 2·256 − 1 = 511 contacts
    const std::vector<BodySim> bodies = make_bodies(1, below + 1);
    SolverIslands g;
    group_islands(chain(below), bodies, g);
    REQUIRE(g.islands.size() == 1);
    REQUIRE(g.islands[0].group_count == 1);
    const std::span<const int> run = g.chain(g.groups[0].first_chain);
    REQUIRE(static_cast<int>(run.size()) == 2 * below - 1);
    for (int k = 0; k < static_cast<int>(run.size()); ++k) CHECK(run[static_cast<std::size_t>(k)] == k);

    group_islands(chain(below + 1), bodies, g); // 513 contacts
    REQUIRE(g.islands.size() == 1);
    CHECK(g.islands[0].group_count == 3);
    // A chain cut in 8 bands has exactly 7 seams, the links across the cuts: one in each run.
    CHECK(g.groups[1].count + g.groups[2].count == kIslandParts - 1);
    CHECK(g.groups[1].chains == g.groups[1].count);
    CHECK(g.groups[2].chains == g.groups[2].count);
}

TEST_CASE("the same contacts again keep their islands; other contacts, as many, are grouped afresh",
          "[world][islands]") {
    std::vector<BodySim> bodies = make_bodies(1, 6);
    const std::vector<SolverContact> joined{contact(1, 2), contact(2, 3), contact(4, 5), contact(5, 6)};
    const std::vector<SolverContact> split{contact(1, 2), contact(3, 4), contact(4, 5), contact(5, 6)};
    SolverIslands g;
    group_islands(joined, bodies, g);
    REQUIRE(g.islands.size() == 2);
    group_islands(joined, bodies, g);
    CHECK(g.islands.size() == 2);
    CHECK(island_contacts(g, 0) == std::vector<int>{0, 1});
    group_islands(split, bodies, g); // body 3 now joins 4: islands {0}, {1, 2, 3}
    REQUIRE(g.islands.size() == 2);
    CHECK(island_contacts(g, 0) == std::vector<int>{0});
    CHECK(island_contacts(g, 1) == std::vector<int>{1, 2, 3});
    bodies[4].inv_mass = 0; // body 4 stops moving: it joins nothing, so contact 1 (3–4) is alone
    group_islands(split, bodies, g);
    REQUIRE(g.islands.size() == 3);
    CHECK(island_contacts(g, 1) == std::vector<int>{1});
    CHECK(island_contacts(g, 2) == std::vector<int>{2, 3});
}
