#pragma once
/// \file
/// Internals shared by the YAML reader (reader.cpp, read_*.cpp) and instantiation (load.cpp): how a
/// param-dependent number is kept and where its value goes. Not part of the public API.
///
/// A template is a base Scenario (params at their defaults) plus a program:
/// 1. each `Expr` computes one "slot" from the params (a bare `$name` copies the param; anything
///    else runs a compiled muparser expression) and checks its range;
/// 2. each `Op` then reads slots and writes a field of the Scenario (a plain copy, or a derived
///    value: dt from a rate, a quaternion from an axis and an angle, a unit normal, …).
/// Fields are addressed by a typed Dest (scenario/destination.h: a pointer to member of the
/// object holding the field, plus its index) so the same program works on any copy.

#include <array>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "model/diagnostic.h"
#include "model/scenario.h"
#include "scenario/destination.h"

namespace collide::detail {

/// Upper bound on world.frames: keeps a typo from turning into an hour-long run.
inline constexpr int kMaxFrames = 10'000'000;

/// The frames of `world: { duration: D }` (s) at step `dt` (s) and `phase` in [0, 1): those
/// sampled in [0, D] (frame k at t = (k + phase)·dt), D taken as a whole number of steps
/// N = round(D / dt). With phase 0 they are N + 1, frame 0 at t = 0 and the last at t = D;
/// with a phase they are N, the last at (N − 1 + phase)·dt. At least 1. Not capped (the caller
/// checks kMaxFrames). Defined in load.cpp.
double frames_of_duration(double duration, double dt, double phase);

/// Why `shape` has no size, or "" when it has one: a capsule whose ends `a` and `b` are one
/// point (no length: a sphere is `sphere: { radius }`), a triangle whose corners lie on one line
/// (no area), a hull whose points lie on one line (no area). "On one line": the cross product
/// of two edges from a corner is at most 1e-12 of the product of their lengths. Other shapes
/// have their sizes checked as they are read (a radius or a half-size > 0, max > min). Defined
/// in load.cpp.
std::string shape_without_size(const Shape& shape);

/// The accepted range of a number.
struct Check {
    double lo = -std::numeric_limits<double>::infinity(); ///< lower bound
    double hi = std::numeric_limits<double>::infinity();  ///< upper bound
    bool lo_open = false;                                 ///< lo itself is not allowed
    bool hi_open = false;                                 ///< hi itself is not allowed
    bool integer = false;                                 ///< must be a whole number
};

/// The problem with `value` under `check`, or empty when it is fine.
std::string check_problem(double value, const Check& check);

/// A number written with params.
struct Expr {
    std::string text;      ///< as written (without YAML quotes)
    std::string what;      ///< the field's path for messages, e.g. "bodies.ball.sphere.radius"
    SourceMark mark;       ///< the YAML node
    Check check;           ///< range after substitution
    int slot = 0;          ///< where the value goes
    int direct_param = -1; ///< ≥ 0: the text is just `$name`, copy this param without muparser
};

/// How an Op turns slots into a field.
enum class OpKind : std::uint8_t {
    set_double,           ///< field (double) = in[0]
    set_int,              ///< field (int) = in[0]
    set_bool,             ///< field (bool) = in[0] != 0
    dt_from_rate,         ///< field (double) = 1 / in[0]
    frames_from_duration, ///< world.frames = frames_of_duration(in[0], world.dt, world.phase)
    unit_vector,          ///< field (Vec3) = normalize(in[0..2]); zero is an error
    surface_normal,       ///< field (Vec3) = surface_normal_tilted(in[0])
    quat_axis,            ///< field = rotation of in[3] degrees about (in[0..2]); zero axis is an error
    quat_euler,           ///< field = Euler rotation in[0..2] degrees
    quat_raw,             ///< field = normalize(w=in[0], x, y, z); zero is an error
    aabb_centre_half,     ///< field (Aabb) = centre in[0..2] ± half in[3..5]
    check_min_max,        ///< field (Aabb) must have min ≤ max per axis
    check_shape_size,     ///< body dest.index's shape must have a size (shape_without_size)
    copy_world_skin,      ///< field (double) = world.skin
};

/// One step of the instantiation program.
struct Op {
    OpKind kind = OpKind::set_double;
    Dest dest;               ///< the field written (or checked)
    std::array<int, 6> in{}; ///< input slots
    bool as_mat3 = false;    ///< rotations: write the rotation matrix (an Obb's axes), not a Quat
    SourceMark mark;         ///< where to point when the result is invalid
    std::string what;        ///< the field's path for messages
};

/// Everything a ScenarioTemplate holds.
struct TemplateData {
    std::string file;                     ///< as given
    std::vector<std::string> param_names; ///< file order
    std::vector<double> param_defaults;   ///< file order
    std::vector<bool> param_used;         ///< any Expr reads it
    SourceMark params_mark{1, 1};         ///< the `params:` mapping, for --set messages
    Scenario base;                        ///< params at their defaults
    std::vector<double> slot_init;        ///< initial slot values (constants feeding Ops)
    std::vector<Expr> exprs;              ///< param-dependent numbers
    std::vector<Op> ops;                  ///< in dependency order
};

/// Everything an Evaluator holds (defined in load.cpp, where muparser is included).
struct EvaluatorData;

} // namespace collide::detail

namespace collide::detail {

/// Runs the template's Ops on `out` with these slot values. When `errors` is given, invalid
/// results (a zero axis, min > max, too many frames) are appended to it as diagnostics for
/// `file`; otherwise they are written as computed, unchecked.
void run_ops(const TemplateData& data, const double* slots, Scenario& out, std::vector<Diagnostic>* errors);

/// A number for messages: shortest text that reads back the same ("0.3", "-1", "nan", "inf").
std::string number_text(double value);

} // namespace collide::detail
