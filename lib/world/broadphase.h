#pragma once
/// \file
/// The broadphase: which bodies' bounds can overlap, without testing every pair. Each body's
/// bounds are grown by a margin (its "grown box", Box2D's fat AABB) and filed in a uniform grid
/// by the cell of their low corner; cells are twice the median grown size, so a body fits in one
/// cell and two bodies whose grown boxes overlap sit in the same or neighbouring cells. Bodies
/// larger than a cell (a floor, a mesh, a plane) are kept in a list of their own and tested
/// against every other body (n per large body, not n²).
///
/// Exactness, not heuristics: a pair is a candidate when its grown boxes overlap (closed
/// intervals), so as long as every body's true bounds stay inside its grown box (refit() tells
/// when they leave it, and re-grows it) every pair whose true bounds overlap, or come within
/// twice the margin, is a candidate. Candidate pairs are returned sorted by (i, j), so a caller
/// that walks them visits the same pairs in the same order as a loop over all pairs i < j that
/// skips those whose bounds are apart: results are bit-identical to that loop.
///
/// Allocates nothing once warmed up by a build as large. Not shared between threads.

#include <cstdint>
#include <span>
#include <vector>

#include "shapes/shapes.h"
#include "world/parallel.h"

namespace collide {

/// A candidate pair as one sortable key: (i << 32) | j with i < j.
using PairKey = std::uint64_t;

/// The key of pair (i, j), i < j.
inline PairKey pair_key(int i, int j) {
    return (static_cast<PairKey>(static_cast<std::uint32_t>(i)) << 32) | static_cast<std::uint32_t>(j);
}
/// The first body of a pair key.
inline int pair_first(PairKey k) { return static_cast<int>(k >> 32); }
/// The second body of a pair key.
inline int pair_second(PairKey k) { return static_cast<int>(k & 0xffffffffu); }

/// Closed overlap of two boxes (touching counts).
inline bool boxes_meet(const Aabb& a, const Aabb& b) {
    return a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.y <= b.max.y && b.min.y <= a.max.y && a.min.z <= b.max.z &&
           b.min.z <= a.max.z;
}

/// At most this many bodies are not filed in a grid: every pair is a candidate (the all-pairs
/// loop), cheaper than sorting cells for a world of a few bodies (the tunnel: 2).
inline constexpr int kFlatBodies = 16;

/// Candidate pairs from a uniform grid over grown bounds (see the file comment).
class Broadphase {
public:
    /// Rebuilds over `boxes` (body k's bounds, m, world frame), each grown on every side by
    /// max(`margin`, `fraction` × the median body size). `active[k]` false marks a body that
    /// never responds (static): a pair of two such bodies is never a candidate.
    void build(std::span<const Aabb> boxes, std::span<const unsigned char> active, double margin, double fraction);
    /// build(), its per-body work in blocks on `threads` (the same grid).
    void build(std::span<const Aabb> boxes, std::span<const unsigned char> active, double margin, double fraction,
               const StepThreads& threads);

    /// How many bodies the last build had.
    int size() const { return static_cast<int>(grown_.size()); }
    /// Body k's grown box (m).
    const Aabb& grown(int k) const { return grown_[static_cast<std::size_t>(k)]; }
    /// The margin boxes are grown by (m).
    double margin() const { return margin_; }

    /// Body k's bounds are now `box`: when they left its grown box, grows a new one around
    /// them and returns true (the caller then asks query() for the pairs that may be new).
    bool refit(int k, const Aabb& box);

    /// Every body whose grown box overlaps `box` (closed), ascending, into `out` (cleared).
    void query(const Aabb& box, std::vector<int>& out);

    /// Every candidate pair (grown boxes overlap, at least one body active), sorted, into `out`.
    void pairs(std::vector<PairKey>& out);
    /// pairs(), the grid's cells searched in chunks on `threads` (the same pairs).
    void pairs(std::vector<PairKey>& out, const StepThreads& threads);

    /// With `all` set, every pair is a candidate and every body is found by every query: the
    /// all-pairs loop, kept as the reference the grid is tested against. Takes effect at build.
    void set_exhaustive(bool all) { exhaustive_ = all; }
    /// Worlds of at most `bodies` bodies are not filed in a grid (kFlatBodies unless set; tests
    /// set 0 to file even two bodies). Takes effect at build.
    void set_flat_limit(int bodies) { flat_limit_ = bodies; }

    /// Grid rebuilds forced by refits since the last build (for tests and benchmarks).
    int regrids() const { return regrids_; }

private:
    struct Entry {
        std::uint64_t cell; ///< packed cell of the grown box's low corner
        int body;
    };
    std::vector<Aabb> grown_;
    std::vector<unsigned char> active_;
    std::vector<unsigned char> moved_; ///< refit since the grid was filed (found through moved_list_)
    std::vector<int> moved_list_;
    std::vector<Entry> entries_;       ///< small bodies, sorted by cell then body
    std::vector<Entry> sorted_;        ///< scratch for sorting entries_
    std::vector<PairKey> sorted_keys_; ///< scratch for sorting the pairs
    std::vector<std::size_t> counts_;  ///< scratch for sorting: each block's digit tallies
    std::vector<int> big_;             ///< bodies larger than a cell, ascending
    std::vector<double> scratch_;
    std::vector<double> sizes_;        ///< per body, the last build's size (+∞: not finite)
    double median_size_ = 0;           ///< the median of sizes_' finite sizes (m)
    double p90_size_ = 0;              ///< … and their 90th percentile (m)
    std::vector<std::uint64_t> cells_; ///< scratch of file(): per body, its packed cell (kUnfiled: large)
    /// What one block of bodies files (file() on threads): its small and large bodies' counts,
    /// then where they start, and the span of its small bodies' cells on each axis.
    struct FiledBlock {
        std::size_t small = 0, large = 0;
        std::uint64_t low[3] = {0, 0, 0}, high[3] = {0, 0, 0};
    };
    std::vector<FiledBlock> filed_blocks_; ///< scratch of file(): per block of bodies
    /// One chunk's pairs, on a cache line of its own: the threads append to their chunks' lists
    /// at once, and two lists' ends on one line would move it between the cores at every pair.
    struct alignas(64) ChunkKeys {
        std::vector<PairKey> keys;
    };
    std::vector<ChunkKeys> chunk_keys_;    ///< scratch: each chunk's pairs (pairs() on threads)
    std::vector<std::size_t> chunk_start_; ///< scratch: each chunk's first entry, then its pairs' first place
    double margin_ = 0;
    double cell_ = 1;
    double inv_cell_ = 1;
    int regrids_ = 0;
    bool exhaustive_ = false;
    bool flat_ = false;            ///< this build gives every pair (exhaustive, or at most flat_limit_ bodies)
    int flat_limit_ = kFlatBodies; ///< see set_flat_limit()

    void file(const StepThreads& threads);
    std::int64_t coord(double x) const;
    std::size_t first_at_or_after(std::size_t from, std::uint64_t cell) const;
    bool small(const Aabb& g) const;
    void add_if(int a, int b, std::vector<PairKey>& out) const;
    void scan_cells(std::size_t begin, std::size_t end, std::vector<PairKey>& out) const;
    template <class Fn> void for_small_near(const Aabb& box, std::size_t begin, std::size_t end, Fn&& fn) const;
};

} // namespace collide
