// Contact manifold benchmarks: box–box, the hot path of a world of crates (a pyramid of 5,000
// cubes asks it about 10,000 times a frame), on the resting pairs of such a pyramid and on
// random turned pairs, and sphere–box; each through manifolds(), as the world calls it, with a
// 5 mm margin (speculative points included).
//
// Every benchmark cycles through fixed-seed inputs made once, outside the timed loop, a
// different pair per query. Shapes are variants of 784 bytes (a hull's 32 points inline), so
// the manifolds() benchmarks keep 16,384 pairs each (26 MB, of which a query reads the box's
// 120 bytes); the family alone (manifold_box_box_family) runs on the 1,000,000 turned pairs
// of box_pairs.h that obb_contact uses, for the cost of the dispatch beside it.
//
//   ./build/collide_bench --benchmark_filter='manifold|obb_contact$' --benchmark_repetitions=3
//     --benchmark_report_aggregates_only=true
#include <benchmark/benchmark.h>
#include <deque>

#include <array>
#include <deque>
#include <random>
#include <vector>

#include "box_pairs.h"
#include "detection/manifold.h"
#include "detection/manifold_box_box.h"
#include "detection/manifold_clip.h"
#include "math/quat.h"
#include "shapes/mass.h"

using namespace collide;

namespace {

constexpr std::size_t kShapePairs = 16384;
constexpr std::size_t kHotPairs = 1024;
constexpr double kMargin = 0.005;

struct ShapePairs {
    std::vector<Shape> a;
    std::vector<Shape> b;
};

/// A rotation by a random angle of at most `rad` about a random axis.
Quat jitter(std::mt19937_64& rng, double rad) {
    std::normal_distribution<double> g(0.0, 1.0);
    std::uniform_real_distribution<double> angle(-rad, rad);
    return quat_from_axis_degrees({g(rng), g(rng), g(rng)}, angle(rng) * 180 / 3.14159265358979323846);
}

/// The pairs of a resting pyramid of unit cubes: each cube half over one below it (offset
/// ±0.5 m along x), 1 mm deep, both turned by up to 1e-3 rad and moved by up to 1 mm, as a
/// settling solver leaves them.
const ShapePairs& resting_pairs() {
    static const ShapePairs pairs = [] {
        ShapePairs p;
        std::mt19937_64 rng(20260803);
        std::uniform_real_distribution<double> wobble(-1e-3, 1e-3);
        for (std::size_t k = 0; k < kShapePairs; ++k) {
            const Vec3 lower{wobble(rng), wobble(rng), wobble(rng)};
            const Vec3 upper{(k % 2 ? 0.5 : -0.5) + wobble(rng), 0.999 + 0.1 * wobble(rng), wobble(rng)};
            p.a.push_back(Obb{lower, to_mat3(jitter(rng, 1e-3)), {0.5, 0.5, 0.5}});
            p.b.push_back(Obb{upper, to_mat3(jitter(rng, 1e-3)), {0.5, 0.5, 0.5}});
        }
        return p;
    }();
    return pairs;
}

/// The first kShapePairs of the benchmarks' random turned pairs (about half overlap).
const ShapePairs& random_pairs() {
    static const ShapePairs pairs = [] {
        ShapePairs p;
        const bench::BoxPairs& boxes = bench::box_pairs();
        for (std::size_t k = 0; k < kShapePairs; ++k) {
            p.a.push_back(boxes.a[k]);
            p.b.push_back(boxes.b[k]);
        }
        return p;
    }();
    return pairs;
}

/// Spheres (r 0.1–1 m) about a random turned box (half-sizes 0.1–2 m), each centre placed at a
/// random point of the box's surface pushed out by the radius plus −5…+5 mm along a random
/// outward direction: about half overlap, most of the rest within the margin.
const ShapePairs& sphere_box_pairs() {
    static const ShapePairs pairs = [] {
        ShapePairs p;
        std::mt19937_64 rng(20260804);
        std::uniform_real_distribution<double> unit(-1, 1), size(0.1, 2.0), radius(0.1, 1.0), off(-0.005, 0.005);
        std::normal_distribution<double> g(0.0, 1.0);
        for (std::size_t k = 0; k < kShapePairs; ++k) {
            const Obb box{{unit(rng), unit(rng), unit(rng)},
                          to_mat3(normalize(Quat{g(rng), g(rng), g(rng), g(rng)})),
                          {size(rng), size(rng), size(rng)}};
            const Vec3 dir = normalize(Vec3{g(rng), g(rng), g(rng)});
            const Vec3 surface = support(box, dir);
            const double r = radius(rng);
            p.a.push_back(Sphere{surface + dir * (r + off(rng)), r});
            p.b.push_back(box);
        }
        return p;
    }();
    return pairs;
}

/// manifolds() over the first range(0) pairs of a set (all 16,384, 26 MB, streamed from
/// memory; or the first 1,024, 1.6 MB, which stay in the caches as a small scene's would),
/// with how many touch and their mean point count.
void run_manifolds(benchmark::State& state, const ShapePairs& p) {
    std::array<Manifold, 1> out;
    const auto n = static_cast<std::size_t>(state.range(0));
    std::size_t k = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(manifolds(p.a[k], p.b[k], kMargin, out));
        benchmark::ClobberMemory();
        if (++k == n) k = 0;
    }
    state.SetItemsProcessed(state.iterations());
    double touching = 0, points = 0;
    for (std::size_t i = 0; i < n; ++i) {
        const ManifoldQuery q = manifolds(p.a[i], p.b[i], kMargin, out);
        if (q.count == 0) continue;
        touching += 1;
        points += out[0].count;
    }
    state.counters["touching"] = touching / static_cast<double>(n);
    state.counters["points"] = touching > 0 ? points / touching : 0.0;
}

