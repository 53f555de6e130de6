// Islands and colours of a step's contacts: worked out by hand for small graphs (a chain, two
// separate stacks, a body touching only static ones) and checked as properties on a large one
// (no two contacts of a colour share a body that moves; every contact once; contact order kept).
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
        REQUIRE(island.group_count == 1); // below kColoredIsland: one group, in contact order
        CHECK_FALSE(g.groups[static_cast<std::size_t>(island.first_group)].independent);
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

TEST_CASE("a large island's colours share no moving body, hold every contact once and keep contact order",
          "[world][islands]") {
    // A grid of 30 × 30 moving bodies on a static floor (body 0): every body touches the floor
    // and its right and upper neighbours: 900 + 2 × 870 contacts, one island.
    constexpr int side = 30;
    const std::vector<BodySim> bodies = make_bodies(1, side * side);
    const auto at = [&](int x, int y) { return 1 + x + side * y; };
    std::vector<SolverContact> contacts;
    for (int y = 0; y < side; ++y)
        for (int x = 0; x < side; ++x) {
            contacts.push_back(contact(0, at(x, y)));
            if (x + 1 < side) contacts.push_back(contact(at(x, y), at(x + 1, y)));
            if (y + 1 < side) contacts.push_back(contact(at(x, y), at(x, y + 1)));
        }
    REQUIRE(static_cast<int>(contacts.size()) >= kColoredIsland);
    SolverIslands g;
    group_islands(contacts, bodies, g);
    REQUIRE(g.islands.size() == 1);
    const SolverIsland& island = g.islands[0];
    CHECK(island.count == static_cast<int>(contacts.size()));
    std::multiset<int> seen;
    int colours = 0;
    for (int q = island.first_group; q < island.first_group + island.group_count; ++q) {
        const ContactGroup& group = g.groups[static_cast<std::size_t>(q)];
        std::set<int> used;
        int last = -1;
        for (int e = group.first; e < group.first + group.count; ++e) {
            const int k = g.order[static_cast<std::size_t>(e)];
            seen.insert(k);
            CHECK(k > last); // a group keeps contact order
            last = k;
            const SolverContact& c = contacts[static_cast<std::size_t>(k)];
            if (!group.independent) continue;
            for (const int body : {c.a, c.b}) {
                if (bodies[static_cast<std::size_t>(body)].inv_mass == 0) continue; // the floor is shared
                CHECK(used.insert(body).second);
            }
        }
        colours += group.independent ? 1 : 0;
    }
    CHECK(seen.size() == contacts.size());
    CHECK(std::set<int>(seen.begin(), seen.end()).size() == contacts.size());
    // A body has at most 4 neighbours: greedy colouring needs at most 5 colours, no overflow.
    CHECK(colours <= 5);
    CHECK(colours == island.group_count);
}

TEST_CASE("a body in more contacts than there are colours sends the rest to the overflow, solved last",
          "[world][islands]") {
    // A hub (body 1) touching 300 moving bodies: each contact needs its own colour.
    const int spokes = 300;
    const std::vector<BodySim> bodies = make_bodies(1, spokes + 1);
    std::vector<SolverContact> contacts;
    for (int k = 0; k < spokes; ++k) contacts.push_back(contact(1, 2 + k));
    SolverIslands g;
    group_islands(contacts, bodies, g);
    REQUIRE(g.islands.size() == 1);
    const SolverIsland& island = g.islands[0];
    REQUIRE(island.group_count == kGraphColors + 1);
    for (int q = 0; q < kGraphColors; ++q) {
        const ContactGroup& group = g.groups[static_cast<std::size_t>(island.first_group + q)];
        CHECK(group.independent);
        CHECK(group.count == 1);
        CHECK(g.order[static_cast<std::size_t>(group.first)] == q);
    }
    const ContactGroup& overflow = g.groups[static_cast<std::size_t>(island.first_group + kGraphColors)];
    CHECK_FALSE(overflow.independent);
    CHECK(overflow.count == spokes - kGraphColors);
}
