// `collide check` as a pipeline of small steps: discover the scenarios, plan what --update may
// touch, measure them (in parallel), compare each with its golden and expectations, report in
// sorted order, write goldens, artifacts and JUnit, and sum up.
#include "app/check.h"

#include <algorithm>
#include <array>
#include <atomic>
#include <cctype>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <fstream>
#include <map>
#include <mutex>
#include <set>
#include <sstream>
#include <system_error>
#include <unistd.h>

#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "app/check_html.h"
#include "app/errors.h"
#include "engine/plugin_loader.h"
#include "engine/registry.h"
#include "io/atomic_file.h"
#include "io/safe_text.h"
#include "probes/frame_hashes.h"
#include "probes/record_file.h"
#include "report/diff.h"
#include "report/expect.h"
#include "report/golden.h"
#include "report/junit.h"
#include "report/render.h"
#include "sweep/grid.h"
#include "sweep/progress.h"

namespace collide {

namespace fs = std::filesystem;

bool color_wanted(ColorMode mode) {
    switch (mode) {
    case ColorMode::always: return true;
    case ColorMode::never: return false;
    case ColorMode::automatic: break;
    }
    const char* no_color = std::getenv("NO_COLOR");
    return isatty(STDOUT_FILENO) != 0 && (no_color == nullptr || *no_color == '\0');
}

bool in_ci() {
    const char* ci = std::getenv("CI");
    return ci != nullptr && *ci != '\0';
}

ScenarioAttempt try_measure_scenario(const std::string& path, const std::string& engine) {
    try {
        SimOptions options;
        options.engine = engine;
        return {measure_scenario(path, options), {}};
    } catch (const UnsupportedError& e) {
        return {std::nullopt, e.diagnostics, true};
    } catch (...) {
        return {std::nullopt, problems_of_current_exception({path, 0, 0, ""})};
    }
}

std::string golden_path_of(const std::string& expected_dir, const std::string& name, const std::string& engine) {
    const std::string id = engine_name_of(engine); // a plugin's path: the name it reports
    const std::string file = id == "collide" ? name + ".log" : name + "." + id + ".log";
    return (fs::path(expected_dir) / file).generic_string();
}

namespace {

/// The engine a golden file's stem names ("tunnel.bullet": bullet; "tunnel": collide), and the
/// scenario's name without it: the optional engines', and any engine registered (a plugin loaded).
std::pair<std::string, std::string> split_golden_stem(const std::string& stem) {
    std::vector<std::string> names(std::begin(kOptionalEngines), std::end(kOptionalEngines));
    for (const EngineSpec* spec : engines()) names.push_back(spec->name);
    for (const std::string& engine : names) {
        const std::string tail = "." + engine;
        if (engine != "collide" && stem.size() > tail.size() &&
            stem.compare(stem.size() - tail.size(), tail.size(), tail) == 0)
            return {engine, stem.substr(0, stem.size() - tail.size())};
    }
    return {"collide", stem};
}

/// The scenario name of golden EXPECTED/NAME[.ENGINE].log.
std::string name_of_golden(const std::string& golden) {
    return split_golden_stem(fs::path(golden).stem().string()).second;
}

/// One scenario file found on the command line, and what became of it.
struct Entry {
    std::string path;      ///< as shown: the argument, or DIR/FILE for a directory's scenarios
    std::string name;      ///< file stem: the golden is EXPECTED/NAME.log
    std::string golden;    ///< EXPECTED/NAME.log
    std::string values;    ///< EXPECTED/NAME.values, the golden's full-precision values
    std::string frames;    ///< EXPECTED/NAME.frames, its frame hashes (when the scenario keeps them)
    std::string recording; ///< EXPECTED/NAME.rec, the run's recording (when the scenario keeps one)
    std::string update;    ///< the command that writes its golden, as run from where this check was
    // filled by measure_entry (in parallel, one entry per task)
    ScenarioAttempt attempt;
    std::string actual;                      ///< the rendered text log
    std::string actual_values;               ///< the values file of this run (report/golden.h)
    std::string actual_frames;               ///< this run's frame hashes file; empty when it keeps none
    std::optional<std::string> golden_text;  ///< nullopt: no golden file
    std::vector<Diagnostic> golden_problems; ///< the golden's values are missing, malformed or do not match its log
    GoldenComparison comparison;
    std::optional<FrameDivergence> divergence; ///< against the golden's frame hashes, when both have them
    bool stale_frames = false; ///< the golden has frame hashes, the scenario keeps none (--update removes them)
    std::vector<ExpectOutcome> expectations;
    double seconds = 0;                    ///< time spent measuring and comparing (s)
    std::vector<Diagnostic> read_problems; ///< a golden that exists but cannot be read

    /// Whether the run matches its golden: its log, its values and (kept) its frame hashes.
    bool matches() const {
        return golden_text && golden_problems.empty() && comparison.same() && (!divergence || divergence->same()) &&
               !stale_frames;
    }
    bool skipped = false; ///< its engine cannot run it, and the check is not --strict
    /// Whether the entry has bad input (it was not measured, or its golden cannot be read).
    bool bad() const { return !skipped && (!attempt.measured || !attempt.problems.empty() || !read_problems.empty()); }
};

/// What the scenarios on the command line are.
struct Discovery {
    std::vector<Entry> entries; ///< one per scenario, sorted by normalised path
    bool full_run = false;      ///< a directory was scanned: goldens without a scenario are stale
};

/// Counts for the summary line.
struct Tally {
    int passed = 0, failed = 0, differ = 0, missing = 0, expectation_failures = 0, bad_inputs = 0;
    int created = 0, updated = 0, removed = 0, stale_left = 0, pending = 0, skipped = 0;
};

/// Where the report goes, and what it has gathered so far.
struct CheckReport {
    CheckReport(std::ostream& out_, std::ostream& err_, DiffStyle style_) : out(out_), err(err_), style(style_) {}
    std::ostream& out;
    std::ostream& err;
    DiffStyle style;
    bool trouble = false; ///< bad input or a failed write: exit 2
    Tally tally;
    std::vector<JunitCase> junit;
    std::vector<std::string> annotations;
    ScenarioRecorder recorder; ///< keeps a failing run's recording (--artifacts); empty: none
    std::string review;        ///< the command that reviews this run's pending results

