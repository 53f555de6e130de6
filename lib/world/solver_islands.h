#pragma once
/// \file
/// The step's contacts grouped for solving (issue 30): islands — the contacts joined through
/// the bodies they move (a body contacts cannot move, static or kinematic, joins nothing, as in
/// Box2D's islands) — each solved on its own; and an island of at least kPartitionedIsland
/// contacts split into parts that can be solved at once.
///
/// Islands are independent, so solving each on its own (with its own stopping rule) gives the
/// same bits whatever order and thread they run in. A smaller island keeps its contacts in
/// contact order, the order the whole set was solved in before islands.
///
/// A large island's moving bodies are ranked by index and cut into kIslandParts parts of equal
/// size (scenes are written in rows and layers, so a part is a band of the pile: a pyramid's
/// rows from the ground up). A contact whose moving bodies are all of one part is that part's;
/// the rest (between parts) are the island's seams. A pass solves every part's contacts, in
/// contact order within each part, parts at once — they share no body that moves — then the
/// seams: those between parts 0 and 1, 2 and 3 … at once (each touches only its two parts),
/// then those between 1 and 2, 3 and 4 … at once, then the few joining parts further apart,
/// one after another. Within a part the pass is the sequential one (a stack's contacts
/// from the bottom up, each seeing the impulse just below it), which converges in a few passes
/// where a colouring of the constraint graph (Box2D v3: no two contacts of a colour share a
/// body, each colour at once) interleaves the pile and needed three times the passes here.
/// The grouping depends on the contacts alone, never on the thread count.
///
/// A small island whose contacts form a **chain** — each a single point, each moving body in at
/// most two of them, joined end to end: a column of balls on the floor, a row of dominoes
/// leaning on one another — also keeps its contacts in the order they follow along the chain
/// (SolverIsland::chain_first), so that the force solve can solve their normal rows together,
/// exactly (a tridiagonal system: contact_solver.h), where one row at a time needs a pass for
/// every link the push travels and converges by a factor near 1 a pass on a tall column.

#include <cstdint>
#include <span>
#include <vector>

#include "world/body_table.h"
#include "world/parallel.h"

namespace collide {

struct SolverContact;

/// An island of at least this many contacts is split into parts (a smaller one is solved in
/// contact order, one contact at a time): below it, a pass is too short to share.
inline constexpr int kPartitionedIsland = 512;
/// The parts of a large island (at most as many threads share one island's pass).
inline constexpr int kIslandParts = 8;
/// A chain of fewer contacts is solved one contact at a time (two rows converge fast enough).
inline constexpr int kShortestChain = 3;
/// Numbers a chain's solve keeps per contact (SolverIslands::chain_work).
inline constexpr std::size_t kChainWork = 9;

/// Consecutive contacts of SolverIslands::order solved as one group: in `chains` runs
/// (SolverIslands::chain_start[first_chain …]) that share no moving body, so the runs can be
/// solved at once, each in its order. A group of one run is solved one contact at a time.
struct ContactGroup {
    int first = 0;       ///< its first entry in SolverIslands::order
    int count = 0;       ///< its contacts
    int first_chain = 0; ///< its first run in SolverIslands::chain_start
    int chains = 1;      ///< its runs
};

/// One island: its contacts are SolverIslands::order[first, first + count), in groups
/// SolverIslands::groups[first_group, first_group + group_count).
struct SolverIsland {
    int first = 0;
    int count = 0;
    int first_group = 0;
    int group_count = 0;
    /// A chain (see above): its contacts in order along it are SolverIslands::chain_order[
    /// chain_first, chain_first + count), and SolverIslands::chain_work from kChainWork·chain_first holds
    /// its solve's rows (kChainWork per contact); −1: not a chain.
    int chain_first = -1;
};

/// The islands of a step's contacts, and scratch to find them (reused: no allocation once warm).
struct SolverIslands {
    std::vector<int> order;            ///< contact indices, island by island (a large island's part by part)
    std::vector<ContactGroup> groups;  ///< every island's groups, an island's together
    std::vector<int> chain_start;      ///< runs: run r is order[chain_start[r], chain_start[r + 1])
    std::vector<SolverIsland> islands; ///< in the order of their first contact
    std::vector<int> parent;           ///< scratch: union–find over bodies
    std::vector<int> island_of;        ///< scratch: per body root, its island (−1: none yet)
    std::vector<int> contact_island;   ///< scratch: per contact, its island
    std::vector<int> fill;             ///< scratch
    std::vector<int> part;             ///< scratch: per body, its part in a large island (−1: none)
    std::vector<int> ranked;           ///< scratch: a large island's moving bodies by index
    std::vector<int> sorted;           ///< scratch: a large island's order by part
    std::vector<int> chain_order;      ///< the chain islands' contacts, each chain in order along it
    std::vector<double> chain_work;    ///< a chain's solve: kChainWork numbers per contact (contact_solver.cpp)
    std::vector<int> links;            ///< scratch: per body, its first two contacts in the island (−1: none)
    std::vector<std::uint64_t> last;   ///< per contact of the last grouping: its bodies and which move
    bool grouped = false;              ///< the islands are those of `last`

    /// Empties the islands (keeps the storage; the next grouping is done afresh).
    void clear() {
        order.clear();
        groups.clear();
        chain_start.clear();
        islands.clear();
        chain_order.clear();
        grouped = false;
    }
    /// Run `r`'s contacts.
    std::span<const int> chain(int r) const {
        const auto b = static_cast<std::size_t>(chain_start[static_cast<std::size_t>(r)]);
        const auto e = static_cast<std::size_t>(chain_start[static_cast<std::size_t>(r) + 1]);
        return {order.data() + b, e - b};
    }
};

/// Groups `contacts` (their bodies indices into `bodies`; a body moves when its inv_mass > 0)
/// into `out`'s islands, parts and seams; whether they are those of the last grouping is found
/// in blocks on `threads`.
void group_islands(std::span<const SolverContact> contacts, std::span<const BodySim> bodies, SolverIslands& out,
                   const StepThreads& threads = StepThreads{});

} // namespace collide
