#pragma once
// Meshes for tests: flat grids of quads (each split along a diagonal), random triangle soups,
// and closed meshes (a box of 12 triangles, an icosphere).
#include <array>
#include <cmath>
#include <map>
#include <memory>
#include <random>
#include <utility>
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

/// The closed surface of the box [lo, hi]: 8 corners, 12 triangles wound outward (each face
/// split along one diagonal).
inline std::shared_ptr<const TriangleMesh> box_mesh(const Vec3& lo, const Vec3& hi) {
    std::vector<Vec3> v;
    for (int i = 0; i < 8; ++i) v.push_back({(i & 1) ? hi.x : lo.x, (i & 2) ? hi.y : lo.y, (i & 4) ? hi.z : lo.z});
    // Faces as corner quads (a, b, c, d) counter-clockwise seen from outside.
    const int quads[6][4] = {{0, 4, 6, 2}, {1, 3, 7, 5}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 2, 3, 1}, {4, 5, 7, 6}};
    std::vector<std::array<int, 3>> t;
    for (const auto& q : quads) {
        t.push_back({q[0], q[1], q[2]});
        t.push_back({q[0], q[2], q[3]});
    }
    MeshError e;
    auto m = build_mesh(std::move(v), std::move(t), "box", &e);
    REQUIRE(m);
    return m;
}

/// A closed icosphere: an icosahedron whose faces are split into four `subdivisions` times,
/// every corner pushed onto the sphere of `radius` about `centre` (20·4^subdivisions triangles,
/// wound outward).
inline std::shared_ptr<const TriangleMesh> icosphere(const Vec3& centre, double radius, int subdivisions) {
    const double g = (1.0 + std::sqrt(5.0)) / 2.0;
    std::vector<Vec3> v = {{-1, g, 0},  {1, g, 0},  {-1, -g, 0}, {1, -g, 0}, {0, -1, g},  {0, 1, g},
                           {0, -1, -g}, {0, 1, -g}, {g, 0, -1},  {g, 0, 1},  {-g, 0, -1}, {-g, 0, 1}};
    std::vector<std::array<int, 3>> t = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                                         {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                                         {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                                         {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
    for (Vec3& p : v) p = normalize(p);
    for (int s = 0; s < subdivisions; ++s) {
        std::map<std::pair<int, int>, int> middle;
        auto mid = [&](int a, int b) {
            const auto key = std::minmax(a, b);
            if (const auto it = middle.find(key); it != middle.end()) return it->second;
            v.push_back(normalize((v[static_cast<std::size_t>(a)] + v[static_cast<std::size_t>(b)]) * 0.5));
            return middle[key] = static_cast<int>(v.size()) - 1;
        };
        std::vector<std::array<int, 3>> finer;
        for (const auto& f : t) {
            const int ab = mid(f[0], f[1]), bc = mid(f[1], f[2]), ca = mid(f[2], f[0]);
            finer.push_back({f[0], ab, ca});
            finer.push_back({f[1], bc, ab});
            finer.push_back({f[2], ca, bc});
            finer.push_back({ab, bc, ca});
        }
        t = std::move(finer);
    }
    for (Vec3& p : v) p = centre + p * radius;
    MeshError e;
    auto m = build_mesh(std::move(v), std::move(t), "icosphere", &e);
    REQUIRE(m);
    return m;
}

} // namespace collide::test
