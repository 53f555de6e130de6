#include "report/check.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <system_error>
#include <unistd.h>

#include <tbb/global_control.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "io/atomic_file.h"
#include "report/diff.h"
#include "report/expect.h"
#include "report/golden.h"
#include "report/junit.h"
#include "report/render.h"
#include "model/diagnostic.h"

namespace collide {

namespace fs = std::filesystem;

std::string InputProblem::text() const {
    if (line > 0) return fmt::format("{}:{}:{}: error: {}", file, line, column, message);
    return fmt::format("{}: error: {}", file, message);
}

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

ScenarioRun run_scenario_file(const std::string& path) {
    try {
        return {run_scenario(path), {}};
    } catch (const InputError& e) {
        ScenarioRun run;
        for (const Diagnostic& d : e.diagnostics) run.problems.push_back({d.file, d.line, d.column, d.message});
        if (run.problems.empty()) run.problems.push_back({path, 0, 0, e.what()});
        return run;
    }
}

namespace {

/// One scenario file found on the command line, and what became of it.
struct Entry {
    std::string path;   ///< as shown: the argument, or DIR/FILE for a directory's scenarios
    std::string name;   ///< file stem: the golden is EXPECTED/NAME.log
    std::string golden; ///< EXPECTED/NAME.log
    // filled by the run (in parallel, one entry per task)
    ScenarioRun run;
    std::string actual;                       ///< the rendered text log
    std::optional<std::string> golden_text;   ///< nullopt: no golden file
    GoldenComparison comparison;
    std::vector<ExpectOutcome> expectations;
    double seconds = 0;
    std::vector<InputProblem> read_problems;  ///< a golden that exists but cannot be read
};

bool is_scenario_file(const fs::path& p) {
    const std::string ext = p.extension().string();
    return ext == ".yaml" || ext == ".yml";
}

std::optional<std::string> read_golden(const std::string& path, bool& unreadable) {
    unreadable = false;
    std::error_code ec;
    if (!fs::exists(path, ec)) return std::nullopt;
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    if (in) text << in.rdbuf();
    if (!in || in.bad()) {
        unreadable = true;
        return std::nullopt;
    }
    return text.str();
}

/// Writes `text` to `path` atomically (io/atomic_file.h), creating its folder first. Returns
/// what went wrong (without the path), or empty on success.
std::string write_atomically(const std::string& path, const std::string& text) {
    const fs::path target(path);
    std::error_code ec;
    if (target.has_parent_path()) fs::create_directories(target.parent_path(), ec);
    try {
        write_file_atomically(path, text);
    } catch (const std::exception& ex) {
        std::string what = ex.what();
        if (what.rfind(path + ": ", 0) == 0) what.erase(0, path.size() + 2);
        return what;
    }
    return {};
}

/// Runs one entry: scenario, text log, golden comparison, expectations.
void run_entry(Entry& e, const ScenarioRunner& runner) {
    const auto start = std::chrono::steady_clock::now();
    try {
        e.run = runner(e.path);
    } catch (const std::exception& ex) {
        e.run = ScenarioRun{std::nullopt, {InputProblem{e.path, 0, 0, ex.what()}}};
    }
    if (e.run.output && e.run.problems.empty()) {
        const RunOutput& o = *e.run.output;
        e.actual = render_text(o.scenario, o.layout, o.values);
        e.expectations = check_expectations(o.scenario, o.layout, o.values);
        bool unreadable = false;
        e.golden_text = read_golden(e.golden, unreadable);
        if (unreadable) e.read_problems.push_back({e.golden, 0, 0, "cannot read the golden file"});
        if (e.golden_text) e.comparison = compare_logs(*e.golden_text, e.actual, tolerance_of(o.scenario));
    }
    e.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

bool bad(const Entry& e) { return !e.run.output || !e.run.problems.empty() || !e.read_problems.empty(); }

} // namespace

int run_check(const CheckOptions& options, const ScenarioRunner& runner, std::ostream& out, std::ostream& err) {
    const DiffStyle style{options.color, 2};
    bool trouble = false; // exit 2

    // ---- find the scenarios -------------------------------------------------------------
    std::vector<std::string> args = options.paths;
    if (args.empty()) args.push_back("scenarios");
    bool full_run = false; // a directory was scanned: goldens without a scenario are stale
    std::map<std::string, std::string> found; // normalised path → path as shown
    for (const std::string& arg : args) {
        std::error_code ec;
        const fs::path p(arg);
        if (fs::is_directory(p, ec)) {
            full_run = true;
            std::vector<std::string> files;
            for (const fs::directory_entry& d : fs::directory_iterator(p, ec))
                if (d.is_regular_file(ec) && is_scenario_file(d.path())) files.push_back(d.path().generic_string());
            if (ec) {
                err << InputProblem{arg, 0, 0, "cannot list the directory: " + ec.message()}.text() << '\n';
                trouble = true;
            }
            for (const std::string& f : files) found.emplace(fs::path(f).lexically_normal().generic_string(), f);
        } else if (fs::is_regular_file(p, ec)) {
            found.emplace(p.lexically_normal().generic_string(), p.generic_string());
        } else {
            err << InputProblem{arg, 0, 0, "no such scenario file or directory"}.text() << '\n';
            trouble = true;
        }
    }
    std::vector<Entry> entries;
    std::map<std::string, std::string> by_name; // stem → path
    for (const auto& [key, shown] : found) {
        Entry e;
        e.path = shown;
        e.name = fs::path(shown).stem().string();
        e.golden = (fs::path(options.expected_dir) / (e.name + ".log")).generic_string();
        const auto [it, fresh] = by_name.emplace(e.name, shown);
        if (!fresh) {
            err << InputProblem{shown, 0, 0, fmt::format("{} also has the name {}; both would use {}", it->second, e.name,
                                                         e.golden)}
                       .text()
                << '\n';
            trouble = true;
            continue;
        }
        entries.push_back(std::move(e));
    }

    // ---- goldens without a scenario --------------------------------------------------------
    std::vector<std::string> stale; // golden paths, sorted
    if (full_run) {
        std::error_code ec;
        if (fs::is_directory(options.expected_dir, ec))
            for (const fs::directory_entry& d : fs::directory_iterator(options.expected_dir, ec))
                if (d.is_regular_file(ec) && d.path().extension() == ".log" && !by_name.count(d.path().stem().string()))
                    stale.push_back(d.path().generic_string());
        std::sort(stale.begin(), stale.end());
    }

    // ---- what --update may touch -----------------------------------------------------------
    std::set<std::string> bless; // names (scenario stems, stale golden stems)
    if (options.update) {
        if (options.update_names.empty()) {
            for (const Entry& e : entries) bless.insert(e.name);
            for (const std::string& g : stale) bless.insert(fs::path(g).stem().string());
        } else {
            for (const std::string& want : options.update_names) {
                bool known = false;
                for (const Entry& e : entries)
                    if (e.name == want || e.path == want ||
                        fs::path(e.path).lexically_normal() == fs::path(want).lexically_normal()) {
                        bless.insert(e.name);
                        known = true;
                    }
                for (const std::string& g : stale)
                    if (fs::path(g).stem().string() == want) {
                        bless.insert(want);
                        known = true;
                    }
                if (!known) {
                    err << InputProblem{want, 0, 0, "--update names no scenario of this run and no stale golden"}.text()
                        << '\n';
                    trouble = true;
                }
            }
        }
    }

    // ---- run, in parallel; everything after this reads entries in sorted order -------------
    const int jobs = std::max(1, options.jobs);
    // Allow as many threads as asked for, even beyond the cores TBB would use by default.
    tbb::global_control threads(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(jobs));
    tbb::task_arena arena(jobs);
    arena.execute([&] {
        tbb::parallel_for(std::size_t{0}, entries.size(), [&](std::size_t i) { run_entry(entries[i], runner); });
    });
    for (const Entry& e : entries)
        if (bad(e)) trouble = true;
    const bool may_write = options.update && !trouble;

    // ---- report ----------------------------------------------------------------------------
    int passed = 0, failed = 0, differ = 0, missing = 0, expectation_failures = 0, bad_inputs = 0;
    int created = 0, updated = 0, removed = 0;
    std::vector<JunitCase> junit;
    std::vector<std::string> annotations;
    for (Entry& e : entries) {
        if (bad(e)) {
            ++bad_inputs;
            std::vector<InputProblem> problems = e.run.problems;
            problems.insert(problems.end(), e.read_problems.begin(), e.read_problems.end());
            if (problems.empty()) problems.push_back({e.path, 0, 0, "the scenario produced no output"});
            std::string details;
            for (const InputProblem& p : problems) {
                err << p.text() << '\n';
                details += p.text() + "\n";
                annotations.push_back(github_annotation(p.file, p.line, p.column, p.message));
            }
            out << "error    " << e.name << " (bad input, not checked)\n";
            junit.push_back({e.name, e.path, e.seconds, false, true, "bad input", details});
            continue;
        }
        const RunOutput& o = *e.run.output;
        std::string block; // the failure report, uncoloured, for artifacts and JUnit
        std::string shown; // the same, as printed
        std::string reason;
        const std::string header = fmt::format("scenario {} ({} vs {})", e.name, e.path, e.golden);
        bool golden_ok = e.golden_text && e.comparison.same();
        const bool blessed = bless.count(e.name) > 0;
        if (!golden_ok && blessed && may_write) {
            const std::string problem = write_atomically(e.golden, e.actual);
            if (problem.empty()) {
                out << (e.golden_text ? "updated  " : "created  ") << e.golden << '\n';
                ++(e.golden_text ? updated : created);
                golden_ok = true;
            } else {
                err << InputProblem{e.golden, 0, 0, problem}.text() << '\n';
                trouble = true;
            }
        }
        if (!golden_ok) {
            if (!e.golden_text) {
                ++missing;
                reason = "no golden " + e.golden;
                const std::string line =
                    fmt::format("  no golden: {} does not exist; `collide check --update {}` creates it\n", e.golden,
                                e.name);
                block = header + "\n" + line;
                shown = paint(header, "1", style.color) + "\n" + line;
                annotations.push_back(github_annotation(e.path, 0, 0, fmt::format("{}: {}", e.name, line.substr(2))));
            } else {
                ++differ;
                reason = "log differs from " + e.golden;
                block = render_diff(e.name, e.path, e.golden, e.comparison, DiffStyle{false, style.context});
                shown = render_diff(e.name, e.path, e.golden, e.comparison, style);
                annotations.push_back(github_annotation(e.golden, e.comparison.changes.front().expected_line, 0,
                                                        fmt::format("{}: log differs from the golden\n{}", e.name,
                                                                    block.substr(block.find('\n') + 1))));
            }
        }
        int failed_here = 0;
        std::string expect_lines;
        for (std::size_t k = 0; k < e.expectations.size(); ++k) {
            if (e.expectations[k].passed) continue;
            ++failed_here;
            expect_lines += "  " + e.expectations[k].message + "\n";
            const ExpectDef& def = o.scenario.expect[k];
            const std::string& msg = e.expectations[k].message;
            const std::size_t cut = msg.find(": expectation failed: ");
            annotations.push_back(github_annotation(o.scenario.file.empty() ? e.path : o.scenario.file, def.mark.line,
                                                    def.mark.column,
                                                    cut == std::string::npos ? msg : msg.substr(cut + 2)));
        }
        if (failed_here > 0) {
            expectation_failures += failed_here;
            if (block.empty()) {
                block = header + "\n";
                shown = paint(header, "1", style.color) + "\n";
            }
            block += expect_lines;
            shown += expect_lines;
            if (!reason.empty()) reason += "; ";
            reason += fmt::format("{} expectation{} failed", failed_here, failed_here == 1 ? "" : "s");
        }
        if (block.empty()) {
            ++passed;
            out << "ok       " << e.name << '\n';
            junit.push_back({e.name, e.path, e.seconds, false, false, "", ""});
            continue;
        }
        ++failed;
        out << shown;
        junit.push_back({e.name, e.path, e.seconds, true, false, reason, block});
        if (!options.artifacts_dir.empty()) {
            const std::string base = (fs::path(options.artifacts_dir) / e.name).generic_string();
            for (const auto& [file, text] : {std::pair{base + ".log", e.actual}, std::pair{base + ".diff", block}}) {
                const std::string problem = write_atomically(file, text);
                if (!problem.empty()) {
                    err << InputProblem{file, 0, 0, problem}.text() << '\n';
                    trouble = true;
                }
            }
        }
    }

    int stale_left = 0;
    for (const std::string& g : stale) {
        const std::string name = fs::path(g).stem().string();
        if (may_write && bless.count(name)) {
            std::error_code ec;
            if (fs::remove(g, ec)) {
                out << "removed  " << g << " (no scenario " << name << ")\n";
                ++removed;
                continue;
            }
            err << InputProblem{g, 0, 0, "cannot remove the stale golden: " + ec.message()}.text() << '\n';
            trouble = true;
        }
        ++stale_left;
        const std::string line = fmt::format("stale golden {}: no scenario {} in this run; `collide check --update` "
                                             "removes it\n",
                                             g, name);
        out << line;
        junit.push_back({name, g, 0, true, false, "stale golden", line});
        annotations.push_back(github_annotation(g, 0, 0, line));
    }

    if (options.annotations)
        for (const std::string& a : annotations) out << a << '\n';

    if (!options.junit_path.empty()) {
        const std::string problem = write_atomically(options.junit_path, render_junit(junit));
        if (!problem.empty()) {
            err << InputProblem{options.junit_path, 0, 0, problem}.text() << '\n';
            trouble = true;
        }
    }

    // ---- summary ---------------------------------------------------------------------------
    std::vector<std::string> parts;
    if (differ) parts.push_back(fmt::format("{} differ", differ));
    if (missing) parts.push_back(fmt::format("{} missing golden{}", missing, missing == 1 ? "" : "s"));
    if (stale_left) parts.push_back(fmt::format("{} stale golden{}", stale_left, stale_left == 1 ? "" : "s"));
    if (expectation_failures)
        parts.push_back(fmt::format("{} failed expectation{}", expectation_failures, expectation_failures == 1 ? "" : "s"));
    if (bad_inputs) parts.push_back(fmt::format("{} bad input", bad_inputs));
    std::string summary = fmt::format("check: {} passed, {} failed", passed, failed + bad_inputs + stale_left);
    if (!parts.empty()) summary += " (" + fmt::format("{}", fmt::join(parts, ", ")) + ")";
    if (options.update) {
        if (may_write)
            summary += fmt::format("; goldens: {} created, {} updated, {} removed", created, updated, removed);
        else
            summary += "; bad input: no golden written";
    } else if (options.ci) {
        summary += "; CI is set: goldens are read only (--update writes them)";
    }
    out << summary << '\n';

    if (trouble) return 2;
    return failed + stale_left > 0 ? 1 : 0;
}

} // namespace collide

namespace collide {

int run_check(const CheckOptions& options, std::ostream& out, std::ostream& err) {
    return run_check(options, run_scenario_file, out, err);
}

} // namespace collide
