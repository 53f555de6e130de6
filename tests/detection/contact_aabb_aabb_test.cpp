// Axis-aligned boxes: per-axis overlaps and the minimum translation vector, against the
// floor-and-feet figure of scenarios/mtv.yaml (feet sunk 30 cm into a floor).
#include <catch2/catch.hpp>

#include <random>

#include "detection/contact_aabb_aabb.h"
#include "support/approx.h"

using namespace collide;
using collide::test::near_vec;

namespace {
const Aabb kFloor{{-5, -1, -5}, {5, 0, 5}};
const Aabb kFeet{{-0.4, -0.3, -0.4}, {0.4, 1.5, 0.4}};
} // namespace

TEST_CASE("feet sunk 30 cm into the floor overlap 5.40, 0.30 and 5.40 m per axis") {
    CHECK_THAT(axis_overlaps(kFloor, kFeet), near_vec({5.4, 0.3, 5.4}, 1e-12));
}

TEST_CASE("feet sunk 30 cm into the floor are pushed straight up by 0.3 m") {
    const auto c = contact_aabb_aabb(kFloor, kFeet);
    REQUIRE(c);
    CHECK(c->normal == Vec3{0, 1, 0});
    CHECK(c->depth == Approx(0.3).margin(1e-12));
}

TEST_CASE("a negative per-axis overlap is the size of the gap on that axis") {
    const Aabb a{{0, 0, 0}, {1, 1, 1}};
    const Aabb b{{1.5, 0.5, -3}, {2, 2, -2}};
    CHECK_THAT(axis_overlaps(a, b), near_vec({-0.5, 0.5, -2}));
    CHECK_FALSE(contact_aabb_aabb(a, b));
}

TEST_CASE("boxes touching exactly on a face give no contact") {
    CHECK_FALSE(contact_aabb_aabb({{0, 0, 0}, {1, 1, 1}}, {{1, 0, 0}, {2, 1, 1}}));
    CHECK_FALSE(contact_aabb_aabb({{0, 0, 0}, {1, 1, 1}}, {{0.2, -3, 0.2}, {0.8, 0, 0.8}}));
}

TEST_CASE("equal overlaps go to x before y before z, and equal centres give a + normal") {
    const Aabb a{{-1, -1, -1}, {1, 1, 1}};
    auto c = contact_aabb_aabb(a, a);
    REQUIRE(c);
    CHECK(c->normal == Vec3{1, 0, 0});
    CHECK(c->depth == 2.0);
    c = contact_aabb_aabb(a, {{-1, -1, -2}, {1, 1, 2}}); // x and y tie at 2, z is 4
    REQUIRE(c);
    CHECK(c->normal == Vec3{1, 0, 0});
    c = contact_aabb_aabb(a, {{-3, -1, -1}, {3, 1, 1}}); // y and z tie at 2, x is 4
    REQUIRE(c);
    CHECK(c->normal == Vec3{0, 1, 0});
}

TEST_CASE("a box left of another gets a normal pointing from it to the other") {
    const auto c = contact_aabb_aabb({{0, 0, 0}, {10, 10, 10}}, {{-1, 2, 2}, {0.5, 4, 4}});
    REQUIRE(c);
    CHECK(c->normal == Vec3{-1, 0, 0}); // x overlap 0.5 beats y and z (4 each)
    CHECK(c->depth == Approx(0.5).margin(1e-12));
}

TEST_CASE("swapping two boxes flips the normal and keeps the depth, and the push separates") {
    std::mt19937_64 rng(2024);
    std::uniform_real_distribution<double> pos(-2.0, 2.0), size(0.1, 2.0);
    auto box = [&] {
        const Vec3 c{pos(rng), pos(rng), pos(rng)};
        const Vec3 h{size(rng), size(rng), size(rng)};
        return Aabb{c - h, c + h};
    };
    int contacts = 0;
    for (int i = 0; i < 2000; ++i) {
        const Aabb a = box(), b = box();
        const auto ab = contact_aabb_aabb(a, b);
        const auto ba = contact_aabb_aabb(b, a);
        REQUIRE(ab.has_value() == ba.has_value());
        if (!ab) continue;
        ++contacts;
        REQUIRE(ab->normal == -ba->normal);
        REQUIRE(ab->depth == ba->depth);
        const Vec3 push = ab->normal * (ab->depth + 1e-9);
        REQUIRE_FALSE(contact_aabb_aabb(a, {b.min + push, b.max + push}));
        const Vec3 short_push = ab->normal * (ab->depth - 1e-6);
        REQUIRE(contact_aabb_aabb(a, {b.min + short_push, b.max + short_push}));
    }
    CHECK(contacts > 200);
}
