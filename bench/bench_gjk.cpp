// GJK distance and GJK + EPA contact on turned boxes, on the same 1,000,000 fixed-seed pairs as
// bench_detection.cpp (same seed and distribution: about half the pairs overlap), so their
// times compare directly with obb_contact (the separating axis test) in the same run.
//
//   ./build/collide_bench --benchmark_filter='gjk_box_box|epa_box_box|obb_contact$'
//     --benchmark_min_time=0.2 --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "box_pairs.h"
#include "detection/contact_convex.h"
#include "detection/gjk.h"
#include "math/quat.h"

using namespace collide;

namespace {

using bench::box_pairs;
using bench::BoxPairs;
using bench::kPairs;

// GJK alone: distance for the apart pairs, the overlap verdict for the others.
void gjk_box_box(benchmark::State& state) {
    const BoxPairs& p = box_pairs();
    std::size_t k = 0, overlapping = 0, iterations = 0;
    for (auto _ : state) {
        const GjkResult r = gjk_distance(p.a[k], p.b[k]);
        benchmark::DoNotOptimize(r.distance);
        overlapping += r.overlap ? 1 : 0;
        iterations += static_cast<std::size_t>(r.iterations);
        if (++k == kPairs) k = 0;
    }
    state.counters["overlapping"] =
            benchmark::Counter(static_cast<double>(overlapping), benchmark::Counter::kAvgIterations);
    state.counters["gjk_iterations"] =
            benchmark::Counter(static_cast<double>(iterations), benchmark::Counter::kAvgIterations);
}
BENCHMARK(gjk_box_box);

// The full generic contact: GJK, then EPA on the overlapping pairs.
void epa_box_box(benchmark::State& state) {
    const BoxPairs& p = box_pairs();
    std::size_t k = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(contact_gjk_epa(p.a[k], p.b[k]));
        if (++k == kPairs) k = 0;
    }
}
BENCHMARK(epa_box_box);

} // namespace
