#pragma once
/// \file
/// What each log entry measures, as a fixed list of named numeric fields. The world writes
/// measurements into one flat array of doubles (no strings, no allocation per run); the report
/// layer turns them into text, JSON or CSV; sweeps turn them into columns; `expect:` names them
/// as `ID.FIELD`.
///
/// Conventions for values: booleans are 1 or 0; integers (frames, axis indices) are whole
/// doubles; a body is its index in Scenario::bodies (printed by name, −1 for none); a value
/// that was not measured (no hit, fewer bounces than asked) is NaN and prints as "none".

#include <span>
#include <string>
#include <vector>

#include "scenario/model.h"

namespace collide {

/// How a field's double is to be read.
enum class FieldType {
    number,  ///< a real number with a unit
    integer, ///< a whole number (frame, axis index, count)
    boolean, ///< 1 true, 0 false
    body,    ///< an index into Scenario::bodies; −1 none
};

/// One measured field of a log entry.
struct FieldSpec {
    std::string name; ///< e.g. "hit", "frame", "time", "x"
    std::string unit; ///< e.g. "m", "s", "m/s", "deg"; empty when unitless
    FieldType type = FieldType::number;
};

/// The fields of every entry of a scenario's log, laid out in one flat array.
struct Layout {
    std::vector<FieldSpec> fields; ///< every field, entry after entry
    std::vector<int> offset;       ///< offset[i]: first field of log entry i; offset.back() == fields.size()
    /// Index of field `name` of entry `entry`, or −1.
    int find(int entry, std::string_view name) const;
    /// Index of "ID.FIELD" (or just "FIELD" when only one entry has that field), or −1.
    int find(const Scenario& scenario, std::string_view dotted) const;
};

/// The fields one log request measures, in order:
/// - apex: apex_1 … apex_n (m, measured), analytic_1 … analytic_n (m, h·e^(2k)), bounces (integer, bounces seen)
/// - first_contact: hit (boolean), frame (integer), time (s), x, y, z (m, the body's position then)
/// - axis_overlaps: x, y, z (m; negative: that axis is clear)
/// - contact: hit (boolean), nx, ny, nz (unit normal from A to B), depth (m)
/// - push_out: hit (boolean), x, y, z (m, B's position after the push)
/// - split: heading_in (boolean), blocked, sliding (m/s, sizes), blocked_x … blocked_z, sliding_x … sliding_z (m/s)
/// - respond: vx, vy, vz, speed (m/s)
/// - slope: angle (deg), walkable (boolean)
/// - separating_axis: separated (boolean), axis (integer, 1-based among the axes tried), axes (integer, count),
///   kind (integer: 0 A's face, 1 B's face, 2 edge × edge), i, j (integer, 1-based: face/edge of A, edge of B),
///   gap (m: the gap when separated, the depth when not), nx, ny, nz (unit axis, from A to B)
/// - final: x, y, z (m), vx, vy, vz (m/s)
/// - at_rest: rested (boolean), frame (integer), time (s)
/// - max_overlap: depth (m), a, b (body)
/// - raycast: hit (boolean), target (body), distance (m), x, y, z (m), nx, ny, nz
std::vector<FieldSpec> fields_of(const LogRequest& request);

/// How many fields `fields_of(request)` has, without allocating (for hot paths).
int field_count(const LogRequest& request);

/// The kind name of a request as written in YAML ("apex", "first_contact", ...).
const char* kind_name(const LogRequest& request);

/// The layout of a whole scenario's log.
Layout layout_of(const Scenario& scenario);

} // namespace collide
