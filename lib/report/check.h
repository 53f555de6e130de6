#pragma once
/// \file
/// `collide check`: run scenarios, compare each text log with its golden file, check the
/// scenarios' expectations, report what changed; `--update` blesses the current logs.
///
/// Each `DIR/NAME.yaml` pairs with `EXPECTED/NAME.log` (NAME is the file stem). Scenarios run
/// in parallel (`jobs`), but every report is printed in sorted file order, so the output is the
/// same bytes for any number of jobs.
///
/// Exit codes, as diff(1): 0 every log matches and every expectation holds; 1 a log differs, a
/// golden is missing or stale, or an expectation failed; 2 bad input anywhere (a scenario that
/// does not load, a path that does not exist, an unknown `--update` name, a file that cannot be
/// written). 2 takes precedence over 1, and when any scenario has bad input no golden is
/// written or removed, even with `--update`.

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "report/run.h"

namespace collide {

/// One problem with a scenario's input, as `FILE:LINE:COLUMN: error: MESSAGE`.
struct InputProblem {
    std::string file;    ///< the file the problem is in
    int line = 0;        ///< 1-based; 0 when unknown
    int column = 0;      ///< 1-based; 0 when unknown
    std::string message; ///< what is wrong
    /// `FILE:LINE:COLUMN: error: MESSAGE` (`FILE: error: MESSAGE` when the line is unknown).
    std::string text() const;
};

/// What running one scenario file gave: its output, or the problems with its input.
struct ScenarioRun {
    std::optional<RunOutput> output;     ///< set when the scenario ran
    std::vector<InputProblem> problems;  ///< set when it could not
};

/// Runs one scenario file. Must be safe to call from several threads at once.
using ScenarioRunner = std::function<ScenarioRun(const std::string& path)>;

/// `run_scenario` with bad input (InputError, or any other failure to load) turned into problems.
ScenarioRun run_scenario_file(const std::string& path);

/// What `collide check` was asked to do.
struct CheckOptions {
    std::vector<std::string> paths;          ///< scenario files and directories (*.yaml, *.yml); empty: "scenarios"
    std::string expected_dir = "expected";   ///< where the goldens live
    bool update = false;                     ///< write goldens that differ or are missing, remove stale ones
    std::vector<std::string> update_names;   ///< with `update`: only these (stems or scenario paths); empty: all
    std::string artifacts_dir;               ///< when set: DIR/NAME.log (actual) and DIR/NAME.diff per failure
    std::string junit_path;                  ///< when set: write a JUnit XML report here
    bool annotations = false;                ///< print GitHub Actions `::error` lines for each failure
    int jobs = 1;                            ///< scenarios run at once (≥ 1)
    bool color = false;                      ///< ANSI colours in diffs
    bool ci = false;                         ///< running in CI (env `CI` set): say that goldens are read only
};

/// How the command line asks for colour.
enum class ColorMode { automatic, always, never };

/// Whether to colour: `always`, `never`, or (`automatic`) when stdout is a terminal and the
/// environment has no NO_COLOR.
bool color_wanted(ColorMode mode);

/// Whether the environment says this is a CI run (`CI` set and not empty).
bool in_ci();

/// Runs `collide check` with `runner` for each scenario; the report goes to `out`, input
/// problems to `err`. Returns the exit code (0, 1 or 2, see the file comment).
int run_check(const CheckOptions& options, const ScenarioRunner& runner, std::ostream& out, std::ostream& err);

/// `run_check` with `run_scenario_file`.
int run_check(const CheckOptions& options, std::ostream& out, std::ostream& err);

} // namespace collide
