#include "baselines/overlap_box_box_batch.h"

#include <algorithm>
#include <cmath>
#include <utility>

#include "detection/contact.h"
#include "detection/sat.h"

// Exactly overlap_box_box's rounding needs every a·b + c rounded twice, never fused: the AVX-512
// clone below may use FMA instructions, and GNU dialects or -ffp-contract=fast would let the
// compiler fuse them.
#if defined(__clang__)
#pragma STDC FP_CONTRACT OFF
#elif defined(__GNUC__)
#pragma GCC optimize("fp-contract=off")
#endif

namespace collide::baseline {

namespace {

// The same separating axis test as overlap_box_box (sat_box_box.cpp: Ericson, Real-Time
// Collision Detection, 4.4.1, in A's frame), written so that one loop iteration is one pair
// with no branch, which g++ -O2 turns into SIMD over the lanes of a block:
//   for each pair (lane):
//     R = Aᵀ·B, |R|, t = Aᵀ·(B.centre − A.centre)
//     least face overlap over A's u, v, w then B's u, v, w               (6 axes)
//     least scaled edge overlap over A_i × B_j, i slow                     (9 axes)
//     close     = some scaled edge overlap ≤ kTouchEpsilon
//     separates = some edge axis with |L|² > kSatParallelEpsilon and
//                 (overlap ≤ 0 or overlap² ≤ kTouchEpsilon²·|L|²)
//     overlaps  = least face > kTouchEpsilon and
//                 (least edge > kTouchEpsilon or not (close and separates))
// Every number is computed by the same expression, in the same order, as the scalar test
// (including the "o < m ? o : m" running minimum), so the answers agree bit for bit; the
// scalar test's branches only choose which of these numbers to look at. Nothing is fused into
// a multiply-add (see the pragma above), so no rounding differs either.

constexpr double kTouch2 = kTouchEpsilon * kTouchEpsilon;

/// One pair seen from A's frame (sat_box_box.cpp's PairFrame, from one lane of two blocks).
struct LaneFrame {
    double R[3][3];  ///< R[i][j] = A_i · B_j
    double AR[3][3]; ///< |R[i][j]|
    double t[3];     ///< B's centre − A's centre along A's axes (m)
    double ha[3];    ///< A's half-sizes (m)
    double hb[3];    ///< B's half-sizes (m)
};

template <int i, int j>
[[gnu::always_inline]] inline void fill_rotation(LaneFrame& f, const double (&A)[3][3], const double (&B)[3][3]) {
    f.R[i][j] = A[i][0] * B[j][0] + A[i][1] * B[j][1] + A[i][2] * B[j][2];
    f.AR[i][j] = std::fabs(f.R[i][j]);
}

template <int... k> [[gnu::always_inline]] inline void
fill_rotations(LaneFrame& f, const double (&A)[3][3], const double (&B)[3][3], std::integer_sequence<int, k...>) {
    (fill_rotation<k / 3, k % 3>(f, A, B), ...);
}

[[gnu::always_inline]] inline LaneFrame lane_frame(const ObbBlock& a, const ObbBlock& b, std::size_t k) {
    const double A[3][3] = {{a.ux[k], a.uy[k], a.uz[k]}, {a.vx[k], a.vy[k], a.vz[k]}, {a.wx[k], a.wy[k], a.wz[k]}};
    const double B[3][3] = {{b.ux[k], b.uy[k], b.uz[k]}, {b.vx[k], b.vy[k], b.vz[k]}, {b.wx[k], b.wy[k], b.wz[k]}};
    LaneFrame f;
    fill_rotations(f, A, B, std::make_integer_sequence<int, 9>{});
    const double d[3] = {b.cx[k] - a.cx[k], b.cy[k] - a.cy[k], b.cz[k] - a.cz[k]};
    f.t[0] = d[0] * A[0][0] + d[1] * A[0][1] + d[2] * A[0][2];
    f.t[1] = d[0] * A[1][0] + d[1] * A[1][1] + d[2] * A[1][2];
    f.t[2] = d[0] * A[2][0] + d[1] * A[2][1] + d[2] * A[2][2];
    f.ha[0] = a.hx[k];
    f.ha[1] = a.hy[k];
    f.ha[2] = a.hz[k];
    f.hb[0] = b.hx[k];
    f.hb[1] = b.hy[k];
    f.hb[2] = b.hz[k];
    return f;
}

/// Overlap along A's face normal i (m).
template <int i> [[gnu::always_inline]] inline double face_a_overlap(const LaneFrame& f) {
    return f.ha[i] + f.hb[0] * f.AR[i][0] + f.hb[1] * f.AR[i][1] + f.hb[2] * f.AR[i][2] - std::fabs(f.t[i]);
}

/// Overlap along B's face normal j (m).
template <int j> [[gnu::always_inline]] inline double face_b_overlap(const LaneFrame& f) {
    const double dist = f.t[0] * f.R[0][j] + f.t[1] * f.R[1][j] + f.t[2] * f.R[2][j];
    return f.ha[0] * f.AR[0][j] + f.ha[1] * f.AR[1][j] + f.ha[2] * f.AR[2][j] + f.hb[j] - std::fabs(dist);
}

/// The running minimum exactly as the scalar test keeps it (a NaN candidate is passed over).
[[gnu::always_inline]] inline double keep_least(double least, double o) { return o < least ? o : least; }

/// The least of the six face overlaps, A's u, v, w then B's u, v, w.
[[gnu::always_inline]] inline double least_face_overlap(const LaneFrame& f) {
    double m = face_a_overlap<0>(f);
    m = keep_least(m, face_a_overlap<1>(f));
    m = keep_least(m, face_a_overlap<2>(f));
    m = keep_least(m, face_b_overlap<0>(f));
    m = keep_least(m, face_b_overlap<1>(f));
    m = keep_least(m, face_b_overlap<2>(f));
    return m;
}

/// Edge axis A_i × B_j with k = 3·i + j: L in A's frame has |L|² = R[i1][j]² + R[i2][j]²; the
/// overlap along L times |L| is a_i1|R[i2][j]| + a_i2|R[i1][j]| + b_j1|R[i][j2]| + b_j2|R[i][j1]|
/// − |t_i2 R[i1][j] − t_i1 R[i2][j]| (i1, i2, j1, j2 the next two indices cyclically). Folds it
/// into the least scaled overlap (parallel pairs included), whether some scaled overlap is
/// ≤ kTouchEpsilon (`close`) and whether some usable edge axis separates by the exact rule.
template <int k>
[[gnu::always_inline]] inline void scan_edge(const LaneFrame& f, double& least, bool& close, bool& separates) {
    constexpr int i = k / 3, j = k % 3;
    constexpr int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
    const double dist = f.t[i2] * f.R[i1][j] - f.t[i1] * f.R[i2][j];
    const double o = f.ha[i1] * f.AR[i2][j] + f.ha[i2] * f.AR[i1][j] + f.hb[j1] * f.AR[i][j2] + f.hb[j2] * f.AR[i][j1] -
                     std::fabs(dist);
    const double len2 = f.R[i1][j] * f.R[i1][j] + f.R[i2][j] * f.R[i2][j];
    if constexpr (k == 0)
        least = o;
    else
        least = keep_least(least, o);
    close = close | (o <= kTouchEpsilon);
    separates = separates | ((len2 > kSatParallelEpsilon) & ((o <= 0.0) | (o * o <= kTouch2 * len2)));
}

template <int... k> [[gnu::always_inline]] inline void scan_edges(const LaneFrame& f, double& least, bool& close,
                                                                  bool& separates, std::integer_sequence<int, k...>) {
    (scan_edge<k>(f, least, close, separates), ...);
}

/// overlap_box_box's answer for one lane, without a branch.
[[gnu::always_inline]] inline bool lane_overlaps(const ObbBlock& a, const ObbBlock& b, std::size_t k) {
    const LaneFrame f = lane_frame(a, b, k);
    const bool faces_overlap = least_face_overlap(f) > kTouchEpsilon;
    double least_edge = 0.0;
    bool close = false;
    bool separates = false;
    scan_edges(f, least_edge, close, separates, std::make_integer_sequence<int, 9>{});
    const bool edges_clear = least_edge > kTouchEpsilon;
    return faces_overlap & (edges_clear | !(close & separates));
}

/// The kernel: `blocks` pairs of blocks, kObbBlockLanes answers (0 or 1) per block into `out`.
[[gnu::always_inline]] inline void overlap_blocks_body(const ObbBlock* __restrict a, const ObbBlock* __restrict b,
                                                       std::size_t blocks, std::uint8_t* __restrict out) {
    for (std::size_t n = 0; n < blocks; ++n) {
        const ObbBlock& ab = a[n];
        const ObbBlock& bb = b[n];
        // Answers as doubles (1 or 0) first: a byte per lane would make the vectoriser want 16
        // lanes per step, more than a block has, and SSE2 cannot select 64-bit integers.
        double verdict[kObbBlockLanes];
        for (std::size_t k = 0; k < kObbBlockLanes; ++k) verdict[k] = lane_overlaps(ab, bb, k) ? 1.0 : 0.0;
        std::uint8_t* __restrict o = out + n * kObbBlockLanes;
        for (std::size_t k = 0; k < kObbBlockLanes; ++k) o[k] = verdict[k] != 0.0 ? 1 : 0;
    }
}

using BlockKernel = void (*)(const ObbBlock*, const ObbBlock*, std::size_t, std::uint8_t*);

/// The kernel for the baseline instruction set (SSE2 on x86-64: two lanes per instruction).
void overlap_blocks_baseline(const ObbBlock* a, const ObbBlock* b, std::size_t blocks, std::uint8_t* out) {
    overlap_blocks_body(a, b, blocks, out);
}

#if defined(__x86_64__) || defined(__i386__)
/// The kernel for processors with AVX2 (four lanes per instruction), picked at run time.
[[gnu::target("avx2")]] void overlap_blocks_avx2(const ObbBlock* a, const ObbBlock* b, std::size_t blocks,
                                                 std::uint8_t* out) {
    overlap_blocks_body(a, b, blocks, out);
}

// 512-bit vectors: GCC takes the width in the target string, Clang in an attribute of its own.
#if defined(__clang__)
#define COLLIDE_AVX512 gnu::target("avx512f"), clang::min_vector_width(512)
#else
#define COLLIDE_AVX512 gnu::target("avx512f,prefer-vector-width=512")
#endif
/// The kernel for processors with AVX-512 (a whole block per instruction), picked at run time.
[[COLLIDE_AVX512]] void overlap_blocks_avx512(const ObbBlock* a, const ObbBlock* b, std::size_t blocks,
                                              std::uint8_t* out) {
    overlap_blocks_body(a, b, blocks, out);
}
#endif

BatchSimd detect_simd() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) return BatchSimd::avx512;
    if (__builtin_cpu_supports("avx2")) return BatchSimd::avx2;
#endif
    return BatchSimd::baseline;
}

