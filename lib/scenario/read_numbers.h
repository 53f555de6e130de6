#pragma once
/// \file
/// Numbers in a scenario: written as YAML numbers, as `$param` or as expressions of params,
/// alone or as vectors, unit vectors, surface normals and rotations, each checked against its
/// range (Check). A constant is checked and written into the template's base Scenario at once;
/// a param-dependent number becomes an Expr (computing a slot) and an Op (writing a typed Dest,
/// scenario/destination.h) that `instantiate` replays. Internal to the scenario loader.

#include <cstddef>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "scenario/template_data.h"
#include "scenario/yaml_schema.h"

namespace collide::reader {

using detail::Check;
using detail::Dest;
using detail::OpKind;
using detail::TemplateData;

/// Any finite number.
inline constexpr Check kAny{};
/// ≥ 0.
inline constexpr Check kNonNegative{0, std::numeric_limits<double>::infinity()};
/// > 0.
inline constexpr Check kPositive{0, std::numeric_limits<double>::infinity(), true};
/// In [0, 1].
inline constexpr Check kUnit{0, 1};
/// A whole number in [lo, hi].
constexpr Check whole(double lo, double hi) { return Check{lo, hi, false, false, true}; }

/// A number as read: a constant, or a param-dependent value with a slot.
struct Num {
    bool ok = false;  ///< read without problems
    bool dep = false; ///< depends on params
    double value = 0; ///< the value (at the param defaults when dep)
    int slot = -1;    ///< its slot when dep
};

/// The value of three numbers as a vector.
Vec3 value_of(const std::vector<Num>& v);

/// True when any of the numbers depends on params.
bool any_dep(const std::vector<Num>& v);

/// Reads numbers into a template: constants into its base Scenario, param-dependent numbers
/// as Exprs and Ops. Problems go to `problems`.
class NumberReader {
public:
    /// Reads into `t`, reporting to `problems`; both must outlive the reader.
    NumberReader(TemplateData& t, Problems& problems) : t_(t), problems_(problems) {}

    /// A new slot holding the constant `value`.
    int constant_slot(double value);
    /// The slot of `n`: its own when it depends on params, else a new constant slot.
    int slot_of(const Num& n);
    /// Appends an Op of `kind` writing `dest` from slots `in`; `mark` and `what` name the field
    /// when its value turns out invalid.
    void add_op(OpKind kind, const Dest& dest, std::initializer_list<int> in, SourceMark mark, std::string what,
                bool as_mat3 = false);

    /// A number: a YAML number, `$param` or an expression of params, checked against `check`.
    Num number(const Node& n, const What& what, SourceMark fallback, const Check& check);
    /// A number that may not depend on params (it shapes the log's fields).
    Num constant(const Node& n, const What& what, SourceMark fallback, const Check& check);

    /// Writes `n` into the base at `dest` (a double, int or bool field: nonzero is true), and an
    /// Op when it depends on params. Nothing when `n` was not read.
    void set(const Num& n, const Dest& dest, const What& what, SourceMark m);
    /// Reads a number into `dest` (a double or an int field); nothing when `e` is null.
    void read_into(const Entry* e, const Dest& dest, const What& what, const Check& check);
    /// Reads a boolean into `dest` (a bool field): `true` or `false`, or a number written with
    /// params (`$flag`, 0 false, 1 true) so that sweeps can vary it. Nothing when `e` is null.
    void read_flag(const Entry* e, const Dest& dest, const What& what);

    /// A list of exactly `count` numbers (`shape` shows the form, e.g. "[x, y, z]").
    std::optional<std::vector<Num>> numbers(const Node& n, const What& what, SourceMark fallback, std::size_t count,
                                            const char* shape, const Check& check = kAny);
    /// A list [x, y, z].
    std::optional<std::vector<Num>> vec3(const Node& n, const What& what, SourceMark fallback,
                                         const Check& check = kAny);

    /// Reads a vector into `dest` (a Vec3 field); true when it was read.
    bool read_vec(const Entry* e, const Dest& dest, const What& what, const Check& check = kAny);
    /// Reads a direction scaled to unit length into `dest` (a Vec3 field); the zero vector is an
    /// error. True when it was read.
    bool read_unit(const Entry* e, const Dest& dest, const What& what);
    /// Reads `normal`, or `surface_degrees` (a surface tilted that far from flat), of `view`
    /// into `dest` (a Vec3 field).
    void read_surface(const MapView& view, const Dest& dest, const What& path);
    /// Reads a rotation ({ axis, degrees }, { quaternion } or { euler }, degrees) into `dest`: a
    /// Quat field, or the Mat3 of an Obb's axes when `as_mat3`.
    void read_rotation(const Entry* e, const Dest& dest, bool as_mat3, const What& what);

private:
    TemplateData& t_;
    Problems& problems_;
};

} // namespace collide::reader
