#pragma once
/// \file
/// The turned-box yes/no overlap test for many pairs at once, the way a broadphase produces
/// them: boxes are packed into fixed-size blocks of structure-of-arrays so one kernel tests
/// several pairs per instruction (SIMD on doubles), with the same answer as overlap_box_box on
/// every pair. A benchmark baseline (obb_overlap_batch, obb_overlap_batch_packed against
/// obb_overlap): nothing in the library or the command line calls it, so it is compiled only
/// into collide_bench and collide_tests.

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "shapes/shapes.h"

namespace collide::baseline {

/// How many boxes one ObbBlock holds (the kernel's fixed inner trip count).
inline constexpr std::size_t kObbBlockLanes = 8;

/// kObbBlockLanes turned boxes as structure-of-arrays: lane k of every array is box k. Same
/// meaning and frame as Obb (centre in m, unit axes u, v, w, half-sizes in m).
struct alignas(64) ObbBlock {
    double cx[kObbBlockLanes]; ///< centre x (m)
    double cy[kObbBlockLanes]; ///< centre y (m)
    double cz[kObbBlockLanes]; ///< centre z (m)
    double ux[kObbBlockLanes]; ///< axis u, x component
    double uy[kObbBlockLanes]; ///< axis u, y component
    double uz[kObbBlockLanes]; ///< axis u, z component
    double vx[kObbBlockLanes]; ///< axis v, x component
    double vy[kObbBlockLanes]; ///< axis v, y component
    double vz[kObbBlockLanes]; ///< axis v, z component
    double wx[kObbBlockLanes]; ///< axis w, x component
    double wy[kObbBlockLanes]; ///< axis w, y component
    double wz[kObbBlockLanes]; ///< axis w, z component
    double hx[kObbBlockLanes]; ///< half-size along u (m)
    double hy[kObbBlockLanes]; ///< half-size along v (m)
    double hz[kObbBlockLanes]; ///< half-size along w (m)
};

/// Many turned boxes packed for overlap_box_box_batch: box k is lane k % kObbBlockLanes of
/// block k / kObbBlockLanes. Lanes past `count` in the last block hold a default Obb (never
/// reported).
struct ObbBatch {
    std::vector<ObbBlock> blocks; ///< ⌈count / kObbBlockLanes⌉ blocks
    std::size_t count = 0;        ///< how many boxes are packed
};

/// Packs `boxes` into `out`, reusing its storage (allocates only when `out` must grow).
void pack_boxes(std::span<const Obb> boxes, ObbBatch& out);

/// overlap_box_box for many packed pairs: out[k] = 1 when box k of `a` and box k of `b`
/// overlap by more than kTouchEpsilon on every tested axis, else 0 — exactly overlap_box_box's
/// answer, parallel-edge skip and touching rule included. Processes min(a.count, b.count,
/// out.size()) pairs. Allocates nothing; runs the best kernel the processor has (BatchSimd).
void overlap_box_box_batch(const ObbBatch& a, const ObbBatch& b, std::span<std::uint8_t> out);

/// The instruction sets the batch kernel is compiled for. Only `baseline` exists off x86-64.
enum class BatchSimd {
    baseline, ///< the build's baseline (SSE2 on x86-64): 2 pairs per instruction
    avx2,     ///< AVX2: 4 pairs per instruction
    avx512,   ///< AVX-512F: 8 pairs (a whole block) per instruction
};

/// The best kernel this processor can run (the one overlap_box_box_batch uses).
BatchSimd batch_simd_supported();

/// overlap_box_box_batch on packed pairs with a chosen kernel (for tests and benchmarks: every
/// kernel gives the same answers). A level above batch_simd_supported() is lowered to it.
void overlap_box_box_batch(const ObbBatch& a, const ObbBatch& b, std::span<std::uint8_t> out, BatchSimd simd);

/// overlap_box_box for many pairs given as plain boxes: out[k] = 1 when a[k] and b[k] overlap,
/// else 0 (the shortest of the three lengths is processed). Packs a few blocks at a time on
/// the stack and runs the same kernel: allocates nothing, but the packing costs time, so pack
/// once with pack_boxes when the same boxes are tested again.
void overlap_box_box_batch(std::span<const Obb> a, std::span<const Obb> b, std::span<std::uint8_t> out);

} // namespace collide::baseline
