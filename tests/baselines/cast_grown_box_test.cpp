// The grown-box cast (the centre as a ray against the box grown by the radius, square corners), the
// baseline of the exact sphere cast: exact on the faces, early past edges and corners, a hit where
// the exact cast misses in a square corner, and never later than the exact cast.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "baselines/cast_grown_box.h"

using namespace collide;

namespace {

const Aabb kCube{{-1, -1, -1}, {1, 1, 1}};

/// Distance from a point to a box (m), 0 inside.
double box_distance(const Vec3& p, const Aabb& b) { return length(p - clamp(p, b.min, b.max)); }

} // namespace

TEST_CASE("the grown box is exact on a face") {
    const Sphere s{{-3, 0.2, 0.3}, 0.5};
    const auto exact = cast_sphere_box(s, {2, 0, 0}, kCube, 1.0);
    const auto grown = baseline::cast_sphere_grown_box(s, {2, 0, 0}, kCube, 1.0);
    REQUIRE(exact);
    REQUIRE(grown);
    CHECK(grown->time == exact->time);
    CHECK(grown->normal == exact->normal);
    CHECK(grown->point == exact->point);
}

TEST_CASE("past a box edge the grown box says 3.5 s where the exact cast says 3.6 s") {
    // Falling past the edge x = 1, y = 1 (along z) 0.3 m out: the exact cast touches the edge
    // cylinder at t = 3.6 s, the grown box's flat face is reached at y = 1.5, t = 3.5 s.
    const Sphere s{{1.3, 5, 0}, 0.5};
    const auto exact = cast_sphere_box(s, {0, -1, 0}, kCube, 10);
    const auto grown = baseline::cast_sphere_grown_box(s, {0, -1, 0}, kCube, 10);
    REQUIRE(exact);
    REQUIRE(grown);
    CHECK(exact->time == Approx(3.6).margin(1e-12));
    CHECK(grown->time == Approx(3.5).margin(1e-12));
    // At the grown box's time the sphere is still 0.083 m clear of the box.
    CHECK(box_distance({1.3, 1.5, 0}, kCube) > 0.5 + 0.08);
}

TEST_CASE("near a corner the grown box reports a hit where the exact cast correctly misses") {
    // 0.4 m out from the vertical edge in x and in z: √0.32 = 0.566 m > r = 0.5, never touching,
    // but inside the grown box's square corner.
    const Sphere s{{1.4, 5, 1.4}, 0.5};
    const Vec3 v{0, -1, 0};
    CHECK_FALSE(cast_sphere_box(s, v, kCube, 10));
    const auto grown = baseline::cast_sphere_grown_box(s, v, kCube, 10);
    REQUIRE(grown);
    CHECK_FALSE(grown->started_inside);
    CHECK(grown->time == Approx(3.5).margin(1e-12));
}

TEST_CASE("a diagonal pass near a corner: the grown box is early, before the sphere touches") {
    // Moving along (1, 0, 1) at a height y = 1.2 past the corner region of the edge y = 1, z = 1.
    const Sphere s{{-3, 1.2, -2.6}, 0.5};
    const Vec3 v{1, 0, 1};
    const auto exact = cast_sphere_box(s, v, kCube, 10);
    const auto grown = baseline::cast_sphere_grown_box(s, v, kCube, 10);
    REQUIRE(exact);
    REQUIRE(grown);
    CHECK(grown->time < exact->time - 0.04);
    CHECK(box_distance(s.centre + v * grown->time, kCube) > 0.5 + 0.04); // not touching yet
}

TEST_CASE("in a square corner the grown box starts inside, its normal toward the box") {
    // The centre is 0.3 m out from the corner (1, 1, 1) on every axis: inside the grown box,
    // 0.52 m from the box, so the sphere (r = 0.5) does not touch it.
    const Sphere s{{1.3, 1.3, 1.3}, 0.5};
    CHECK_FALSE(cast_sphere_box(s, {1, 0, 0}, kCube, 1));
    const auto grown = baseline::cast_sphere_grown_box(s, {1, 0, 0}, kCube, 1);
    REQUIRE(grown);
    CHECK(grown->started_inside);
    CHECK(grown->time == 0);
    CHECK(grown->point == Vec3{1, 1, 1});
    CHECK(length(grown->normal * std::sqrt(3.0) + Vec3{1, 1, 1}) < 1e-12);
    // A centre in the box leaves through the nearest face, as the exact cast says.
    const Sphere in{{0.9, 0, 0.2}, 0.5};
    const auto exact_in = cast_sphere_box(in, {0, 1, 0}, kCube, 1);
    const auto grown_in = baseline::cast_sphere_grown_box(in, {0, 1, 0}, kCube, 1);
    REQUIRE(exact_in);
    REQUIRE(grown_in);
    CHECK(grown_in->started_inside);
    CHECK(grown_in->normal == exact_in->normal);
    CHECK(grown_in->point == exact_in->point);
}

TEST_CASE("random box casts: the grown box never answers later than the exact cast, and sometimes hits a miss") {
    std::mt19937_64 rng(20240601);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    int hits = 0, false_hits = 0;
    for (int i = 0; i < 12000; ++i) {
        const Vec3 half{0.1 + 0.9 * std::fabs(u(rng)), 0.1 + 0.9 * std::fabs(u(rng)), 0.1 + 0.9 * std::fabs(u(rng))};
        const Aabb box{-half, half};
        const Sphere s{{3 * u(rng), 3 * u(rng), 3 * u(rng)}, 0.05 + 0.45 * std::fabs(u(rng))};
        const Vec3 aim{1.5 * u(rng), 1.5 * u(rng), 1.5 * u(rng)};
        const Vec3 v = (aim - s.centre) * (1.0 + 0.5 * u(rng));
        const auto exact = cast_sphere_box(s, v, box, 1.0);
        const auto grown = baseline::cast_sphere_grown_box(s, v, box, 1.0);
        INFO("case " << i);
        if (exact && exact->started_inside) {
            REQUIRE(grown);
            REQUIRE(grown->started_inside);
        } else if (exact) {
            REQUIRE(grown);
            REQUIRE(grown->time <= exact->time + 1e-12);
            ++hits;
        } else if (grown && !grown->started_inside) {
            ++false_hits;
        }
    }
    CHECK(hits > 3000);
    CHECK(false_hits > 100);
}
