#include "app/diverge.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fmt/format.h>
#include <ostream>
#include <sstream>
#include <unistd.h>

#include "app/errors.h"
#include "app/measure.h"
#include "io/atomic_file.h"
#include "plot/divergence.h"
#include "plot/plot.h"
#include "probes/record_file.h"
#include "scenario/load.h"

namespace collide {

namespace {

/// How much one body's state differs between two runs, per kind (the largest component).
struct BodyDifference {
    double position = 0; ///< m
    double velocity = 0; ///< m/s
    double rotation = 0; ///< quaternion components
    double angular = 0;  ///< rad/s
    bool differs = false;
};

/// Compares one frame of two runs.
class FrameCompare {
public:
    explicit FrameCompare(double tolerance) : tolerance_(tolerance) {}

    /// True when x and y differ: by any bit (tolerance 0), or by more than the tolerance.
    bool differ(double x, double y) const {
        if (tolerance_ == 0) return std::bit_cast<std::uint64_t>(x) != std::bit_cast<std::uint64_t>(y);
        if (std::isnan(x) || std::isnan(y)) return std::isnan(x) != std::isnan(y);
        return std::fabs(x - y) > tolerance_;
    }

    BodyDifference body(const BodyState& a, const BodyState& b) const {
        BodyDifference d;
        const std::array<double, 13> x = state_numbers(a), y = state_numbers(b);
        // The numbers by kind: position 0–2, velocity 3–5, rotation 6–9, angular velocity 10–12.
        double* const kind[13] = {&d.position, &d.position, &d.position, &d.velocity, &d.velocity,
                                  &d.velocity, &d.rotation, &d.rotation, &d.rotation, &d.rotation,
                                  &d.angular,  &d.angular,  &d.angular};
        for (std::size_t k = 0; k < x.size(); ++k) {
            if (differ(x[k], y[k])) d.differs = true;
            const double gap = std::fabs(x[k] - y[k]);
            if (gap > *kind[k] || (std::isnan(gap) && !std::isnan(*kind[k]))) *kind[k] = gap;
        }
        return d;
    }

private:
    double tolerance_;
};

/// One line about a run: what it is and what it was (a recording's header).
std::string describe(const std::string& path, const RunReader& r) {
    const RunInfo& i = r.info();
    if (std::string_view(r.kind()) == "trace") return fmt::format("{} (a trace)", path);
    std::string params;
    for (const auto& [name, value] : i.params) params += fmt::format("{}{}={}", params.empty() ? "" : " ", name, value);
    return fmt::format("{} (a recording of {} by {}; params {}; build {})", path, i.scenario, i.engine,
                       params.empty() ? "none" : params, i.build);
}

/// The difference over the whole frame: bodies that differ and the largest of each kind.
struct FrameSummary {
    int frame = 0;
    double time = 0;
    int bodies = 0;
    double position = 0, velocity = 0;
};

FrameSummary summarize(const FrameCompare& cmp, const RunFrame& a, const RunFrame& b) {
    FrameSummary s{a.frame, a.time, 0, 0, 0};
    for (std::size_t k = 0; k < a.bodies.size(); ++k) {
        const BodyDifference d = cmp.body(a.bodies[k], b.bodies[k]);
        if (!d.differs) continue;
        ++s.bodies;
        s.position = std::max(s.position, d.position);
        s.velocity = std::max(s.velocity, d.velocity);
    }
    return s;
}

/// What the plot is drawn from: the difference at every frame from the first divergent one on,
/// and both runs over the first frames of it (as many as kWindowStates states allow).
struct PlotData {
    std::vector<DivergencePoint> points;
    Recording a, b;
    RunInfo info_a, info_b;
};

/// Most body states (of both runs together) the 3D view of a plot keeps: 120 frames of 4,000
/// bodies, 12 of 40,000.
constexpr std::size_t kWindowStates = 960'000;

/// Adds a frame of both runs to the plot's window while it has room.
void keep_in_window(PlotData& plot, const RunFrame& fa, const RunFrame& fb) {
    const std::size_t n = fa.bodies.size();
    const std::size_t most =
            std::max<std::size_t>(2, std::min<std::size_t>(120, kWindowStates / std::max<std::size_t>(2 * n, 1)));
    if (plot.a.frame_count() >= most) return;
    for (auto [rec, f] : {std::pair{&plot.a, &fa}, std::pair{&plot.b, &fb}}) {
        rec->body_count = static_cast<int>(n);
        rec->frames.push_back(f->frame);
        rec->times.push_back(f->time);
        rec->states.insert(rec->states.end(), f->bodies.begin(), f->bodies.end());
        for (TraceContact c : f->contacts) { // a recording keeps a contact's frame, not its time
            c.time = f->time;
            rec->contacts.push_back(c);
        }
    }
}

DivergencePoint point_of(const FrameSummary& s) { return {s.frame, s.time, s.bodies, s.position, s.velocity}; }

/// Compares two runs read from files; returns the exit code. `plot`, when given, gathers what
/// the divergence's picture needs.
int compare_runs(const std::string& path_a, const std::string& path_b, const DivergeRequest& request, std::ostream& out,
                 PlotData* plot = nullptr) {
    RunReader a(path_a), b(path_b);
    out << "A: " << describe(path_a, a) << "\nB: " << describe(path_b, b) << "\n";
    const FrameCompare cmp(request.tolerance);
    RunFrame fa, fb;
    int frames = 0;
    for (;;) {
        const bool more_a = a.next(fa), more_b = b.next(fb);
        if (!more_a || !more_b) {
            if (more_a == more_b) {
                out << fmt::format("the same over all {} frames{}\n", frames,
                                   request.tolerance == 0 ? ", bit for bit"
                                                          : fmt::format(", within {}", request.tolerance));
                return kExitOk;
            }
            out << fmt::format("the same over the {} frames both have; then {} ends and {} goes on (frame {})\n",
                               frames, more_a ? "B" : "A", more_a ? "A" : "B", more_a ? fa.frame : fb.frame);
            return kExitFailed;
        }
        if (frames == 0 && a.info().bodies != b.info().bodies)
            throw InputError(path_b, 1, 1,
                             fmt::format("its bodies are not those of {} ({} bodies against {}): not two runs of one "
                                         "scene",
                                         path_a, b.info().bodies.size(), a.info().bodies.size()));
        if (fa.frame != fb.frame)
            throw InputError(path_b, 1, 1,
                             fmt::format("its frame {} comes where {} has frame {}: the frames do not line up "
                                         "(another rate or duration?)",
                                         fb.frame, path_a, fa.frame));
        ++frames;
        std::vector<std::pair<std::size_t, BodyDifference>> differing;
        for (std::size_t k = 0; k < fa.bodies.size(); ++k) {
            const BodyDifference d = cmp.body(fa.bodies[k], fb.bodies[k]);
            if (d.differs) differing.emplace_back(k, d);
        }
        std::vector<std::pair<int, int>> pairs_a, pairs_b;
        for (const TraceContact& c : fa.contacts) pairs_a.emplace_back(c.a, c.b);
        for (const TraceContact& c : fb.contacts) pairs_b.emplace_back(c.a, c.b);
        std::sort(pairs_a.begin(), pairs_a.end());
        std::sort(pairs_b.begin(), pairs_b.end());
        pairs_a.erase(std::unique(pairs_a.begin(), pairs_a.end()), pairs_a.end());
        pairs_b.erase(std::unique(pairs_b.begin(), pairs_b.end()), pairs_b.end());
        if (differing.empty() && pairs_a == pairs_b) continue;
        // The first divergent frame.
        const std::vector<std::string>& names = a.info().bodies;
        out << fmt::format("first difference at frame {} (t = {} s): {} of {} bodies differ\n", fa.frame, fa.time,
                           differing.size(), fa.bodies.size());
        std::sort(differing.begin(), differing.end(), [](const auto& x, const auto& y) {
            return std::max(x.second.position, x.second.velocity) > std::max(y.second.position, y.second.velocity);
        });
        const std::size_t shown = std::min(differing.size(), static_cast<std::size_t>(std::max(request.show, 0)));
        for (std::size_t k = 0; k < shown; ++k) {
            const auto& [index, d] = differing[k];
            out << fmt::format("  {}: position by {:.3g} m, velocity by {:.3g} m/s, rotation by {:.3g}, angular "
                               "velocity by {:.3g} rad/s\n",
                               names[index], d.position, d.velocity, d.rotation, d.angular);
        }
        if (shown < differing.size()) out << fmt::format("  … and {} more\n", differing.size() - shown);
        std::vector<std::pair<int, int>> only_a, only_b;
        std::set_difference(pairs_a.begin(), pairs_a.end(), pairs_b.begin(), pairs_b.end(), std::back_inserter(only_a));
        std::set_difference(pairs_b.begin(), pairs_b.end(), pairs_a.begin(), pairs_a.end(), std::back_inserter(only_b));
        const auto list = [&](const std::vector<std::pair<int, int>>& pairs) {
            std::string text;
            for (const auto& [i, j] : pairs)
                text += fmt::format("{}{}–{}", text.empty() ? "" : ", ", names[static_cast<std::size_t>(i)],
                                    names[static_cast<std::size_t>(j)]);
            return text.empty() ? std::string("none") : text;
        };
        if (!only_a.empty() || !only_b.empty())
            out << fmt::format("  contacts only in A: {}\n  contacts only in B: {}\n", list(only_a), list(only_b));
        // How the difference grows: the frames 1, 2, 4, 8 … after, and the last both have.
        out << "growth (frame, time, bodies that differ, largest position and velocity difference):\n";
        const auto row = [&](const FrameSummary& s) {
            out << fmt::format("  {:>6}  {:>10.6f} s  {:>6}  {:.3g} m  {:.3g} m/s\n", s.frame, s.time, s.bodies,
                               s.position, s.velocity);
        };
        row(summarize(cmp, fa, fb));
        if (plot) {
            plot->info_a = a.info();
            plot->info_b = b.info();
            plot->points.push_back(point_of(summarize(cmp, fa, fb)));
            keep_in_window(*plot, fa, fb);
        }
        const int first = fa.frame;
        int next = 1;
        FrameSummary last{};
        bool pending = false;
        while (a.next(fa) && b.next(fb)) {
            if (fa.frame != fb.frame) break;
            last = summarize(cmp, fa, fb);
            if (plot) {
                plot->points.push_back(point_of(last));
                keep_in_window(*plot, fa, fb);
            }
            pending = true;
            if (fa.frame - first >= next) {
                row(last);
                pending = false;
                while (next <= fa.frame - first) next *= 2;
            }
        }
        if (pending) row(last);
        return kExitFailed;
    }
}

int compare_and_plot(const std::string& path_a, const std::string& path_b, const std::string& scenario,
                     const DivergeRequest& request, std::ostream& out);

/// Whether `path` ends in `ext`.
bool has_extension(const std::string& path, std::string_view ext) {
    return path.size() > ext.size() && path.compare(path.size() - ext.size(), ext.size(), ext) == 0;
}

/// Refuses a --plot path that is neither .svg nor .html, and an HTML plot of two files without
/// the scenario whose shapes it draws (before anything runs).
void refuse_bad_plot(const DivergeRequest& request, bool two_files) {
    if (request.plot_path.empty()) return;
    if (!has_extension(request.plot_path, ".svg") && !has_extension(request.plot_path, ".html"))
        throw InputError({Diagnostic{request.plot_path, 0, 0,
                                     "--plot: expected a .svg file (the difference against the frame) or a .html "
                                     "page (that and the 3D view of both runs)"}});
    if (two_files && has_extension(request.plot_path, ".html") && request.scenario.empty())
        throw InputError({Diagnostic{request.plot_path, 0, 0,
                                     "--plot PAGE.html draws the bodies' shapes: give --scenario FILE, the scenario "
                                     "both runs are of (or --plot FILE.svg for the chart alone)"}});
}

/// The scenario at `path` as the run `info` ran it (its params), refused unless its bodies are
/// the run's.
Scenario scenario_of_run(const std::string& path, const RunInfo& info) {
    std::vector<std::string> sets;
    for (const auto& [name, value] : info.params) sets.push_back(fmt::format("{}={}", name, value));
    Scenario s = load_scenario(path, sets);
    std::vector<std::string> names;
    for (const BodyDef& b : s.bodies) names.push_back(b.name);
    if (names != info.bodies)
        throw InputError(path, 1, 1,
                         fmt::format("its bodies are not the runs' ({} bodies against {}): --scenario must be the "
                                     "scenario both runs are of",
                                     names.size(), info.bodies.size()));
    return s;
}

/// Draws the divergence: the chart (.svg), or the chart and the 3D view of both runs from the
/// first divergent frame on (.html; the scenario from `scenario_path`, as each run ran it).
void write_plot(const DivergeRequest& request, const PlotData& plot, const std::string& scenario_path,
                const std::string& report, std::ostream& out) {
    if (plot.points.empty()) {
        out << "no plot: the runs never differ\n";
        return;
    }
    const std::string title = fmt::format("{}: A and B part at frame {} (t = {:.6g} s)",
                                          plot.info_a.scenario.empty() ? "two runs" : plot.info_a.scenario,
                                          plot.points.front().frame, plot.points.front().time);
    const std::string chart = render_divergence_svg(plot.points, title);
    if (has_extension(request.plot_path, ".svg")) {
        write_file_atomically(request.plot_path, chart);
    } else {
        const Scenario a = scenario_of_run(scenario_path, plot.info_a);
        const Scenario b = scenario_of_run(scenario_path, plot.info_b);
        PlotOptions options;
        options.flat = false;
        options.ghosts_from = a.bodies.size();
        options.ghost_note = "translucent: run B";
        options.preface = "<div class=\"divergence\">" + chart +
                          "<p>The 3D view starts at the first divergent frame: run A's bodies solid, run B's as "
                          "ghosts.</p></div>\n";
        write_file_atomically(
                request.plot_path,
                render_plot_html(scene_of_two_runs(a, b), recording_of_two_runs(b, plot.a, plot.b), options, report));
    }
    out << "plot: " << request.plot_path << "\n";
}

/// Compares two runs and, when asked, draws where they part (the report beside the 3D view).
int compare_and_plot(const std::string& path_a, const std::string& path_b, const std::string& scenario,
                     const DivergeRequest& request, std::ostream& out) {
    if (request.plot_path.empty()) return compare_runs(path_a, path_b, request, out);
    PlotData plot;
    std::ostringstream report;
    const int code = compare_runs(path_a, path_b, request, report, &plot);
    out << report.str();
    write_plot(request, plot, scenario, report.str(), out);
    return code;
}

/// Splits `A,B` into its two parts; false unless there are exactly two, both non-empty.
bool split_two(const std::string& text, std::string& first, std::string& second) {
    const std::size_t comma = text.find(',');
    if (comma == std::string::npos || text.find(',', comma + 1) != std::string::npos) return false;
    first = text.substr(0, comma);
    second = text.substr(comma + 1);
    return !first.empty() && !second.empty();
}

/// A folder of its own under the system's temporary folder, removed with the object.
class TemporaryFolder {
public:
    TemporaryFolder() {
        std::string pattern = (std::filesystem::temp_directory_path() / "collide-diverge-XXXXXX").string();
        if (!mkdtemp(pattern.data())) throw std::runtime_error("cannot make a temporary folder for the two runs");
        path_ = pattern;
    }
    ~TemporaryFolder() {
        std::error_code ignored;
        std::filesystem::remove_all(path_, ignored);
    }
    TemporaryFolder(const TemporaryFolder&) = delete;
    TemporaryFolder& operator=(const TemporaryFolder&) = delete;
    std::string file(const char* name) const { return (std::filesystem::path(path_) / name).string(); }

private:
    std::string path_;
};

/// A thread count of `--jobs N1,N2`: 1 to 1024, or `auto` (0: every core).
int parse_thread_count(const std::string& text, const std::string& option) {
    if (text == "auto") return 0;
    try {
        std::size_t used = 0;
        const int n = std::stoi(text, &used);
        if (used == text.size() && n >= 1 && n <= 1024) return n;
    } catch (const std::exception&) {}
    throw InputError(
            {Diagnostic{"", 0, 0, "--jobs " + option + ": expected two thread counts N1,N2, each 1 to 1024 or auto"}});
}

/// Runs the scenario two ways into recordings and compares them.
int run_two_ways(const DivergeRequest& request, std::ostream& out) {
    const std::string& scenario = request.files.front();
    SimOptions one, two;
    std::string first, second;
    const int ways = int(!request.set.empty()) + int(!request.engines.empty()) + int(!request.jobs.empty());
    if (ways != 1)
        throw InputError({Diagnostic{"", 0, 0,
                                     "one scenario runs two ways: give --set NAME=V1,V2, --engine A,B or --jobs "
                                     "N1,N2 (one of them), or give two recordings or traces"}});
    std::string way; // the option that makes the two runs differ, as the report names it
    if (!request.set.empty()) {
        const std::size_t eq = request.set.find('=');
        if (eq == std::string::npos || !split_two(request.set.substr(eq + 1), first, second))
            throw InputError({Diagnostic{"", 0, 0, "--set " + request.set + ": expected NAME=V1,V2"}});
        const std::string name = request.set.substr(0, eq);
        one.sets = {name + "=" + first};
        two.sets = {name + "=" + second};
        way = "--set ";
        first = one.sets.front();
        second = two.sets.front();
    } else if (!request.engines.empty()) {
        if (!split_two(request.engines, first, second))
            throw InputError({Diagnostic{"", 0, 0, "--engine " + request.engines + ": expected two engines, A,B"}});
        one.engine = first;
        two.engine = second;
        way = "--engine ";
    } else {
        if (!split_two(request.jobs, first, second))
            throw InputError({Diagnostic{"", 0, 0, "--jobs " + request.jobs + ": expected two thread counts, N1,N2"}});
        one.jobs = parse_thread_count(first, request.jobs);
        two.jobs = parse_thread_count(second, request.jobs);
        way = "--jobs ";
    }
    const TemporaryFolder folder;
    one.record_path = folder.file("a.rec");
    two.record_path = folder.file("b.rec");
    measure_scenario(scenario, one);
    measure_scenario(scenario, two);
    out << fmt::format("{} run two ways: A {}{}, B {}{}\n", scenario, way, first, way, second);
    return compare_and_plot(one.record_path, two.record_path, scenario, request, out);
}

} // namespace

int diverge_command(const DivergeRequest& request, std::ostream& out, std::ostream& err) {
    return exit_code_for_errors(err, "diverge", [&]() -> int {
        if (!(request.tolerance >= 0) || !std::isfinite(request.tolerance))
            throw InputError(
                    {Diagnostic{"", 0, 0, fmt::format("--tolerance {}: expected a number ≥ 0", request.tolerance)}});
        if (request.files.size() == 2) {
            if (!request.set.empty() || !request.engines.empty() || !request.jobs.empty())
                throw InputError({Diagnostic{"", 0, 0,
                                             "--set, --engine and --jobs run one scenario two ways; two recordings "
                                             "or traces are compared as they are"}});
            refuse_bad_plot(request, true);
            return compare_and_plot(request.files[0], request.files[1], request.scenario, request, out);
        }
        if (request.files.size() == 1) {
            if (!request.scenario.empty())
                throw InputError({Diagnostic{request.scenario, 0, 0,
                                             "--scenario names the scenario of two recordings or traces; one "
                                             "scenario run two ways is its own"}});
            refuse_bad_plot(request, false);
            return run_two_ways(request, out);
        }
        throw InputError({Diagnostic{
                "", 0, 0, "expected two recordings or traces, or one scenario and --set, --engine or --jobs"}});
    });
}

} // namespace collide
