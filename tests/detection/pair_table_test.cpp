// Pair tables: complete_table keeps the written cells and fills each kMirror cell with its
// mirror's routine, swapped; every_cell_filled tells a full table from one with a hole.
#include <catch2/catch.hpp>

#include "detection/pair_table.h"

using namespace collide;

namespace {

/// A toy routine: an answer that says which routine ran and in which order it saw its shapes.
using Toy = int (*)(int a, int b);

int first(int a, int b) { return 100 + 10 * a + b; }
int second(int a, int b) { return 200 + 10 * a + b; }
int third(int a, int b) { return 300 + 10 * a + b; }

/// The toy's swap: the mirror's routine on (b, a), its answer negated.
struct SwapToy {
    template <Toy F> static int routine(int a, int b) { return -F(b, a); }
};

// Written on and above the diagonal, except (0, 2), which is written below it.
constexpr WrittenTable<Toy, 3> kWritten{{
        {first, second, kMirror},
        {kMirror, third, first},
        {third, kMirror, second},
}};
constexpr PairTable<Toy, 3> kTable = complete_table<kWritten, SwapToy>();

} // namespace

TEST_CASE("pair table: written cells are kept, each kMirror cell is its mirror's routine swapped") {
    // Written: the routine itself.
    CHECK(kTable[0][0](1, 2) == 112);
    CHECK(kTable[0][1](1, 2) == 212);
    CHECK(kTable[1][1](3, 4) == 334);
    CHECK(kTable[1][2](3, 4) == 134);
    CHECK(kTable[2][0](5, 6) == 356);
    CHECK(kTable[2][2](5, 6) == 256);
    // Mirrored: (1, 0) is second on (b, a) negated, (0, 2) third, (2, 1) first.
    CHECK(kTable[1][0](1, 2) == -(200 + 21));
    CHECK(kTable[0][2](1, 2) == -(300 + 21));
    CHECK(kTable[2][1](7, 8) == -(100 + 87));
}

TEST_CASE("pair table: complete_table fills every cell, every_cell_filled finds a hole") {
    CHECK(every_cell_filled(kTable));
    constexpr PairTable<Toy, 2> full{{{first, second}, {third, first}}};
    CHECK(every_cell_filled(full));
    constexpr PairTable<Toy, 2> hole{{{first, nullptr}, {third, first}}};
    CHECK_FALSE(every_cell_filled(hole));
}

TEST_CASE("pair table: a shape table has a row and a column per kind, in ShapeKind's order") {
    STATIC_REQUIRE(kShapeKindCount == 8);
    STATIC_REQUIRE(static_cast<std::size_t>(ShapeKind::mesh) == kShapeKindCount - 1);
    STATIC_REQUIRE(std::tuple_size_v<PairTable<Toy>> == kShapeKindCount);
    STATIC_REQUIRE(std::tuple_size_v<PairTable<Toy>::value_type> == kShapeKindCount);
}
