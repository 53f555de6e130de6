// GJK distance and GJK + EPA depth on turned-box pairs: 1,000,000 fixed-seed random pairs,
// generated once, each query on a distinct pair (cycling a few inputs would let the branch
// predictor learn them).
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstddef>
#include <random>
#include <vector>

#include "detection/contact_convex.h"
#include "detection/gjk.h"

using namespace collide;

namespace {

constexpr std::size_t kPairs = 1'000'000;

struct BoxPairs {
    std::vector<Obb> a, b;
};

Obb random_box(std::mt19937_64& rng, double spread) {
    std::uniform_real_distribution<double> u(-1.0, 1.0), size(0.2, 1.0);
    Quat q{u(rng), u(rng), u(rng), u(rng)};
    if (q.w == 0 && q.x == 0 && q.y == 0 && q.z == 0) q.w = 1;
    return Obb{{u(rng) * spread, u(rng) * spread, u(rng) * spread}, to_mat3(normalize(q)), {size(rng), size(rng), size(rng)}};
}

// Centres within ±spread on each axis: spread 3 leaves most pairs apart, 0.3 makes them overlap.
const BoxPairs& pairs(double spread, std::uint64_t seed) {
    static BoxPairs apart, overlapping;
    BoxPairs& p = spread > 1 ? apart : overlapping;
    if (p.a.empty()) {
        std::mt19937_64 rng(seed);
        p.a.reserve(kPairs);
        p.b.reserve(kPairs);
        for (std::size_t i = 0; i < kPairs; ++i) {
            p.a.push_back(random_box(rng, spread));
            p.b.push_back(random_box(rng, spread));
        }
    }
    return p;
}

void gjk_box_box(benchmark::State& state) {
    const BoxPairs& p = pairs(3.0, 1);
    std::size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(gjk_distance(p.a[i], p.b[i]).distance);
        if (++i == kPairs) i = 0;
    }
}
BENCHMARK(gjk_box_box);

void epa_box_box(benchmark::State& state) {
    const BoxPairs& p = pairs(0.3, 2);
    std::size_t i = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(contact_gjk_epa(p.a[i], p.b[i]));
        if (++i == kPairs) i = 0;
    }
}
BENCHMARK(epa_box_box);

} // namespace
