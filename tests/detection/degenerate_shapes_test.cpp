// Degenerate shapes (flat boxes, point hulls, collinear triangles, zero radii) never make the
// detection return NaN, and every answer keeps the contact convention.
#include <catch2/catch.hpp>

#include <cmath>

#include "detection/dispatch.h"
#include "detection/shape_gen.h"
#include "queries/time_of_impact.h"
#include "support/approx.h"

using namespace collide;

namespace {
// A random shape squashed to zero thickness, length or size in some way.
Shape degenerate(collide::test::ShapeGen& gen) {
    const Vec3 p = gen.point(1.0), q = gen.point(1.0);
    switch (static_cast<int>(gen.uniform(0, 7))) {
    case 0: return Sphere{p, 0};
    case 1: return Capsule{p, p, gen.uniform(0, 0.5)};
    case 2: return Obb{p, to_mat3(gen.rotation()), {gen.uniform(0.1, 1), 0, gen.uniform(0.1, 1)}};
    case 3: return Aabb{p, p};
    case 4: return Triangle{p, q, p + (q - p) * 0.5};
    case 5: {
        return test::keep_hull({p, p, p});
    }
    default: return Triangle{p, p, p};
    }
}
} // namespace

TEST_CASE("degenerate shapes: contact, distance and time of impact stay finite and symmetric") {
    collide::test::ShapeGen gen(1234);
    int samples = 0, overlapping = 0;
    for (int i = 0; i < 3000; ++i) {
        const Shape a = degenerate(gen);
        const Shape b = i % 2 ? degenerate(gen) : gen.any();
        const ContactQuery ab = contact(a, b), ba = contact(b, a);
        REQUIRE(ab.status == ba.status);
        ++samples;
        if (ab.status == ContactStatus::overlapping) {
            ++overlapping;
            REQUIRE(std::isfinite(ab.contact.depth));
            REQUIRE(length(ab.contact.normal) == Approx(1).margin(1e-9));
            REQUIRE(ab.contact.depth == Approx(ba.contact.depth).margin(1e-9));
        }
        const DistanceResult d = distance(a, b);
        REQUIRE(std::isfinite(d.distance));
        REQUIRE(d.distance >= 0);
        REQUIRE(is_finite(d.normal));
        const Toi t = time_of_impact(a, Motion{{1, 0, 0}, {0, -1, 0}}, b, Motion{}, 1.0);
        REQUIRE(std::isfinite(t.time));
        REQUIRE(is_finite(t.normal));
    }
    CHECK(samples == 3000);
    // The overlapping branch's checks ran on a real share of the pairs, not on none.
    INFO(overlapping << " of " << samples << " pairs overlap");
    CHECK(overlapping >= 200); // 249 with this seed
}
