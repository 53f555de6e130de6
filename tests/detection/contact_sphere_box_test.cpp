// Sphere against box: clamp-and-measure outside, the nearest face inside, for axis-aligned and
// turned boxes, in both argument orders.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "detection/contact_sphere_box.h"
#include "support/approx.h"

using namespace collide;
using collide::test::near_vec;

namespace {
const Aabb kUnit{{-1, -1, -1}, {1, 1, 1}};
}

TEST_CASE("a sphere resting 0.1 m into the top face is pushed straight up") {
    const Sphere ball{{0.3, 1.4, -0.2}, 0.5};
    const auto c = contact_aabb_sphere(kUnit, ball);
    REQUIRE(c);
    CHECK_THAT(c->normal, near_vec({0, 1, 0}));
    CHECK(c->depth == Approx(0.1).margin(1e-12));
    const auto d = contact_sphere_aabb(ball, kUnit);
    REQUIRE(d);
    CHECK_THAT(d->normal, near_vec({0, -1, 0}));
    CHECK(d->depth == Approx(0.1).margin(1e-12));
}

TEST_CASE("a sphere near a corner measures from the corner") {
    // Corner (1, 1, 1); centre 0.3 m beyond it along (1, 1, 1)/sqrt(3).
    const Vec3 dir = normalize(Vec3{1, 1, 1});
    const auto c = contact_aabb_sphere(kUnit, {Vec3{1, 1, 1} + dir * 0.3, 0.5});
    REQUIRE(c);
    CHECK_THAT(c->normal, near_vec(dir, 1e-12));
    CHECK(c->depth == Approx(0.2).margin(1e-12));
}

TEST_CASE("a sphere whose centre is inside a box leaves through the nearest face") {
    // Distances to the faces: +x 0.3, −x 1.7, +y 1.2, −y 0.8, +z 1.9, −z 0.1 → −z is nearest.
    const Sphere ball{{0.7, -0.2, -0.9}, 0.25};
    const auto c = contact_aabb_sphere(kUnit, ball);
    REQUIRE(c);
    CHECK(c->normal == Vec3{0, 0, -1});
    CHECK(c->depth == Approx(0.1 + 0.25).margin(1e-12));
    const auto d = contact_sphere_aabb(ball, kUnit);
    REQUIRE(d);
    CHECK(d->normal == Vec3{0, 0, 1});
    CHECK(d->depth == Approx(0.35).margin(1e-12));
}

TEST_CASE("a sphere centred in a cube gets the +x face, not a zero or NaN normal") {
    const auto c = contact_aabb_sphere(kUnit, {{0, 0, 0}, 0.5});
    REQUIRE(c);
    CHECK(c->normal == Vec3{1, 0, 0});
    CHECK(c->depth == 1.5);
    // A point sphere (radius 0) inside still has a depth: the distance to the face.
    const auto p = contact_aabb_sphere({{0, 0, 0}, {4, 2, 6}}, {{2, 0.5, 3}, 0.0});
    REQUIRE(p);
    CHECK(p->normal == Vec3{0, -1, 0});
    CHECK(p->depth == Approx(0.5).margin(1e-12));
}

TEST_CASE("inside a box, equal face distances go +x, -x, +y, -y, +z, -z") {
    const Aabb tall{{-1, -5, -1}, {1, 5, 1}};
    auto c = contact_aabb_sphere(tall, {{-0.5, 0, 0.5}, 0.1}); // −x 0.5 ties +z 0.5
    REQUIRE(c);
    CHECK(c->normal == Vec3{-1, 0, 0});
    c = contact_aabb_sphere(tall, {{0, 0, -0.5}, 0.1}); // −z 0.5 alone
    REQUIRE(c);
    CHECK(c->normal == Vec3{0, 0, -1});
}

TEST_CASE("a sphere exactly touching a box face, edge or corner gives no contact") {
    CHECK_FALSE(contact_sphere_aabb({{0, 1.5, 0}, 0.5}, kUnit));
    CHECK_FALSE(contact_sphere_aabb({{1.5, 1.5, 0}, std::sqrt(0.5)}, kUnit));
    CHECK_FALSE(contact_sphere_aabb({{3, 0, 0}, 0.5}, kUnit));
    CHECK_FALSE(contact_aabb_sphere(kUnit, {{1, 0.2, 0.3}, 0.0})); // a point on the surface
}

TEST_CASE("a turned box gives the same contact as the axis-aligned box in its own frame") {
    std::mt19937_64 rng(77);
    std::uniform_real_distribution<double> u(-1.0, 1.0), size(0.1, 2.0), ang(-180.0, 180.0);
    int contacts = 0;
    for (int i = 0; i < 2000; ++i) {
        const Vec3 half{size(rng), size(rng), size(rng)};
        const Quat q = quat_from_axis_degrees({u(rng), u(rng), u(rng)}, ang(rng));
        const Vec3 centre{u(rng), u(rng), u(rng)};
        const Obb box{centre, to_mat3(q), half};
        const Vec3 local{u(rng) * 2.5, u(rng) * 2.5, u(rng) * 2.5};
        const Sphere ball_local{local, size(rng)};
        const Sphere ball{centre + box.axes * local, ball_local.radius};
        const auto aligned = contact_aabb_sphere({-half, half}, ball_local);
        const auto turned = contact_obb_sphere(box, ball);
        const auto swapped = contact_sphere_obb(ball, box);
        REQUIRE(aligned.has_value() == turned.has_value());
        REQUIRE(turned.has_value() == swapped.has_value());
        if (!turned) continue;
        ++contacts;
        REQUIRE_THAT(turned->normal, near_vec(box.axes * aligned->normal, 1e-9));
        REQUIRE(turned->depth == Approx(aligned->depth).margin(1e-9));
        REQUIRE_THAT(swapped->normal, near_vec(-turned->normal, 1e-15));
        REQUIRE(swapped->depth == turned->depth);
        REQUIRE(std::fabs(length(turned->normal) - 1.0) < 1e-12);
        REQUIRE(turned->depth > 0);
    }
    CHECK(contacts > 300);
}

TEST_CASE("pushing a sphere out of a box by the depth leaves it just touching") {
    std::mt19937_64 rng(31337);
    std::uniform_real_distribution<double> u(-2.0, 2.0), size(0.1, 1.5);
    int contacts = 0;
    for (int i = 0; i < 2000; ++i) {
        const Vec3 c{u(rng), u(rng), u(rng)};
        const Vec3 h{size(rng), size(rng), size(rng)};
        const Aabb box{c - h, c + h};
        const Sphere ball{{u(rng), u(rng), u(rng)}, size(rng)};
        const auto hit = contact_aabb_sphere(box, ball);
        if (!hit) continue;
        ++contacts;
        REQUIRE(hit->depth > 0);
        REQUIRE(std::isfinite(hit->normal.x));
        const Sphere out{ball.centre + hit->normal * (hit->depth + 1e-9), ball.radius};
        REQUIRE_FALSE(contact_aabb_sphere(box, out));
        const Sphere in{ball.centre + hit->normal * (hit->depth - 1e-6), ball.radius};
        REQUIRE(contact_aabb_sphere(box, in));
    }
    CHECK(contacts > 300);
}