    /// Prints a problem on `err` and marks the run as trouble.
    void problem(const Diagnostic& d) {
        err << format_problem(d, "check") << '\n';
        trouble = true;
    }
};

/// A failing scenario's report: uncoloured (artifacts, JUnit) and as printed.
struct Failure {
    std::string block;  ///< uncoloured
    std::string shown;  ///< as printed (coloured when asked)
    std::string reason; ///< one line, for JUnit
};

bool is_scenario_file(const fs::path& p) {
    const std::string ext = p.extension().string();
    return ext == ".yaml" || ext == ".yml";
}

// ---- the commands hints name ------------------------------------------------------------------

/// Whether `dir` is the default golden folder, `expected/` (the only one --update prunes
/// without --prune: a mistyped --expected must not lose unrelated files).
bool is_default_expected_dir(const std::string& dir) {
    std::string normal = fs::path(dir).lexically_normal().generic_string();
    if (!normal.empty() && normal.back() == '/') normal.pop_back();
    return normal == "expected";
}

/// `text` as one word of a POSIX shell: as it is when it is plain, else in single quotes.
std::string shell_word(const std::string& text) {
    const bool plain = !text.empty() && std::all_of(text.begin(), text.end(), [](unsigned char c) {
        return std::isalnum(c) || std::strchr("/._-+=:,@%", c) != nullptr;
    });
    if (plain) return text;
    std::string quoted = "'";
    for (const char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return quoted + "'";
}

/// The options that tie a `check` or `review` to this run's goldens: --engine (another engine's)
/// and --expected (a folder that is not the default).
std::string golden_options(const CheckOptions& o, bool engine = true) {
    std::string text;
    if (engine && o.engine != "collide") text += " --engine " + shell_word(o.engine);
    if (!is_default_expected_dir(o.expected_dir)) text += " --expected " + shell_word(o.expected_dir);
    return text;
}

/// The command that writes scenario `e`'s golden as this run would, from where it was run: by
/// name in the default layout (scenarios/), else by the scenario's path (--update reads it).
std::string update_command_of(const CheckOptions& o, const Entry& e) {
    return "collide check" + golden_options(o) + " --update " + shell_word(o.paths.empty() ? e.name : e.path);
}

/// The command that reviews this run's pending results.
std::string review_command_of(const CheckOptions& o) { return "collide review" + golden_options(o, false); }

/// The command that runs this check again over the same paths (for what only a full run sees:
/// stale goldens), with `tail` after it.
std::string rerun_command_of(const CheckOptions& o, const std::string& tail) {
    std::string text = "collide check";
    for (const std::string& p : o.paths) text += " " + shell_word(p);
    return text + golden_options(o) + tail;
}

// ---- discover ---------------------------------------------------------------------------------

/// Adds the scenario files of `arg` (a file, or a directory's *.yaml / *.yml) to `found`
/// (normalised path → path as shown); returns whether `arg` was a directory.
bool find_scenario_files(const std::string& arg, std::map<std::string, std::string>& found, CheckReport& report) {
    std::error_code ec;
    const fs::path p(arg);
    if (fs::is_directory(p, ec)) {
        std::vector<std::string> files;
        for (const fs::directory_entry& d : fs::directory_iterator(p, ec))
            if (d.is_regular_file(ec) && is_scenario_file(d.path())) files.push_back(d.path().generic_string());
        if (ec)
            report.problem({arg, 0, 0, "cannot list the directory: " + ec.message()});
        else if (files.empty())
            report.problem({arg, 0, 0, "no scenario files (*.yaml, *.yml) in this directory"});
        for (const std::string& f : files) found.emplace(fs::path(f).lexically_normal().generic_string(), f);
        return true;
    }
    const fs::file_status st = fs::status(p, ec);
    if (fs::is_regular_file(st) || fs::is_fifo(st)) // a FIFO named on the command line is read to its end
        found.emplace(p.lexically_normal().generic_string(), p.generic_string());
    else if (fs::exists(st))
        report.problem({arg, 0, 0, "not a scenario file (neither a regular file, a FIFO nor a directory)"});
    else
        report.problem({arg, 0, 0, "no such scenario file or directory"});
    return false;
}

/// The scenarios named by the options (default: `scenarios/`), one entry per file stem.
Discovery discover_scenarios(const CheckOptions& options, CheckReport& report) {
    std::vector<std::string> args = options.paths;
    if (args.empty()) args.push_back("scenarios");
    Discovery discovery;
    std::map<std::string, std::string> found;
    for (const std::string& arg : args) discovery.full_run |= find_scenario_files(arg, found, report);
    std::map<std::string, std::string> by_name; // stem → path
    if (const std::string problem = unsafe_text_problem(options.expected_dir, "the golden folder's path");
        !problem.empty()) {
        report.problem({options.expected_dir, 0, 0, problem}); // every golden's path would print it
        return discovery;
    }
    for (const auto& [key, shown] : found) {
        // A path's name becomes a golden's name and is printed in every report: a control or
        // bidirectional character there is refused (the message shows it escaped).
        if (const std::string problem = unsafe_text_problem(shown, "the scenario's path"); !problem.empty()) {
            report.problem({shown, 0, 0, problem});
            continue;
        }
        Entry e;
        e.path = shown;
        e.name = fs::path(shown).stem().string();
        e.golden = golden_path_of(options.expected_dir, e.name, options.engine);
        e.values = values_path_of(e.golden);
        e.frames = frames_path_of(e.golden);
        e.recording = recording_path_of(e.golden);
        e.update = update_command_of(options, e);
        const auto [it, fresh] = by_name.emplace(e.name, shown);
        if (!fresh) {
            report.problem({shown, 0, 0,
                            fmt::format("{} also has the name {}; both would use {}", it->second, e.name, e.golden)});
            continue;
        }
        discovery.entries.push_back(std::move(e));
    }
    return discovery;
}

/// Goldens in `expected_dir` (a NAME.log or a NAME.values) whose stem names no entry, as
/// EXPECTED/NAME.log (EXPECTED/NAME.ENGINE.log: `engine`'s goldens only), sorted.
std::vector<std::string> find_stale_goldens(const std::string& expected_dir, const std::vector<Entry>& entries,
                                            const std::string& engine) {
    std::set<std::string> names;
    for (const Entry& e : entries) names.insert(e.name);
    std::set<std::string> stale;
    std::error_code ec;
    if (fs::is_directory(expected_dir, ec))
        for (const fs::directory_entry& d : fs::directory_iterator(expected_dir, ec)) {
            const fs::path ext = d.path().extension();
            if (!d.is_regular_file(ec) || (ext != ".log" && ext != ".values" && ext != ".frames" && ext != ".rec"))
                continue;
            const auto [owner, name] = split_golden_stem(d.path().stem().string()); // another engine's: not ours
            // NAME.ENGINE of a scenario here is a plugin's golden, whose engine this run has not loaded.
            const std::size_t dot = name.rfind('.');
            if (owner == "collide" && dot != std::string::npos && names.count(name.substr(0, dot))) continue;
            if (owner == engine && !names.count(name)) stale.insert(golden_path_of(expected_dir, name, engine));
        }
    return {stale.begin(), stale.end()};
}

/// Throws (exit 2, before anything runs) when --junit or an --artifacts file would overwrite a
/// scenario, a golden or its values.
void refuse_outputs_onto_inputs(const CheckOptions& options, const std::vector<Entry>& entries) {
    std::vector<std::string> inputs;
    for (const Entry& e : entries) inputs.insert(inputs.end(), {e.path, e.golden, e.values, e.frames, e.recording});
    refuse_output_onto_inputs(options.junit_path, "--junit", inputs);
    if (options.artifacts_dir.empty()) return;
    for (const Entry& e : entries)
        for (const char* ext : {".log", ".diff", ".rec"})
            refuse_output_onto_inputs((fs::path(options.artifacts_dir) / (e.name + ext)).generic_string(),
                                      "--artifacts", inputs);
}

// ---- plan -------------------------------------------------------------------------------------

/// Adds to `bless` the entries and stale goldens that `want` (a stem or a scenario path) names;
/// returns whether it named any.
bool bless_named(const std::string& want, const std::vector<Entry>& entries, const std::vector<std::string>& stale,
                 std::set<std::string>& bless) {
    bool known = false;
    for (const Entry& e : entries)
        if (e.name == want || e.path == want ||
            fs::path(e.path).lexically_normal() == fs::path(want).lexically_normal()) {
            bless.insert(e.name);
            known = true;
        }
    for (const std::string& g : stale)
        if (name_of_golden(g) == want) {
            bless.insert(want);
            known = true;
        }
    return known;
}

/// The names (scenario stems, stale golden stems) that --update may write or remove.
std::set<std::string> plan_updates(const CheckOptions& options, const std::vector<Entry>& entries,
                                   const std::vector<std::string>& stale, CheckReport& report) {
    std::set<std::string> bless;
    if (!options.update) return bless;
    if (options.update_names.empty()) {
        for (const Entry& e : entries) bless.insert(e.name);
        for (const std::string& g : stale) bless.insert(name_of_golden(g));
        return bless;
    }
    for (const std::string& want : options.update_names)
        if (!bless_named(want, entries, stale, bless))
            report.problem({want, 0, 0, "--update names no scenario of this run and no stale golden"});
    return bless;
}

// ---- measure and compare ----------------------------------------------------------------------

std::optional<std::string> read_golden(const std::string& path, bool& unreadable) {
    unreadable = false;
    std::error_code ec;
    if (!fs::exists(path, ec)) return std::nullopt;
    if (!fs::is_regular_file(path, ec)) { // a directory (or a device) is no golden: bad input
        unreadable = true;
        return std::nullopt;
    }
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    if (in) text << in.rdbuf();
    if (!in || in.bad()) {
        unreadable = true;
        return std::nullopt;
    }
    return text.str();
}

/// Compares a run's frame hashes with the golden's (EXPECTED/NAME.frames): a golden without
/// them, or with a damaged file, is a golden problem (`--update` writes them).
void compare_frames(Entry& e, const FrameHashes& run) {
    const std::string update = "`" + e.update + "`";
    bool unreadable = false;
    const std::optional<std::string> bytes = read_golden(e.frames, unreadable);
    if (unreadable) {
        e.read_problems.push_back({e.frames, 0, 0, "cannot read the golden's frame hashes"});
        return;
    }
    if (!bytes) {
        e.golden_problems.push_back({e.frames, 0, 0,
                                     fmt::format("missing: the scenario keeps frame hashes (golden: {{ frame_hashes: "
                                                 "true }}) but {} has none beside it; {} writes them",
                                                 e.golden, update)});
        return;
    }
    std::string problem;
    const std::optional<FrameHashes> golden = read_frame_hashes(*bytes, e.frames, problem);
    if (!golden) {
        e.golden_problems.push_back(
                {e.frames, 0, 0, problem.substr(e.frames.size() + 2) + fmt::format("; {} writes them again", update)});
        return;
    }
    e.divergence = compare_frame_hashes(*golden, run);
}

/// Renders a measured entry's text log and values, checks its expectations and compares it with
/// its golden (text and values).
void compare_entry(Entry& e) {
    const MeasuredScenario& m = *e.attempt.measured;
    e.actual = render_text(m.scenario, m.layout, m.values);
    e.actual_values = render_values(m.scenario, m.layout, m.values, e.actual, e.name + ".log");
    if (m.checks_expectations()) e.expectations = check_expectations(m.scenario, m.layout, m.values);
    if (m.frame_hashes) e.actual_frames = render_frame_hashes(*m.frame_hashes);
    bool unreadable = false;
    e.golden_text = read_golden(e.golden, unreadable);
    if (unreadable)
        e.read_problems.push_back(
                {e.golden, 0, 0,
                 fs::is_directory(e.golden) ? "the golden is a directory" : "cannot read the golden file"});
    if (!e.golden_text) return;
    const std::optional<std::string> values_text = read_golden(e.values, unreadable);
    if (unreadable) {
        e.read_problems.push_back({e.values, 0, 0, "cannot read the golden's values file"});
        return;
    }
    if (!values_text) {
        e.golden_problems.push_back({e.values, 0, 0,
                                     fmt::format("missing: the golden {} has no full-precision values beside it; "
                                                 "`{}` writes them",
                                                 e.golden, e.update)});
        return;
    }
    auto [golden_values, problems] = read_values(*values_text, e.values, *e.golden_text, e.golden, e.update);
    e.golden_problems = std::move(problems);
    if (e.golden_problems.empty())
        e.comparison = compare_golden(m.scenario, m.layout, m.values, e.actual, *e.golden_text, golden_values);
    std::error_code ec;
    if (m.frame_hashes)
        compare_frames(e, *m.frame_hashes);
    else
        e.stale_frames = fs::exists(e.frames, ec);
}

/// Measures one entry and, when that worked, compares it; times both.
void measure_entry(Entry& e, const ScenarioMeasurer& measurer) {
    const auto start = std::chrono::steady_clock::now();
    try {
        e.attempt = measurer(e.path);
    } catch (...) {
        e.attempt = ScenarioAttempt{std::nullopt, problems_of_current_exception({e.path, 0, 0, ""})};
    }
    if (e.attempt.measured && e.attempt.problems.empty()) compare_entry(e);
    e.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// Measures every entry on `jobs` threads (each entry in its own task); `progress`, when
/// given, is told how many are done (by whichever thread finishes one, one at a time).
void measure_entries(std::vector<Entry>& entries, const ScenarioMeasurer& measurer, int jobs, Progress* progress) {
    jobs = std::max(1, jobs);
    // Allow as many threads as asked for, even beyond the cores TBB would use by default.
    tbb::global_control threads(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(jobs));
    tbb::task_arena arena(jobs);
    std::atomic<std::uint64_t> done{0};
    std::mutex drawing;
    arena.execute([&] {
        tbb::parallel_for(std::size_t{0}, entries.size(), [&](std::size_t i) {
            measure_entry(entries[i], measurer);
            const std::uint64_t now = ++done;
            if (progress && drawing.try_lock()) {
                progress->update(now);
                drawing.unlock();
            }
        });
    });
}

/// Keeps the entries of shard `shard` (their index in sorted order mod N is K − 1).
void keep_shard(std::vector<Entry>& entries, const Shard& shard) {
    std::vector<Entry> kept;
    for (std::size_t i = 0; i < entries.size(); ++i)
        if (i % shard.count == shard.index) kept.push_back(std::move(entries[i]));
    entries = std::move(kept);
}

// ---- write ------------------------------------------------------------------------------------

/// Writes `text` to `path` atomically (io/atomic_file.h), creating its folder first; a failure
/// is a problem at `path` (the message without the path).
bool write_report_file(const std::string& path, const std::string& text, CheckReport& report) {
    const fs::path target(path);
    std::error_code ec;
    if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
    try {
        write_file_atomically(path, text);
        return true;
    } catch (const std::exception& ex) {
        std::string what = ex.what();
        if (what.rfind(path + ": ", 0) == 0) what.erase(0, path.size() + 2);
        report.problem({path, 0, 0, what});
        return false;
    }
}

/// The pending files of golden `golden` (EXPECTED/NAME.log): NAME.log.new, NAME.values.new,
/// NAME.frames.new and NAME.rec.new.
std::array<std::string, 4> pending_files(const std::string& golden) {
    return {golden + ".new", values_path_of(golden) + ".new", frames_path_of(golden) + ".new",
            recording_path_of(golden) + ".new"};
}

/// Removes an entry's pending files, if any (a run that matches, or a golden just written).
void remove_pending(const std::string& golden) {
    std::error_code ec;
    for (const std::string& p : pending_files(golden)) fs::remove(p, ec);
}

/// Whether the entry's scenario keeps its run's recording beside the golden.
bool keeps_recording(const Entry& e) { return e.attempt.measured && e.attempt.measured->scenario.golden_recording; }

/// Records the entry's run again into `path` (the same bits: check's runs are deterministic),
/// or removes `path` when the scenario keeps no recording; returns whether that worked.
bool write_recording(const Entry& e, const std::string& path, CheckReport& report) {
    std::error_code ec;
    if (!keeps_recording(e)) {
        fs::remove(path, ec);
        return true;
    }
    if (!report.recorder) {
        report.problem({path, 0, 0, "cannot record the run: this check has no recorder"});
        return false;
    }
    if (fs::path(path).has_parent_path()) fs::create_directories(fs::path(path).parent_path(), ec);
    try {
        report.recorder(e.path, e.attempt.measured->engine, path);
        return true;
    } catch (const std::exception& ex) {
        report.problem({path, 0, 0, std::string("cannot record the run: ") + ex.what()});
        return false;
    }
}

/// Writes a failing entry's log and values as pending (for `collide review`); lists it.
void write_pending(const Entry& e, CheckReport& report) {
    const auto [log, values, frames, recording] = pending_files(e.golden);
    std::error_code ec;
    if (e.actual_frames.empty())
        fs::remove(frames, ec);
    else if (!write_report_file(frames, e.actual_frames, report))
        return;
    if (!write_recording(e, recording, report)) return;
    if (!write_report_file(values, e.actual_values, report) || !write_report_file(log, e.actual, report)) return;
    report.out << "pending  " << log << " (`" << report.review << "` accepts or rejects it)\n";
    ++report.tally.pending;
}

/// Writes an entry's actual log and values as its golden; returns whether it was written.
bool bless_golden(const Entry& e, CheckReport& report) {
    if (!e.actual_frames.empty()) {
        if (!write_report_file(e.frames, e.actual_frames, report)) return false;
    } else {
        std::error_code ec; // hashes the scenario no longer keeps
        fs::remove(e.frames, ec);
    }
    if (!write_recording(e, e.recording, report)) return false;
    if (!write_report_file(e.values, e.actual_values, report)) return false;
    if (!write_report_file(e.golden, e.actual, report)) return false;
    remove_pending(e.golden);
    report.out << (e.golden_text ? "updated  " : "created  ") << e.golden << '\n';
    if (keeps_recording(e)) report.out << "recorded " << e.recording << '\n';
    ++(e.golden_text ? report.tally.updated : report.tally.created);
    return true;
}

/// Keeps a failing entry's actual log and report as DIR/NAME.log and DIR/NAME.diff, and its
/// run's recording as DIR/NAME.rec (probes/record_file.h: the scenario run again, the same bits,
/// for `collide diverge`).
void write_artifacts(const Entry& e, const std::string& block, const std::string& dir, CheckReport& report) {
    const std::string base = (fs::path(dir) / e.name).generic_string();
    write_report_file(base + ".log", e.actual, report);
    write_report_file(base + ".diff", block, report);
    if (!report.recorder) return;
    try {
        report.recorder(e.path, e.attempt.measured->engine, base + ".rec");
    } catch (const std::exception& ex) {
        report.problem({base + ".rec", 0, 0, std::string("cannot record the run: ") + ex.what()});
    }
}

/// Removes a stale golden (its log, values and pending files); returns whether it is gone.
bool remove_stale_golden(const std::string& golden, const std::string& name, CheckReport& report) {
    std::error_code ec;
    remove_pending(golden);
    fs::remove(frames_path_of(golden), ec);
    if (!ec) fs::remove(recording_path_of(golden), ec);
    if (!ec) fs::remove(values_path_of(golden), ec);
    if (ec) {
        report.problem({values_path_of(golden), 0, 0, "cannot remove the stale golden's values: " + ec.message()});
        return false;
    }
    fs::remove(golden, ec);
    if (!ec) { // removed now, or already gone (another `check --update` got there first): both fine
        report.out << "removed  " << escape_unsafe(golden) << " (no scenario " << escape_unsafe(name) << ")\n";
        ++report.tally.removed;
        return true;
    }
    report.problem({golden, 0, 0, "cannot remove the stale golden: " + ec.message()});
    return false;
}

// ---- report -----------------------------------------------------------------------------------

/// A scenario the engine cannot run: a JUnit skip; returns its line for the list at the end.
std::string report_skipped_entry(const Entry& e, CheckReport& report) {
    ++report.tally.skipped;
    const Diagnostic& why = e.attempt.problems.front();
    JunitCase c{e.name, e.path, e.seconds, false, false, why.message, ""};
    c.skipped = true;
    report.junit.push_back(c);
    const std::string where =
            why.line > 0 ? fmt::format("{}:{}:{}: ", why.file, why.line, why.column) : why.file + ": ";
    return fmt::format("skipped  {} ({}{})\n", e.name, where, why.message);
}

/// Reports an entry with bad input: its problems on `err`, one line on `out`, a JUnit error.
void report_bad_entry(const Entry& e, CheckReport& report) {
    ++report.tally.bad_inputs;
    std::vector<Diagnostic> problems = e.attempt.problems;
    problems.insert(problems.end(), e.read_problems.begin(), e.read_problems.end());
    if (problems.empty()) problems.push_back({e.path, 0, 0, "the scenario produced no output"});
    std::string details;
    for (const Diagnostic& p : problems) {
        const std::string line = format_problem(p, "check");
        report.err << line << '\n';
        details += line + "\n";
        report.annotations.push_back(github_annotation(p.file, p.line, p.column, p.message));
    }
    report.out << "error    " << e.name << " (bad input, not checked)\n";
    report.junit.push_back({e.name, e.path, e.seconds, false, true, "bad input", details});
}

std::string header_of(const Entry& e) { return fmt::format("scenario {} ({} vs {})", e.name, e.path, e.golden); }

/// When the golden was written by another version of the engine than this run's (its first line,
/// `engine → …`, differs): says so, naming both. Empty otherwise.
std::string engine_version_mismatch(const Entry& e) {
    constexpr std::string_view kEngineLine = "engine → ";
    const auto& golden = e.comparison.expected_lines;
    const auto& actual = e.comparison.actual_lines;
    if (golden.empty() || actual.empty() || golden[0] == actual[0]) return "";
    if (golden[0].rfind(kEngineLine, 0) != 0 || actual[0].rfind(kEngineLine, 0) != 0) return "";
    return fmt::format("engine version mismatch: the golden was written by {}, this build runs {}; "
                       "`{}` re-blesses it once the diff is understood",
                       golden[0].substr(kEngineLine.size()), actual[0].substr(kEngineLine.size()), e.update);
}

/// One line on where the run parts from the golden's frame hashes: the first frame that differs
/// and the bodies whose motion differs.
std::string describe_divergence(const Entry& e) {
    const FrameDivergence& d = *e.divergence;
    const MeasuredScenario& m = *e.attempt.measured;
    std::string where;
    if (d.index >= 0)
        where = fmt::format("frame hashes: the run parts from the golden's at frame {} (t = {:.6g} s)", d.frame,
                            d.time);
    else
        where = fmt::format("frame hashes: the same over the {} frames both have, but the golden has {} and the run {}",
                            std::min(d.golden_frames, d.run_frames), d.golden_frames, d.run_frames);
    std::string bodies;
    if (!d.bodies_comparable)
        bodies = fmt::format("; the golden's hashes are of {} bodies, this run has {}", d.golden_bodies, d.run_bodies);
    else if (!d.bodies.empty()) {
        constexpr std::size_t kNamed = 10;
        std::vector<std::string> names;
        for (std::size_t k = 0; k < d.bodies.size() && k < kNamed; ++k)
            names.push_back(m.scenario.bodies[static_cast<std::size_t>(d.bodies[k])].name);
        bodies = fmt::format("; {} of {} bodies move otherwise over the run: {}{}", d.bodies.size(), d.run_bodies,
                             fmt::join(names, ", "),
                             d.bodies.size() > kNamed ? fmt::format(" and {} more", d.bodies.size() - kNamed) : "");
    }
    return where + bodies +
           fmt::format(" ({}; `collide check --artifacts DIR` keeps the run's recording for "
                       "`collide diverge`)",
                       e.frames);
}

/// The report of an entry whose golden is missing or differs from its log.
Failure describe_golden_failure(const Entry& e, CheckReport& report) {
    Failure f;
    if (!e.golden_text) {
        ++report.tally.missing;
        f.reason = "no golden " + e.golden;
        const std::string line = fmt::format("  no golden: {} does not exist; `{}` creates it\n", e.golden, e.update);
        f.block = header_of(e) + "\n" + line;
        f.shown = paint(header_of(e), "1", report.style.color) + "\n" + line;
        report.annotations.push_back(github_annotation(e.path, 0, 0, fmt::format("{}: {}", e.name, line.substr(2))));
        return f;
    }
    ++report.tally.differ;
    const auto& values = e.comparison.values;
    if (e.comparison.same())
        f.reason = e.stale_frames ? "stale frame hashes " + e.frames : "frame hashes differ from " + e.frames;
    else if (values.empty())
        f.reason = "log differs from " + e.golden;
    else
        f.reason = fmt::format("{} value{} differ{} from {} ({})", values.size(), values.size() == 1 ? "" : "s",
                               values.size() == 1 ? "s" : "", e.golden, describe_value(values.front()));
    if (e.comparison.same()) { // the log holds; only the frames moved
        f.block = header_of(e) + "\n";
        f.shown = paint(header_of(e), "1", report.style.color) + "\n";
    } else {
        f.block = render_diff(e.name, e.path, e.golden, e.comparison, DiffStyle{false, report.style.context});
        f.shown = render_diff(e.name, e.path, e.golden, e.comparison, report.style);
    }
    if (e.divergence && !e.divergence->same()) {
        const std::string note = describe_divergence(e);
        f.block += "  " + note + "\n";
        f.shown += "  " + note + "\n";
        if (e.divergence->index >= 0) f.reason += fmt::format("; first differs at frame {}", e.divergence->frame);
        report.annotations.push_back(github_annotation(e.path, 0, 0, e.name + ": " + note));
    }
    if (e.stale_frames) {
        const std::string note = fmt::format("frame hashes: {} is there, but the scenario keeps none (golden: {{ "
                                             "frame_hashes: true }}); `{}` removes it",
                                             e.frames, e.update);
        f.block += "  " + note + "\n";
        f.shown += "  " + note + "\n";
        report.annotations.push_back(github_annotation(e.frames, 0, 0, e.name + ": " + note));
    }
    if (const std::string note = engine_version_mismatch(e); !note.empty()) {
        f.reason = note;
        f.block += "  " + note + "\n";
        f.shown += "  " + note + "\n";
        report.annotations.push_back(github_annotation(e.golden, 1, 0, e.name + ": " + note));
    }
    for (const LineChange& c : e.comparison.changes) {
        if (c.values.empty())
            report.annotations.push_back(
                    github_annotation(e.golden, c.expected_line, 0,
                                      fmt::format("{}: line {} differs from the golden\n- {}\n+ {}", e.name,
                                                  c.expected_line, c.expected, c.actual)));
        for (const ValueDiff& d : c.values)
            report.annotations.push_back(
                    github_annotation(e.golden, c.expected_line, 0,
                                      fmt::format("{}: line {}: {}", e.name, c.expected_line, describe_value(d))));
    }
    for (const ValueDiff& d : e.comparison.unplaced)
        report.annotations.push_back(
                github_annotation(values_path_of(e.golden), 0, 0, fmt::format("{}: {}", e.name, describe_value(d))));
    return f;
}

/// Appends an entry's failed expectations to its report `f` (starting one when empty).
void describe_expectation_failures(const Entry& e, Failure& f, CheckReport& report) {
    const Scenario& scenario = e.attempt.measured->scenario;
    int failed = 0;
    std::string lines;
    for (std::size_t k = 0; k < e.expectations.size(); ++k) {
        if (e.expectations[k].passed) continue;
        ++failed;
        const std::string& msg = e.expectations[k].message;
        lines += "  " + msg + "\n";
        const ExpectDef& def = scenario.expect[k];
        const std::size_t cut = msg.find(": expectation failed: ");
        report.annotations.push_back(github_annotation(scenario.file.empty() ? e.path : scenario.file, def.mark.line,
                                                       def.mark.column,
                                                       cut == std::string::npos ? msg : msg.substr(cut + 2)));
    }
    if (failed == 0) return;
    report.tally.expectation_failures += failed;
    if (f.block.empty()) {
        f.block = header_of(e) + "\n";
        f.shown = paint(header_of(e), "1", report.style.color) + "\n";
    }
    f.block += lines;
    f.shown += lines;
    if (!f.reason.empty()) f.reason += "; ";
    f.reason += fmt::format("{} expectation{} failed", failed, failed == 1 ? "" : "s");
}

/// Reports an entry whose golden cannot be compared (its values are missing, malformed or do
/// not match its log): its problems on `err`, one line on `out`, a JUnit error.
void report_broken_golden(const Entry& e, CheckReport& report) {
    ++report.tally.bad_inputs;
    std::string details;
    for (const Diagnostic& p : e.golden_problems) {
        const std::string line = format_problem(p, "check");
        report.err << line << '\n';
        details += line + "\n";
        report.annotations.push_back(github_annotation(p.file, p.line, p.column, p.message));
    }
    report.trouble = true;
    report.out << "error    " << e.name << " (golden " << e.golden << " cannot be compared)\n";
    report.junit.push_back({e.name, e.path, e.seconds, false, true, "golden cannot be compared", details});
}

/// A golden that holds, and its recording (`golden: { recording: true }`): written when it is
/// missing and --update may, removed when the scenario keeps none and --update may; a hint when
/// it is missing and --update may not.
void note_recording(const Entry& e, bool may_bless, CheckReport& report) {
    std::error_code ec;
    const bool there = fs::exists(e.recording, ec);
    if (keeps_recording(e) == there) return;
    if (!may_bless) {
        if (!there)
            report.out << "note     " << e.name << ": no recording beside its golden yet (golden: { recording: true "
                       << "}); `" << e.update << "` writes " << e.recording << '\n';
        return;
    }
    if (!write_recording(e, e.recording, report)) return;
    if (there)
        report.out << "removed  " << e.recording << " (the scenario keeps no recording)\n";
    else
        report.out << "recorded " << e.recording << '\n';
}

/// Reports one measured entry (blessing its golden first when allowed): `ok`, or its failure.
/// Without CI, a golden that differs or is missing leaves the run's result pending beside it,
/// and one that matches (or was just written) leaves none.
void report_entry(const Entry& e, bool may_bless, const CheckOptions& options, CheckReport& report) {
    if (!e.golden_problems.empty() && !may_bless) return report_broken_golden(e, report);
    bool golden_ok = e.matches();
    if (golden_ok)
        note_recording(e, may_bless, report);
    else if (may_bless)
        golden_ok = bless_golden(e, report);
    if (golden_ok && !options.ci) remove_pending(e.golden);
    Failure f;
    if (!golden_ok) f = describe_golden_failure(e, report);
    describe_expectation_failures(e, f, report);
    if (f.block.empty()) {
        ++report.tally.passed;
        report.out << "ok       " << e.name << '\n';
        report.junit.push_back({e.name, e.path, e.seconds, false, false, "", ""});
        return;
    }
    ++report.tally.failed;
    report.out << f.shown;
    if (!golden_ok && !options.ci) write_pending(e, report);
    report.junit.push_back({e.name, e.path, e.seconds, true, false, f.reason, f.block});
    if (!options.artifacts_dir.empty()) write_artifacts(e, f.block, options.artifacts_dir, report);
}

/// Reports (or, when allowed, removes) each golden that has no scenario. Removal needs
/// --update and either the default `expected/` folder or --prune; otherwise it is listed.
void report_stale_goldens(const std::vector<std::string>& stale, const std::set<std::string>& bless, bool may_write,
                          const CheckOptions& options, CheckReport& report) {
    const bool may_prune = options.prune || is_default_expected_dir(options.expected_dir);
    for (const std::string& g : stale) {
        const std::string name = name_of_golden(g);
        if (may_write && may_prune && bless.count(name) && remove_stale_golden(g, name, report)) continue;
        ++report.tally.stale_left;
        const std::string line = fmt::format(
                "stale golden {}: no scenario {} in this run; `{}` removes it\n", escape_unsafe(g), escape_unsafe(name),
                escape_unsafe(rerun_command_of(options, may_prune ? " --update" : " --update --prune")));
        report.out << line;
        report.junit.push_back({name, g, 0, true, false, "stale golden", line});
        report.annotations.push_back(github_annotation(g, 0, 0, line));
    }
}

/// The cases of the HTML report: each entry as its JUnit case says (one per entry, in order),
/// then the stale goldens.
std::vector<CheckPageCase> page_cases(const std::vector<Entry>& entries, const CheckReport& report,
                                      const CheckOptions& options, bool may_write) {
    std::vector<CheckPageCase> cases;
    for (std::size_t i = 0; i < report.junit.size(); ++i) {
        const JunitCase& j = report.junit[i];
        CheckPageCase c{
                j.name,    j.classname, j.error ? "bad input" : j.failed ? "failed" : j.skipped ? "skipped" : "passed",
                j.message, j.details,   {},
                {},        {},          nullptr,
                {}};
        if (i < entries.size() && entries[i].name == j.name && !entries[i].bad() && !entries[i].skipped) {
            const Entry& e = entries[i];
            const bool golden_ok = e.matches();
            if (j.failed && !golden_ok && !options.ci && !may_write) c.status = "pending";
            c.expected = e.golden_text ? split_lines(*e.golden_text) : std::vector<std::string>{};
            c.actual = split_lines(e.actual);
            c.values = e.comparison.values;
            c.measured = &*e.attempt.measured;
            std::error_code ec;
            if (fs::is_regular_file(e.recording, ec)) c.golden_recording = e.recording;
        }
        cases.push_back(std::move(c));
    }
    return cases;
}

/// The last line: counts, what --update did, and a word about CI.
std::string format_summary(const Tally& t, const CheckOptions& options, bool may_write) {
    const auto plural = [](int n) { return n == 1 ? "" : "s"; };
    std::vector<std::string> parts;
    if (t.differ) parts.push_back(fmt::format("{} differ", t.differ));
    if (t.missing) parts.push_back(fmt::format("{} missing golden{}", t.missing, plural(t.missing)));
    if (t.stale_left) parts.push_back(fmt::format("{} stale golden{}", t.stale_left, plural(t.stale_left)));
    if (t.expectation_failures)
        parts.push_back(fmt::format("{} failed expectation{}", t.expectation_failures, plural(t.expectation_failures)));
    if (t.bad_inputs) parts.push_back(fmt::format("{} bad input", t.bad_inputs));
    std::string summary = fmt::format("check: {} passed, {} failed", t.passed, t.failed + t.bad_inputs + t.stale_left);
    if (!parts.empty()) summary += " (" + fmt::format("{}", fmt::join(parts, ", ")) + ")";
    if (t.skipped)
        summary += fmt::format(", {} skipped ({} cannot run {}; --strict fails {})", t.skipped,
                               engine_name_of(options.engine), t.skipped == 1 ? "it" : "them",
                               t.skipped == 1 ? "it" : "them");
    if (t.pending)
        summary += fmt::format("; {} pending: `{}` accepts or rejects {}", t.pending, review_command_of(options),
                               t.pending == 1 ? "it" : "them");
    if (options.update) {
        if (may_write)
            summary += fmt::format("; goldens: {} created, {} updated, {} removed", t.created, t.updated, t.removed);
        else
            summary += "; bad input: no golden written";
    } else if (options.ci) {
        summary += "; CI is set: goldens are read only (--update writes them)";
    }
    return summary;
}

/// The options as the run uses them: `--update PATH...` without scenario paths runs those
/// scenarios (the command a hint names works from where the check was run).
CheckOptions with_update_paths(const CheckOptions& given) {
    CheckOptions options = given;
    if (options.paths.empty() && options.update) {
        std::error_code ec;
        for (const std::string& want : options.update_names)
            if (is_scenario_file(want) && fs::is_regular_file(want, ec)) options.paths.push_back(want);
    }
    return options;
}

int check_scenarios(const CheckOptions& given, const ScenarioMeasurer& measurer, const ScenarioRecorder& recorder,
                    std::ostream& out, std::ostream& err) {
    const CheckOptions options = with_update_paths(given);
    // The engine first (a plugin is loaded here, before anything runs); its goldens go by its name.
    const std::string engine = engine_name_of(options.engine);
    CheckReport report(out, err, DiffStyle{options.color, 2});
    report.recorder = recorder;
    report.review = review_command_of(options);
    const std::optional<Shard> shard = options.shard.empty() ? std::nullopt : std::optional(parse_shard(options.shard));
    Discovery found = discover_scenarios(options, report);
    refuse_outputs_onto_inputs(options, found.entries);
    // Stale goldens are found against every scenario, and reported by shard 1 alone.
    std::vector<std::string> stale = found.full_run ? find_stale_goldens(options.expected_dir, found.entries, engine)
                                                    : std::vector<std::string>{};
    const std::size_t all = found.entries.size();
    if (shard) {
        keep_shard(found.entries, *shard);
        if (shard->index != 0) stale.clear();
    }
    const std::set<std::string> bless = plan_updates(options, found.entries, stale, report);

    {
        Progress progress("check", options.progress, stderr);
        progress.phase("", found.entries.size(), "scenarios");
        measure_entries(found.entries, measurer, options.jobs, options.progress ? &progress : nullptr);
    }
    for (Entry& e : found.entries) {
        e.skipped = e.attempt.unsupported && !options.strict;
        if (e.bad()) report.trouble = true;
    }
    const bool may_write = options.update && !report.trouble;

    std::string skipped;
    for (const Entry& e : found.entries) {
        if (e.skipped)
            skipped += report_skipped_entry(e, report);
        else if (e.bad())
            report_bad_entry(e, report);
        else
            report_entry(e, may_write && bless.count(e.name) > 0, options, report);
    }
    report_stale_goldens(stale, bless, may_write, options, report);
    out << skipped;
    if (options.annotations)
        for (const std::string& a : report.annotations) out << a << '\n';
    if (!options.junit_path.empty()) write_report_file(options.junit_path, render_junit(report.junit), report);
    if (!options.html_path.empty())
        write_report_file(options.html_path, render_check_html(page_cases(found.entries, report, options, may_write)),
                          report);
    std::string summary = format_summary(report.tally, options, may_write);
    if (shard)
        summary += fmt::format("; shard {}/{}: {} of {} scenarios{}", shard->index + 1, shard->count,
                               found.entries.size(), all, shard->source.empty() ? "" : " (" + shard->source + ")");
    out << summary << '\n';

    if (report.trouble) return kExitBadInput;
    return report.tally.failed + report.tally.stale_left > 0 ? kExitFailed : kExitOk;
}

} // namespace

int check_command(const CheckOptions& options, const ScenarioMeasurer& measurer, std::ostream& out, std::ostream& err,
                  const ScenarioRecorder& recorder) {
    return exit_code_for_errors(err, "check", [&] { return check_scenarios(options, measurer, recorder, out, err); });
}

int check_command(const CheckOptions& options, std::ostream& out, std::ostream& err) {
    return check_command(
            options, [engine = options.engine](const std::string& path) { return try_measure_scenario(path, engine); },
            out, err,
            [](const std::string& path, const std::string& engine, const std::string& record_path) {
                SimOptions again; // the same run again, the same bits (check's runs are deterministic)
                again.engine = engine;
                again.record_path = record_path;
                measure_scenario(path, again);
            });
}

} // namespace collide
