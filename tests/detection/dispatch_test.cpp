// The dispatcher: every pair kind answers, symmetrically, with the one contact convention.
#include <catch2/catch.hpp>

#include <cmath>

#include "detection/dispatch.h"
#include "detection/gjk.h"
#include "detection/shape_gen.h"
#include "support/approx.h"
#include "support/meshes.h"

using namespace collide;
using collide::test::near_vec;

namespace {
constexpr ShapeKind kKinds[] = {ShapeKind::sphere,   ShapeKind::aabb, ShapeKind::obb,  ShapeKind::capsule,
                                ShapeKind::triangle, ShapeKind::hull, ShapeKind::plane};
/// Every kind: the rows and columns of the contact and distance tables.
constexpr ShapeKind kAllKinds[] = {ShapeKind::sphere,   ShapeKind::aabb, ShapeKind::obb,   ShapeKind::capsule,
                                   ShapeKind::triangle, ShapeKind::hull, ShapeKind::plane, ShapeKind::mesh};
/// A plane or a mesh: only ever static, and never asked against each other.
bool is_static(ShapeKind k) { return k == ShapeKind::plane || k == ShapeKind::mesh; }
} // namespace

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

TEST_CASE("dispatch: every cell of the contact and distance tables answers: 56 pairs of kinds overlap, 8 static "
          "pairs are unsupported") {
    // 40 triangles around the origin, where the generator puts the other shapes.
    const auto soup = collide::test::random_soup(29, 40, 1.0, 0.8);
    collide::test::ShapeGen gen(2929);
    int fewest = 200;
    for (const ShapeKind ka : kAllKinds) {
        for (const ShapeKind kb : kAllKinds) {
            int overlapping = 0;
            for (int i = 0; i < 200; ++i) {
                const Shape a = gen.of_kind(ka, *soup), b = gen.of_kind(kb, *soup);
                INFO(shape_kind_name(ka) << " vs " << shape_kind_name(kb) << " case " << i);
                const ContactQuery c = contact(a, b);
                const DistanceResult d = distance(a, b);
                if (is_static(ka) && is_static(kb)) {
                    REQUIRE(c.status == ContactStatus::unsupported);
                    REQUIRE_FALSE(d.supported);
                    continue;
                }
                REQUIRE(c.status != ContactStatus::unsupported);
                REQUIRE(d.supported);
                if (c.status != ContactStatus::overlapping) {
                    REQUIRE(d.distance >= 0);
                    continue;
                }
                ++overlapping;
                REQUIRE(c.contact.depth > kTouchEpsilon);
                REQUIRE(length(c.contact.normal) == Approx(1).margin(1e-12));
                if (c.contact.depth > 1e-8) REQUIRE(d.distance == 0);
            }
            if (is_static(ka) && is_static(kb)) continue;
            // Measured 24 (triangle vs triangle) to 200 overlapping of 200 per pair of kinds.
            INFO(shape_kind_name(ka) << " vs " << shape_kind_name(kb));
            CHECK(overlapping >= 10);
            fewest = std::min(fewest, overlapping);
        }
    }
    WARN("fewest overlapping of 200 for one pair of kinds: " << fewest);
}

TEST_CASE("dispatch: swapping A and B flips contact and distance for all 64 pairs of kinds, exactly where one "
          "routine answers both orders") {
    const auto soup = collide::test::random_soup(30, 40, 1.0, 0.8);
    collide::test::ShapeGen gen(3030);
    int exact = 0, rounded = 0, apart = 0;
    for (const ShapeKind ka : kAllKinds) {
        for (const ShapeKind kb : kAllKinds) {
            for (int i = 0; i < 100; ++i) {
                const Shape a = gen.of_kind(ka, *soup), b = gen.of_kind(kb, *soup);
                INFO(shape_kind_name(ka) << " vs " << shape_kind_name(kb) << " case " << i);
                const ContactQuery ab = contact(a, b), ba = contact(b, a);
                REQUIRE(ab.status == ba.status);
                if (ab.status == ContactStatus::overlapping) {
                    if (ka != kb) {
                        // The cell below the diagonal is its mirror's routine, swapped: same bits.
                        REQUIRE(ba.contact.normal == -ab.contact.normal);
                        REQUIRE(ba.contact.depth == ab.contact.depth);
                        ++exact;
                    } else {
                        // One kind: the routine itself, with its arguments the other way round.
                        REQUIRE_THAT(ba.contact.normal, near_vec(-ab.contact.normal, 1e-6));
                        REQUIRE(ba.contact.depth == Approx(ab.contact.depth).margin(1e-9));
                        ++rounded;
                    }
                }
                const DistanceResult dab = distance(a, b), dba = distance(b, a);
                REQUIRE(dab.supported == dba.supported);
                if (!dab.supported) continue;
                if (is_static(ka) != is_static(kb)) {
                    // A plane or a mesh against a shape: one routine for both orders.
                    REQUIRE(dba.distance == dab.distance);
                    REQUIRE(dba.normal == -dab.normal);
                    REQUIRE(dba.point_a == dab.point_b);
                    REQUIRE(dba.point_b == dab.point_a);
                } else {
                    // GJK in either order: the same gap and the same shortest gap vector (the
                    // closest points themselves need not be unique).
                    REQUIRE(dba.distance == Approx(dab.distance).margin(1e-9));
                    if (dab.distance > 1e-3) {
                        ++apart;
                        REQUIRE_THAT(dba.normal, near_vec(-dab.normal, 1e-6));
                        REQUIRE_THAT(dba.point_b - dba.point_a, near_vec(dab.point_a - dab.point_b, 1e-6));
                    }
                }
            }
        }
    }
    WARN("overlaps compared exactly " << exact << ", within rounding " << rounded << "; gaps by GJK " << apart);
    // Measured 3324 exact, 264 within rounding and 2100 GJK gaps: every branch is exercised.
    CHECK(exact > 2000);
    CHECK(rounded > 150);
    CHECK(apart > 1000);
}
