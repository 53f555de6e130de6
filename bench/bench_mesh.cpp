// Mesh queries on a 1,000,000-triangle mesh generated in code (a 500 × 1000 grid of quads over a
// gently rolling height field, 1 km × 2 km): a sphere's contact and a ray's first hit, each
// cycling through 1,000,000 fixed-seed queries built before the timed loop.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstddef>
#include <memory>
#include <random>
#include <vector>

#include "detection/dispatch.h"
#include "queries/raycast.h"
#include "shapes/mesh.h"

using namespace collide;

namespace {

constexpr std::size_t kCases = 1'000'000;
constexpr int kNx = 500, kNz = 1000; // 2 triangles a quad: 1,000,000 triangles
constexpr double kCell = 2.0;        // m

double height(double x, double z) { return 3 * std::sin(x * 0.05) * std::cos(z * 0.03); }

const TriangleMesh& big_mesh() {
    static const std::shared_ptr<const TriangleMesh> mesh = [] {
        std::vector<Vec3> v;
        std::vector<std::array<int, 3>> t;
        v.reserve((kNx + 1) * (kNz + 1));
        for (int i = 0; i <= kNx; ++i)
            for (int j = 0; j <= kNz; ++j) v.push_back({i * kCell, height(i * kCell, j * kCell), j * kCell});
        auto at = [](int i, int j) { return i * (kNz + 1) + j; };
        t.reserve(2 * kNx * kNz);
        for (int i = 0; i < kNx; ++i)
            for (int j = 0; j < kNz; ++j) {
                t.push_back({at(i, j), at(i, j + 1), at(i + 1, j + 1)});
                t.push_back({at(i, j), at(i + 1, j + 1), at(i + 1, j)});
            }
        MeshError e;
        return build_mesh(std::move(v), std::move(t), "bench", &e);
    }();
    return *mesh;
}

/// Spheres of radius 0.5 placed at random over the mesh, their centres from 0.6 m below to
/// 0.6 m above the surface (about half touch it).
std::vector<Sphere> sphere_cases() {
    std::mt19937_64 rng(777);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::vector<Sphere> out(kCases);
    for (Sphere& s : out) {
        const double x = u(rng) * kNx * kCell, z = u(rng) * kNz * kCell;
        s = Sphere{{x, height(x, z) + (u(rng) - 0.5) * 1.2, z}, 0.5};
    }
    return out;
}

/// Rays from 20 to 50 m above the mesh, pointing down within 45° of straight down.
std::vector<Ray> ray_cases() {
    std::mt19937_64 rng(4242);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    std::vector<Ray> out(kCases);
    for (Ray& r : out) {
        const double x = u(rng) * kNx * kCell, z = u(rng) * kNz * kCell;
        r = Ray{{x, 20 + 30 * u(rng), z}, {u(rng) - 0.5, -1, u(rng) - 0.5}};
    }
    return out;
}

void mesh_sphere_contact(benchmark::State& state) {
    const Shape mesh = Mesh{&big_mesh(), identity3(), {}};
    const std::vector<Sphere> cases = sphere_cases();
    std::size_t i = 0, hits = 0;
    for (auto _ : state) {
        const ContactQuery q = contact(Shape{cases[i]}, mesh);
        hits += q.status == ContactStatus::overlapping;
        benchmark::DoNotOptimize(q);
        if (++i == cases.size()) i = 0;
    }
    state.counters["hit_share"] =
            benchmark::Counter(static_cast<double>(hits) / static_cast<double>(state.iterations()));
}
BENCHMARK(mesh_sphere_contact);

void mesh_raycast(benchmark::State& state) {
    const Mesh mesh{&big_mesh(), identity3(), {}};
    const std::vector<Ray> cases = ray_cases();
    std::size_t i = 0, hits = 0;
    for (auto _ : state) {
        const auto h = raycast_mesh(cases[i], mesh, 1000);
        hits += h.has_value();
        benchmark::DoNotOptimize(h);
        if (++i == cases.size()) i = 0;
    }
    state.counters["hit_share"] =
            benchmark::Counter(static_cast<double>(hits) / static_cast<double>(state.iterations()));
}
BENCHMARK(mesh_raycast);

} // namespace
