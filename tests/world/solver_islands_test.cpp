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
    REQUIRE(island.group_count == 2); // the parts at once, then the seams
    const ContactGroup& parts = g.groups[static_cast<std::size_t>(island.first_group)];
    const ContactGroup& seams = g.groups[static_cast<std::size_t>(island.first_group + 1)];
    CHECK(parts.chains == kIslandParts);
    CHECK(seams.chains == 1);
    CHECK(parts.first == island.first);
    CHECK(seams.first == parts.first + parts.count);
    CHECK(parts.count + seams.count == island.count);

    // Each moving body belongs to the run it first appears in; no other run may touch it.
    std::vector<int> owner(bodies.size(), -1);
    std::multiset<int> seen;
    for (int r = parts.first_chain; r < parts.first_chain + parts.chains; ++r) {
        int last = -1;
        for (const int k : g.chain(r)) {
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
    // A seam joins bodies of two different runs (had both been in one, it would be that run's).
    int last = -1;
    for (const int k : g.chain(seams.first_chain)) {
        seen.insert(k);
        CHECK(k > last);
        last = k;
        const SolverContact& c = contacts[static_cast<std::size_t>(k)];
        const int oa = owner[static_cast<std::size_t>(c.a)], ob = owner[static_cast<std::size_t>(c.b)];
        CHECK(c.a != 0);
        if (oa >= 0 && ob >= 0) CHECK(oa != ob);
    }
    CHECK(seen.size() == contacts.size());
    CHECK(std::set<int>(seen.begin(), seen.end()).size() == contacts.size());
    // Parts are bands of kIslandParts equal shares of the 900 bodies by index (112 or 113 each,
    // about 3.75 rows): the seams are the 30 upward contacts across each of the 7 cuts, plus the
    // one sideways contact a cut inside a row passes through.
    CHECK(seams.count >= (kIslandParts - 1) * side);
    CHECK(seams.count <= (kIslandParts - 1) * (side + 1));
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
    CHECK(g.islands[0].group_count == 2);
    // A chain cut in 8 bands has exactly 7 seams: the links across the cuts.
    CHECK(g.groups[1].count == kIslandParts - 1);
}
