// Separating axis test for turned boxes: the readouts of expected/sat-boxes.log ("A's face normal
// 1, the 1st of 15 axes", "A's edge 1 × B's edge 2, the 8th of 15 axes"), exact minimum
// translation, and agreement with the generic corner-projection form and the axis-aligned closed
// form.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>

#include "detection/contact_aabb_aabb.h"
#include "detection/random_shapes.h"
#include "detection/sat_box_box.h"
#include "detection/sat_convex.h"
#include "support/approx.h"

using namespace collide;
using collide::test::near_vec;
using collide::test::random_obb;

namespace {

const double kS = 1.0 / std::sqrt(2.0);

/// A stick 4 m long along x with a 0.2 m square section turned 45° about x (a diamond in the
/// y–z plane, reaching 0.1·√2 above and below its centre).
Obb stick_along_x() { return Obb{{0, 0, 0}, Mat3{{{1, 0, 0}, {0, kS, kS}, {0, -kS, kS}}}, {2, 0.1, 0.1}}; }

/// A stick 4 m long along z (its second axis, v) with the same section turned 45° about z,
/// centred `height` above the origin.
Obb stick_along_z(double height) {
    return Obb{{0, height, 0}, Mat3{{{kS, kS, 0}, {0, 0, 1}, {kS, -kS, 0}}}, {0.1, 2, 0.1}};
}

/// The generic view of a box: 8 corners, its 3 axes as face and edge directions.
struct BoxView {
    std::array<Vec3, 8> corners;
    std::array<Vec3, 3> axes;
    explicit BoxView(const Obb& b) : corners(corners_of(b)), axes{b.axes.col[0], b.axes.col[1], b.axes.col[2]} {}
    ConvexView full() const { return {corners, axes, axes}; }
    ConvexView faces_only() const { return {corners, axes, {}}; }
};

} // namespace

TEST_CASE("a box beside another is apart on A's face normal 1, the 1st of 15 axes") {
    const Obb a{{0, 0, 0}, identity3(), {1, 1, 1}};
    const double c = std::cos(0.5), s = std::sin(0.5);
    const Obb b{{3, 0.2, 0}, Mat3{{{c, 0, -s}, {0, 1, 0}, {s, 0, c}}}, {0.5, 0.5, 0.5}};
    const SatResult r = sat_box_box(a, b);
    REQUIRE(r.separated);
    CHECK(r.axis.kind == SatAxis::Kind::face_a);
    CHECK(r.axis.i == 1);
    CHECK(r.axis.j == 0);
    CHECK(r.axis.index == 1);
    CHECK(r.axis.count == 15);
    CHECK(r.gap == Approx(3 - 1 - 0.5 * (c + s)).margin(1e-12));
    CHECK_THAT(r.normal, near_vec({1, 0, 0}));
    CHECK_FALSE(overlap_box_box(a, b));
    CHECK_FALSE(contact_box_box(a, b));
}

TEST_CASE("two sticks crossed at a distance are apart on A's edge 1 x B's edge 2, the 8th of 15 axes") {
    // The sticks' diamonds reach 0.1·√2 each, so at 0.3 m apart the gap on y is 0.3 − 0.2·√2.
    const Obb a = stick_along_x();
    const Obb b = stick_along_z(0.3);
    const SatResult r = sat_box_box(a, b);
    REQUIRE(r.separated);
    CHECK(r.axis.kind == SatAxis::Kind::edge_edge);
    CHECK(r.axis.i == 1);
    CHECK(r.axis.j == 2);
    CHECK(r.axis.index == 8);
    CHECK(r.axis.count == 15);
    CHECK(r.gap == Approx(0.3 - 0.2 * std::sqrt(2.0)).margin(1e-12));
    CHECK_THAT(r.normal, near_vec({0, 1, 0}, 1e-12));
}

TEST_CASE("sticks only an edge x edge axis separates are reported apart, though every face axis overlaps") {
    // Bullet's btBoxBoxDetector reports a contact here; the face axes alone cannot tell.
    const Obb a = stick_along_x();
    const Obb b = stick_along_z(0.3);
    const BoxView va(a), vb(b);
    CHECK_FALSE(sat_convex(va.faces_only(), vb.faces_only()).separated);
    CHECK_FALSE(overlap_box_box(a, b));
    CHECK_FALSE(contact_box_box(a, b));
    CHECK(sat_convex(va.full(), vb.full()).separated);
}

TEST_CASE("crossed sticks overlapping less on an edge x edge axis than on any face get the edge axis") {
    // At 0.25 m apart the edge axis overlaps 0.2·√2 − 0.25 ≈ 0.033 m; every face axis overlaps
    // more than 1.3 m. Engines that favour faces (ODE, FCL, Bullet) would push along a face.
    const Obb a = stick_along_x();
    const Obb b = stick_along_z(0.25);
    const SatResult r = sat_box_box(a, b);
    REQUIRE_FALSE(r.separated);
    CHECK(r.axis.kind == SatAxis::Kind::edge_edge);
    CHECK(r.axis.index == 8);
    CHECK(r.gap == Approx(0.2 * std::sqrt(2.0) - 0.25).margin(1e-12));
    CHECK_THAT(r.normal, near_vec({0, 1, 0}, 1e-12));
    const auto c = contact_box_box(a, b);
    REQUIRE(c);
    CHECK(c->depth == r.gap);
    CHECK(c->normal == r.normal);
}

