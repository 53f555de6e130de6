// Time of impact: hand-solved impact times, the starting states, and the never-skip property.
#include <catch2/catch.hpp>

#include <cmath>

#include "../detection/shape_gen.h"
#include "detection/gjk.h"
#include "queries/time_of_impact.h"
#include "support/approx.h"

using namespace collide;
using collide::test::near_vec;

namespace {
constexpr double kG = 9.81;
const Vec3 kGravity{0, -kG, 0};
} // namespace

TEST_CASE("toi: a ball thrown onto a floor plane lands at the root of the height quadratic") {
    // Bottom height 9.5 + 3t − ½·9.81·t² = 0.
    const double a = 0.5 * kG, t_land = (3 + std::sqrt(9 + 4 * a * 9.5)) / (2 * a);
    const Toi r =
            time_of_impact(Sphere{{0, 10, 0}, 0.5}, Motion{{1, 3, 0}, kGravity}, Plane{{0, 1, 0}, 0}, Motion{}, 3.0);
    REQUIRE(r.status == ToiStatus::hit);
    CHECK(r.time == Approx(t_land).margin(1e-9));
    CHECK_THAT(r.normal, near_vec({0, -1, 0}));
}

TEST_CASE("toi: a ball thrown onto a floor box lands at the same time (GJK path)") {
    const double a = 0.5 * kG, t_land = (3 + std::sqrt(9 + 4 * a * 9.5)) / (2 * a);
    const Toi r = time_of_impact(Aabb{{-100, -1, -100}, {100, 0, 100}}, Motion{}, Sphere{{0, 10, 0}, 0.5},
                                 Motion{{1, 3, 0}, kGravity}, 3.0);
    REQUIRE(r.status == ToiStatus::hit);
    CHECK(r.time == Approx(t_land).margin(1e-9));
    CHECK_THAT(r.normal, near_vec({0, 1, 0}, 1e-9));
}

TEST_CASE("toi: a box moving at 4 m/s toward a wall 9.5 m away hits at 9.5/4 s") {
    const Obb box{{0, 0, 0}, to_mat3(quat_from_axis_degrees({0, 1, 0}, 0)), {0.5, 0.5, 0.5}};
    const Toi r = time_of_impact(box, Motion{{4, 0, 0}, {}}, Aabb{{10, -5, -5}, {11, 5, 5}}, Motion{}, 5.0);
    REQUIRE(r.status == ToiStatus::hit);
    CHECK(r.time == Approx(9.5 / 4).margin(1e-9));
    CHECK_THAT(r.normal, near_vec({1, 0, 0}, 1e-9));
}

TEST_CASE("toi: a capsule moving toward a hull wall hits at gap / speed") {
    HullPoints wall;
    wall.count = 8;
    for (int i = 0; i < 8; ++i)
        wall.points[static_cast<std::size_t>(i)] = {(i & 1) ? 6.0 : 5.0, (i & 2) ? 3.0 : -3.0, (i & 4) ? 3.0 : -3.0};
    // Capsule core from z = −1 to 1 at x = 0, radius 0.5: gap 4.5, both moving (closing 3 m/s).
    const Toi r = time_of_impact(Capsule{{0, 0, -1}, {0, 0, 1}, 0.5}, Motion{{2, 0, 0}, {}}, hull_of(wall),
                                 Motion{{-1, 0, 0}, {}}, 2.0);
    REQUIRE(r.status == ToiStatus::hit);
    CHECK(r.time == Approx(1.5).margin(1e-9));
}

TEST_CASE("toi: spheres meeting off-centre touch when the centre distance reaches the radii sum") {
    // |(10 − 2t, 1.2)| = 1.5  →  10 − 2t = 0.9  →  t = 4.55.
    const Toi r =
            time_of_impact(Sphere{{0, 0, 0}, 1}, Motion{}, Sphere{{10, 1.2, 0}, 0.5}, Motion{{-2, 0, 0}, {}}, 10.0);
    REQUIRE(r.status == ToiStatus::hit);
    CHECK(r.time == Approx(4.55).margin(1e-9));
    CHECK_THAT(r.normal, near_vec({0.6, 0.8, 0}, 1e-6));
}

TEST_CASE("toi: overlapping at the start is started_inside, never a hit at 0") {
    const Toi r = time_of_impact(Sphere{{0, 0, 0}, 1}, Motion{}, Sphere{{1, 0, 0}, 1}, Motion{{5, 0, 0}, {}}, 1.0);
    CHECK(r.status == ToiStatus::started_inside);
}

