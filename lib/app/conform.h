#pragma once
/// \file
/// `collide conform`: every scenario's `expect:` conditions (closed forms) through every engine,
/// as the engine-comparison studies score engines by hand (Boeing and Bräunl 2007; SimBenchmark):
/// for each engine, scenario and expectation whether it held, the value measured, the expected
/// value and the error against it, and the engine's CPU time for the scenario.
///
/// Engines come from the registry (engine/registry.h): every engine this program has, or those
/// `--engine` names. A scenario an engine cannot run (its refuse_unsupported throws an
/// UnsupportedError) is a cell `refused` with the engine's located reason; a scenario without
/// expectations is listed and not run.
///
/// Exit codes: 0 when every input was good, whatever held; 1 only with `strict`, when some
/// engine failed some expectation it ran (a refusal is no failure); 2 bad input (a scenario that
/// does not load, an engine this program does not have, an output that cannot be written: then
/// no report is written). Everything but the times is the same bytes for the same input.

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "model/scenario.h"
#include "report/expect.h"

namespace collide {

/// Output formats of `collide conform`.
enum class ConformFormat { text, json, html };

/// What `collide conform` was asked to do.
struct ConformRequest {
    std::vector<std::string> paths; ///< scenario files and directories (*.yaml, *.yml); empty: "scenarios"
    std::string engines;            ///< `--engine A,B`; empty: every engine this program has
    ConformFormat format = ConformFormat::text;
    std::string output;    ///< `-o FILE` (written atomically); empty: the output stream
    bool strict = false;   ///< exit 1 when an expectation failed
    bool progress = false; ///< a live progress line on stderr (it is a terminal)
};

/// What became of one scenario with one engine.
enum class CellStatus {
    ran,     ///< the engine ran it and its expectations were checked
    refused, ///< the engine cannot run it (reason)
    none,    ///< the scenario states no expectations: not run
};

/// One scenario run by one engine.
struct ConformCell {
    std::string engine; ///< its name, as --engine spells it
    CellStatus status = CellStatus::none;
    std::string reason;                  ///< refused: `FILE:LINE:COL: what the engine lacks`
    std::vector<ExpectOutcome> outcomes; ///< ran: one per `expect:` entry, in order
    double cpu_seconds = 0;              ///< ran: CPU seconds of the run on one thread (not deterministic)
    /// Expectations that held.
    int held() const;
    /// The outcome that misses its target by most: a failed one before any that held, then the
    /// largest error against its tolerance; null when none ran.
    const ExpectOutcome* worst() const;
};

/// One scenario through every engine.
struct ConformRow {
    std::string name;                 ///< the scenario's name
    std::string path;                 ///< its file, as found
    std::vector<int> lines;           ///< the line of each `expect:` entry
    std::vector<ConformCell> cells;   ///< one per engine, in the report's engine order
    std::optional<Scenario> scenario; ///< as loaded (for the page's 3D views)
};

/// One engine of the report.
struct ConformEngine {
    std::string name;    ///< as --engine spells it
    std::string version; ///< as `collide --version` describes it
};

/// The whole report.
struct ConformReport {
    std::vector<ConformEngine> engines; ///< in column order
    std::vector<ConformRow> rows;       ///< one per scenario, in path order
};

/// One engine's speed–accuracy summary over the report.
struct EngineSummary {
    int held = 0;           ///< expectations that held
    int ran = 0;            ///< expectations checked (of scenarios it ran)
    int scenarios = 0;      ///< scenarios it ran
    int refused = 0;        ///< scenarios it refused
    int unchecked = 0;      ///< expectations of the scenarios it refused
    double cpu_seconds = 0; ///< the CPU seconds of the scenarios it ran
};

/// An outcome's error with two significant digits and its unit ("4.4e-16 m", "0.41 m", "0"), or
/// "not measured".
std::string error_text(const ExpectOutcome& outcome);

/// The summary of engine number `engine` (its column).
EngineSummary summarize_engine(const ConformReport& report, std::size_t engine);

/// Runs every scenario file through every engine of `engines` (registry names, in column order).
/// Throws InputError for a scenario that does not load or an engine this program lacks; calls
/// `done(k)` after each of the files.size() × engines.size() runs (or skips), when given.
ConformReport run_conformance(const std::vector<std::string>& files, const std::vector<std::string>& engines,
                              const std::function<void(std::size_t)>& done = {});

/// The text report: a table of scenarios × engines (each cell: held / checked, the worst error
/// with its unit, CPU seconds; `refused`; `no expectations`), the refusals with their reasons,
/// then one summary line per engine.
std::string render_conformance_text(const ConformReport& report);

/// The report as JSON (nlohmann-json): engines with their summaries, and per scenario and
/// engine every expectation's line, field (ID.FIELD), condition, held, value, expected (the
/// target), error, tolerance and unit (NaN as null).
std::string render_conformance_json(const ConformReport& report);

/// Runs `collide conform`: the report to `out` (or the output file), problems to `err`.
/// Returns the exit code (see the file comment).
int conform_command(const ConformRequest& request, std::ostream& out, std::ostream& err);

} // namespace collide
