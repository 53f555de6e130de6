// Detection benchmarks: turned-box overlap and contact (separating axis test), the generic
// corner-projection form (sat_convex) as the baseline, and sphere against axis-aligned box.
//
// Every benchmark cycles through 1,000,000 fixed-seed random pairs made once, outside the timed
// loop, so neither the caches nor the branch predictor can learn a few inputs. Boxes have
// half-sizes 0.1–2 m, uniform random rotations and centres uniform in a cube sized so that about
// half the pairs overlap (the "overlapping" counter reports the fraction). The overlap
// benchmarks also run on the first 4000 pairs only (…/4000), which stay in the L2 cache: all
// 1,000,000 pairs are 240 MB of boxes, and streaming them caps any test at the memory's read
// rate (about 23 ns per pair at 10.5 GB/s on the development machine).
//
//   ./build/collide_bench --benchmark_filter='obb|sphere_aabb' --benchmark_repetitions=3
//     --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <array>
#include <cstdint>
#include <random>
#include <vector>

#include "baselines/overlap_box_box_batch.h"
#include "baselines/overlap_sphere_aabb.h"
#include "box_pairs.h"
#include "detection/contact_sphere_box.h"
#include "detection/sat_box_box.h"
#include "detection/sat_convex.h"
#include "math/quat.h"

using namespace collide;

namespace {

using bench::box_pairs;
using bench::BoxPairs;
using bench::kPairs;

double overlapping_fraction(const BoxPairs& p) {
    std::size_t n = 0;
    for (std::size_t k = 0; k < kPairs; ++k) n += overlap_box_box(p.a[k], p.b[k]) ? 1 : 0;
    return static_cast<double>(n) / kPairs;
}

// range(0) = how many of the pairs are cycled through: all 1,000,000 (240 MB of boxes, streamed
// from memory) or the first kHotPairs (960 KB, resident in the L2 cache, as a broadphase's
// pairs of a few thousand boxes would be).
constexpr std::int64_t kHotPairs = 4000;

void obb_overlap(benchmark::State& state) {
    const BoxPairs& p = box_pairs();
    const auto n = static_cast<std::size_t>(state.range(0));
    std::size_t k = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(overlap_box_box(p.a[k], p.b[k]));
        if (++k == n) k = 0;
    }
    state.SetItemsProcessed(state.iterations());
    state.counters["overlapping"] = overlapping_fraction(p);
}
BENCHMARK(obb_overlap)->Arg(kPairs)->Arg(kHotPairs);

void obb_contact(benchmark::State& state) {
    const BoxPairs& p = box_pairs();
    std::size_t k = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(sat_box_box(p.a[k], p.b[k]));
        if (++k == kPairs) k = 0;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(obb_contact);

// The generic form: build each box's 8 corners and 3 axes, then project all 16 corners on each of
// the 15 axes (sat_convex), with the same depth-and-axis answer.
void obb_contact_naive(benchmark::State& state) {
    const BoxPairs& p = box_pairs();
    std::size_t k = 0;
    for (auto _ : state) {
        const Obb& a = p.a[k];
        const Obb& b = p.b[k];
        const std::array<Vec3, 8> ca = corners_of(a), cb = corners_of(b);
        const std::array<Vec3, 3> aa{a.axes.col[0], a.axes.col[1], a.axes.col[2]};
        const std::array<Vec3, 3> ab{b.axes.col[0], b.axes.col[1], b.axes.col[2]};
        benchmark::DoNotOptimize(sat_convex({ca, aa, aa}, {cb, ab, ab}));
        if (++k == kPairs) k = 0;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(obb_contact_naive);

// The batch on plain boxes, 1000 pairs per call: packing into blocks included.
void obb_overlap_batch(benchmark::State& state) {
    const BoxPairs& p = box_pairs();
    const auto n = static_cast<std::size_t>(state.range(0));
    constexpr std::size_t kBlock = 1000;
    std::vector<std::uint8_t> out(kBlock);
    std::size_t k = 0;
    for (auto _ : state) {
        baseline::overlap_box_box_batch(std::span<const Obb>(p.a).subspan(k, kBlock),
                                        std::span<const Obb>(p.b).subspan(k, kBlock), out);
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
        k += kBlock;
        if (k == n) k = 0;
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(kBlock));
}
BENCHMARK(obb_overlap_batch)->Arg(kPairs)->Arg(kHotPairs);

// The batch kernel alone: the first range(0) pairs packed once (outside the timed loop) into
// blocks of structure-of-arrays, all of them per iteration, with kernel range(1) (0 = SSE2
// baseline, 1 = AVX2, 2 = AVX-512; lowered to what the processor runs).
void obb_overlap_batch_packed(benchmark::State& state) {
    const BoxPairs& p = box_pairs();
    const auto n = static_cast<std::size_t>(state.range(0));
    const auto simd = static_cast<baseline::BatchSimd>(state.range(1));
    baseline::ObbBatch a, b;
    baseline::pack_boxes(std::span<const Obb>(p.a).first(n), a);
    baseline::pack_boxes(std::span<const Obb>(p.b).first(n), b);
    std::vector<std::uint8_t> out(n);
    for (auto _ : state) {
        baseline::overlap_box_box_batch(a, b, out, simd);
        benchmark::DoNotOptimize(out.data());
        benchmark::ClobberMemory();
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(n));
}
BENCHMARK(obb_overlap_batch_packed)->ArgNames({"pairs", "simd"})->ArgsProduct({{kPairs, kHotPairs}, {0, 1, 2}});

const std::vector<std::pair<Sphere, Aabb>>& sphere_box_pairs() {
    static const auto pairs = [] {
        std::vector<std::pair<Sphere, Aabb>> v;
        v.reserve(kPairs);
        std::mt19937_64 rng(4004);
        std::uniform_real_distribution<double> pos(-1.5, 1.5), size(0.1, 2.0);
        for (std::size_t k = 0; k < kPairs; ++k) {
            const Sphere s{{pos(rng), pos(rng), pos(rng)}, size(rng)};
            const Vec3 c{pos(rng), pos(rng), pos(rng)};
            const Vec3 h{size(rng), size(rng), size(rng)};
            v.push_back({s, Aabb{c - h, c + h}});
        }
        return v;
    }();
    return pairs;
}

/// The contact (normal and depth, centre-inside case included).
void sphere_aabb(benchmark::State& state) {
    const auto& pairs = sphere_box_pairs();
    std::size_t k = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(contact_sphere_aabb(pairs[k].first, pairs[k].second));
        if (++k == kPairs) k = 0;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(sphere_aabb);

/// The yes/no alone: the plain clamp test.
void sphere_aabb_overlap(benchmark::State& state) {
    const auto& pairs = sphere_box_pairs();
    std::size_t k = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(baseline::overlap_sphere_aabb(pairs[k].first, pairs[k].second));
        if (++k == kPairs) k = 0;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(sphere_aabb_overlap);

} // namespace
