#include "world/broadphase.h"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cmath>
#include <limits>

namespace collide {

namespace {

/// Sorts `items` by digit(item, shift) for shift = 0, 8, … below `bits` (each an 8-bit digit,
/// the least significant first): a stable least-significant-digit radix sort, so items of equal
/// keys keep their order and the result is the one order of the keys, whoever sorts. Each pass
/// counts its digits in blocks on `threads`, places every block's share after the shares of the
/// blocks before it, and moves the blocks' items at once; a pass whose digit every item shares is
/// skipped. `scratch` is its buffer; `counts` its tallies.
template <class T, class Digit> void radix_sort(std::vector<T>& items, std::vector<T>& scratch,
                                                std::vector<std::size_t>& counts, int bits, const StepThreads& threads,
                                                Digit digit) {
    constexpr int kSortBlock = 4096;
    const int n = static_cast<int>(items.size());
    if (n < 2) return;
    const int blocks = (n - 1) / kSortBlock + 1;
    scratch.resize(items.size());
    counts.resize(static_cast<std::size_t>(blocks) * 256);
    for (int shift = 0; shift < bits; shift += 8) {
        threads.for_blocks(n, kSortBlock, [&](int begin, int end) {
            std::size_t* const c = counts.data() + static_cast<std::size_t>(begin / kSortBlock) * 256;
            std::fill(c, c + 256, std::size_t{0});
            for (int k = begin; k < end; ++k) ++c[digit(items[static_cast<std::size_t>(k)], shift)];
        });
        // Where each block's items of each digit start: digit by digit, block by block.
        std::size_t at = 0;
        bool shared = false;
        for (std::size_t d = 0; d < 256 && !shared; ++d) {
            const std::size_t first = at;
            for (std::size_t b = 0; b < static_cast<std::size_t>(blocks); ++b) {
                const std::size_t c = counts[b * 256 + d];
                counts[b * 256 + d] = at;
                at += c;
            }
            shared = at - first == items.size();
        }
        if (shared) continue; // (counts are tallied afresh by the next pass)
        threads.for_blocks(n, kSortBlock, [&](int begin, int end) {
            std::size_t* const c = counts.data() + static_cast<std::size_t>(begin / kSortBlock) * 256;
            for (int k = begin; k < end; ++k) {
                const T& item = items[static_cast<std::size_t>(k)];
                scratch[c[digit(item, shift)]++] = item;
            }
        });
        items.swap(scratch);
    }
}

/// Sorts pair keys ascending (as std::sort would), on the bits in which some keys differ (a
/// pair key's high bytes of i and of j are 0 below 2^24 bodies, so 10,000 bodies take 4 passes).
void sort_keys(std::vector<PairKey>& keys, std::vector<PairKey>& scratch, std::vector<std::size_t>& counts,
               const StepThreads& threads) {
    if (keys.size() < 64) {
        std::sort(keys.begin(), keys.end());
        return;
    }
    PairKey differ = 0; // the bits in which some key differs from the first
    for (const PairKey k : keys) differ |= k ^ keys[0];
    const int bits = static_cast<int>(std::bit_width(differ));
    int low = 0; // (the bytes below the lowest differing bit are all the same)
    while (low + 8 <= bits && ((differ >> low) & 0xff) == 0) low += 8;
    radix_sort(keys, scratch, counts, bits - low, threads,
               [low](PairKey k, int shift) { return static_cast<std::size_t>((k >> (low + shift)) & 0xff); });
}

constexpr int kBits = 21;                                      ///< bits per axis of a packed cell
constexpr std::int64_t kHalf = std::int64_t{1} << (kBits - 1); ///< cells span [−kHalf, kHalf)
constexpr std::int64_t kCells = std::int64_t{1} << kBits;

std::uint64_t pack(std::int64_t x, std::int64_t y, std::int64_t z) {
    return (static_cast<std::uint64_t>(x) << (2 * kBits)) | (static_cast<std::uint64_t>(y) << kBits) |
           static_cast<std::uint64_t>(z);
}

bool finite_box(const Aabb& b) {
    return std::isfinite(b.min.x) && std::isfinite(b.min.y) && std::isfinite(b.min.z) && std::isfinite(b.max.x) &&
           std::isfinite(b.max.y) && std::isfinite(b.max.z);
}

double size_of(const Aabb& b) { return std::max({b.max.x - b.min.x, b.max.y - b.min.y, b.max.z - b.min.z}); }

} // namespace

/// The cell coordinate (0 … kCells − 1) of x (m); clamped, so far bodies share the edge cells.
std::int64_t Broadphase::coord(double x) const {
    const double q = std::floor(x * inv_cell_);
    if (!(q >= static_cast<double>(-kHalf))) return 0;
    if (q >= static_cast<double>(kHalf - 1)) return kCells - 1;
    return static_cast<std::int64_t>(q) + kHalf;
}

/// Small enough to be filed in the grid: finite and (with slack for rounding) within a cell.
bool Broadphase::small(const Aabb& g) const { return finite_box(g) && size_of(g) <= 0.999 * cell_; }

namespace {

/// What build() and file() hand the threads at a time (bodies): the world's per-body stages'
/// block (kBodiesPerBlock), so each thread's run of these blocks covers the bodies its run of
/// theirs does (world/parallel.h), and reads the boxes where it wrote them.
constexpr int kFileBlock = 512;

/// A body larger than a cell: not in the grid (file()).
constexpr std::uint64_t kUnfiled = ~std::uint64_t{0};

const StepThreads& serial_threads() {
    static const StepThreads serial;
    return serial;
}

} // namespace

void Broadphase::build(std::span<const Aabb> boxes, std::span<const unsigned char> active, double margin,
                       double fraction) {
    build(boxes, active, margin, fraction, serial_threads());
}

void Broadphase::build(std::span<const Aabb> boxes, std::span<const unsigned char> active, double margin,
                       double fraction, const StepThreads& threads) {
    const std::size_t n = boxes.size();
    const int count = static_cast<int>(n);
    active_.assign(active.begin(), active.end());
    active_.resize(n, 1);
    regrids_ = 0;
    flat_ = exhaustive_ || n <= static_cast<std::size_t>(std::max(flat_limit_, 0));
    const auto grow = [&](double by) {
        margin_ = by;
        grown_.resize(n);
        threads.for_blocks(count, kFileBlock, [&](int begin, int end) {
            const Vec3 m{margin_, margin_, margin_};
            for (auto k = static_cast<std::size_t>(begin); k < static_cast<std::size_t>(end); ++k)
                grown_[k] = Aabb{boxes[k].min - m, boxes[k].max + m};
        });
    };
    if (flat_) { // every pair a candidate: for a few bodies, cheaper than filing them
        grow(margin);
        return;
    }
    // The sizes of the finite boxes (a box that is not finite: +∞, above every size, so the
    // k-th smallest of the finite ones is the k-th smallest of all for k below their count). The
    // same sizes as the last build's (balls, boxes that do not turn) have the same median and
    // 90th percentile: those are kept.
    const bool had_sizes = sizes_.size() == n;
    sizes_.resize(n);
    std::atomic<std::size_t> finite{0};
    std::atomic<bool> sizes_changed{!had_sizes};
    threads.for_blocks(count, kFileBlock, [&](int begin, int end) {
        std::size_t here = 0;
        bool changed = false;
        for (auto k = static_cast<std::size_t>(begin); k < static_cast<std::size_t>(end); ++k) {
            const bool f = finite_box(boxes[k]);
            const double size = f ? size_of(boxes[k]) : std::numeric_limits<double>::infinity();
            changed = changed || !(size == sizes_[k]);
            sizes_[k] = size;
            here += f ? 1 : 0;
        }
        finite.fetch_add(here, std::memory_order_relaxed);
        if (changed) sizes_changed.store(true, std::memory_order_relaxed);
    });
    if (sizes_changed.load()) {
        const std::size_t finite_sizes = finite.load();
        median_size_ = p90_size_ = 0;
        if (finite_sizes > 0) {
            scratch_.assign(sizes_.begin(), sizes_.end());
            const auto mid = scratch_.begin() + static_cast<std::ptrdiff_t>(finite_sizes / 2);
            std::nth_element(scratch_.begin(), mid, scratch_.end());
            median_size_ = *mid;
            const auto high = scratch_.begin() + static_cast<std::ptrdiff_t>(finite_sizes * 9 / 10);
            std::nth_element(mid, high, scratch_.end());
            p90_size_ = *high;
        }
    }
    const double median = median_size_, p90 = p90_size_;
    double by = std::max(margin, fraction * median);
    if (!std::isfinite(by) || by < 0) by = margin;
    // Cells just larger than 9 bodies in 10: a cell then holds about one body of a crowd, and
    // the larger tenth are each looked up over the few cells they cover.
    cell_ = 1.05 * (p90 + 2 * by);
    if (!(cell_ > 0) || !std::isfinite(cell_)) cell_ = 1;
    inv_cell_ = 1 / cell_;
    grow(by);
    file(threads);
}

/// Files every body in the grid (or the large list) by its grown box as it is now.
void Broadphase::file(const StepThreads& threads) {
    const std::size_t n = grown_.size();
    moved_.assign(n, 0);
    moved_list_.clear();
    entries_.clear();
    big_.clear();
    // Each body's cell in blocks (and each block's count of small and large bodies and the span
    // of its cells on each axis), then the small ones listed in order in blocks, each after the
    // blocks before it, the large ones apart.
    cells_.resize(n);
    const int count = static_cast<int>(n);
    const std::size_t blocks = n > 0 ? (n - 1) / kFileBlock + 1 : 0;
    filed_blocks_.resize(blocks);
    threads.for_blocks(count, kFileBlock, [&](int begin, int end) {
        FiledBlock b{0, 0, {kCells, kCells, kCells}, {0, 0, 0}};
        for (auto k = static_cast<std::size_t>(begin); k < static_cast<std::size_t>(end); ++k) {
            const Aabb& g = grown_[k];
            if (!small(g)) {
                cells_[k] = kUnfiled;
                ++b.large;
                continue;
            }
            const std::int64_t c[3] = {coord(g.min.x), coord(g.min.y), coord(g.min.z)};
            cells_[k] = pack(c[0], c[1], c[2]);
            for (int a = 0; a < 3; ++a) {
                b.low[a] = std::min(b.low[a], static_cast<std::uint64_t>(c[a]));
                b.high[a] = std::max(b.high[a], static_cast<std::uint64_t>(c[a]));
            }
            ++b.small;
        }
        filed_blocks_[static_cast<std::size_t>(begin / kFileBlock)] = b;
    });
    std::uint64_t low[3] = {kCells, kCells, kCells}, high[3] = {0, 0, 0};
    std::size_t smalls = 0, larges = 0;
    for (FiledBlock& b : filed_blocks_) {
        for (int a = 0; a < 3; ++a) {
            low[a] = std::min(low[a], b.low[a]);
            high[a] = std::max(high[a], b.high[a]);
        }
        const std::size_t small_here = b.small, large_here = b.large;
        b.small = smalls; // (from here on: where the block's bodies go)
        b.large = larges;
        smalls += small_here;
        larges += large_here;
    }
    entries_.resize(smalls);
    big_.resize(larges);
    threads.for_blocks(count, kFileBlock, [&](int begin, int end) {
        const FiledBlock& b = filed_blocks_[static_cast<std::size_t>(begin / kFileBlock)];
        std::size_t small_at = b.small, large_at = b.large;
        for (auto k = static_cast<std::size_t>(begin); k < static_cast<std::size_t>(end); ++k) {
            if (cells_[k] == kUnfiled)
                big_[large_at++] = static_cast<int>(k);
            else
                entries_[small_at++] = Entry{cells_[k], static_cast<int>(k)};
        }
    });
    if (entries_.empty()) return;
    // By cell, then body: a stable LSD radix sort by bytes (bodies went in ascending) of each
    // cell's place within the span the cells cover, packed in as few bits as it needs (x, then
    // y, then z: the order of the packed cells), so a crowd of a few dozen cells a side takes two
    // passes where the whole 63 bits of a cell would take eight; a pass whose byte every cell
    // shares is skipped.
    const auto width = [](std::uint64_t span) { return static_cast<int>(std::bit_width(span)); };
    const int wy = width(high[1] - low[1]), wz = width(high[2] - low[2]);
    const int bits = width(high[0] - low[0]) + wy + wz;
    const auto place = [&, wy, wz](std::uint64_t cell) {
        const std::uint64_t x = (cell >> (2 * kBits)) - low[0];
        const std::uint64_t y = ((cell >> kBits) & (kCells - 1)) - low[1];
        const std::uint64_t z = (cell & (kCells - 1)) - low[2];
        return (x << (wy + wz)) | (y << wz) | z;
    };
    radix_sort(entries_, sorted_, counts_, bits, threads,
               [&](const Entry& e, int shift) { return static_cast<std::size_t>((place(e.cell) >> shift) & 0xff); });
}

bool Broadphase::refit(int k, const Aabb& box) {
    if (flat_) return false; // every pair is a candidate already
    Aabb& g = grown_[static_cast<std::size_t>(k)];
    if (box.min.x >= g.min.x && box.min.y >= g.min.y && box.min.z >= g.min.z && box.max.x <= g.max.x &&
        box.max.y <= g.max.y && box.max.z <= g.max.z)
        return false;
    const Vec3 m{margin_, margin_, margin_};
    g = Aabb{box.min - m, box.max + m};
    if (!moved_[static_cast<std::size_t>(k)]) {
        moved_[static_cast<std::size_t>(k)] = 1;
        moved_list_.push_back(k);
        // Moved bodies are scanned one by one; once they are many, file everything again.
        if (moved_list_.size() > 64 + 2 * static_cast<std::size_t>(std::sqrt(static_cast<double>(grown_.size())))) {
            ++regrids_;
            file(serial_threads());
        }
    }
    return true;
}

/// Calls fn(k) for every filed small body among entries_[begin, end) whose cell could hold a
/// box meeting `box` (a superset: the caller tests the boxes), in no particular order.
template <class Fn>
void Broadphase::for_small_near(const Aabb& box, std::size_t begin, std::size_t end, Fn&& fn) const {
    const bool finite = finite_box(box);
    const std::int64_t x0 = finite ? std::max<std::int64_t>(0, coord(box.min.x) - 1) : 0;
    const std::int64_t y0 = finite ? std::max<std::int64_t>(0, coord(box.min.y) - 1) : 0;
    const std::int64_t z0 = finite ? std::max<std::int64_t>(0, coord(box.min.z) - 1) : 0;
    const std::int64_t x1 = finite ? coord(box.max.x) : kCells - 1;
    const std::int64_t y1 = finite ? coord(box.max.y) : kCells - 1;
    const std::int64_t z1 = finite ? coord(box.max.z) : kCells - 1;
    const double columns = static_cast<double>(x1 - x0 + 1) * static_cast<double>(y1 - y0 + 1);
    const auto first = entries_.begin() + static_cast<std::ptrdiff_t>(begin);
    const auto last_entry = entries_.begin() + static_cast<std::ptrdiff_t>(end);
    if (columns * 4 > static_cast<double>(entries_.size())) {
        for (auto it = first; it != last_entry; ++it) fn(it->body);
    } else {
        const auto less = [](const Entry& e, std::uint64_t c) { return e.cell < c; };
        for (std::int64_t x = x0; x <= x1; ++x) {
            for (std::int64_t y = y0; y <= y1; ++y) {
                const std::uint64_t last = pack(x, y, z1);
                for (auto it = std::lower_bound(first, last_entry, pack(x, y, z0), less);
                     it != last_entry && it->cell <= last; ++it)
                    fn(it->body);
            }
        }
    }
}

void Broadphase::query(const Aabb& box, std::vector<int>& out) {
    out.clear();
    if (flat_) {
        for (int k = 0; k < size(); ++k) out.push_back(k);
        return;
    }
    const auto take = [&](int k) {
        if (boxes_meet(grown_[static_cast<std::size_t>(k)], box)) out.push_back(k);
    };
    for_small_near(box, 0, entries_.size(), [&](int k) {
        if (!moved_[static_cast<std::size_t>(k)]) take(k);
    });
    for (const int k : big_)
        if (!moved_[static_cast<std::size_t>(k)]) take(k);
    for (const int k : moved_list_) take(k);
    std::sort(out.begin(), out.end());
}

inline void Broadphase::add_if(int a, int b, std::vector<PairKey>& out) const {
    const auto ua = static_cast<std::size_t>(a), ub = static_cast<std::size_t>(b);
    if (!(active_[ua] | active_[ub])) return;
    if (!boxes_meet(grown_[ua], grown_[ub])) return;
    out.push_back(a < b ? pair_key(a, b) : pair_key(b, a));
}

void Broadphase::pairs(std::vector<PairKey>& out) { pairs(out, serial_threads()); }

/// The first of entries_ from `from` on (whose cell is below `cell`) with a cell at or after
/// `cell`: a galloping search, a few steps for a near one.
std::size_t Broadphase::first_at_or_after(std::size_t from, std::uint64_t cell) const {
    const std::size_t count = entries_.size();
    std::size_t below = from, step = 1, at = from + 1; // entries_[below].cell < cell
    while (at < count && entries_[at].cell < cell) {
        below = at;
        step *= 2;
        at = below + step;
    }
    const auto less = [](const Entry& e, std::uint64_t c) { return e.cell < c; };
    const auto first = entries_.begin() + static_cast<std::ptrdiff_t>(below + 1);
    const auto last = entries_.begin() + static_cast<std::ptrdiff_t>(std::min(at, count));
    return static_cast<std::size_t>(std::lower_bound(first, last, cell, less) - entries_.begin());
}

/// The candidate pairs of the small bodies filed in cells entries_[begin, end) (whole cells:
/// begin and end are where a cell's entries start) with the bodies of their cell and of the
/// neighbouring cells after it, appended to `out`.
void Broadphase::scan_cells(std::size_t begin, std::size_t end, std::vector<PairKey>& out) const {
    // The 13 neighbouring cells after a cell (each neighbouring pair once) make 5 runs of
    // consecutive keys: (x, y, z + 1), (x, y + 1, z − 1 … z + 1), (x + 1, y − 1 … y + 1, z − 1 …
    // z + 1). Runs start at keys that grow with the cell, so each has a cursor that only moves on.
    constexpr int kRuns = 5;
    constexpr int kDx[kRuns] = {0, 0, 1, 1, 1}, kDy[kRuns] = {0, 1, -1, 0, 1};
    // (Every neighbouring cell after a cell is after entries_[begin]'s: the cursors start there,
    // and a cursor's first move, a whole row or slab of cells on in a chunk that starts
    // mid-grid, is a galloping search, not a walk: chunks on several threads then do the work
    // one scan over all the cells does.)
    std::size_t cursor[kRuns] = {begin, begin, begin, begin, begin};
    const std::size_t count = entries_.size();
    for (std::size_t run = begin; run < end;) {
        const std::uint64_t cell = entries_[run].cell;
        std::size_t run_end = run;
        while (run_end < end && entries_[run_end].cell == cell) ++run_end;
        for (std::size_t p = run; p < run_end; ++p)
            for (std::size_t q = p + 1; q < run_end; ++q) add_if(entries_[p].body, entries_[q].body, out);
        const auto x = static_cast<std::int64_t>(cell >> (2 * kBits));
        const auto y = static_cast<std::int64_t>((cell >> kBits) & (kCells - 1));
        const auto z = static_cast<std::int64_t>(cell & (kCells - 1));
        for (int r = 0; r < kRuns; ++r) {
            const std::int64_t nx = x + kDx[r], ny = y + kDy[r];
            if (nx >= kCells || ny < 0 || ny >= kCells) continue;
            const std::int64_t z0 = r == 0 ? z + 1 : std::max<std::int64_t>(0, z - 1);
            const std::int64_t z1 = std::min<std::int64_t>(kCells - 1, z + 1);
            if (z0 > z1) continue;
            const std::uint64_t first = pack(nx, ny, z0), last = pack(nx, ny, z1);
            std::size_t& c = cursor[r];
            if (c < count && entries_[c].cell < first) c = first_at_or_after(c, first);
            for (std::size_t k = c; k < count && entries_[k].cell <= last; ++k)
                for (std::size_t p = run; p < run_end; ++p) add_if(entries_[p].body, entries_[k].body, out);
        }
        run = run_end;
    }
}

void Broadphase::pairs(std::vector<PairKey>& out, const StepThreads& threads) {
    out.clear();
    if (flat_) {
        for (int a = 0; a < size(); ++a)
            for (int b = a + 1; b < size(); ++b)
                if (active_[static_cast<std::size_t>(a)] | active_[static_cast<std::size_t>(b)])
                    out.push_back(pair_key(a, b));
        return;
    }
    if (!moved_list_.empty()) file(threads); // every body filed where it is now
    // The cells in chunks on the threads (with the bodies larger than a cell against each
    // chunk's), each chunk's pairs into its own list, the lists joined (and sorted below: the
    // same pairs, the same order, for any thread count).
    const std::size_t count = entries_.size();
    const int chunks = threads.threads() > 1 && count >= 4096 ? 4 * threads.threads() : 1;
    if (chunks == 1) {
        scan_cells(0, count, out);
        for (const int b : big_)
            for_small_near(grown_[static_cast<std::size_t>(b)], 0, count, [&](int k) { add_if(b, k, out); });
    } else {
        chunk_keys_.resize(static_cast<std::size_t>(chunks));
        chunk_start_.resize(static_cast<std::size_t>(chunks) + 1);
        chunk_start_[0] = 0;
        for (int c = 1; c < chunks; ++c) {
            std::size_t at = std::max(count * static_cast<std::size_t>(c) / static_cast<std::size_t>(chunks),
                                      chunk_start_[static_cast<std::size_t>(c) - 1]);
            while (at > 0 && at < count && entries_[at].cell == entries_[at - 1].cell) ++at; // a cell's start
            chunk_start_[static_cast<std::size_t>(c)] = at;
        }
        chunk_start_[static_cast<std::size_t>(chunks)] = count;
        threads.for_blocks(chunks, 1, [&](int begin, int end) {
            for (int c = begin; c < end; ++c) {
                std::vector<PairKey>& keys = chunk_keys_[static_cast<std::size_t>(c)].keys;
                keys.clear();
                const std::size_t from = chunk_start_[static_cast<std::size_t>(c)];
                const std::size_t to = chunk_start_[static_cast<std::size_t>(c) + 1];
                scan_cells(from, to, keys);
                for (const int b : big_)
                    for_small_near(grown_[static_cast<std::size_t>(b)], from, to, [&](int k) { add_if(b, k, keys); });
            }
        });
        // Joined in blocks, a chunk a block: each list copied by the thread that wrote it, when
        // the threads take the same runs of blocks as in the scan (world/parallel.h).
        std::size_t total = 0;
        for (int c = 0; c < chunks; ++c) {
            chunk_start_[static_cast<std::size_t>(c)] = total; // (from here on: where its pairs go)
            total += chunk_keys_[static_cast<std::size_t>(c)].keys.size();
        }
        out.resize(total);
        threads.for_blocks(chunks, 1, [&](int begin, int end) {
            for (int c = begin; c < end; ++c) {
                const std::vector<PairKey>& keys = chunk_keys_[static_cast<std::size_t>(c)].keys;
                std::copy(keys.begin(), keys.end(),
                          out.begin() + static_cast<std::ptrdiff_t>(chunk_start_[static_cast<std::size_t>(c)]));
            }
        });
    }
    // Large bodies among themselves: sweep along x.
    const auto low_x = [&](int k) { // NaN last (it meets nothing)
        const double x = grown_[static_cast<std::size_t>(k)].min.x;
        return std::isnan(x) ? std::numeric_limits<double>::infinity() : x;
    };
    std::sort(big_.begin(), big_.end(), [&](int a, int b) {
        const double xa = low_x(a), xb = low_x(b);
        return xa < xb || (xa == xb && a < b);
    });
    for (std::size_t b = 0; b < big_.size(); ++b) {
        const double end = grown_[static_cast<std::size_t>(big_[b])].max.x;
        for (std::size_t c = b + 1; c < big_.size(); ++c) {
            const double start = grown_[static_cast<std::size_t>(big_[c])].min.x;
            if (start > end) break; // a NaN never breaks: add_if refuses it
            add_if(big_[b], big_[c], out);
        }
    }
    std::sort(big_.begin(), big_.end());
    sort_keys(out, sorted_keys_, counts_, threads);
}

} // namespace collide