/// The best kernel this processor runs (found once).
BatchSimd supported_simd() {
    static const BatchSimd supported = detect_simd();
    return supported;
}

/// The kernel for `simd`, lowered to what this processor runs.
BlockKernel block_kernel(BatchSimd simd) {
    const BatchSimd level = std::min(simd, supported_simd());
#if defined(__x86_64__) || defined(__i386__)
    if (level == BatchSimd::avx512) return overlap_blocks_avx512;
    if (level == BatchSimd::avx2) return overlap_blocks_avx2;
#endif
    return overlap_blocks_baseline;
}

/// Writes `box` into lane `k` of `block`.
void put_lane(ObbBlock& block, std::size_t k, const Obb& box) {
    block.cx[k] = box.centre.x;
    block.cy[k] = box.centre.y;
    block.cz[k] = box.centre.z;
    block.ux[k] = box.axes.col[0].x;
    block.uy[k] = box.axes.col[0].y;
    block.uz[k] = box.axes.col[0].z;
    block.vx[k] = box.axes.col[1].x;
    block.vy[k] = box.axes.col[1].y;
    block.vz[k] = box.axes.col[1].z;
    block.wx[k] = box.axes.col[2].x;
    block.wy[k] = box.axes.col[2].y;
    block.wz[k] = box.axes.col[2].z;
    block.hx[k] = box.half.x;
    block.hy[k] = box.half.y;
    block.hz[k] = box.half.z;
}

