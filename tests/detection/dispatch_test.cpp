// The dispatcher: every pair kind answers, symmetrically, with the one contact convention.
#include <catch2/catch.hpp>

#include <cmath>

#include "detection/dispatch.h"
#include "detection/gjk.h"
#include "detection/shape_gen.h"
#include "support/approx.h"

using namespace collide;
using collide::test::near_vec;

namespace {
constexpr ShapeKind kKinds[] = {ShapeKind::sphere,   ShapeKind::aabb, ShapeKind::obb,  ShapeKind::capsule,
                                ShapeKind::triangle, ShapeKind::hull, ShapeKind::plane};
}

TEST_CASE("dispatch: swapping A and B flips the normal and keeps the depth, for every pair kind") {
    collide::test::ShapeGen gen(31337);
    for (const ShapeKind ka : kKinds) {
        for (const ShapeKind kb : kKinds) {
            if (ka == ShapeKind::plane && kb == ShapeKind::plane) continue;
            int overlapping = 0;
            for (int i = 0; i < 300; ++i) {
                const Shape a = gen.of_kind(ka), b = gen.of_kind(kb);
                const ContactQuery ab = contact(a, b), ba = contact(b, a);
                INFO(shape_kind_name(ka) << " vs " << shape_kind_name(kb) << " case " << i);
                REQUIRE(ab.status == ba.status);
                REQUIRE(ab.status != ContactStatus::unsupported);
                if (ab.status != ContactStatus::overlapping) continue;
                ++overlapping;
                REQUIRE(ab.contact.depth > kTouchEpsilon);
                REQUIRE(ab.contact.depth == Approx(ba.contact.depth).margin(1e-9));
                REQUIRE(length(ab.contact.normal) == Approx(1).margin(1e-12));
                REQUIRE_THAT(ba.contact.normal, near_vec(-ab.contact.normal, 1e-6));
            }
            INFO(shape_kind_name(ka) << " vs " << shape_kind_name(kb));
            CHECK(overlapping > 10);
        }
    }
}

TEST_CASE("dispatch: moving B by normal·depth leaves every pair kind touching, not overlapping") {
    collide::test::ShapeGen gen(8);
    for (const ShapeKind ka : kKinds) {
        for (const ShapeKind kb : kKinds) {
            if (ka == ShapeKind::plane && kb == ShapeKind::plane) continue;
            int checked = 0;
            for (int i = 0; i < 200; ++i) {
                const Shape a = gen.of_kind(ka), b = gen.of_kind(kb);
                const ContactQuery q = contact(a, b);
                if (q.status != ContactStatus::overlapping) continue;
                ++checked;
                INFO(shape_kind_name(ka) << " vs " << shape_kind_name(kb) << " case " << i);
                const Shape moved = translate(b, q.contact.normal * (q.contact.depth + 1e-7));
                REQUIRE(contact(a, moved).status == ContactStatus::separated);
                REQUIRE(distance(a, moved).distance == Approx(1e-7).margin(1e-9));
            }
            // Measured 19 (triangle vs triangle) to 189 overlapping of 200 per pair kind.
            INFO(shape_kind_name(ka) << " vs " << shape_kind_name(kb));
            REQUIRE(checked >= 10);
        }
    }
}

TEST_CASE("dispatch: plane against plane is unsupported for contact and distance") {
    CHECK(contact(Plane{}, Plane{{1, 0, 0}, 2}).status == ContactStatus::unsupported);
    CHECK_FALSE(distance(Plane{}, Plane{{1, 0, 0}, 2}).supported);
}

TEST_CASE("dispatch: distance of spheres is the closed form, of a hull and a box the GJK gap") {
    const DistanceResult s = distance(Sphere{{0, 0, 0}, 1}, Sphere{{0, 4, 0}, 1});
    CHECK(s.distance == Approx(2).margin(1e-12));
    CHECK_THAT(s.normal, near_vec({0, 1, 0}));
    HullPoints tetra;
    tetra.count = 4;
    tetra.points = {Vec3{0, 0, 0}, Vec3{1, 0, 0}, Vec3{0, 1, 0}, Vec3{0, 0, 1}};
    // The slanted face x + y + z = 1 faces the box corner (1, 1, 1): gap (3 − 1)/sqrt(3).
    const DistanceResult h = distance(hull_of(tetra), Aabb{{1, 1, 1}, {2, 2, 2}});
    CHECK(h.distance == Approx(2 / std::sqrt(3.0)).margin(1e-12));
    const double k = 1 / std::sqrt(3.0);
    CHECK_THAT(h.normal, near_vec({k, k, k}, 1e-12));
}

TEST_CASE("dispatch: distance is symmetric and zero exactly when the contact overlaps") {
    collide::test::ShapeGen gen(12);
    int deep = 0, apart = 0;
    for (int i = 0; i < 2000; ++i) {
        const Shape a = gen.any(), b = translate(gen.any(), gen.point(1.5));
        const DistanceResult ab = distance(a, b), ba = distance(b, a);
        REQUIRE(ab.distance == Approx(ba.distance).margin(1e-9));
        const ContactQuery q = contact(a, b);
        if (q.status == ContactStatus::overlapping && q.contact.depth > 1e-8) {
            ++deep;
            REQUIRE(ab.distance == 0);
        }
        if (ab.distance > 1e-8) {
            ++apart;
            REQUIRE(q.status == ContactStatus::separated);
        }
    }
    // Measured 397 deep overlaps and 1603 clear gaps of 2000: both implications are exercised.
    REQUIRE(deep >= 200);
    REQUIRE(apart >= 800);
}