void manifold_box_box_resting(benchmark::State& state) { run_manifolds(state, resting_pairs()); }
BENCHMARK(manifold_box_box_resting)->Arg(kShapePairs)->Arg(kHotPairs);

void manifold_box_box_random(benchmark::State& state) { run_manifolds(state, random_pairs()); }
BENCHMARK(manifold_box_box_random)->Arg(kShapePairs)->Arg(kHotPairs);

void manifold_sphere_box(benchmark::State& state) { run_manifolds(state, sphere_box_pairs()); }
BENCHMARK(manifold_sphere_box)->Arg(kShapePairs)->Arg(kHotPairs);

/// The box–box family alone (no variant dispatch, no ids) on the 1,000,000 turned pairs.
void manifold_box_box_family(benchmark::State& state) {
    const bench::BoxPairs& p = bench::box_pairs();
    std::size_t k = 0;
    for (auto _ : state) {
        RawManifold raw;
        benchmark::DoNotOptimize(manifold_box_box(p.a[k], p.b[k], kMargin, raw));
        benchmark::DoNotOptimize(raw);
        if (++k == bench::kPairs) k = 0;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(manifold_box_box_family);

/// Hull crates (a turned box's 8 corners as a hull) resting on a floor box as the resting box
/// pairs do: the general polytope family, whose hull faces are found per query.
const ShapePairs& hull_crate_pairs() {
    static const ShapePairs pairs = [] {
        ShapePairs p;
        static std::deque<HullPoints> points; // what the hulls point into
        std::mt19937_64 rng(20260805);
        std::uniform_real_distribution<double> wobble(-1e-3, 1e-3), where(-3, 3);
        for (std::size_t k = 0; k < kHotPairs; ++k) {
            const Obb c{
                    {where(rng), 0.499 + 0.1 * wobble(rng), where(rng)}, to_mat3(jitter(rng, 1e-3)), {0.5, 0.5, 0.5}};
            HullPoints& h = points.emplace_back();
            const auto corners = corners_of(c);
            for (std::size_t i = 0; i < 8; ++i) h.points[i] = corners[i];
            h.count = 8;
            p.a.push_back(Aabb{{-5, -1, -5}, {5, 0, 5}});
            p.b.push_back(hull_of(h));
        }
        return p;
    }();
    return pairs;
}

void manifold_hull_box_resting(benchmark::State& state) { run_manifolds(state, hull_crate_pairs()); }
BENCHMARK(manifold_hull_box_resting)->Arg(kHotPairs);

/// Random hulls of n points on a unit sphere, 1,024 of them, and the points they are of.
struct RandomHulls {
    std::vector<HullPoints> points; ///< what the hulls point into
    std::vector<Hull> hulls;        ///< a hull of each
};

/// kHotPairs random hulls of `n` points.
RandomHulls random_hulls(int n) {
    std::mt19937_64 rng(20260806 + static_cast<std::uint64_t>(n));
    std::normal_distribution<double> g(0.0, 1.0);
    RandomHulls out;
    out.points.resize(kHotPairs);
    for (HullPoints& h : out.points) {
        h.count = n;
        for (int i = 0; i < n; ++i) h.points[static_cast<std::size_t>(i)] = normalize(Vec3{g(rng), g(rng), g(rng)});
    }
    for (const HullPoints& h : out.points) out.hulls.push_back(hull_of(h));
    return out;
}

/// The face of a hull toward a direction, per query from its points (what the manifolds use).
void hull_face_per_query(benchmark::State& state) {
    const RandomHulls random = random_hulls(static_cast<int>(state.range(0)));
    const std::vector<Hull>& hulls = random.hulls;
    std::mt19937_64 rng(5);
    std::normal_distribution<double> g(0.0, 1.0);
    std::vector<Vec3> dirs(kHotPairs);
    for (Vec3& d : dirs) d = Vec3{g(rng), g(rng), g(rng)};
    std::size_t k = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(hull_face_toward(hulls[k], dirs[k]));
        if (++k == kHotPairs) k = 0;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(hull_face_per_query)->Arg(8)->Arg(32);

/// All of a hull's faces by shapes/mass.h's brute force (once per body there): the cost a
/// per-query use of it would pay.
void hull_faces_brute_force(benchmark::State& state) {
    const RandomHulls random = random_hulls(static_cast<int>(state.range(0)));
    const std::vector<Hull>& hulls = random.hulls;
    std::size_t k = 0;
    for (auto _ : state) {
        benchmark::DoNotOptimize(hull_faces(hulls[k]));
        if (++k == kHotPairs) k = 0;
    }
    state.SetItemsProcessed(state.iterations());
}
BENCHMARK(hull_faces_brute_force)->Arg(8)->Arg(32);

} // namespace
