// The sphere–box yes/no baseline: it answers exactly like contact_sphere_aabb, near touching too.
#include <catch2/catch.hpp>

#include <random>

#include "baselines/overlap_sphere_aabb.h"
#include "detection/contact_sphere_box.h"

using namespace collide;

TEST_CASE("overlap_sphere_aabb answers exactly as contact_sphere_aabb, near touching too") {
    std::mt19937_64 rng(5150);
    std::uniform_real_distribution<double> pos(-2.0, 2.0), size(0.05, 1.5), jitter(-3e-9, 3e-9);
    for (int k = 0; k < 100000; ++k) {
        const Vec3 c{pos(rng), pos(rng), pos(rng)};
        const Vec3 h{size(rng), size(rng), size(rng)};
        const Aabb box{c - h, c + h};
        Sphere s{{pos(rng), pos(rng), pos(rng)}, size(rng)};
        if (k % 2 == 1) {
            // slide the sphere to within a few nanometres of touching the box
            const Vec3 nearest = clamp(s.centre, box.min, box.max);
            const Vec3 away = s.centre - nearest;
            if (length_squared(away) > 0) s.centre = nearest + normalize(away) * (s.radius + jitter(rng));
        }
        REQUIRE(baseline::overlap_sphere_aabb(s, box) == contact_sphere_aabb(s, box).has_value());
    }
}
