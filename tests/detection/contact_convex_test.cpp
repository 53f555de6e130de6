// The generic convex contact (detection/contact_convex.h: GJK on the cores, EPA inside, radii
// added) against contacts worked out by hand for pairs that also have closed forms — two balls,
// a ball and a box, two boxes — and the signed separation's continuity through touching.
#include <catch2/catch.hpp>

#include "detection/contact_convex.h"
#include "support/approx.h"

using namespace collide;
using collide::test::near_vec;

TEST_CASE("separation_gjk_epa: the gap when apart, minus the depth when overlapping", "[detection]") {
    struct Case {
        const char* what;
        Shape a, b;
        double distance;
        Vec3 normal;
    };
    const Case cases[] = {
            {"balls 1 m apart", Sphere{{0, 0, 0}, 1}, Sphere{{3, 0, 0}, 1}, 1, {1, 0, 0}},
            {"balls 0.5 m deep", Sphere{{0, 0, 0}, 1}, Sphere{{0, 1.5, 0}, 1}, -0.5, {0, 1, 0}},
            {"a ball 0.2 m above a box", Aabb{{-1, -1, -1}, {1, 0, 1}}, Sphere{{0.3, 0.7, 0}, 0.5}, 0.2, {0, 1, 0}},
            {"boxes 0.25 m deep along z",
             Aabb{{0, 0, 0}, {1, 1, 1}},
             Aabb{{0.1, 0.2, 0.75}, {0.9, 0.8, 2}},
             -0.25,
             {0, 0, 1}},
    };
    int checked = 0;
    for (const Case& c : cases) {
        INFO(c.what);
        const Separation s = separation_gjk_epa(c.a, c.b);
        CHECK(s.distance == Approx(c.distance).margin(1e-9));
        CHECK_THAT(s.normal, near_vec(c.normal, 1e-6));
        ++checked;
    }
    CHECK(checked == 4);
}

TEST_CASE("contact_gjk_epa: the contact of overlapping shapes, none when apart or touching", "[detection]") {
    const std::optional<Contact> deep = contact_gjk_epa(Aabb{{-1, -1, -1}, {1, 0, 1}}, Sphere{{0, 0.4, 0}, 0.5});
    REQUIRE(deep);
    CHECK(deep->depth == Approx(0.1).margin(1e-9));
    CHECK_THAT(deep->normal, near_vec({0, 1, 0}, 1e-9));
    CHECK_FALSE(contact_gjk_epa(Sphere{{0, 0, 0}, 1}, Sphere{{3, 0, 0}, 1}));
    CHECK_FALSE(contact_gjk_epa(Sphere{{0, 0, 0}, 1}, Sphere{{2, 0, 0}, 1})); // touching is not a contact
}