/// Packs `boxes` (at most blocks·kObbBlockLanes of them) into `blocks`, padding the last one.
void pack_into(std::span<const Obb> boxes, ObbBlock* blocks) {
    const std::size_t n = boxes.size();
    for (std::size_t k = 0; k < n; ++k) put_lane(blocks[k / kObbBlockLanes], k % kObbBlockLanes, boxes[k]);
    const Obb padding{};
    for (std::size_t k = n; k % kObbBlockLanes != 0; ++k)
        put_lane(blocks[k / kObbBlockLanes], k % kObbBlockLanes, padding);
}

/// Runs the kernel on `blocks` block pairs answering `count` ≤ blocks·kObbBlockLanes pairs:
/// whole blocks straight into `out`, the last partial block through a scratch buffer.
void run_kernel(const ObbBlock* a, const ObbBlock* b, std::size_t count, std::uint8_t* out, BatchSimd simd) {
    const BlockKernel kernel = block_kernel(simd);
    const std::size_t whole = count / kObbBlockLanes;
    kernel(a, b, whole, out);
    const std::size_t rest = count - whole * kObbBlockLanes;
    if (rest == 0) return;
    std::uint8_t scratch[kObbBlockLanes];
    kernel(a + whole, b + whole, 1, scratch);
    std::copy_n(scratch, rest, out + whole * kObbBlockLanes);
}

} // namespace

