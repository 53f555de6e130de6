#pragma once
/// \file
/// Tables of pair routines indexed by two shape kinds, `table[kind of A][kind of B]`, as Box2D v3
/// dispatches its contacts (src/contact.c: `s_registers[typeA][typeB]`, filled by `b2AddType`,
/// which writes each pair once and marks its mirror "not primary") and Jolt its collisions
/// (Jolt/Physics/Collision/CollisionDispatch.h: `sCollideShape[type1][type2]`, with
/// `sReversedCollideShape` in the cells written the other way round). A dispatcher writes the
/// routine of each pair of kinds it has one for and marks the mirrored cells kMirror;
/// complete_table then fills a marked cell (A, B) with the routine of (B, A) called with the
/// shapes exchanged and its answer flipped back to A and B. All of it at compile time: a table
/// whose cell and mirror are both kMirror does not compile, so no kind pair falls through.

#include <array>
#include <cstddef>
#include <type_traits>
#include <utility>
#include <variant>

#include "shapes/shapes.h"

namespace collide {

/// How many shape kinds there are (ShapeKind's values are 0 … kShapeKindCount − 1): the rows and
/// the columns of a pair table.
inline constexpr std::size_t kShapeKindCount = std::variant_size_v<Shape>;
static_assert(static_cast<std::size_t>(ShapeKind::mesh) + 1 == kShapeKindCount, "one ShapeKind per alternative");

/// A table of pair routines (function pointers) over the first `N` shape kinds:
/// `table[kind of A][kind of B]` answers A against B.
template <class Routine, std::size_t N = kShapeKindCount> using PairTable = std::array<std::array<Routine, N>, N>;

/// Written in a cell whose pair the mirrored cell's routine answers, with the shapes exchanged.
inline constexpr std::nullptr_t kMirror = nullptr;

namespace detail {

template <const auto& Written, class Swap, std::size_t I, std::size_t J>
constexpr std::remove_cvref_t<decltype(Written[I][J])> complete_cell() {
    if constexpr (Written[I][J] != nullptr) {
        return Written[I][J];
    } else {
        static_assert(Written[J][I] != nullptr, "a cell and its mirror are both kMirror: no routine answers the pair");
        return &Swap::template routine<Written[J][I]>;
    }
}

template <const auto& Written, class Swap, std::size_t... K>
constexpr std::remove_cvref_t<decltype(Written)> complete_table(std::index_sequence<K...>) {
    constexpr std::size_t n = std::tuple_size_v<std::remove_cvref_t<decltype(Written)>>;
    std::remove_cvref_t<decltype(Written)> table{};
    ((table[K / n][K % n] = complete_cell<Written, Swap, K / n, K % n>()), ...);
    return table;
}

} // namespace detail

/// The pair table `Written` with every kMirror cell (I, J) filled by
/// `&Swap::template routine<Written[J][I]>`: `Swap` holds a static member template `routine<F>`
/// of the table's routine type that calls F with A and B exchanged and flips F's answer (a
/// normal negated, the two shapes' points or features exchanged). Every other cell is kept.
template <const auto& Written, class Swap> constexpr std::remove_cvref_t<decltype(Written)> complete_table() {
    constexpr std::size_t n = std::tuple_size_v<std::remove_cvref_t<decltype(Written)>>;
    return detail::complete_table<Written, Swap>(std::make_index_sequence<n * n>{});
}

/// Whether every cell of a pair table holds a routine.
template <class Routine, std::size_t N> constexpr bool every_cell_filled(const PairTable<Routine, N>& table) {
    for (const auto& row : table)
        for (const Routine r : row)
            if (r == nullptr) return false;
    return true;
}

} // namespace collide