TEST_CASE("boxes touching exactly, face to face or edge on face, give no contact") {
    const Obb a{{0, 0, 0}, identity3(), {1, 1, 1}};
    const Obb beside{{2, 0.3, -0.4}, identity3(), {1, 1, 1}};
    CHECK_FALSE(overlap_box_box(a, beside));
    CHECK_FALSE(contact_box_box(a, beside));
    const SatResult r = sat_box_box(a, beside);
    CHECK(r.separated);
    CHECK(r.gap == 0.0);
    // A cube of half-size 0.5 turned 45° about z rests its edge on the top face.
    const double c = kS;
    const Obb on_edge{{0.2, 1 + 0.5 * std::sqrt(2.0), 0}, Mat3{{{c, c, 0}, {-c, c, 0}, {0, 0, 1}}}, {0.5, 0.5, 0.5}};
    CHECK_FALSE(overlap_box_box(a, on_edge));
    CHECK_FALSE(contact_box_box(a, on_edge));
}

TEST_CASE("swapping two turned boxes flips the normal and keeps the depth") {
    std::mt19937_64 rng(150015);
    int contacts = 0;
    for (int k = 0; k < 3000; ++k) {
        const Obb a = random_obb(rng, 2.0), b = random_obb(rng, 2.0);
        const auto ab = contact_box_box(a, b);
        const auto ba = contact_box_box(b, a);
        REQUIRE(ab.has_value() == ba.has_value());
        if (!ab) continue;
        ++contacts;
        REQUIRE(ab->depth == Approx(ba->depth).margin(1e-9));
        REQUIRE_THAT(ab->normal, near_vec(-ba->normal, 1e-9));
    }
    CHECK(contacts > 500);
}

TEST_CASE("pushing B out by the reported depth separates the boxes, and a micrometre less does not") {
    std::mt19937_64 rng(808);
    int contacts = 0;
    for (int k = 0; k < 3000; ++k) {
        const Obb a = random_obb(rng, 2.0), b = random_obb(rng, 2.0);
        const auto c = contact_box_box(a, b);
        if (!c) continue;
        ++contacts;
        REQUIRE(c->depth > kTouchEpsilon);
        REQUIRE(std::fabs(length(c->normal) - 1.0) < 1e-12);
        Obb out = b;
        out.centre += c->normal * (c->depth + 1e-9);
        REQUIRE(sat_box_box(a, out).separated);
        Obb in = b;
        in.centre += c->normal * (c->depth - 1e-6);
        REQUIRE_FALSE(sat_box_box(a, in).separated);
    }
    CHECK(contacts > 500);
}

TEST_CASE("the generic corner-projection test agrees with the box-box test on axis, flag and gap") {
    std::mt19937_64 rng(4401);
    int apart = 0, overlapping = 0;
    for (int k = 0; k < 3000; ++k) {
        const Obb a = random_obb(rng, 2.0), b = random_obb(rng, 2.0);
        const BoxView va(a), vb(b);
        const SatResult fast = sat_box_box(a, b);
        const SatResult slow = sat_convex(va.full(), vb.full());
        REQUIRE(fast.separated == slow.separated);
        REQUIRE(fast.axis.index == slow.axis.index);
        REQUIRE(fast.axis.kind == slow.axis.kind);
        REQUIRE(fast.axis.i == slow.axis.i);
        REQUIRE(fast.axis.j == slow.axis.j);
        REQUIRE(fast.axis.count == slow.axis.count);
        REQUIRE(fast.gap == Approx(slow.gap).margin(1e-9));
        REQUIRE_THAT(fast.normal, near_vec(slow.normal, 1e-9));
        (fast.separated ? apart : overlapping) += 1;
    }
    CHECK(apart > 500);
    CHECK(overlapping > 500);
}

TEST_CASE("axis-aligned turned boxes give the same contact as the axis-aligned box test") {
    std::mt19937_64 rng(99);
    std::uniform_real_distribution<double> pos(-2.0, 2.0), size(0.1, 2.0);
    auto box = [&] {
        const Vec3 c{pos(rng), pos(rng), pos(rng)};
        const Vec3 h{size(rng), size(rng), size(rng)};
        return Aabb{c - h, c + h};
    };
    int contacts = 0;
    for (int k = 0; k < 3000; ++k) {
        const Aabb a = box(), b = box();
        const auto expected = contact_aabb_aabb(a, b);
        const auto got = contact_box_box(to_obb(a), to_obb(b));
        REQUIRE(expected.has_value() == got.has_value());
        if (!got) continue;
        ++contacts;
        REQUIRE(got->normal == expected->normal);
        REQUIRE(got->depth == Approx(expected->depth).margin(1e-12));
    }
    CHECK(contacts > 500);
    // Identical boxes: every axis ties, x before y before z and + on equal centres.
    const Aabb cube{{-1, -1, -1}, {1, 1, 1}};
    const auto same = contact_box_box(to_obb(cube), to_obb(cube));
    REQUIRE(same);
    CHECK(same->normal == Vec3{1, 0, 0});
    CHECK(same->depth == 2.0);
}

TEST_CASE("the yes/no test agrees with the contact on random pairs") {
    std::mt19937_64 rng(1234567);
    for (int k = 0; k < 4000; ++k) {
        const Obb a = random_obb(rng, 2.0);
        const Obb b = random_obb(rng, 2.0);
        REQUIRE(overlap_box_box(a, b) == contact_box_box(a, b).has_value());
    }
}

TEST_CASE("parallel edges are skipped but keep their numbers: a box against itself is 15 axes with 6 tested") {
    const Obb a{{0, 0, 0}, identity3(), {1, 2, 3}};
    Obb b = a;
    b.centre = {0.5, 0, 0};
    const SatResult r = sat_box_box(a, b);
    REQUIRE_FALSE(r.separated);
    CHECK(r.axis.count == 15);
    CHECK(r.axis.index == 1); // x overlaps 1.5, y 3.5, z 5.5
    CHECK(r.gap == Approx(1.5).margin(1e-12));
    CHECK(r.normal == Vec3{1, 0, 0});
}
