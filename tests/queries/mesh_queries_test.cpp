// Ray casts, sphere casts and times of impact against meshes: analytic plane hits, hand-solved
// falls, brute force over the triangles, and no ghost hits at the seams of a tiled floor.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "../support/approx.h"
#include "../support/meshes.h"
#include "math/quat.h"
#include "queries/cast.h"
#include "queries/raycast.h"
#include "queries/time_of_impact.h"

using namespace collide;
using namespace collide::test;

TEST_CASE("a ray hits a turned, moved grid where it hits the turned plane", "[queries][mesh]") {
    const auto grid = grid_floor(10, 1.0, -5, -5);
    const Quat q = quat_from_axis_degrees({1, 0, 1}, 20);
    const Vec3 p{1, 2, -1};
    const Shape mesh = place(Shape{Mesh{grid.get(), identity3(), {}}}, p, q);
    const Vec3 n = rotate(q, {0, 1, 0});
    std::mt19937_64 rng(3);
    auto u = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
    for (int i = 0; i < 200; ++i) {
        const Vec3 foot = p + rotate(q, {u(-4.5, 4.5), 0, u(-4.5, 4.5)});
        const Vec3 origin = foot + n * u(0.5, 5) + Vec3{u(-1, 1), 0, u(-1, 1)};
        const Vec3 dir = foot - origin;
        const Vec3 unit = normalize(dir);
        const double expected = dot(n, origin - p) / -dot(n, unit); // the plane dot(n, x − p) = 0
        const auto hit = raycast_shape(Ray{origin, dir}, mesh, 100);
        INFO("ray " << i);
        REQUIRE(hit);
        CHECK(hit->distance == Approx(expected).margin(1e-9));
        CHECK_THAT(hit->point, VecNear(foot, 1e-9));
        CHECK_THAT(hit->normal, VecNear(n, 1e-12));
        CHECK_FALSE(raycast_shape(Ray{origin, dir}, mesh, expected - 1e-6));
    }
}

TEST_CASE("a ray's nearest mesh hit equals brute force over the triangles", "[queries][mesh]") {
    const auto soup = random_soup(21, 400, 8, 1.5);
    const Mesh mesh{soup.get(), identity3(), {}};
    std::mt19937_64 rng(9);
    auto u = [&](double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); };
    int hits = 0;
    for (int i = 0; i < 300; ++i) {
        const Ray ray{{u(-12, 12), u(-12, 12), u(-12, 12)}, {u(-1, 1), u(-1, 1), u(-1, 1)}};
        std::optional<RayHit> brute;
        for (int t = 0; t < static_cast<int>(soup->triangles.size()); ++t) {
            const auto h = raycast_triangle(ray, soup->triangle(t), 30);
            if (h && (!brute || h->distance < brute->distance)) brute = h;
        }
        const auto walked = raycast_mesh(ray, mesh, 30);
        INFO("ray " << i);
        REQUIRE(walked.has_value() == brute.has_value());
        if (!brute) continue;
        ++hits;
        CHECK(walked->distance == brute->distance);
    }
    CHECK(hits > 20); // the soup is dense enough for the test to mean something
}

TEST_CASE("a sphere falling onto a mesh floor touches when the hand-solved fall says", "[queries][mesh]") {
    // Centre at h = 3 m, radius 0.5, thrown down at 2 m/s under g = 9.81: it touches when
    // 2.5 = 2t + ½·9.81·t², t = (−2 + √(4 + 2·9.81·2.5)) / 9.81.
    const auto grid = grid_floor(10, 1.0, -5, -5);
    const Shape mesh = Mesh{grid.get(), identity3(), {}};
    const double t_hand = (-2 + std::sqrt(4 + 2 * 9.81 * 2.5)) / 9.81;
    for (const Vec3 c : {Vec3{0.3, 3, 0.7}, Vec3{0, 3, 0} /* over a vertex */, Vec3{1, 3, 0.5} /* over a seam */}) {
        const Toi toi = time_of_impact(Shape{Sphere{c, 0.5}}, Motion{{0, -2, 0}, {0, -9.81, 0}}, mesh, Motion{}, 2);
        REQUIRE(toi.status == ToiStatus::hit);
        CHECK(toi.time == Approx(t_hand).margin(1e-9));
        CHECK_THAT(toi.normal, VecNear({0, -1, 0}, 1e-9));
        const auto cast = cast_sphere_mesh(Sphere{c, 0.5}, {0, -4, 0}, std::get<Mesh>(mesh), 2);
        REQUIRE(cast);
        CHECK(cast->time == Approx(2.5 / 4).margin(1e-12));
        CHECK_THAT(cast->normal, VecNear({0, -1, 0}, 1e-12));
    }
}

TEST_CASE("sliding across a tiled floor's seams is never a hit, for a sphere, a capsule and a box", "[queries][mesh]") {
    const auto grid = grid_floor(10, 1.0);
    const Shape mesh = Mesh{grid.get(), identity3(), {}};
    const Vec3 v{6, 0, 0.3};
    // Resting exactly on the floor (touching) and sliding: touching is not contact.
    const std::vector<Shape> shapes{Sphere{{1.5, 0.5, 4.5}, 0.5}, Capsule{{1.1, 0.3, 4}, {1.9, 0.3, 4}, 0.3},
                                    Aabb{{1, 0, 4}, {2, 1, 5}}};
    for (std::size_t k = 0; k < shapes.size(); ++k) {
        INFO("shape " << k);
        const Toi toi = time_of_impact(shapes[k], Motion{v, {}}, mesh, Motion{}, 1);
        CHECK(toi.status == ToiStatus::miss);
        // A skin above the floor and falling: it lands when it would on one flat box.
        const Shape lifted = translate(shapes[k], {0, 0.001, 0});
        const Motion fall{v, {0, -9.81, 0}};
        const Toi on_mesh = time_of_impact(lifted, fall, mesh, Motion{}, 1);
        const Toi on_box = time_of_impact(lifted, fall, Shape{Aabb{{0, -1, 0}, {10, 0, 10}}}, Motion{}, 1);
        REQUIRE(on_mesh.status == ToiStatus::hit);
        REQUIRE(on_box.status == ToiStatus::hit);
        CHECK(on_mesh.time == Approx(std::sqrt(2 * 0.001 / 9.81)).margin(1e-9));
        CHECK(on_mesh.time == Approx(on_box.time).margin(1e-9));
        CHECK_THAT(on_mesh.normal, VecNear({0, -1, 0}, 1e-9));
    }
    const auto cast = cast_sphere_mesh(Sphere{{1.5, 0.5, 4.5}, 0.5}, v, std::get<Mesh>(mesh), 1);
    CHECK_FALSE(cast);
}
