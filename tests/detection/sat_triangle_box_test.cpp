// Separating axis test for a triangle against a turned box: the readout of
// expected/triangle-box.log "the box's edge 2 × the triangle's edge 3, the 10th of 13 axes", both
// argument orders, contacts.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "detection/random_shapes.h"
#include "detection/sat_triangle_box.h"
#include "support/approx.h"

using namespace collide;
using collide::test::near_vec;
using collide::test::random_obb;

namespace {

const double kS = 1.0 / std::sqrt(2.0);

/// A stick 4 m long along z (the box's second axis, v) with a 0.2 m square section turned 45°
/// about z, so it reaches 0.1·√2 below its centre; centred `height` above the origin.
Obb stick_along_z(double height) {
    return Obb{{0, height, 0}, Mat3{{{kS, kS, 0}, {0, 0, 1}, {kS, -kS, 0}}}, {0.1, 2, 0.1}};
}

/// A triangle hanging below the x axis: its third edge (a − c) runs along x at y = 0 and its
/// plane leans back (normal (0, 1, −1)/√2), so it cuts through the stick's shadow on its own
/// normal and on every box face.
const Triangle kHanging{{-2, 0, 0}, {0, -1, -1}, {2, 0, 0}};

/// A large triangle in the plane y = 0 with its face normal +y, containing the origin.
const Triangle kFloor{{-10, 0, -10}, {-10, 0, 10}, {10, 0, 0}};

} // namespace

TEST_CASE("a stick above a triangle's edge is apart on the box's edge 2 x the triangle's edge 3, the 10th of 13 axes") {
    const SatResult r = sat_box_triangle(stick_along_z(0.2), kHanging);
    REQUIRE(r.separated);
    CHECK(r.axis.kind == SatAxis::Kind::edge_edge);
    CHECK(r.axis.i == 2);
    CHECK(r.axis.j == 3);
    CHECK(r.axis.index == 10);
    CHECK(r.axis.count == 13);
    CHECK(r.gap == Approx(0.2 - 0.1 * std::sqrt(2.0)).margin(1e-12));
    CHECK_THAT(r.normal, near_vec({0, -1, 0}, 1e-12)); // from the box (above) to the triangle
    CHECK_FALSE(contact_box_triangle(stick_along_z(0.2), kHanging));
}

TEST_CASE("with the triangle as A the same gap is its edge 3 x the box's edge 2, the 12th of 13 axes") {
    const SatResult r = sat_triangle_box(kHanging, stick_along_z(0.2));
    REQUIRE(r.separated);
    CHECK(r.axis.kind == SatAxis::Kind::edge_edge);
    CHECK(r.axis.i == 3);
    CHECK(r.axis.j == 2);
    CHECK(r.axis.index == 12);
    CHECK(r.axis.count == 13);
    CHECK(r.gap == Approx(0.2 - 0.1 * std::sqrt(2.0)).margin(1e-12));
    CHECK_THAT(r.normal, near_vec({0, 1, 0}, 1e-12));
}

TEST_CASE("a box sunk 0.1 m into a floor triangle is pushed up by 0.1") {
    const Obb box{{0.5, 0.9, -0.5}, identity3(), {1, 1, 1}};
    const SatResult r = sat_box_triangle(box, kFloor);
    REQUIRE_FALSE(r.separated);
    CHECK(r.axis.kind == SatAxis::Kind::face_a); // ties with the triangle's face; the box's y face is earlier
    CHECK(r.axis.index == 2);
    CHECK(r.gap == Approx(0.1).margin(1e-12));
    CHECK_THAT(r.normal, near_vec({0, -1, 0}));
    const auto down = contact_box_triangle(box, kFloor);
    REQUIRE(down);
    CHECK_THAT(down->normal, near_vec({0, -1, 0}));
    const auto up = contact_triangle_box(kFloor, box);
    REQUIRE(up);
    CHECK_THAT(up->normal, near_vec({0, 1, 0}));
    CHECK(up->depth == Approx(0.1).margin(1e-12));
    const SatResult t = sat_triangle_box(kFloor, box);
    CHECK(t.axis.kind == SatAxis::Kind::face_a);
    CHECK(t.axis.index == 1);
}

TEST_CASE("a box resting exactly on a triangle gives no contact") {
    CHECK_FALSE(contact_box_triangle({{0.5, 1, -0.5}, identity3(), {1, 1, 1}}, kFloor));
    CHECK_FALSE(contact_triangle_box(kFloor, {{0.5, 1, -0.5}, identity3(), {1, 1, 1}}));
}

TEST_CASE("a triangle with collinear corners skips its face axis and still works as a segment") {
    const Triangle flat{{-1, 0, 0}, {0, 0, 0}, {1, 0, 0}};
    const Obb box{{0, 0.5, 0}, identity3(), {2, 0.6, 2}};
    const SatResult r = sat_box_triangle(box, flat);
    REQUIRE_FALSE(r.separated);
    CHECK(r.axis.index == 2);
    CHECK(r.gap == Approx(0.1).margin(1e-12)); // the box's bottom is at −0.1
    Obb above = box;
    above.centre.y = 0.7;
    CHECK(sat_box_triangle(above, flat).separated);
}

TEST_CASE("swapping box and triangle flips the normal and keeps the depth") {
    std::mt19937_64 rng(13);
    std::uniform_real_distribution<double> pos(-2.5, 2.5);
    int contacts = 0;
    for (int k = 0; k < 2000; ++k) {
        const Obb box = random_obb(rng, 1.0);
        const Triangle tri{
                {pos(rng), pos(rng), pos(rng)}, {pos(rng), pos(rng), pos(rng)}, {pos(rng), pos(rng), pos(rng)}};
        const SatResult bt = sat_box_triangle(box, tri);
        const SatResult tb = sat_triangle_box(tri, box);
        REQUIRE(bt.separated == tb.separated);
        if (bt.separated) continue; // the first gap depends on the order, so only the flag must agree
        ++contacts;
        REQUIRE(bt.gap == Approx(tb.gap).margin(1e-9));
        REQUIRE_THAT(bt.normal, near_vec(-tb.normal, 1e-9));
        // Pushing the triangle out by the depth separates them; a micrometre less does not.
        const Vec3 out = bt.normal * (bt.gap + 1e-9);
        REQUIRE(sat_box_triangle(box, {tri.a + out, tri.b + out, tri.c + out}).separated);
        const Vec3 in = bt.normal * (bt.gap - 1e-6);
        REQUIRE_FALSE(sat_box_triangle(box, {tri.a + in, tri.b + in, tri.c + in}).separated);
    }
    CHECK(contacts > 300);
}
