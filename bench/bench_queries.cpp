// Micro-benchmarks of the queries: the slab test (branch-free and branchy) and sphere casts (exact
// against a turned box and an axis-aligned box, and the box grown by the radius as the baseline).
// Every benchmark cycles through 1,000,000 fixed-seed cases built before the timed loop, so the
// branch predictor cannot learn them.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstddef>
#include <random>
#include <type_traits>
#include <vector>

#include "baselines/cast_grown_box.h"
#include "baselines/slab_branchy.h"
#include "queries/cast.h"
#include "queries/raycast.h"

using namespace collide;

namespace {

constexpr std::size_t kCases = 1'000'000;

struct RayCase {
    Vec3 origin;
    Vec3 direction;
    Aabb box;
};

/// A sphere cast against a box; Box is Obb (turned) or Aabb. Each benchmark streams only the
/// fields it reads.
template <class Box> struct CastCase {
    Sphere sphere;
    Vec3 velocity;
    Box box;
};

constexpr double kStep = 1.0; // t_max of every cast (s)

std::vector<RayCase> ray_cases() {
    std::mt19937_64 rng(12345);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::vector<RayCase> out(kCases);
    for (RayCase& c : out) {
        const Vec3 centre{u(rng), u(rng), u(rng)};
        const Vec3 half{0.1 + 0.9 * std::fabs(u(rng)), 0.1 + 0.9 * std::fabs(u(rng)), 0.1 + 0.9 * std::fabs(u(rng))};
        c.box = {centre - half, centre + half};
        c.origin = {4 * u(rng), 4 * u(rng), 4 * u(rng)};
        c.direction = centre + Vec3{2 * u(rng), 2 * u(rng), 2 * u(rng)} - c.origin; // about half hit
    }
    return out;
}

/// The cast cases: the same spheres, velocities and boxes whether the box is turned or not
/// (the AABB form is the box before turning).
template <class Box> std::vector<CastCase<Box>> cast_cases() {
    std::mt19937_64 rng(67890);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    std::vector<CastCase<Box>> out(kCases);
    for (CastCase<Box>& c : out) {
        const Vec3 centre{u(rng), u(rng), u(rng)};
        const Vec3 half{0.1 + 0.9 * std::fabs(u(rng)), 0.1 + 0.9 * std::fabs(u(rng)), 0.1 + 0.9 * std::fabs(u(rng))};
        const Quat turn = normalize(Quat{u(rng), u(rng), u(rng), u(rng)});
        if constexpr (std::is_same_v<Box, Obb>)
            c.box = {centre, to_mat3(turn), half};
        else
            c.box = {centre - half, centre + half};
        c.sphere = {{3 * u(rng), 3 * u(rng), 3 * u(rng)}, 0.05 + 0.45 * std::fabs(u(rng))};
        const Vec3 aim = centre + Vec3{1.5 * u(rng), 1.5 * u(rng), 1.5 * u(rng)};
        c.velocity = (aim - c.sphere.centre) * (1.0 + 0.5 * u(rng));
    }
    return out;
}

/// True when two cast answers differ: one hits and the other not, or the times or the
/// started-inside flags differ.
bool differ(const std::optional<CastHit>& a, const std::optional<CastHit>& b) {
    if (a.has_value() != b.has_value()) return true;
    if (!a) return false;
    return a->started_inside != b->started_inside || std::fabs(a->time - b->time) > 1e-9;
}

void ray_aabb(benchmark::State& state) {
    const std::vector<RayCase> cases = ray_cases();
    std::size_t i = 0;
    for (auto _ : state) {
        const RayCase& c = cases[i];
        benchmark::DoNotOptimize(slab_ray_aabb(c.origin, c.direction, c.box));
        i = i + 1 == kCases ? 0 : i + 1;
    }
    state.SetItemsProcessed(state.iterations());
}

void ray_aabb_branchy(benchmark::State& state) {
    const std::vector<RayCase> cases = ray_cases();
    std::size_t i = 0;
    for (auto _ : state) {
        const RayCase& c = cases[i];
        benchmark::DoNotOptimize(baseline::slab_ray_aabb_branchy(c.origin, c.direction, c.box));
        i = i + 1 == kCases ? 0 : i + 1;
    }
    state.SetItemsProcessed(state.iterations());
}

void cast_sphere_box(benchmark::State& state) {
    const std::vector<CastCase<Obb>> cases = cast_cases<Obb>();
    std::size_t i = 0;
    for (auto _ : state) {
        const CastCase<Obb>& c = cases[i];
        benchmark::DoNotOptimize(collide::cast_sphere_box(c.sphere, c.velocity, c.box, kStep));
        i = i + 1 == kCases ? 0 : i + 1;
    }
    state.SetItemsProcessed(state.iterations());
}

void cast_sphere_box_aabb(benchmark::State& state) {
    const std::vector<CastCase<Aabb>> cases = cast_cases<Aabb>();
    std::size_t i = 0;
    for (auto _ : state) {
        const CastCase<Aabb>& c = cases[i];
        benchmark::DoNotOptimize(collide::cast_sphere_box(c.sphere, c.velocity, c.box, kStep));
        i = i + 1 == kCases ? 0 : i + 1;
    }
    state.SetItemsProcessed(state.iterations());
}

void cast_sphere_grown_box(benchmark::State& state) {
    const std::vector<CastCase<Aabb>> cases = cast_cases<Aabb>();
    // How often the grown-box approximation answers differently from the exact cast, over
    // the same cases (counted outside the timed loop).
    std::size_t differing = 0, hit_or_miss = 0, hits = 0;
    for (const CastCase<Aabb>& c : cases) {
        const auto exact = collide::cast_sphere_box(c.sphere, c.velocity, c.box, kStep);
        const auto grown = baseline::cast_sphere_grown_box(c.sphere, c.velocity, c.box, kStep);
        differing += differ(exact, grown) ? 1 : 0;
        hit_or_miss += exact.has_value() != grown.has_value() ? 1 : 0;
        hits += exact ? 1 : 0;
    }
    state.counters["differs_pct"] = 100.0 * static_cast<double>(differing) / kCases;
    state.counters["hit_miss_differs_pct"] = 100.0 * static_cast<double>(hit_or_miss) / kCases;
    state.counters["exact_hit_pct"] = 100.0 * static_cast<double>(hits) / kCases;
    std::size_t i = 0;
    for (auto _ : state) {
        const CastCase<Aabb>& c = cases[i];
        benchmark::DoNotOptimize(baseline::cast_sphere_grown_box(c.sphere, c.velocity, c.box, kStep));
        i = i + 1 == kCases ? 0 : i + 1;
    }
    state.SetItemsProcessed(state.iterations());
}

} // namespace

BENCHMARK(ray_aabb);
BENCHMARK(ray_aabb_branchy);
BENCHMARK(cast_sphere_box);
BENCHMARK(cast_sphere_box_aabb);
BENCHMARK(cast_sphere_grown_box);
