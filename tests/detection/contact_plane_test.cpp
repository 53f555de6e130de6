// Shapes against a half-space, in closed form from one support point.
#include <catch2/catch.hpp>

#include <cmath>

#include "detection/contact_plane.h"
#include "detection/shape_gen.h"
#include "support/approx.h"

using namespace collide;
using collide::test::near_vec;

TEST_CASE("contact_plane_shape: a sphere sunk 0.3 into the floor is pushed up by 0.3") {
    const ContactQuery q = contact_plane_shape(Plane{{0, 1, 0}, 0}, Sphere{{4, 0.2, -1}, 0.5});
    REQUIRE(q.status == ContactStatus::overlapping);
    CHECK(q.contact.depth == Approx(0.3).margin(1e-12));
    CHECK_THAT(q.contact.normal, near_vec({0, 1, 0}));
}

TEST_CASE("contact_shape_plane: the normal points from the shape into the half-space") {
    const ContactQuery q = contact_shape_plane(Sphere{{4, 0.2, -1}, 0.5}, Plane{{0, 1, 0}, 0});
    REQUIRE(q.status == ContactStatus::overlapping);
    CHECK(q.contact.depth == Approx(0.3).margin(1e-12));
    CHECK_THAT(q.contact.normal, near_vec({0, -1, 0}));
}

TEST_CASE("contact_plane_shape: a cube turned 45 degrees sinks its edge by sqrt(2)/2 − height") {
    // Unit cube (half 0.5) turned 45° about z, centre 0.6 above a floor at y = 0.1: its lowest
    // edge is sqrt(0.5) below the centre, so depth = 0.1 + sqrt(0.5) − 0.6.
    const Obb cube{{0, 0.6, 0}, to_mat3(quat_from_axis_degrees({0, 0, 1}, 45)), {0.5, 0.5, 0.5}};
    const ContactQuery q = contact_plane_shape(Plane{{0, 1, 0}, 0.1}, cube);
    REQUIRE(q.status == ContactStatus::overlapping);
    CHECK(q.contact.depth == Approx(0.1 + std::sqrt(0.5) - 0.6).margin(1e-12));
}

TEST_CASE("contact_plane_shape: a tilted plane against a capsule uses the capsule's lowest end") {
    const Vec3 n = normalize(Vec3{1, 1, 0});
    const ContactQuery q = contact_plane_shape(Plane{n, 0}, Capsule{{0, 0.5, 0}, {0, 3, 0}, 0.5});
    REQUIRE(q.status == ContactStatus::overlapping);
    // Lowest along n: the end (0, 0.5, 0) at n·x = 0.5/sqrt(2), minus the radius.
    CHECK(q.contact.depth == Approx(0.5 - 0.5 / std::sqrt(2.0)).margin(1e-12));
    CHECK_THAT(q.contact.normal, near_vec(n));
}

TEST_CASE("contact_plane_shape: above the surface or exactly touching is separated") {
    CHECK(contact_plane_shape(Plane{{0, 1, 0}, 0}, Sphere{{0, 2, 0}, 1}).status == ContactStatus::separated);
    CHECK(contact_plane_shape(Plane{{0, 1, 0}, 0}, Aabb{{0, 0, 0}, {1, 1, 1}}).status == ContactStatus::separated);
}

TEST_CASE("contact_plane_shape: plane against plane is unsupported") {
    CHECK(contact_plane_shape(Plane{}, Plane{}).status == ContactStatus::unsupported);
    CHECK(contact_shape_plane(Plane{}, Plane{}).status == ContactStatus::unsupported);
    CHECK_FALSE(distance_plane_shape(Plane{}, Plane{}).supported);
}

TEST_CASE("distance_plane_shape: a box 1.5 above the floor is 1.5 away, nearest points on both") {
    const DistanceResult r = distance_plane_shape(Plane{{0, 1, 0}, 0}, Aabb{{0, 1.5, 0}, {1, 2, 1}});
    CHECK(r.distance == Approx(1.5).margin(1e-12));
    CHECK_THAT(r.normal, near_vec({0, 1, 0}));
    CHECK(r.point_a.y == Approx(0).margin(1e-12));
    CHECK(r.point_b.y == Approx(1.5).margin(1e-12));
    const DistanceResult s = distance_shape_plane(Aabb{{0, 1.5, 0}, {1, 2, 1}}, Plane{{0, 1, 0}, 0});
    CHECK(s.distance == Approx(1.5).margin(1e-12));
    CHECK_THAT(s.normal, near_vec({0, -1, 0}));
    CHECK(s.point_a.y == Approx(1.5).margin(1e-12));
}

TEST_CASE("contact_plane_shape: depth equals offset minus the lowest hull point, for random hulls") {
    collide::test::ShapeGen gen(3);
    for (int i = 0; i < 1000; ++i) {
        const Hull h = gen.hull();
        const Vec3 n = normalize(gen.point(1.0));
        if (length_squared(n) == 0) continue;
        const Plane p{n, gen.uniform(-1, 1)};
        double lowest = dot(n, h.point(0));
        for (int k = 1; k < h.count(); ++k) lowest = std::min(lowest, dot(n, h.point(k)));
        const ContactQuery q = contact_plane_shape(p, h);
        if (p.offset - lowest > kTouchEpsilon) {
            REQUIRE(q.status == ContactStatus::overlapping);
            REQUIRE(q.contact.depth == Approx(p.offset - lowest).margin(1e-12));
        } else {
            REQUIRE(q.status == ContactStatus::separated);
        }
    }
}
