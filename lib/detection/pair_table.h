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
/// whose cell and mirror are both kMirror does not compile, so no kind pair falls through (the
/// tests call every cell of every table besides).

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

/// The mark of a written table's cell whose pair the mirrored cell's routine answers, with the
/// shapes exchanged.
struct MirrorCell {};
/// Written in a cell whose pair the mirrored cell's routine answers, with the shapes exchanged.
inline constexpr MirrorCell kMirror{};

/// A cell of a table as written: a routine, or kMirror. (A flag, not a null routine: whether a
/// function's address is null is not a constant expression under GCC's sanitizers.)
template <class Routine> struct PairCell {
    Routine routine = nullptr; ///< the cell's routine, unless `mirror`
    bool mirror = false;       ///< answered by the mirrored cell's routine, swapped
    constexpr PairCell(Routine r) : routine(r) {}
    constexpr PairCell(MirrorCell) : mirror(true) {}
};

/// A pair table as written: each cell a routine or kMirror (complete_table() fills those).
template <class Routine, std::size_t N = kShapeKindCount> using WrittenTable =
        std::array<std::array<PairCell<Routine>, N>, N>;

namespace detail {

/// The routine type of written table `Written`.
template <const auto& Written> using RoutineOf = decltype(Written[0][0].routine);

template <const auto& Written, class Swap, std::size_t I, std::size_t J> constexpr RoutineOf<Written> complete_cell() {
    if constexpr (!Written[I][J].mirror) {
        return Written[I][J].routine;
    } else {
        static_assert(!Written[J][I].mirror, "a cell and its mirror are both kMirror: no routine answers the pair");
        return &Swap::template routine<Written[J][I].routine>;
    }
}

template <const auto& Written, class Swap, std::size_t... K>
constexpr PairTable<RoutineOf<Written>, std::tuple_size_v<std::remove_cvref_t<decltype(Written)>>>
complete_table(std::index_sequence<K...>) {
    constexpr std::size_t n = std::tuple_size_v<std::remove_cvref_t<decltype(Written)>>;
    PairTable<RoutineOf<Written>, n> table{};
    ((table[K / n][K % n] = complete_cell<Written, Swap, K / n, K % n>()), ...);
    return table;
}

} // namespace detail

/// The pair table of written table `Written`, its kMirror cells (I, J) filled by
/// `&Swap::template routine<Written[J][I]>`: `Swap` holds a static member template `routine<F>`
/// of the table's routine type that calls F with A and B exchanged and flips F's answer (a
/// normal negated, the two shapes' points or features exchanged). Every other cell is kept. A
/// cell whose mirror is kMirror too does not compile.
template <const auto& Written, class Swap>
constexpr PairTable<detail::RoutineOf<Written>, std::tuple_size_v<std::remove_cvref_t<decltype(Written)>>>
complete_table() {
    constexpr std::size_t n = std::tuple_size_v<std::remove_cvref_t<decltype(Written)>>;
    return detail::complete_table<Written, Swap>(std::make_index_sequence<n * n>{});
}

/// Whether every cell of a pair table holds a routine (at run time: see PairCell).
template <class Routine, std::size_t N> bool every_cell_filled(const PairTable<Routine, N>& table) {
    for (const auto& row : table)
        for (const Routine r : row)
            if (r == nullptr) return false;
    return true;
}

} // namespace collide
