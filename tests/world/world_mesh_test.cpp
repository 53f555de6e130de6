// Bodies on mesh floors behave as on one flat box: the same landing height, and no vertical
// kick or lost speed while sliding across a 10×10 grid's seams, discrete and swept.
#include <catch2/catch.hpp>

#include <memory>
#include <vector>

#include "../support/meshes.h"
#include "world/world.h"

using namespace collide;
using namespace collide::test;

namespace {

BodyDef floor_box() {
    BodyDef b;
    b.name = "floor";
    b.shape = Aabb{{0, -1, 0}, {10, 0, 10}};
    b.is_static = true;
    return b;
}

BodyDef floor_mesh(int n) {
    BodyDef b;
    b.name = "floor";
    b.mesh_data = grid_floor(n, 10.0 / n);
    b.shape = Mesh{b.mesh_data.get(), identity3(), {}};
    b.is_static = true;
    return b;
}

/// Runs `frames` frames of `floor` and `mover` under gravity; the mover's final state.
BodyState run(const BodyDef& floor, const BodyDef& mover, Detection detection, int frames) {
    WorldDef w;
    w.dt = 1.0 / 60;
    w.frames = frames;
    w.gravity = {0, -9.81, 0};
    w.detection = detection;
    World world;
    const std::vector<BodyDef> bodies{floor, mover};
    world.reset(w, bodies);
    while (world.frames_stepped() < w.frames) world.step_frame();
    return world.state(1);
}

BodyDef mover(const Shape& shape, Vec3 position, Vec3 velocity) {
    BodyDef b;
    b.name = "mover";
    b.shape = shape;
    b.position = position;
    b.velocity = velocity;
    return b;
}

} // namespace

TEST_CASE("a sphere dropped on a 2-triangle quad lands where it lands on a box", "[world][mesh]") {
    for (const Detection d : {Detection::discrete, Detection::swept}) {
        const BodyDef ball = mover(Sphere{{0, 0, 0}, 0.5}, {4.2, 2, 6.3}, {});
        const BodyState on_box = run(floor_box(), ball, d, 120);
        const BodyState on_mesh = run(floor_mesh(1), ball, d, 120);
        INFO("detection " << static_cast<int>(d));
        CHECK(on_mesh.position.y == Approx(on_box.position.y).margin(1e-9));
        CHECK(on_mesh.position.y == Approx(0.5).margin(0.002)); // resting on the floor, within the skin
        CHECK(on_mesh.velocity.y == Approx(on_box.velocity.y).margin(1e-9));
    }
}

TEST_CASE("sliding across a 10×10 grid keeps exactly the speed and height it keeps on one box", "[world][mesh]") {
    const Vec3 v{3, 0, 0.7};
    const std::vector<Shape> shapes{Sphere{{0, 0.5, 0}, 0.5}, Capsule{{0, 0.3, 0}, {0, 1.5, 0}, 0.3},
                                    Aabb{{-0.3, 0, -0.3}, {0.3, 0.6, 0.3}}};
    for (const Detection d : {Detection::discrete, Detection::swept}) {
        for (std::size_t k = 0; k < shapes.size(); ++k) {
            const BodyDef body = mover(shapes[k], {1.1, 0.001, 2.2}, v);
            INFO("detection " << static_cast<int>(d) << " shape " << k);
            for (const int frames : {30, 60, 100}) { // 100 frames: 5 m along x, across 5 seams and diagonals
                const BodyState on_box = run(floor_box(), body, d, frames);
                const BodyState on_mesh = run(floor_mesh(10), body, d, frames);
                CHECK(on_mesh.position.x == Approx(on_box.position.x).margin(1e-9));
                // Height within the contact solver's tolerance: a box's four points may be solved in
                // another order on the mesh (its manifold is merged from several triangles).
                CHECK(on_mesh.position.y == Approx(on_box.position.y).margin(1e-6));
                CHECK(on_mesh.position.z == Approx(on_box.position.z).margin(1e-9));
                CHECK(on_mesh.velocity.x == Approx(v.x).margin(1e-9));
                CHECK(on_mesh.velocity.z == Approx(v.z).margin(1e-9));
                CHECK(on_mesh.velocity.y == Approx(on_box.velocity.y).margin(1e-6));
            }
        }
    }
}

TEST_CASE("a world keeps what its hull and mesh bodies point into: it steps on once their definitions are gone",
          "[world][mesh]") {
    WorldDef w;
    w.dt = 1.0 / 60;
    w.frames = 120;
    w.gravity = {0, -9.81, 0};
    World world;
    {
        auto points = std::make_shared<HullPoints>();
        for (int k = 0; k < 8; ++k)
            points->points[static_cast<std::size_t>(k)] = {k & 1 ? 0.5 : -0.5, k & 2 ? 0.5 : -0.5, k & 4 ? 0.5 : -0.5};
        points->count = 8;
        BodyDef crate = mover(hull_of(*points), {5, 1, 5}, {}); // a unit cube as a hull, 0.5 m above the floor
        crate.hull_data = points;
        const std::vector<BodyDef> bodies{floor_mesh(2), crate};
        world.reset(w, bodies);
    } // the definitions, the hull's points and the mesh's triangles are theirs no longer
    while (world.frames_stepped() < w.frames) world.step_frame();
    CHECK(world.state(1).position.y == Approx(0.5).margin(0.002)); // landed flat, resting within the skin
}
