// Mat3 (column storage) products against values worked out by hand.
#include <catch2/catch.hpp>

#include "math/mat3.h"
#include "support/approx.h"

using namespace collide;

namespace {
// Rows (1 4 7), (2 5 8), (3 6 9): column c holds 3c + 1, 3c + 2, 3c + 3.
const Mat3 kA{{{1, 2, 3}, {4, 5, 6}, {7, 8, 9}}};
// 90° about z: x → y, y → −x, z → z.
const Mat3 kRz90{{{0, 1, 0}, {-1, 0, 0}, {0, 0, 1}}};
} // namespace

TEST_CASE("mat3: the default matrix is the identity", "[math]") {
    const Mat3 m;
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) CHECK(m.at(r, c) == (r == c ? 1.0 : 0.0));
    CHECK(identity3() == m);
    CHECK(identity3() * Vec3{1, -2, 3} == Vec3{1, -2, 3});
}

TEST_CASE("mat3: at(row, column) reads the column's component", "[math]") {
    CHECK(kA.at(0, 0) == 1);
    CHECK(kA.at(0, 1) == 4);
    CHECK(kA.at(0, 2) == 7);
    CHECK(kA.at(2, 0) == 3);
    CHECK(kA.at(1, 2) == 8);
}

TEST_CASE("mat3: M·v sums the columns weighted by v's components", "[math]") {
    CHECK(kA * Vec3{1, 0, 0} == Vec3{1, 2, 3});
    CHECK(kA * Vec3{0, 0, 1} == Vec3{7, 8, 9});
    // Row sums: 1 + 4 + 7, 2 + 5 + 8, 3 + 6 + 9.
    CHECK(kA * Vec3{1, 1, 1} == Vec3{12, 15, 18});
    // (1·1 + 4·0 + 7·(−1), 2·1 + 5·0 + 8·(−1), 3·1 + 6·0 + 9·(−1)).
    CHECK(kA * Vec3{1, 0, -1} == Vec3{-6, -6, -6});
    CHECK(kRz90 * Vec3{1, 0, 0} == Vec3{0, 1, 0});
    CHECK(kRz90 * Vec3{0, 1, 0} == Vec3{-1, 0, 0});
}

TEST_CASE("mat3: mul_transpose(M, v) dots v with each column, undoing a rotation", "[math]") {
    // (1 + 2 + 3, 4 + 5 + 6, 7 + 8 + 9).
    CHECK(mul_transpose(kA, Vec3{1, 1, 1}) == Vec3{6, 15, 24});
    CHECK(mul_transpose(kRz90, Vec3{0, 1, 0}) == Vec3{1, 0, 0});
    const Vec3 v{0.3, -1.2, 2.5};
    CHECK_THAT(mul_transpose(kRz90, kRz90 * v), collide::test::near_vec(v, 1e-15));
}

TEST_CASE("mat3: A·B has columns A·(B's columns), and applies B first", "[math]") {
    // B = Rz90 has columns (0, 1, 0), (−1, 0, 0), (0, 0, 1): A·B's columns are A's second column,
    // minus A's first, and A's third.
    const Mat3 ab = kA * kRz90;
    CHECK(ab.col[0] == Vec3{4, 5, 6});
    CHECK(ab.col[1] == Vec3{-1, -2, -3});
    CHECK(ab.col[2] == Vec3{7, 8, 9});
    // B·A: rotating each of A's columns 90° about z, (x, y, z) → (−y, x, z).
    const Mat3 ba = kRz90 * kA;
    CHECK(ba.col[0] == Vec3{-2, 1, 3});
    CHECK(ba.col[1] == Vec3{-5, 4, 6});
    CHECK(ba.col[2] == Vec3{-8, 7, 9});
    const Vec3 v{2, -1, 0.5};
    CHECK(ab * v == kA * (kRz90 * v));
    // Four quarter turns are the identity.
    CHECK(kRz90 * kRz90 * kRz90 * kRz90 == identity3());
}

TEST_CASE("mat3: mul_transpose(A, B) is Aᵀ·B", "[math]") {
    // Aᵀ·Rz90: Rz90's columns (0, 1, 0), (−1, 0, 0), (0, 0, 1) dotted with A's columns.
    CHECK(mul_transpose(kA, kRz90) == Mat3{{{2, 5, 8}, {-1, -4, -7}, {3, 6, 9}}});
    CHECK(mul_transpose(kRz90, kRz90) == identity3());
    // Column 0 of Aᵀ·A is (1·1 + 2·2 + 3·3, 4·1 + 5·2 + 6·3, 7·1 + 8·2 + 9·3) = (14, 32, 50).
    CHECK(mul_transpose(kA, kA).col[0] == Vec3{14, 32, 50});
}
