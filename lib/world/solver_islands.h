#pragma once
/// \file
/// The step's contacts grouped for solving (issue 30): islands — the contacts joined through
/// the bodies they move (a body contacts cannot move, static or kinematic, joins nothing, as in
/// Box2D's islands) — each solved on its own, and within an island of at least kColoredIsland
/// contacts, colours of the constraint graph (Box2D v3's constraint_graph.c): each of an island's
/// contacts, in contact order, takes the lowest of kGraphColors colours that neither of its
/// movable bodies has yet, so no two contacts of a colour share a body that moves and a colour's
/// contacts can be solved at once, on any number of threads, to the same bits; a contact that
/// finds no colour free goes to the island's overflow, solved after the colours one at a time.
///
/// Islands are independent, so solving each on its own (with its own stopping rule) gives the
/// same bits whatever order they run in; an island below kColoredIsland keeps its contacts in
/// contact order, the order the whole set was solved in before islands. The grouping depends on
/// the contacts alone, never on the thread count.

#include <cstdint>
#include <span>
#include <vector>

#include "world/bodies.h"

namespace collide {

struct SolverContact;

/// An island of at least this many contacts is solved by colours (a smaller one in contact
/// order, one contact at a time): below it, a pass is too short to share between threads.
inline constexpr int kColoredIsland = 256;
/// Colours of the constraint graph (Box2D v3's B2_GRAPH_COLOR_COUNT is 24).
inline constexpr int kGraphColors = 24;

/// Consecutive contacts of SolverIslands::order solved as one: one after another, or (a colour)
/// all independent of each other.
struct ContactGroup {
    int first = 0;            ///< its first entry in SolverIslands::order
    int count = 0;            ///< its contacts
    bool independent = false; ///< a colour: no two of its contacts share a body that moves
};

/// One island: its contacts are SolverIslands::order[first, first + count), in groups
/// SolverIslands::groups[first_group, first_group + group_count).
struct SolverIsland {
    int first = 0;
    int count = 0;
    int first_group = 0;
    int group_count = 0;
};

/// The islands of a step's contacts, and scratch to find them (reused: no allocation once warm).
struct SolverIslands {
    std::vector<int> order;            ///< contact indices, island by island (a coloured island's by colour)
    std::vector<ContactGroup> groups;  ///< every island's groups, an island's together
    std::vector<SolverIsland> islands; ///< in the order of their first contact
    std::vector<int> parent;           ///< scratch: union–find over bodies
    std::vector<int> island_of;        ///< scratch: per body root, its island (−1: none yet)
    std::vector<int> contact_island;   ///< scratch: per contact, its island
    std::vector<int> fill;             ///< scratch
    std::vector<std::uint32_t> used;   ///< scratch: per body, the colours its contacts took
    std::vector<unsigned char> color;  ///< scratch: per order entry, its colour (kGraphColors: overflow)
    std::vector<int> sorted;           ///< scratch: an island's order by colour

    /// Empties the islands (keeps the storage).
    void clear() {
        order.clear();
        groups.clear();
        islands.clear();
    }
};

/// Groups `contacts` (their bodies indices into `bodies`; a body moves when its inv_mass > 0)
/// into `out`'s islands and colours.
void group_islands(std::span<const SolverContact> contacts, std::span<const BodySim> bodies, SolverIslands& out);

} // namespace collide
