#pragma once
/// \file
/// A scenario as plain data, every expression already evaluated: the world's settings, its
/// bodies (model/bodies.h), what to log (model/log_kinds.h) and what must hold. The YAML
/// reader (scenario/load.h) builds it; probes/simulate.h runs it; report/ prints it. Names
/// stay strings here; references between parts of a scenario are indices, resolved once by the
/// reader.

#include <string>
#include <utility>
#include <vector>

#include "model/bodies.h"
#include "model/diagnostic.h"
#include "model/log_kinds.h"

namespace collide {

/// A log entry as written in the scenario: what to measure and how to print it.
struct LogDef {
    std::string id;     ///< name used by `expect:` and sweep columns; defaults to the kind (kind_2, … when repeated)
    std::string label;  ///< printed label; empty: the kind's default label
    std::string note;   ///< printed after `//`; empty: the kind's default note, if any
    int decimals = -1;  ///< decimals for this entry; −1: the scenario's default
    SourceMark mark;    ///< where it was written
    LogRequest request; ///< what to measure
};

// ---- what must hold ------------------------------------------------------------------------

/// How an expectation compares a logged value.
enum class ExpectOp : std::uint8_t { equals, at_most, at_least };

/// One `expect:` condition: `value` (written `ID.FIELD`) compared with a number or another
/// logged value (plus a number: `plus`), within a tolerance.
struct ExpectDef {
    std::string value; ///< the logged value, `ID.FIELD`
    ExpectOp op = ExpectOp::equals;
    double number = 0;       ///< the number compared with, when `other` is empty (booleans: 1 or 0)
    std::string other;       ///< another logged value `ID.FIELD` to compare with, or empty
    double plus = 0;         ///< added to `other` (`plus:`, in its unit): the target is other + plus
    double tolerance = 1e-9; ///< absolute tolerance (for equals; slack for bounds)
    std::string text;        ///< the condition as written, for messages
    SourceMark mark;         ///< where it was written
};

/// A per-field golden tolerance, `tolerance: { fields: { ID.FIELD: { absolute, relative } } }`:
/// overrides the scenario's tolerance for that one logged value.
struct FieldTolerance {
    std::string field; ///< the logged value, `ID.FIELD` (the log entry's id, as in `expect:`)
    double abs = -1;   ///< absolute tolerance in the field's unit; −1: the scenario's
    double rel = -1;   ///< relative tolerance, a share of |expected|; −1: the scenario's
    SourceMark mark;   ///< where it was written
};

/// A whole scenario, evaluated.
struct Scenario {
    std::string file;                                   ///< path it was read from ("-" for stdin)
    std::string name;                                   ///< `name:`; defaults to the file's stem
    std::string about;                                  ///< `about:`, one line
    std::vector<std::pair<std::string, double>> params; ///< params in file order, after --set
    WorldDef world;                                     ///< world settings
    std::vector<BodyDef> bodies;                        ///< bodies in file order
    std::vector<LogDef> log;                            ///< log entries in file order
    std::vector<ExpectDef> expect;                      ///< conditions that must hold
    int decimals = 3;                                   ///< default decimals in text logs
    double tolerance_abs = -1;                          ///< golden compare tolerance override (absolute); −1: default
    double tolerance_rel = -1;                          ///< golden compare tolerance override (relative); −1: default
    std::vector<FieldTolerance> field_tolerances;       ///< per-field overrides of the two above, in file order
    /// `golden: { frame_hashes: true }`: `check` keeps a hash of every frame beside the golden
    /// (EXPECTED/NAME.frames, probes/frame_hashes.h) and names the first frame that differs.
    bool frame_hashes = false;
    /// `golden: { recording: true }`: `check --update` keeps the run's recording beside the
    /// golden (EXPECTED/NAME.rec, probes/record_file.h), and a failing check's HTML report
    /// draws it, faint, under the new run.
    bool golden_recording = false;
    SourceMark friction_model_mark; ///< where `world.friction_model` was written (0, 0: not written)
    SourceMark detection_mark;      ///< where the key `world.detection` was written (0, 0: not written)
    SourceMark world_mark;          ///< where `world:` was written (0, 0: not written)
    /// Where each key of `world:` was written (its value's mark), in file order: an engine that
    /// refuses a world setting is located at it.
    std::vector<std::pair<std::string, SourceMark>> world_key_marks;
    std::vector<std::string> engine_header; ///< lines the log prints first ("label → value", no newline): the
                                            ///< engine that ran it when not collide's own (engine/registry.h)
};

} // namespace collide
