// `collide review`: find the pending results, show each diff, accept or reject.
#include "app/review.h"

#include <algorithm>
#include <filesystem>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <map>
#include <optional>
#include <set>
#include <system_error>

#include "app/errors.h"
#include "io/atomic_file.h"
#include "io/safe_text.h"
#include "report/diff.h"
#include "report/golden.h"

namespace collide {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view kPendingLog = ".log.new";
constexpr std::string_view kPendingValues = ".values.new";

bool ends_with(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

/// One pending result and the golden it would replace.
struct Pending {
    std::string name;
    std::string golden;        ///< EXPECTED/NAME.log
    std::string values;        ///< EXPECTED/NAME.values
    std::string log_new;       ///< EXPECTED/NAME.log.new
    std::string values_new;    ///< EXPECTED/NAME.values.new
    std::string frames;        ///< EXPECTED/NAME.frames (when the scenario keeps frame hashes)
    std::string frames_new;    ///< EXPECTED/NAME.frames.new
    std::string recording;     ///< EXPECTED/NAME.rec (when the scenario keeps its run's recording)
    std::string recording_new; ///< EXPECTED/NAME.rec.new
    std::string expected;      ///< ` --expected DIR` when DIR is not the default, else empty (for the hints)
};

Pending pending_of(const std::string& dir, const std::string& name) {
    Pending p;
    p.name = name;
    p.golden = (fs::path(dir) / (name + ".log")).generic_string();
    p.values = values_path_of(p.golden);
    p.log_new = p.golden + ".new";
    p.values_new = p.values + ".new";
    p.frames = frames_path_of(p.golden);
    p.frames_new = p.frames + ".new";
    p.recording = recording_path_of(p.golden);
    p.recording_new = p.recording + ".new";
    if (fs::path(dir).lexically_normal().generic_string() != "expected" &&
        fs::path(dir).lexically_normal().generic_string() != "expected/")
        p.expected = " --expected " + dir;
    return p;
}

/// The command that writes the golden afresh from a run (by name: the scenario is in scenarios/,
/// or its path goes after --update).
std::string update_of(const Pending& p) { return "collide check" + p.expected + " --update " + p.name; }

/// The stem a command-line name stands for: `NAME`, or a path to its golden, values, pending
/// file or scenario.
std::string stem_of(const std::string& arg) {
    std::string s = fs::path(arg).filename().string();
    for (const std::string_view ext : {".new", ".log", ".values", ".frames", ".rec", ".yaml", ".yml"})
        if (ends_with(s, ext) && s.size() > ext.size()) s.erase(s.size() - ext.size());
    return s;
}

/// Reads a file, or nullopt when it does not exist.
std::optional<std::string> read_if_exists(const std::string& path) {
    std::error_code ec;
    if (!fs::exists(path, ec)) return std::nullopt;
    return read_file(path);
}

/// The pending log and values, checked against each other; throws InputError when they are
/// missing or do not match (a half-finished or edited pending result).
std::pair<std::string, std::string> read_pending(const Pending& p) {
    const auto log = read_if_exists(p.log_new);
    const auto values = read_if_exists(p.values_new);
    const std::string fix = fmt::format("; `collide check{}` writes it again, `collide review{} --reject {}` drops it",
                                        p.expected, p.expected, p.name);
    if (!log) throw InputError({{p.log_new, 0, 0, "missing: the pending result has values but no log" + fix}});
    if (!values) throw InputError({{p.values_new, 0, 0, "missing: the pending result has a log but no values" + fix}});
    auto [parsed, problems] = read_values(*values, p.values_new, *log, p.log_new, update_of(p));
    if (!problems.empty())
        throw InputError({{p.values_new, 0, 0, "does not match the pending log " + p.log_new + fix}});
    return {*log, *values};
}

/// The diff from the golden to the pending result.
std::string diff_of(const Pending& p, const std::string& log_new, const std::string& values_new, bool color) {
    const std::optional<std::string> golden = read_if_exists(p.golden);
    const std::optional<std::string> golden_values = read_if_exists(p.values);
    GoldenValues before;
    if (golden && golden_values) before = read_values(*golden_values, p.values, *golden, p.golden, update_of(p)).first;
    const GoldenValues after = read_values(values_new, p.values_new, log_new, p.log_new, update_of(p)).first;
    const GoldenComparison c = compare_goldens(golden ? *golden : "", before, log_new, after);
    std::string out = render_diff(p.name, p.log_new, p.golden, c, DiffStyle{color, 2});
    if (!golden) out += "  (no golden yet: accepting creates " + escape_unsafe(p.golden) + ")\n";
    return out;
}

/// Accepts a pending result: its values and log become the golden (atomically, file by file),
/// and the pending files go.
void accept(const Pending& p, std::ostream& out) {
    const auto [log, values] = read_pending(p);
    const bool existed = fs::exists(p.golden);
    // The frame hashes go with the result: written when it has them, removed when it has none
    // (its scenario no longer keeps them).
    std::error_code ec;
    if (const auto frames = read_if_exists(p.frames_new))
        write_file_atomically(p.frames, *frames);
    else
        fs::remove(p.frames, ec);
    // So does the run's recording (a rename: it may be large).
    if (fs::exists(p.recording_new, ec)) {
        fs::rename(p.recording_new, p.recording, ec);
        if (ec) throw InputError({{p.recording_new, 0, 0, "cannot move it to " + p.recording + ": " + ec.message()}});
    } else {
        fs::remove(p.recording, ec);
    }
    write_file_atomically(p.values, values);
    write_file_atomically(p.golden, log);
    fs::remove(p.log_new, ec);
    fs::remove(p.values_new, ec);
    fs::remove(p.frames_new, ec);
    out << (existed ? "accepted " : "created  ") << escape_unsafe(p.golden) << '\n';
}

/// Rejects a pending result: its files go, the golden stays.
void reject(const Pending& p, std::ostream& out) {
    std::error_code ec;
    fs::remove(p.log_new, ec);
    fs::remove(p.values_new, ec);
    fs::remove(p.frames_new, ec);
    fs::remove(p.recording_new, ec);
    out << "rejected " << escape_unsafe(p.log_new) << '\n';
}

struct Counts {
    int accepted = 0, rejected = 0, skipped = 0;
};

std::string summary_of(const Counts& n, const std::string& dir) {
    const std::size_t left = pending_names(dir).size();
    return fmt::format("review: {} accepted, {} rejected, {} skipped; {} still pending", n.accepted, n.rejected,
                       n.skipped, left);
}

/// Asks about each pending result in turn.
void review_interactively(const ReviewOptions& options, const std::vector<std::string>& names, std::istream& in,
                          std::ostream& out, Counts& n) {
    for (std::size_t k = 0; k < names.size(); ++k) {
        const Pending p = pending_of(options.expected_dir, names[k]);
        const auto [log, values] = read_pending(p);
        out << fmt::format("[{}/{}] ", k + 1, names.size()) << diff_of(p, log, values, options.color);
        for (;;) {
            out << "accept (a), reject (r), skip (s), quit (q)? " << std::flush;
            std::string answer;
            const bool got = static_cast<bool>(std::getline(in, answer));
            const auto first = answer.find_first_not_of(" \t\r");
            const char c = !got ? 'q' : first == std::string::npos ? '\0' : answer[first];
            if (c == 'a') {
                accept(p, out);
                ++n.accepted;
            } else if (c == 'r') {
                reject(p, out);
                ++n.rejected;
            } else if (c == 's') {
                ++n.skipped;
            } else if (c == 'q') {
                n.skipped += static_cast<int>(names.size() - k);
                return;
            } else {
                continue;
            }
            break;
        }
    }
}

int review(const ReviewOptions& options, std::istream& in, std::ostream& out, std::ostream&) {
    const std::vector<std::string> names = pending_names(options.expected_dir);
    const std::set<std::string> known(names.begin(), names.end());
    using Mode = ReviewOptions::Mode;

    // Every name must have a pending result before anything is touched.
    std::map<std::string, bool> decide; // name → accept?
    if (options.mode == Mode::named) {
        std::vector<Diagnostic> problems;
        const auto add = [&](const std::string& arg, bool accepting) {
            const std::string name = stem_of(arg);
            if (!known.count(name)) {
                problems.push_back(
                        {"", 0, 0,
                         fmt::format("{} names no pending result in {} (pending: {})", arg, options.expected_dir,
                                     names.empty() ? std::string("none") : fmt::format("{}", fmt::join(names, ", ")))});
                return;
            }
            const auto [it, fresh] = decide.emplace(name, accepting);
            if (!fresh && it->second != accepting)
                problems.push_back({"", 0, 0, fmt::format("{} is both accepted and rejected", name)});
        };
        for (const std::string& a : options.accept) add(a, true);
        for (const std::string& r : options.reject) add(r, false);
        if (!problems.empty()) throw InputError(std::move(problems));
    }
    if (names.empty()) {
        out << "review: nothing pending in " << escape_unsafe(options.expected_dir)
            << " (a failing `collide check` leaves its results there)\n";
        return kExitOk;
    }

    Counts n;
    switch (options.mode) {
    case Mode::interactive: review_interactively(options, names, in, out, n); break;
    case Mode::accept_all:
    case Mode::reject_all:
        for (const std::string& name : names) {
            const Pending p = pending_of(options.expected_dir, name);
            if (options.mode == Mode::accept_all) {
                accept(p, out);
                ++n.accepted;
            } else {
                reject(p, out);
                ++n.rejected;
            }
        }
        break;
    case Mode::named:
        for (const auto& [name, accepting] : decide) {
            const Pending p = pending_of(options.expected_dir, name);
            if (accepting) {
                accept(p, out);
                ++n.accepted;
            } else {
                reject(p, out);
                ++n.rejected;
            }
        }
        n.skipped = static_cast<int>(names.size() - decide.size());
        break;
    }
    out << summary_of(n, options.expected_dir) << '\n';
    return kExitOk;
}

} // namespace

std::vector<std::string> pending_names(const std::string& expected_dir) {
    std::set<std::string> names;
    std::error_code ec;
    if (fs::is_directory(expected_dir, ec))
        for (const fs::directory_entry& d : fs::directory_iterator(expected_dir, ec)) {
            const std::string file = d.path().filename().string();
            if (!d.is_regular_file(ec)) continue;
            if (ends_with(file, kPendingLog) && file.size() > kPendingLog.size())
                names.insert(file.substr(0, file.size() - kPendingLog.size()));
            else if (ends_with(file, kPendingValues) && file.size() > kPendingValues.size())
                names.insert(file.substr(0, file.size() - kPendingValues.size()));
        }
    return {names.begin(), names.end()};
}

int review_command(const ReviewOptions& options, std::istream& in, std::ostream& out, std::ostream& err) {
    return exit_code_for_errors(err, "review", [&] { return review(options, in, out, err); });
}

} // namespace collide
