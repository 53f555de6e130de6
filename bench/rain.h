#pragma once
/// \file
/// The rain scene of /work/shared/peers/bullet_rain (Bullet 3.24's btDiscreteDynamicsWorld):
/// N spheres of radius 0.2 m in a cubic grid 0.5 m apart, side = ⌈∛N⌉, the grid's corner at
/// (−side/4, 1, −side/4), filled as Bullet fills it (x slabs, then z rows, then up y) until N,
/// over a static floor box [−50, 50] × [−2, 0] × [−50, 50]; restitution 0.2, friction 0.3,
/// gravity 9.81 m/s² down, 60 Hz. Written with `array:` (up to three: the full x slabs, the
/// full z rows of the last slab, the last row), so loading is part of what is measured. With
/// `mesh` the floor is bullet_rain's `mesh` floor instead: an OBJ of 100 × 100 quads (20,000
/// triangles) over [−50, 50]² at y = 0 (rain_floor_obj()), read from that file at every load.

#include <cmath>
#include <string>

#include <fmt/format.h>

namespace collide::bench {

/// bullet_rain's mesh floor as OBJ text: (q + 1)² vertices on a grid over [−50, 50]² at y = 0
/// and q² quads as triangles wound with their face normal up (+y), q = 100.
inline std::string rain_floor_obj(int q = 100) {
    std::string obj = fmt::format("# rain floor: {} x {} quads over [-50, 50]^2 at y = 0\n", q, q);
    for (int i = 0; i <= q; ++i)
        for (int j = 0; j <= q; ++j) obj += fmt::format("v {} 0 {}\n", -50 + 100.0 * i / q, -50 + 100.0 * j / q);
    const auto at = [&](int i, int j) { return i * (q + 1) + j + 1; }; // 1-based
    for (int i = 0; i < q; ++i)
        for (int j = 0; j < q; ++j) {
            obj += fmt::format("f {} {} {}\n", at(i, j), at(i, j + 1), at(i + 1, j + 1));
            obj += fmt::format("f {} {} {}\n", at(i, j), at(i + 1, j + 1), at(i + 1, j));
        }
    return obj;
}

/// The rain scene of `n` spheres as scenario YAML, `frames` frames at 60 Hz; it logs the
/// first sphere's `final` (a sphere of the bottom layer: the lowest) and `max_overlap`. With
/// `mesh_obj` (the path of a file holding rain_floor_obj()) the floor is that mesh.
inline std::string rain_yaml(int n, int frames, const std::string& mesh_obj = {}) {
    const int side = static_cast<int>(std::ceil(std::cbrt(static_cast<double>(n)) - 1e-9));
    const int slabs = n / (side * side), rows = (n % (side * side)) / side, rest = n % side;
    const double x0 = -side * 0.25, z0 = -side * 0.25;
    std::string y = fmt::format("name: rain\nworld: {{ rate: 60, frames: {}, gravity: [0, -9.81, 0] }}\nbodies:\n"
                                "  floor: {{ static: true, box: {{ min: [-50, -2, -50], max: [50, 0, 50] }}, "
                                "restitution: 0.2, friction: 0.3 }}\n",
                                frames);
    if (!mesh_obj.empty())
        y = fmt::format("name: rain\nworld: {{ rate: 60, frames: {}, gravity: [0, -9.81, 0] }}\nbodies:\n"
                        "  floor: {{ static: true, mesh: {{ file: \"{}\" }}, restitution: 0.2, friction: 0.3 }}\n",
                        frames, mesh_obj);
    const auto array = [&](const char* name, double x, double z, int nx, int ny, int nz) {
        y += fmt::format("  {}: {{ sphere: {{ radius: 0.2 }}, position: [{}, 1, {}], restitution: 0.2, friction: 0.3, "
                         "array: {{ count: [{}, {}, {}], spacing: [0.5, 0.5, 0.5] }} }}\n",
                         name, x, z, nx, ny, nz);
    };
    if (slabs > 0) array("s", x0, z0, slabs, side, side);
    if (rows > 0) array("t", x0 + slabs * 0.5, z0, 1, side, rows);
    if (rest > 0) array("u", x0 + slabs * 0.5, z0 + rows * 0.5, 1, rest, 1);
    y += fmt::format("log:\n  - final: {{ body: {}0 }}\n  - max_overlap: {{}}\n", slabs > 0 ? "s" : "t");
    return y;
}

} // namespace collide::bench