TEST_CASE("toi: touching and moving apart is not a hit at 0") {
    const Toi r = time_of_impact(Plane{{0, 1, 0}, 0}, Motion{}, Sphere{{0, 0.5, 0}, 0.5}, Motion{{0, 2, 0}, {}}, 1.0);
    CHECK(r.status == ToiStatus::miss);
}

TEST_CASE("toi: touching and sliding along the floor is not a hit") {
    const Toi r = time_of_impact(Aabb{{-9, -1, -9}, {9, 0, 9}}, Motion{}, Aabb{{0, 0, 0}, {1, 1, 1}},
                                 Motion{{3, 0, 1}, {}}, 1.0);
    CHECK(r.status == ToiStatus::miss);
}

TEST_CASE("toi: resting on the floor under gravity is not a hit (resting contact is not an impact)") {
    const Toi r = time_of_impact(Sphere{{0, 0.5, 0}, 0.5}, Motion{{}, kGravity}, Plane{{0, 1, 0}, 0}, Motion{}, 1.0);
    CHECK(r.status == ToiStatus::miss);
}

TEST_CASE("toi: tossed up off the floor, the ball's next landing is the hit") {
    // Leaves at 2 m/s under gravity: back on the floor at 2·2/9.81 s.
    const Toi r =
            time_of_impact(Sphere{{0, 0.5, 0}, 0.5}, Motion{{0, 2, 0}, kGravity}, Plane{{0, 1, 0}, 0}, Motion{}, 1.0);
    REQUIRE(r.status == ToiStatus::hit);
    CHECK(r.time == Approx(4 / kG).margin(1e-9));
    CHECK_THAT(r.normal, near_vec({0, -1, 0}));
}

TEST_CASE("toi: touching and approaching is a hit at 0") {
    const Toi r = time_of_impact(Aabb{{-9, -1, -9}, {9, 0, 9}}, Motion{}, Aabb{{0, 0, 0}, {1, 1, 1}},
                                 Motion{{0, -1, 0}, {}}, 1.0);
    REQUIRE(r.status == ToiStatus::hit);
    CHECK(r.time == 0);
    CHECK_THAT(r.normal, near_vec({0, 1, 0}, 1e-9));
}

TEST_CASE("toi: passing beside, or stopping short within the step, is a miss") {
    const Toi beside =
            time_of_impact(Sphere{{0, 0, 0}, 0.5}, Motion{{1, 0, 0}, {}}, Aabb{{3, 1, -1}, {4, 2, 1}}, Motion{}, 10.0);
    CHECK(beside.status == ToiStatus::miss);
    const Toi short_of =
            time_of_impact(Sphere{{0, 0, 0}, 0.5}, Motion{{1, 0, 0}, {}}, Aabb{{3, -1, -1}, {4, 1, 1}}, Motion{}, 2.0);
    CHECK(short_of.status == ToiStatus::miss);
}

TEST_CASE("toi: plane against plane is unsupported") {
    const Toi r = time_of_impact(Plane{}, Motion{}, Plane{{0, -1, 0}, 3}, Motion{}, 1.0);
    CHECK(r.status == ToiStatus::unsupported);
}

TEST_CASE("toi: never steps past a first contact, and a hit is touching, on random casts") {
    collide::test::ShapeGen gen(404);
    int hits = 0;
    for (int i = 0; i < 1000; ++i) {
        const Shape a = gen.any();
        const Shape b = translate(gen.any(), gen.point(1.0) + Vec3{5, 0, 0});
        const Motion ma{gen.point(0.5), gen.point(1.0)};
        const Motion mb{gen.point(0.5) - Vec3{4, 0, 0}, gen.point(1.0)};
        const Toi r = time_of_impact(a, ma, b, mb, 2.0, 1e-10);
        auto gap_at = [&](double t) {
            return gjk_distance(translate(a, offset_at(ma, t)), translate(b, offset_at(mb, t)));
        };
        if (r.status == ToiStatus::started_inside) continue;
        const double end = r.status == ToiStatus::hit ? r.time : 2.0;
        for (int k = 0; k < 50; ++k) REQUIRE_FALSE(gap_at(end * k / 50.0).overlap);
        if (r.status != ToiStatus::hit) {
            REQUIRE_FALSE(gap_at(2.0).overlap);
            continue;
        }
        ++hits;
        const GjkResult at_hit = gap_at(r.time);
        REQUIRE(at_hit.distance <= 1e-9);
        REQUIRE(length(r.normal) == Approx(1).margin(1e-9));
    }
    CHECK(hits > 300);
}

