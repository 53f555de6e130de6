// The generic separating axis test on shapes given as corners, face and edge directions.
#include <catch2/catch.hpp>

#include <array>
#include <cmath>

#include "detection/sat_convex.h"
#include "support/approx.h"

using namespace collide;
using collide::test::near_vec;

namespace {
// A square pyramid: base 2 × 2 at y = 0, apex at (0, 1, 0). Faces: the base (−y) and four
// slanted sides; edges: x, z and the four slanted edges.
const std::array<Vec3, 5> kPyramid{{{-1, 0, -1}, {1, 0, -1}, {1, 0, 1}, {-1, 0, 1}, {0, 1, 0}}};
const std::array<Vec3, 5> kPyramidNormals{{{0, -1, 0}, {1, 1, 0}, {-1, 1, 0}, {0, 1, 1}, {0, 1, -1}}};
const std::array<Vec3, 6> kPyramidEdges{{{1, 0, 0}, {0, 0, 1}, {1, 1, 1}, {-1, 1, 1}, {1, 1, -1}, {-1, 1, -1}}};

std::array<Vec3, 8> cube_corners(const Vec3& c, double h) {
    std::array<Vec3, 8> out{};
    int n = 0;
    for (int i = -1; i <= 1; i += 2)
        for (int j = -1; j <= 1; j += 2)
            for (int k = -1; k <= 1; k += 2) out[static_cast<std::size_t>(n++)] = c + Vec3{i * h, j * h, k * h};
    return out;
}
const std::array<Vec3, 3> kAxes{{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}};
} // namespace

TEST_CASE("a cube sunk 0.1 m into a pyramid's tip is pushed up along the apex") {
    // Cube of half-size 0.5 centred 1.4 above the base: its bottom face is at y = 0.9, the
    // apex at 1. The shallowest way out is straight up by 0.1; the pyramid's base normal (the
    // 1st axis) and the cube's y face (the 7th) tie at 0.1, and the earlier one wins.
    const auto cube = cube_corners({0, 1.4, 0}, 0.5);
    const ConvexView pyramid{kPyramid, kPyramidNormals, kPyramidEdges};
    const ConvexView box{cube, kAxes, kAxes};
    const SatResult r = sat_convex(pyramid, box);
    REQUIRE_FALSE(r.separated);
    CHECK(r.axis.count == 5 + 3 + 6 * 3);
    CHECK(r.axis.kind == SatAxis::Kind::face_a);
    CHECK(r.axis.i == 1);
    CHECK(r.axis.index == 1);
    CHECK(r.gap == Approx(0.1).margin(1e-12));
    CHECK_THAT(r.normal, near_vec({0, 1, 0}));
}

TEST_CASE("a cube beside a pyramid's slanted face is apart on that face's normal") {
    // The +x slanted face is the plane x + y = 1; the cube's nearest corner (1.2, 0.3, ·) is at
    // (1.5 − 1)/√2 beyond it. The pyramid's x-face normal is its 2nd axis.
    const auto cube = cube_corners({1.5, 0.6, 0}, 0.3);
    const SatResult r = sat_convex({kPyramid, kPyramidNormals, kPyramidEdges}, {cube, kAxes, kAxes});
    REQUIRE(r.separated);
    CHECK(r.axis.kind == SatAxis::Kind::face_a);
    CHECK(r.axis.index == 2);
    CHECK(r.gap == Approx(0.5 / std::sqrt(2.0)).margin(1e-12));
    CHECK_THAT(r.normal, near_vec(normalize(Vec3{1, 1, 0}), 1e-12));
}

TEST_CASE("zero face normals and parallel edges are skipped but keep their numbers") {
    const auto a = cube_corners({0, 0, 0}, 1);
    const auto b = cube_corners({3, 0, 0}, 1); // apart on x by 1
    const std::array<Vec3, 2> normals_a{{{0, 0, 0}, {1, 0, 0}}};
    const SatResult r = sat_convex({a, normals_a, kAxes}, {b, {}, kAxes});
    REQUIRE(r.separated);
    CHECK(r.axis.index == 2);
    CHECK(r.axis.count == 2 + 0 + 9);
    CHECK(r.gap == Approx(1).margin(1e-12));
    // Only parallel edge pairs and no normals: nothing can be tested.
    const std::array<Vec3, 1> x{{{1, 0, 0}}};
    const SatResult none = sat_convex({a, {}, x}, {b, {}, x});
    CHECK_FALSE(none.separated);
    CHECK(none.axis.index == 0);
    CHECK(none.gap == 0);
}
