#include "app/sim.h"

#include <fmt/format.h>
#include <ostream>

#include "app/errors.h"
#include "io/atomic_file.h"
#include "report/expect.h"
#include "report/render.h"
#include "scenario/load.h"

namespace collide {

namespace {

std::string render_log(const MeasuredScenario& measured, LogFormat format) {
    switch (format) {
    case LogFormat::json: return render_json(measured.scenario, measured.layout, measured.values);
    case LogFormat::csv: return render_csv(measured.scenario, measured.layout, measured.values);
    case LogFormat::text: break;
    }
    return render_text(measured.scenario, measured.layout, measured.values);
}

/// The logs of every file joined: one as it is; several as a JSON array, or one after the
/// other (text logs under a `# FILE` line).
std::string join_logs(const SimRequest& request, const std::vector<std::string>& logs) {
    if (logs.size() == 1) return logs[0];
    std::string text;
    if (request.format == LogFormat::json) {
        text = "[\n";
        for (std::size_t i = 0; i < logs.size(); ++i) text += logs[i] + (i + 1 < logs.size() ? ",\n" : "");
        return text + "]\n";
    }
    for (std::size_t i = 0; i < logs.size(); ++i) {
        if (request.format == LogFormat::text) text += fmt::format("# {}\n", request.files[i]);
        text += logs[i];
    }
    return text;
}

/// Measures one file, appends its log and prints its failed expectations; returns the exit
/// code for this file alone.
int simulate_file(const std::string& file, const SimRequest& request, std::vector<std::string>& logs,
                  std::ostream& err) {
    const MeasuredScenario measured = measure_scenario(file, request.options);
    logs.push_back(render_log(measured, request.format));
    int code = kExitOk;
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
    // Before anything runs: no output may overwrite an input, nor the other output.
    refuse_output_onto_inputs(request.output, "-o", request.files);
    refuse_output_onto_inputs(request.options.trace_path, "--trace", request.files);
    if (!request.output.empty() && request.output != "-")
        refuse_output_onto_inputs(request.options.trace_path, "--trace", {request.output});
    std::vector<std::string> logs;
    int worst = kExitOk;
    for (const std::string& file : request.files) {
        const Diagnostic here{display_name(file), 1, 1, ""};
        const auto body = [&] { return simulate_file(file, request, logs, err); };
        worst = std::max(worst, exit_code_for_errors(err, "sim", body, here));
    }
    if (worst == kExitBadInput) return worst;
    const std::string text = join_logs(request, logs);
    if (request.output.empty())
        out << text;
    else
        write_file_atomically(request.output, text);
    return worst;
}

} // namespace

int sim_command(const SimRequest& request, std::ostream& out, std::ostream& err) {
    return exit_code_for_errors(err, "sim", [&] { return simulate_files(request, out, err); });
}

} // namespace collide
