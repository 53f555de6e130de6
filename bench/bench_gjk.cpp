// GJK distance and GJK + EPA contact on turned boxes, on the same 1,000,000 fixed-seed pairs as
// bench_detection.cpp (same seed and distribution: about half the pairs overlap), so their
// times compare directly with obb_contact (the separating axis test) in the same run.
//
//   ./build/collide_bench --benchmark_filter='gjk_box_box|epa_box_box|obb_contact$'
//     --benchmark_min_time=0.2 --benchmark_repetitions=3 --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>

#include <random>
#include <vector>

#include "detection/contact_convex.h"
#include "detection/gjk.h"
#include "math/quat.h"

using namespace collide;

namespace {

constexpr std::size_t kPairs = 1'000'000;

struct BoxPairs {
    std::vector<Obb> a, b;
};

const BoxPairs& box_pairs() {
    static const BoxPairs pairs = [] {
        BoxPairs p;
        p.a.reserve(kPairs);
        p.b.reserve(kPairs);
        std::mt19937_64 rng(20260726);
        std::normal_distribution<double> g(0.0, 1.0);
        std::uniform_real_distribution<double> pos(-2.0, 2.0), size(0.1, 2.0);
        auto box = [&] {
            const Quat q = normalize(Quat{g(rng), g(rng), g(rng), g(rng)});
            const Vec3 centre{pos(rng), pos(rng), pos(rng)};
            const Vec3 half{size(rng), size(rng), size(rng)};
            return Obb{centre, to_mat3(q), half};
        };
        for (std::size_t k = 0; k < kPairs; ++k) {
            p.a.push_back(box());
            p.b.push_back(box());
        }
        return p;
    }();
    return pairs;
}

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
    state.counters["overlapping"] = benchmark::Counter(static_cast<double>(overlapping), benchmark::Counter::kAvgIterations);
    state.counters["gjk_iterations"] = benchmark::Counter(static_cast<double>(iterations), benchmark::Counter::kAvgIterations);
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
