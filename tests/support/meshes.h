#pragma once
// Meshes for tests: flat grids of quads (each split along a diagonal), random triangle soups.
#include <array>
#include <memory>
#include <random>
#include <vector>

#include "shapes/mesh.h"

namespace collide::test {

/// A flat floor at height `y` over [x0, x0 + n·size] × [z0, z0 + n·size]: n × n quads, each two
/// triangles wound so their face normal is +y.
inline std::shared_ptr<const TriangleMesh> grid_floor(int n, double size, double x0 = 0, double z0 = 0, double y = 0) {
    std::vector<Vec3> v;
    std::vector<std::array<int, 3>> t;
    for (int i = 0; i <= n; ++i)
        for (int j = 0; j <= n; ++j) v.push_back({x0 + i * size, y, z0 + j * size});
    auto at = [&](int i, int j) { return i * (n + 1) + j; };
    for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) {
            // (x, z) → normal +y needs (a, b, c) with (b − a) × (c − a) up: a=(i,j), b=(i,j+1), c=(i+1,j+1).
            t.push_back({at(i, j), at(i, j + 1), at(i + 1, j + 1)});
            t.push_back({at(i, j), at(i + 1, j + 1), at(i + 1, j)});
        }
    MeshError e;
    auto m = build_mesh(std::move(v), std::move(t), "grid", &e);
    REQUIRE(m);
    return m;
}

/// `count` random triangles of size up to `size` inside a cube of half-side `extent`.
inline std::shared_ptr<const TriangleMesh> random_soup(std::uint64_t seed, int count, double extent, double size) {
    std::mt19937_64 rng(seed);
    auto u = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
    std::vector<Vec3> v;
    std::vector<std::array<int, 3>> t;
    for (int i = 0; i < count; ++i) {
        const Vec3 c{u(-extent, extent), u(-extent, extent), u(-extent, extent)};
        const int base = static_cast<int>(v.size());
        for (int k = 0; k < 3; ++k) v.push_back(c + Vec3{u(-size, size), u(-size, size), u(-size, size)});
        t.push_back({base, base + 1, base + 2});
    }
    MeshError e;
    auto m = build_mesh(std::move(v), std::move(t), "soup", &e);
    REQUIRE(m);
    return m;
}

} // namespace collide::test