TEST_CASE("toi turning: a door hinged at the origin turning into a still ball touches at the closed form") {
    // The door: x in [0, 3], half-thickness w = 0.05, turning about +z at ω; the ball (r = 0.3)
    // at distance D = 2 from the hinge, φ0 = 60° from the door. Its face reaches the ball when
    // D·sin(φ0 − ωt) = r + w: t* = (φ0 − asin((r + w)/D))/ω, normal (−sin ωt*, cos ωt*, 0).
    const double w = 0.05, r = 0.3, d = 2, phi0 = 3.14159265358979323846 / 3;
    const Shape door = Aabb{{0, -w, -1}, {3, w, 1}};
    const Shape ball = Sphere{{d * std::cos(phi0), d * std::sin(phi0), 0}, r};
    for (const double omega : {0.5, 2.0, 20.0}) {
        INFO("omega " << omega);
        const double expected = (phi0 - std::asin((r + w) / d)) / omega;
        const Toi toi = time_of_impact_turning(door, TurningMotion{{}, {}, {0, 0, omega}}, ball, Motion{}, 10 / omega);
        REQUIRE(toi.status == ToiStatus::hit);
        CHECK(std::fabs(toi.time - expected) < 1e-9);
        CHECK_THAT(toi.normal, near_vec(Vec3{-std::sin(omega * expected), std::cos(omega * expected), 0}, 1e-6));
    }
}

TEST_CASE("toi turning: the same door hinged elsewhere and moving gives the same time (frame independence)") {
    // Everything shifted by (5, −1, 2) and the ball moving with the hinge: relative motion unchanged.
    const double w = 0.05, r = 0.3, d = 2, phi0 = 3.14159265358979323846 / 3, omega = 2;
    const Vec3 shift{5, -1, 2}, v{1, 2, -3};
    const Shape door = Aabb{Vec3{0, -w, -1} + shift, Vec3{3, w, 1} + shift};
    const Shape ball = Sphere{Vec3{d * std::cos(phi0), d * std::sin(phi0), 0} + shift, r};
    const Toi toi = time_of_impact_turning(door, TurningMotion{shift, v, {0, 0, omega}}, ball, Motion{v, {}}, 5);
    REQUIRE(toi.status == ToiStatus::hit);
    CHECK(std::fabs(toi.time - (phi0 - std::asin((r + w) / d)) / omega) < 1e-9);
}

TEST_CASE("toi turning: a ball beyond the door's reach is missed; one inside it started inside") {
    const Shape door = Aabb{{0, -0.05, -1}, {3, 0.05, 1}};
    const TurningMotion spin{{}, {}, {0, 0, 2}};
    // Farther than the door's far corner (√(3² + 0.05²) + 0.3 < 3.4) from the hinge.
    CHECK(time_of_impact_turning(door, spin, Sphere{{0, 3.4, 0}, 0.3}, Motion{}, 10).status == ToiStatus::miss);
    CHECK(time_of_impact_turning(door, spin, Sphere{{1, 0, 0}, 0.3}, Motion{}, 10).status == ToiStatus::started_inside);
    // Not turning far enough within t_max: the face is 60° − 10° away at 2 rad/s, t_max 0.1 s.
    CHECK(time_of_impact_turning(door, spin, Sphere{{1, 1.7320508075688772, 0}, 0.3}, Motion{}, 0.1).status ==
          ToiStatus::miss);
}

TEST_CASE("toi turning: turned_at carries a point by rotation about the moving origin") {
    const Shape s = Sphere{{2, 0, 0}, 0.1};
    const Shape at = turned_at(s, TurningMotion{{1, 0, 0}, {0, 0, 1}, {0, 0, 3.14159265358979323846}}, 0.5);
    // A quarter turn about (1, 0, 0) takes (2, 0, 0) to (1, 1, 0); then the origin moved 0.5 along z.
    CHECK_THAT(std::get<Sphere>(at).centre, near_vec(Vec3{1, 1, 0.5}, 1e-12));
}
