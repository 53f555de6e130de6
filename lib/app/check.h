#pragma once
/// \file
/// `collide check`: measure scenarios, compare each text log with its golden file, check the
/// scenarios' expectations, report what changed; `--update` blesses the current logs.
///
/// Each `DIR/NAME.yaml` pairs with the golden `EXPECTED/NAME.log` and its full-precision values
/// `EXPECTED/NAME.values` (NAME is the file stem; report/golden.h). Without `CI` set, a scenario
/// whose golden differs or is missing leaves its run as pending, `EXPECTED/NAME.log.new` and
/// `EXPECTED/NAME.values.new` (what `--update NAME` would write, for `collide review`), and a
/// scenario that matches removes its pending files; with `CI` set no pending file is written or
/// removed. Scenarios are
/// measured in parallel (`jobs`), but every report is printed in sorted file order, so the
/// output is the same bytes for any number of jobs.
///
/// A scenario the engine cannot run (a character for Bullet: model/diagnostic.h's
/// UnsupportedError) is skipped: listed with its reason before the summary, a JUnit
/// `<skipped>`, no failure; with `strict` it is bad input.
///
/// Exit codes, as diff(1): 0 every log matches and every expectation holds; 1 a log differs, a
/// golden is missing or stale, or an expectation failed; 2 bad input anywhere (a scenario that
/// does not load, a path that does not exist, an unknown `--update` name, a file that cannot be
/// written, a golden whose values are missing or do not match its log). 2 takes precedence over 1, and when any
/// scenario has bad input no golden is written or removed, even with `--update`.

#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "app/measure.h"
#include "model/diagnostic.h"

namespace collide {

/// What measuring one scenario file gave: the measured scenario, or the problems with its input.
struct ScenarioAttempt {
    std::optional<MeasuredScenario> measured; ///< set when the scenario was simulated
    std::vector<Diagnostic> problems;         ///< set when it could not be (line 0: no position)
    bool unsupported = false; ///< the problems are what the engine lacks (UnsupportedError), not bad input
};

/// Measures one scenario file for `check`. Must be safe to call from several threads at once.
using ScenarioMeasurer = std::function<ScenarioAttempt(const std::string& path)>;

/// `measure_scenario` (with `engine`) with bad input (InputError, or any other failure) turned
/// into problems.
ScenarioAttempt try_measure_scenario(const std::string& path, const std::string& engine = "collide");

/// The golden of scenario `name` run by `engine` in `expected_dir`: DIR/NAME.log for collide's
/// own engine, DIR/NAME.ENGINE.log for another (its values beside it, DIR/NAME.ENGINE.values);
/// `engine` may be a plugin's path (ENGINE is then the name it reports: engine/plugin_loader.h).
std::string golden_path_of(const std::string& expected_dir, const std::string& name, const std::string& engine);

/// What `collide check` was asked to do.
struct CheckOptions {
    std::vector<std::string> paths;        ///< scenario files and directories (*.yaml, *.yml); empty: "scenarios"
    std::string expected_dir = "expected"; ///< where the goldens live
    std::string engine = "collide";        ///< `--engine`: the engine that runs them; its goldens are NAME.ENGINE.log
    bool update = false;                   ///< write goldens that differ or are missing, remove stale ones
    std::vector<std::string> update_names; ///< with `update`: only these (stems or scenario paths); empty: all
    bool prune = false; ///< with `update`: remove stale goldens even from an --expected folder that is not `expected/`
    std::string artifacts_dir; ///< when set: DIR/NAME.log (actual) and DIR/NAME.diff per failure
    std::string junit_path;    ///< when set: write a JUnit XML report here
    std::string html_path;     ///< when set: write the HTML report here (app/check_html.h)
    bool annotations = false;  ///< print GitHub Actions `::error` lines for each failure
    int jobs = 1;              ///< scenarios measured at once (≥ 1)
    std::string shard;         ///< `--shard K/N` or `auto` (sweep/grid.h): check only the scenarios whose index
                               ///< in sorted order mod N is K − 1 (stale goldens: shard 1); empty: all
    bool progress = false;     ///< draw a live progress line on stderr (it is a terminal)
    bool color = false;        ///< ANSI colours in diffs
    bool ci = false;           ///< running in CI (env `CI` set): say that goldens are read only; write no pending files
    bool strict = false;       ///< a scenario the engine cannot run is bad input, not skipped
};

/// How the command line asks for colour.
enum class ColorMode { automatic, always, never };

/// Whether to colour: `always`, `never`, or (`automatic`) when stdout is a terminal and the
/// environment has no NO_COLOR.
bool color_wanted(ColorMode mode);

/// Whether the environment says this is a CI run (`CI` set and not empty).
bool in_ci();

/// Runs scenario `path` again by `engine` into the recording `record_path` (probes/record_file.h),
/// for `--artifacts`; throws on failure.
using ScenarioRecorder =
        std::function<void(const std::string& path, const std::string& engine, const std::string& record_path)>;

/// Runs `collide check`, measuring each scenario with `measurer`; the report goes to `out`,
/// problems to `err`. Returns the exit code (0, 1 or 2, see the file comment). With
/// `--artifacts`, `recorder` (when given) keeps each failing run's recording.
int check_command(const CheckOptions& options, const ScenarioMeasurer& measurer, std::ostream& out, std::ostream& err,
                  const ScenarioRecorder& recorder = {});

/// `check_command` with `try_measure_scenario` and options.engine, recording with `measure_scenario`.
int check_command(const CheckOptions& options, std::ostream& out, std::ostream& err);

} // namespace collide