void pack_boxes(std::span<const Obb> boxes, ObbBatch& out) {
    out.count = boxes.size();
    out.blocks.resize((boxes.size() + kObbBlockLanes - 1) / kObbBlockLanes);
    pack_into(boxes, out.blocks.data());
}

BatchSimd batch_simd_supported() { return supported_simd(); }

void overlap_box_box_batch(const ObbBatch& a, const ObbBatch& b, std::span<std::uint8_t> out, BatchSimd simd) {
    const std::size_t n = std::min({a.count, b.count, out.size()});
    run_kernel(a.blocks.data(), b.blocks.data(), n, out.data(), simd);
}

void overlap_box_box_batch(const ObbBatch& a, const ObbBatch& b, std::span<std::uint8_t> out) {
    overlap_box_box_batch(a, b, out, BatchSimd::avx512);
}

void overlap_box_box_batch(std::span<const Obb> a, std::span<const Obb> b, std::span<std::uint8_t> out) {
    // A few blocks per round: small enough to stay in the L1 cache, large enough that the
    // kernel call and the dispatch cost nothing per pair.
    constexpr std::size_t kRoundBlocks = 4;
    constexpr std::size_t kRound = kRoundBlocks * kObbBlockLanes;
    ObbBlock ablocks[kRoundBlocks];
    ObbBlock bblocks[kRoundBlocks];
    const std::size_t n = std::min({a.size(), b.size(), out.size()});
    for (std::size_t first = 0; first < n; first += kRound) {
        const std::size_t count = std::min(kRound, n - first);
        pack_into(a.subspan(first, count), ablocks);
        pack_into(b.subspan(first, count), bblocks);
        run_kernel(ablocks, bblocks, count, out.data() + first, BatchSimd::avx512);
    }
}

} // namespace collide::baseline
