#pragma once
/// \file
/// A scenario as plain data, every expression already evaluated: the world's settings, its
/// bodies, what to log and what must hold. The YAML loader (scenario/load.h) builds it; the
/// world (world/simulate.h) runs it; the report layer prints it. Names stay strings here;
/// references between parts of a scenario are indices, resolved once by the loader.

#include <cstdint>
#include <string>
#include <variant>
#include <vector>

#include "shapes/shapes.h"

namespace collide {

/// Where in a scenario file something was written: 1-based line and column, for diagnostics.
struct SourceMark {
    int line = 0;   ///< 1-based line; 0 when unknown
    int column = 0; ///< 1-based column; 0 when unknown
};

/// How collisions are found.
enum class Detection : std::uint8_t {
    discrete, ///< test the sampled frame positions only (can tunnel)
    swept,    ///< find the time of impact inside each step (continuous)
};

/// How a step advances a body.
enum class Integrator : std::uint8_t {
    exact, ///< exact for constant gravity: p += v·dt + ½·g·dt², v += g·dt
    euler, ///< semi-implicit Euler as game engines do: v += g·dt, then p += v·dt
};

/// World settings.
struct WorldDef {
    double dt = 1.0 / 60.0;         ///< step (s) > 0; written as `rate` (Hz) or `dt`
    int frames = 60;                ///< frames sampled, k = 0 … frames − 1; or from `duration`
    Vec3 gravity{0, 0, 0};          ///< acceleration (m/s²)
    Detection detection = Detection::discrete; ///< default for bodies without `ccd`
    double phase = 0;               ///< frame k is sampled at t = (k + phase)·dt, phase in [0, 1)
    double skin = 0.001;            ///< extra push-out distance (m) beyond the depth
    Integrator integrator = Integrator::exact; ///< how positions advance
    double rest_speed = 0.01;       ///< a body slower than this (m/s) …
    double rest_time = 0.25;        ///< … for this long (s) is at rest
    int character_iterations = 4;   ///< push-out + slide passes per frame for characters
};

/// A body: a shape in its local frame, placed at `position` turned by `rotation`.
struct BodyDef {
    std::string name;         ///< the body's key in `bodies:`
    SourceMark mark;          ///< where it was defined
    Shape shape;              ///< local frame: the body's position is the local origin
    Vec3 position;            ///< world position of the local origin at t = 0 (m)
    Vec3 velocity;            ///< initial velocity (m/s)
    Quat rotation;            ///< orientation (fixed: bodies translate without turning)
    double restitution = 0;   ///< bounciness in [0, 1]; a pair uses the larger of its two
    double friction = 0;      ///< share of the sliding speed removed per contact, in [0, 1]; a pair uses the larger
    double mass = 1;          ///< kg > 0; splits responses between two dynamic bodies
    bool is_static = false;   ///< never moves; infinite mass
    bool ccd = false;         ///< swept detection for this body even when the world is discrete
    bool character = false;   ///< moved by push-out + slide + slope limit, no bounce
    double slope_limit = 46;  ///< degrees; steeper surfaces are walls for a character
};

/// A fixed reference to a body, by index into Scenario::bodies.
using BodyIndex = int;

// ---- what to log ---------------------------------------------------------------------------

/// Apex heights after bounces 1…n of a dropped body (measured on the simulated trajectory).
struct ApexLog {
    BodyIndex body = 0;
    int bounces = 3;           ///< how many apexes to report
    double drop_height = 0;    ///< the height it fell from (m), for the analytic h·e^(2n) beside it
    BodyIndex floor = -1;      ///< heights are of the body's lowest point above this body's top; −1: above y = 0
};
/// First frame at which `body` touches `with`, or that it tunneled through.
struct FirstContactLog { BodyIndex body = 0; BodyIndex with = 0; };
/// Per-axis overlaps of two axis-aligned boxes (at t = 0).
struct AxisOverlapsLog { BodyIndex a = 0; BodyIndex b = 0; };
/// The contact (normal from A to B, depth) of two bodies at t = 0.
struct ContactLog { BodyIndex a = 0; BodyIndex b = 0; };
/// B's position pushed out of A by the contact's depth plus the skin.
struct PushOutLog { BodyIndex a = 0; BodyIndex b = 0; Vec3 from; bool has_from = false; double skin = 0.001; };
/// A velocity split against a surface normal: blocked and sliding parts.
struct SplitLog { Vec3 velocity; Vec3 normal; };
/// The response of a velocity to a surface with restitution and friction.
struct RespondLog { Vec3 velocity; Vec3 normal; double restitution = 0; double friction = 0; };
/// A surface's slope angle and whether it is walkable under a limit.
struct SlopeLog { Vec3 normal; double limit = 46; };
/// The first separating axis of two turned boxes (or triangle and box), or their contact.
struct SeparatingAxisLog { BodyIndex a = 0; BodyIndex b = 0; };
/// Where a body ends up (position and velocity at the last frame).
struct FinalLog { BodyIndex body = 0; };
/// When a body came to rest, or that it never did.
struct AtRestLog { BodyIndex body = 0; };
/// The deepest overlap between any two bodies at the last frame (a stack's health).
struct MaxOverlapLog { };
/// A ray through a list of target bodies: which is hit first, at what distance.
struct RaycastLog { Vec3 origin; Vec3 direction; std::vector<BodyIndex> targets; double max_distance = 1e9; };

/// One requested log entry.
using LogRequest = std::variant<ApexLog, FirstContactLog, AxisOverlapsLog, ContactLog, PushOutLog, SplitLog,
                                RespondLog, SlopeLog, SeparatingAxisLog, FinalLog, AtRestLog, MaxOverlapLog,
                                RaycastLog>;

/// A log entry as written in the scenario: what to measure and how to print it.
struct LogDef {
    std::string id;       ///< name used by `expect:` and sweep columns; defaults to the kind (kind_2, … when repeated)
    std::string label;    ///< printed label; empty: the kind's default label
    std::string note;     ///< printed after `//`; empty: the kind's default note, if any
    int decimals = -1;    ///< decimals for this entry; −1: the scenario's default
    SourceMark mark;      ///< where it was written
    LogRequest request;   ///< what to measure
};

// ---- what must hold ------------------------------------------------------------------------

/// How an expectation compares a logged value.
enum class ExpectOp : std::uint8_t { equals, at_most, at_least };

/// One `expect:` condition: `value` (written `ID.FIELD`) compared with a number or another
/// logged value, within a tolerance.
struct ExpectDef {
    std::string value;        ///< the logged value, `ID.FIELD`
    ExpectOp op = ExpectOp::equals;
    double number = 0;        ///< the number compared with, when `other` is empty (booleans: 1 or 0)
    std::string other;        ///< another logged value `ID.FIELD` to compare with, or empty
    double tolerance = 1e-9;  ///< absolute tolerance (for equals; slack for bounds)
    std::string text;         ///< the condition as written, for messages
    SourceMark mark;          ///< where it was written
};

/// A whole scenario, evaluated.
struct Scenario {
    std::string file;                   ///< path it was read from ("-" for stdin)
    std::string name;                   ///< `name:`; defaults to the file's stem
    std::string about;                  ///< `about:`, one line
    std::vector<std::pair<std::string, double>> params; ///< params in file order, after --set
    WorldDef world;                     ///< world settings
    std::vector<BodyDef> bodies;        ///< bodies in file order
    std::vector<LogDef> log;            ///< log entries in file order
    std::vector<ExpectDef> expect;      ///< conditions that must hold
    int decimals = 3;                   ///< default decimals in text logs
    double tolerance_abs = -1;          ///< golden compare tolerance override (absolute); −1: default
    double tolerance_rel = -1;          ///< golden compare tolerance override (relative); −1: default
};

} // namespace collide
