// Response: split, slide, reflect, respond, push-out, slope and apex, against hand-worked
// figures and against properties that must hold at every angle.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "response/response.h"
#include "support/approx.h"

using namespace collide;
using collide::test::near_vec;

TEST_CASE("landing at 5 m/s along the floor keeps 5.00 m/s with friction 0 and 3.50 with 0.3") {
    const Vec3 running{5, -1, 0};
    const Vec3 floor{0, 1, 0};
    const Vec3 free = respond_velocity(running, floor, 0.0, 0.0);
    const Vec3 rough = respond_velocity(running, floor, 0.0, 0.3);
    CHECK_THAT(free, near_vec({5, 0, 0}));
    CHECK(length(rough) == Approx(3.5).margin(1e-12));
}

TEST_CASE("reflect with restitution 0 equals slide at every angle") {
    std::mt19937_64 rng(20261129);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int i = 0; i < 10000; ++i) {
        const Vec3 n = normalize(Vec3{u(rng), u(rng), u(rng)});
        const Vec3 v{u(rng) * 10, u(rng) * 10, u(rng) * 10};
        REQUIRE_THAT(reflect_velocity(v, n, 0.0), near_vec(slide_velocity(v, n), 1e-12));
    }
}

TEST_CASE("blocked plus sliding is exactly the velocity, and sliding is perpendicular to n") {
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    for (int i = 0; i < 1000; ++i) {
        const Vec3 n = normalize(Vec3{u(rng), u(rng), u(rng)});
        const Vec3 v{u(rng) * 10, u(rng) * 10, u(rng) * 10};
        const Split s = split_velocity(v, n);
        REQUIRE_THAT(s.blocked + s.sliding, near_vec(v, 1e-12));
        REQUIRE(std::fabs(dot(s.sliding, n)) < 1e-12);
    }
}

TEST_CASE("a velocity already leaving the surface is left untouched") {
    const Vec3 leaving{3, 2, -1};
    const Vec3 n{0, 1, 0};
    CHECK(respond_velocity(leaving, n, 0.5, 0.9) == leaving);
}

TEST_CASE("a velocity along the surface (v.n = 0) keeps (1 - friction) of its slide") {
    CHECK_THAT(respond_velocity({4, 0, 0}, {0, 1, 0}, 0.5, 0.25), near_vec({3, 0, 0}));
    CHECK_THAT(respond_velocity({4, 0, 0}, {0, 1, 0}, 0.5, 0.0), near_vec({4, 0, 0}));
}

TEST_CASE("Coulomb response: the slide loses at most mu times the normal velocity change") {
    // v = (3, -2, 0) on a floor, e = 0.5: the normal change is 1.5 · 2 = 3 m/s; mu 0.5 takes
    // 1.5 m/s off the 3 m/s slide; mu 2 would take 6, so the slide stops (static friction).
    CHECK_THAT(respond_coulomb({3, -2, 0}, {0, 1, 0}, 0.5, 0.5), near_vec({1.5, 1, 0}));
    CHECK_THAT(respond_coulomb({3, -2, 0}, {0, 1, 0}, 0.5, 2.0), near_vec({0, 1, 0}));
    CHECK(respond_coulomb({3, 2, 0}, {0, 1, 0}, 0.5, 2.0) == Vec3{3, 2, 0}); // leaving: untouched
}

TEST_CASE("restitution 1 keeps the speed of a head-on hit and reverses it") {
    const Vec3 v{0, -4, 0};
    CHECK_THAT(respond_velocity(v, {0, 1, 0}, 1.0, 0.0), near_vec({0, 4, 0}));
}

TEST_CASE("push out from y = 0.60 by a 0.30 m contact plus the 1 mm skin lands at 0.901") {
    const Contact floor_to_feet{{0, 1, 0}, 0.3};
    CHECK_THAT(push_out({0, 0.6, 0}, floor_to_feet), near_vec({0, 0.901, 0}, 1e-12));
}

TEST_CASE("apex after n bounces is h e^(2n): a 2 m drop with e = 0.5, 0.8, 0.95 and 1") {
    struct Row {
        double e;
        double a1, a2, a3;
    };
    const Row rows[] = {{0.5, 0.500, 0.125, 0.031},
                        {0.8, 1.280, 0.819, 0.524},
                        {0.95, 1.805, 1.629, 1.470},
                        {1.0, 2.000, 2.000, 2.000}};
    for (const Row& r : rows) {
        CHECK(apex_after_bounces(2.0, r.e, 1) == Approx(r.a1).margin(0.0005));
        CHECK(apex_after_bounces(2.0, r.e, 2) == Approx(r.a2).margin(0.0005));
        CHECK(apex_after_bounces(2.0, r.e, 3) == Approx(r.a3).margin(0.0005));
    }
}

TEST_CASE("slope angle of a tilted surface equals its tilt; walkable up to the limit only") {
    for (int deg = 0; deg <= 90; ++deg) {
        const Vec3 n = surface_normal_tilted(deg);
        REQUIRE(slope_degrees(n) == Approx(deg).margin(1e-9));
        REQUIRE(is_walkable(n, 46) == (deg <= 46));
    }
}
