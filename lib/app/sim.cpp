#include "app/sim.h"

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <nlohmann/json.hpp>
#include <ostream>

#include "app/errors.h"
#include "engine/registry.h"
#include "io/atomic_file.h"
#include "io/safe_text.h"
#include "plot/divergence.h"
#include "plot/plot.h"
#include "report/expect.h"
#include "report/render.h"
#include "scenario/load.h"
#include "sweep/grid.h"

namespace collide {

namespace {

std::string render_log(const MeasuredScenario& measured, LogFormat format) {
    switch (format) {
    case LogFormat::json: // one line: join_logs lists every file's in one document
    case LogFormat::jsonl: return render_json(measured.scenario, measured.layout, measured.values, -1);
    case LogFormat::csv: return render_csv(measured.scenario, measured.layout, measured.values);
    case LogFormat::text: break;
    }
    return render_text(measured.scenario, measured.layout, measured.values);
}

/// The logs of every file joined, the same shape for one file as for many: JSON as an array
/// (whatever the count), JSON Lines and CSV one after the other (CSV under one header), text
/// one after the other, each under a `# FILE` line when there are several.
std::string join_logs(const SimRequest& request, const std::vector<std::string>& logs,
                      const std::vector<std::string>& labels) {
    std::string text;
    if (request.format == LogFormat::json) { // each log read back (exactly: nlohmann wrote it) into one list
        nlohmann::ordered_json list = nlohmann::ordered_json::array();
        for (const std::string& log : logs) list.push_back(nlohmann::ordered_json::parse(log));
        return list.dump(2) + "\n";
    }
    for (std::size_t i = 0; i < logs.size(); ++i) {
        if (request.format == LogFormat::text && logs.size() > 1)
            text += fmt::format("# {}\n", escape_unsafe(labels[i]));
        if (request.format == LogFormat::csv && i > 0)
            text += logs[i].substr(std::min(logs[i].size(), logs[i].find('\n') + 1)); // one header
        else
            text += logs[i];
    }
    return text;
}

bool ends_with(const std::string& text, std::string_view tail) {
    return text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
}

bool is_html(const std::string& path) { return ends_with(path, ".html") || ends_with(path, ".htm"); }

/// Draws the run into options.plot_path: an HTML page (.html) or an SVG picture.
void write_plot(const MeasuredScenario& measured, const SimOptions& options) {
    const Recording& rec = *measured.recording;
    const std::string text =
            is_html(options.plot_path)
                    ? render_plot_html(measured.scenario, rec, options.plot,
                                       render_text(measured.scenario, measured.layout, measured.values))
                    : render_plot_svg(measured.scenario, rec, options.plot);
    write_file_atomically(options.plot_path, text);
}

/// Draws the runs of one scenario by several engines into options.plot_path: the first engine's
/// bodies solid, each other engine's moving bodies as ghosts (plot/divergence.h's scene_of_runs),
/// in one picture or page; the page's log is each engine's, one after the other.
void write_engines_plot(const std::vector<MeasuredScenario>& runs, const SimOptions& options) {
    std::vector<Scenario> scenarios;
    std::vector<const Recording*> recordings;
    std::vector<std::string> labels, names;
    std::string log;
    for (const MeasuredScenario& m : runs) {
        scenarios.push_back(m.scenario);
        recordings.push_back(&*m.recording);
        labels.push_back(m.engine);
        log += fmt::format("# engine {}\n{}", m.engine, render_text(m.scenario, m.layout, m.values));
    }
    for (std::size_t r = 1; r < labels.size(); ++r) names.push_back(labels[r]);
    PlotOptions plot = options.plot;
    plot.ghosts_from = runs.front().scenario.bodies.size();
    plot.ghost_note = fmt::format("faint: {}'s run{}", fmt::join(names, "'s, "), names.size() > 1 ? "s" : "");
    const Scenario scene = scene_of_runs(scenarios, labels);
    const Recording recording = recording_of_runs(scenarios, recordings);
    write_file_atomically(options.plot_path, is_html(options.plot_path) ? render_plot_html(scene, recording, plot, log)
                                                                        : render_plot_svg(scene, recording, plot));
}

/// Measures one file, appends its log and prints its failed expectations; returns the exit
/// code for this file alone. With `runs`, the measured run is kept there for a plot of several
/// engines instead of being drawn alone.
int simulate_file(const std::string& file, const SimRequest& request, std::vector<std::string>& logs, std::ostream& err,
                  std::vector<MeasuredScenario>* runs = nullptr) {
    MeasuredScenario measured = measure_scenario(file, request.options);
    logs.push_back(render_log(measured, request.format));
    if (!request.options.plot_path.empty() && measured.recording) {
        if (runs)
            runs->push_back(measured);
        else
            write_plot(measured, request.options);
    }
    int code = kExitOk;
    if (!measured.checks_expectations()) return code;
    for (const ExpectOutcome& outcome : check_expectations(measured.scenario, measured.layout, measured.values)) {
        if (outcome.passed) continue;
        err << outcome.message << '\n';
        code = kExitFailed;
    }
    return code;
}

int simulate_files(const SimRequest& request, std::ostream& out, std::ostream& err) {
    if (!request.options.trace_path.empty() && request.files.size() != 1)
        throw InputError({Diagnostic{"", 0, 0, "--trace takes exactly one scenario file"}});
    if (!request.options.record_path.empty()) {
        if (request.files.size() != 1)
            throw InputError({Diagnostic{"", 0, 0, "--record takes exactly one scenario file"}});
        if (request.options.record_path == "-")
            throw InputError(
                    {Diagnostic{"", 0, 0, "--record writes a file (binary): name one, e.g. --record run.rec"}});
    }
    if (!request.options.plot_path.empty()) {
        if (request.files.size() != 1)
            throw InputError({Diagnostic{"", 0, 0, "--plot takes exactly one scenario file"}});
        if (!is_html(request.options.plot_path) && !ends_with(request.options.plot_path, ".svg"))
            throw InputError({Diagnostic{
                    "", 0, 0, "--plot " + request.options.plot_path + ": expected a file ending in .svg or .html"}});
        if (!request.options.plot.flat && !is_html(request.options.plot_path))
            throw InputError({Diagnostic{"", 0, 0, "--view 3d draws into a page: --plot FILE.html"}});
    }
    // Before anything runs: no output may overwrite an input, nor the other output.
    refuse_output_onto_inputs(request.output, "-o", request.files);
    refuse_output_onto_inputs(request.options.trace_path, "--trace", request.files);
    if (!request.output.empty() && request.output != "-")
        refuse_output_onto_inputs(request.options.trace_path, "--trace", {request.output});
    refuse_output_onto_inputs(request.options.plot_path, "--plot", request.files);
    refuse_output_onto_inputs(request.options.record_path, "--record", request.files);
    for (const auto& [other, flag] : {std::pair{request.output, "-o"}, std::pair{request.options.trace_path, "--trace"},
                                      std::pair{request.options.plot_path, "--plot"}})
        if (!other.empty() && other != "-") refuse_output_onto_inputs(request.options.record_path, "--record", {other});
    // Several engines side by side: each file's log by each engine, one after the other.
    std::vector<std::string> engines = parse_engine_list(request.options.engine);
    for (std::string& engine : engines) engine = require_engine(engine).name; // a plugin loaded: by its name
    if (engines.size() > 1) {
        if (request.format == LogFormat::csv)
            throw InputError({Diagnostic{"", 0, 0,
                                         "--engine " + request.options.engine +
                                                 ": several engines print text or JSON logs (a CSV row has no "
                                                 "engine column); `collide sweep --engine " +
                                                 request.options.engine + " --format csv` has one"}});
        if (!request.options.trace_path.empty() || !request.options.record_path.empty())
            throw InputError({Diagnostic{"", 0, 0,
                                         "--trace and --record follow one engine's run; `collide diverge FILE "
                                         "--engine " +
                                                 request.options.engine + "` compares two runs frame by frame"}});
    }
    std::vector<std::string> logs, labels;
    std::vector<MeasuredScenario> runs; // one per engine, for a plot of several engines
    const bool overlay = engines.size() > 1 && !request.options.plot_path.empty();
    int worst = kExitOk;
    for (const std::string& file : request.files)
        for (const std::string& engine : engines) {
            SimRequest one = request;
            one.options.engine = engine;
            const Diagnostic here{display_name(file), 1, 1, ""};
            const std::size_t before = logs.size();
            const auto body = [&] { return simulate_file(file, one, logs, err, overlay ? &runs : nullptr); };
            worst = std::max(worst, exit_code_for_errors(err, "sim", body, here));
            if (logs.size() > before)
                labels.push_back(engines.size() > 1
                                         ? (request.files.size() > 1 ? file + " · " : "") + "engine " + engine
                                         : file);
        }
    if (worst == kExitBadInput) return worst;
    if (overlay && runs.size() == engines.size()) write_engines_plot(runs, request.options);
    const std::string text = join_logs(request, logs, labels);
    if (request.output.empty()) {
        if (request.options.trace_path != "-") out << text; // `--trace -`: the trace alone on stdout
    } else
        write_file_atomically(request.output, text);
    return worst;
}

} // namespace

int sim_command(const SimRequest& request, std::ostream& out, std::ostream& err) {
    return exit_code_for_errors(err, "sim", [&] { return simulate_files(request, out, err); });
}

} // namespace collide
