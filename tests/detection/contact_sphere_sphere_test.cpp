// Sphere against sphere: the closed form d < rA + rB, depth rA + rB − d, normal (B − A)/d.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "detection/contact_sphere_sphere.h"
#include "support/approx.h"

using namespace collide;
using collide::test::near_vec;

TEST_CASE("spheres 1.5 m apart with radii 1 and 1 overlap by 0.5 along the line of centres") {
    const auto c = contact_sphere_sphere({{0, 0, 0}, 1.0}, {{0, 0, 1.5}, 1.0});
    REQUIRE(c);
    CHECK_THAT(c->normal, near_vec({0, 0, 1}));
    CHECK(c->depth == Approx(0.5).margin(1e-12));
}

TEST_CASE("spheres with a 3-4-5 offset overlap by the radii sum minus 5") {
    const auto c = contact_sphere_sphere({{1, 1, 1}, 2.0}, {{4, 5, 1}, 3.5});
    REQUIRE(c);
    CHECK_THAT(c->normal, near_vec({0.6, 0.8, 0}));
    CHECK(c->depth == Approx(0.5).margin(1e-12));
}

TEST_CASE("spheres apart or exactly touching give no contact") {
    CHECK_FALSE(contact_sphere_sphere({{0, 0, 0}, 1.0}, {{3, 0, 0}, 1.0}));
    CHECK_FALSE(contact_sphere_sphere({{0, 0, 0}, 1.0}, {{2, 0, 0}, 1.0}));
    CHECK_FALSE(contact_sphere_sphere({{0, 0, 0}, 0.25}, {{0, 0.5, 0}, 0.25}));
}

TEST_CASE("spheres with the same centre get the fixed normal +y and the full radii sum") {
    const auto c = contact_sphere_sphere({{2, -1, 3}, 0.5}, {{2, -1, 3}, 0.75});
    REQUIRE(c);
    CHECK(c->normal == Vec3{0, 1, 0});
    CHECK(c->depth == 1.25);
}

TEST_CASE("swapping two spheres flips the normal and keeps the depth") {
    std::mt19937_64 rng(4004);
    std::uniform_real_distribution<double> pos(-2.0, 2.0), rad(0.1, 2.0);
    int contacts = 0;
    for (int i = 0; i < 2000; ++i) {
        const Sphere a{{pos(rng), pos(rng), pos(rng)}, rad(rng)};
        const Sphere b{{pos(rng), pos(rng), pos(rng)}, rad(rng)};
        const auto ab = contact_sphere_sphere(a, b);
        const auto ba = contact_sphere_sphere(b, a);
        REQUIRE(ab.has_value() == ba.has_value());
        if (!ab) continue;
        ++contacts;
        REQUIRE_THAT(ab->normal, near_vec(-ba->normal, 1e-12));
        REQUIRE(ab->depth == Approx(ba->depth).margin(1e-12));
        // Moving B out by the depth leaves them touching: no contact just past it.
        const Sphere moved{b.centre + ab->normal * (ab->depth + 1e-9), b.radius};
        REQUIRE_FALSE(contact_sphere_sphere(a, moved));
    }
    CHECK(contacts > 200);
}
