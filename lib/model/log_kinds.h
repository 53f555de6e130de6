#pragma once
/// \file
/// Every kind of log entry, each declared once: its YAML name (`kName`), the keys its YAML
/// mapping accepts (`kKeys`), what it measures as a field enum (`Field`) and a field table
/// (`kFields`: name, unit, type, in enum order), and the request's own inputs as members.
/// Everything else — the reader's key lists, field counts, JSON field names, sweep columns,
/// expectation lookups — is derived from these (model/log.h). Values are read and written by
/// name: `out[ContactLog::depth]`.
///
/// Conventions for values: booleans are 1 or 0; integers (frames, axis indices) are whole
/// doubles, and so is an enumeration (SatAxis::Kind); a body is its index in Scenario::bodies
/// (printed by name, −1 for none); a value that was not measured (no hit, fewer bounces than
/// asked) is NaN and prints as "none".
///
/// To add a kind: declare it here and add it to LogRequest, write its probe (probes/) and its
/// lines (report/render.cpp), and test them.

#include <array>
#include <cstdint>
#include <limits>
#include <string_view>
#include <variant>
#include <vector>

#include "math/vec3.h"
#include "model/bodies.h"

namespace collide {

/// How a field's double is to be read.
enum class FieldType : std::uint8_t {
    number,  ///< a real number with a unit
    integer, ///< a whole number (frame, axis index, count)
    boolean, ///< 1 true, 0 false
    body,    ///< an index into Scenario::bodies; −1 none
};

/// One field of a kind's table: its name (as in `expect:`, JSON and sweep columns), its unit
/// ("m", "s", "m/s", "deg"; empty when unitless) and how its double is read.
struct FieldDef {
    std::string_view name;
    std::string_view unit;
    FieldType type = FieldType::number;
};

namespace log_field {
constexpr FieldDef number(std::string_view name, std::string_view unit) { return {name, unit, FieldType::number}; }
constexpr FieldDef integer(std::string_view name) { return {name, "", FieldType::integer}; }
constexpr FieldDef boolean(std::string_view name) { return {name, "", FieldType::boolean}; }
constexpr FieldDef body(std::string_view name) { return {name, "", FieldType::body}; }
} // namespace log_field

/// Apex heights after bounces 1…n of a dropped body (measured on the simulated trajectory).
/// Fields (variable, n = bounces): apex_1 … apex_n (m, measured), analytic_1 … analytic_n
/// (m, h·e^(2k)), bounces (integer: how many of the n bounces asked for happened, so apex_1 …
/// apex_bounces are measured; bounces after the n-th are not counted).
struct ApexLog {
    static constexpr std::string_view kName = "apex";
    static constexpr std::array<std::string_view, 4> kKeys = {"body", "bounces", "drop_height", "floor"};
    BodyIndex body = 0;
    int bounces = 3; ///< how many apexes to report
    /// The height it fell from (m), for the analytic h·e^(2n) beside it; NaN (not written): its
    /// height above the floor at the start, as measured.
    double drop_height = std::numeric_limits<double>::quiet_NaN();
    BodyIndex floor = -1; ///< heights are of the body's lowest point above this body's top; −1: above y = 0
    /// Index of apex_k (k = 1 … bounces).
    int apex(int k) const { return k - 1; }
    /// Index of analytic_k (k = 1 … bounces).
    int analytic(int k) const { return bounces + k - 1; }
    /// Index of the bounce count.
    int bounce_count() const { return 2 * bounces; }
    /// How many fields this request measures.
    int field_count() const { return 2 * bounces + 1; }
};

/// First frame at which `body` touches `with`, or that it tunneled through.
struct FirstContactLog {
    static constexpr std::string_view kName = "first_contact";
    static constexpr std::array<std::string_view, 2> kKeys = {"body", "with"};
    enum Field : int { hit, frame, time, x, y, z };
    static constexpr std::array kFields = {log_field::boolean("hit"),      log_field::integer("frame"),
                                           log_field::number("time", "s"), log_field::number("x", "m"),
                                           log_field::number("y", "m"),    log_field::number("z", "m")};
    BodyIndex body = 0;
    BodyIndex with = 0;
};

/// Per-axis overlaps of two axis-aligned boxes (at t = 0); negative: that axis is clear.
struct AxisOverlapsLog {
    static constexpr std::string_view kName = "axis_overlaps";
    static constexpr std::array<std::string_view, 2> kKeys = {"a", "b"};
    enum Field : int { x, y, z };
    static constexpr std::array kFields = {log_field::number("x", "m"), log_field::number("y", "m"),
                                           log_field::number("z", "m")};
    BodyIndex a = 0;
    BodyIndex b = 0;
};

/// The contact of two bodies at t = 0: the unit normal from A to B and the depth.
struct ContactLog {
    static constexpr std::string_view kName = "contact";
    static constexpr std::array<std::string_view, 2> kKeys = {"a", "b"};
    enum Field : int { hit, nx, ny, nz, depth };
    static constexpr std::array kFields = {log_field::boolean("hit"), log_field::number("nx", ""),
                                           log_field::number("ny", ""), log_field::number("nz", ""),
                                           log_field::number("depth", "m")};
    BodyIndex a = 0;
    BodyIndex b = 0;
};

/// B's position pushed out of A by the contact's depth plus the skin.
struct PushOutLog {
    static constexpr std::string_view kName = "push_out";
    static constexpr std::array<std::string_view, 4> kKeys = {"a", "b", "from", "skin"};
    enum Field : int { hit, x, y, z };
    static constexpr std::array kFields = {log_field::boolean("hit"), log_field::number("x", "m"),
                                           log_field::number("y", "m"), log_field::number("z", "m")};
    BodyIndex a = 0;
    BodyIndex b = 0;
    Vec3 from;             ///< the position pushed (m), when has_from
    bool has_from = false; ///< false: B's own position
    double skin = 0.001;   ///< extra distance beyond the depth (m)
};

/// A velocity split against a surface normal: blocked and sliding parts.
struct SplitLog {
    static constexpr std::string_view kName = "split";
    static constexpr std::array<std::string_view, 3> kKeys = {"velocity", "normal", "surface_degrees"};
    enum Field : int { heading_in, blocked, sliding, blocked_x, blocked_y, blocked_z, sliding_x, sliding_y, sliding_z };
    static constexpr std::array kFields = {log_field::boolean("heading_in"),      log_field::number("blocked", "m/s"),
                                           log_field::number("sliding", "m/s"),   log_field::number("blocked_x", "m/s"),
                                           log_field::number("blocked_y", "m/s"), log_field::number("blocked_z", "m/s"),
                                           log_field::number("sliding_x", "m/s"), log_field::number("sliding_y", "m/s"),
                                           log_field::number("sliding_z", "m/s")};
    Vec3 velocity; ///< m/s
    Vec3 normal;   ///< unit surface normal
};

/// The response of a velocity to a surface with restitution and friction.
struct RespondLog {
    static constexpr std::string_view kName = "respond";
    static constexpr std::array<std::string_view, 5> kKeys = {"velocity", "normal", "surface_degrees", "restitution",
                                                              "friction"};
    enum Field : int { vx, vy, vz, speed };
    static constexpr std::array kFields = {log_field::number("vx", "m/s"), log_field::number("vy", "m/s"),
                                           log_field::number("vz", "m/s"), log_field::number("speed", "m/s")};
    Vec3 velocity;          ///< m/s
    Vec3 normal;            ///< unit surface normal
    double restitution = 0; ///< [0, 1]
    double friction = 0;    ///< [0, 1]
};

/// A surface's slope angle from the world's up and whether it is walkable under a limit.
struct SlopeLog {
    static constexpr std::string_view kName = "slope";
    static constexpr std::array<std::string_view, 3> kKeys = {"normal", "surface_degrees", "limit"};
    enum Field : int { angle, walkable };
    static constexpr std::array kFields = {log_field::number("angle", "deg"), log_field::boolean("walkable")};
    Vec3 normal;       ///< unit surface normal
    double limit = 46; ///< degrees
};

/// The first separating axis of two turned boxes (or a triangle and a box), or their contact.
/// axis and axes count from 1 among the axes tried; i, j number A's face or edge and B's edge;
/// kind is a SatAxis::Kind (detection/sat.h); gap is the gap when separated and the depth when not; nx…nz the
/// unit axis from A to B.
struct SeparatingAxisLog {
    static constexpr std::string_view kName = "separating_axis";
    static constexpr std::array<std::string_view, 2> kKeys = {"a", "b"};
    enum Field : int { separated, axis, axes, kind, i, j, gap, nx, ny, nz };
    static constexpr std::array kFields = {log_field::boolean("separated"), log_field::integer("axis"),
                                           log_field::integer("axes"),      log_field::integer("kind"),
                                           log_field::integer("i"),         log_field::integer("j"),
                                           log_field::number("gap", "m"),   log_field::number("nx", ""),
                                           log_field::number("ny", ""),     log_field::number("nz", "")};
    BodyIndex a = 0;
    BodyIndex b = 0;
};

/// Where a body ends up at the last frame: its position (its origin) and velocity, its rotation
/// (a unit quaternion qw, qx, qy, qz) and angular velocity (wx, wy, wz, rad/s, world frame), its
/// spin |ω| (rad/s), which of its own axes points most nearly down (down: 1 +x, 2 −x, 3 +y,
/// 4 −y, 5 +z, 6 −z — for a box, the face with that outward normal lies on the floor) and
/// how far that axis is tilted from straight down (tilt, degrees).
struct FinalLog {
    static constexpr std::string_view kName = "final";
    static constexpr std::array<std::string_view, 1> kKeys = {"body"};
    enum Field : int { x, y, z, vx, vy, vz, qw, qx, qy, qz, wx, wy, wz, spin, down, tilt };
    static constexpr std::array kFields = {
            log_field::number("x", "m"),      log_field::number("y", "m"),        log_field::number("z", "m"),
            log_field::number("vx", "m/s"),   log_field::number("vy", "m/s"),     log_field::number("vz", "m/s"),
            log_field::number("qw", ""),      log_field::number("qx", ""),        log_field::number("qy", ""),
            log_field::number("qz", ""),      log_field::number("wx", "rad/s"),   log_field::number("wy", "rad/s"),
            log_field::number("wz", "rad/s"), log_field::number("spin", "rad/s"), log_field::integer("down"),
            log_field::number("tilt", "deg")};
    BodyIndex body = 0;
};

/// When a body came to rest, or that it never did.
struct AtRestLog {
    static constexpr std::string_view kName = "at_rest";
    static constexpr std::array<std::string_view, 1> kKeys = {"body"};
    enum Field : int { rested, frame, time };
    static constexpr std::array kFields = {log_field::boolean("rested"), log_field::integer("frame"),
                                           log_field::number("time", "s")};
    BodyIndex body = 0;
};

/// The deepest overlap between any two bodies at the last frame (a stack's health); a pair with
/// a trigger body is left out (its overlap is what a trigger is for).
struct MaxOverlapLog {
    static constexpr std::string_view kName = "max_overlap";
    static constexpr std::array<std::string_view, 0> kKeys = {};
    enum Field : int { depth, a, b };
    static constexpr std::array kFields = {log_field::number("depth", "m"), log_field::body("a"), log_field::body("b")};
};

/// The mechanical energy of the dynamic bodies (J): kinetic (½·m·|v|² of the centre of mass and
/// ½·ωᵀ·I·ω of the turn) plus gravity's potential −m·g·c (c the centre of mass; zero at the
/// origin). start: at t = 0; end: at the last frame; change: end − start; drift: the largest
/// |E − start| at any sampled frame. An elastic, frictionless scene keeps it (change and drift 0).
struct EnergyLog {
    static constexpr std::string_view kName = "energy";
    static constexpr std::array<std::string_view, 0> kKeys = {};
    enum Field : int { start, end, change, drift };
    static constexpr std::array kFields = {log_field::number("start", "J"), log_field::number("end", "J"),
                                           log_field::number("change", "J"), log_field::number("drift", "J")};
};

/// A character's footing at the last frame: whether it stands on walkable ground, that
/// ground's unit normal (nx, ny, nz; NaN when not grounded) and how many steps it climbed.
struct CharacterLog {
    static constexpr std::string_view kName = "character";
    static constexpr std::array<std::string_view, 1> kKeys = {"body"};
    enum Field : int { grounded, nx, ny, nz, steps };
    static constexpr std::array kFields = {log_field::boolean("grounded"), log_field::number("nx", ""),
                                           log_field::number("ny", ""), log_field::number("nz", ""),
                                           log_field::integer("steps")};
    BodyIndex body = 0;
};

/// A ray through a list of target bodies: which is hit first, at what distance.
struct RaycastLog {
    static constexpr std::string_view kName = "raycast";
    static constexpr std::array<std::string_view, 4> kKeys = {"from", "direction", "targets", "max_distance"};
    enum Field : int { hit, target, distance, x, y, z, nx, ny, nz };
    static constexpr std::array kFields = {
            log_field::boolean("hit"),   log_field::body("target"),   log_field::number("distance", "m"),
            log_field::number("x", "m"), log_field::number("y", "m"), log_field::number("z", "m"),
            log_field::number("nx", ""), log_field::number("ny", ""), log_field::number("nz", "")};
    Vec3 origin;                    ///< m
    Vec3 direction;                 ///< unit direction
    std::vector<BodyIndex> targets; ///< bodies tried, in order
    double max_distance = 1e9;      ///< m
};

/// When `body` enters and leaves the trigger `volume` (either or both may be a trigger body;
/// probes/trigger.h). entered, enter_frame, enter_time (s): the first entry; exited,
/// exit_frame, exit_time (s): the first exit after it; events: how many times it entered. A
/// discrete pair reports the sampled frames (the first at which the shapes overlap, the first
/// after it at which they no longer do, at those frames' times); a swept pair the exact times
/// they start and stop overlapping and the frames whose steps contain them. Never entered or
/// never left: the flag is 0 and its frame and time NaN.
struct TriggerLog {
    static constexpr std::string_view kName = "trigger";
    static constexpr std::array<std::string_view, 2> kKeys = {"body", "volume"};
    enum Field : int { entered, enter_frame, enter_time, exited, exit_frame, exit_time, events };
    static constexpr std::array kFields = {log_field::boolean("entered"),        log_field::integer("enter_frame"),
                                           log_field::number("enter_time", "s"), log_field::boolean("exited"),
                                           log_field::integer("exit_frame"),     log_field::number("exit_time", "s"),
                                           log_field::integer("events")};
    BodyIndex body = 0;
    BodyIndex volume = 0;
};

/// Whether `body` tunneled through `wall` — the documents' question, which first_contact does not
/// answer (a first contact is a touch, not a stop). Along the body's approach (its velocity at
/// the start, or towards the wall when it starts still), the wall spans [near, far]; the body
/// *crossed* at the first sampled frame its middle lies beyond `far`. Fields: tunneled (it
/// crossed at any frame), outcome (how it ended: 0 `stopped` — on the near side, still; 1
/// `bounced` — on the near side moving away; 2 `passed` — beyond the wall; 3 `short` — on the
/// near side, still approaching), frame and time (s) of the crossing (NaN when it never crossed).
/// "Still" is slower than 1e-9 m/s along the approach.
struct TunnelLog {
    static constexpr std::string_view kName = "tunnel";
    static constexpr std::array<std::string_view, 2> kKeys = {"body", "wall"};
    enum Field : int { tunneled, outcome, frame, time };
    enum Outcome : int { stopped = 0, bounced = 1, passed = 2, approaching = 3 };
    static constexpr std::array kFields = {log_field::boolean("tunneled"), log_field::integer("outcome"),
                                           log_field::integer("frame"), log_field::number("time", "s")};
    BodyIndex body = 0;
    BodyIndex wall = 0;
};

/// One requested log entry: exactly one kind.
using LogRequest = std::variant<ApexLog, FirstContactLog, AxisOverlapsLog, ContactLog, PushOutLog, SplitLog, RespondLog,
                                SlopeLog, SeparatingAxisLog, FinalLog, AtRestLog, MaxOverlapLog, RaycastLog,
                                CharacterLog, TriggerLog, TunnelLog, EnergyLog>;

} // namespace collide
