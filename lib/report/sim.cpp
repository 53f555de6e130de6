#include "report/sim.h"

#include <fmt/format.h>
#include <ostream>
#include <stdexcept>

#include "io/atomic_file.h"
#include "report/expect.h"
#include "report/render.h"
#include "scenario/load.h"

namespace collide {

namespace {

/// Print a scenario error as one line per problem.
void print_error(const InputError& e, std::ostream& err) {
    if (e.diagnostics.empty()) err << e.what() << '\n';
    for (const Diagnostic& d : e.diagnostics) err << format_diagnostic(d) << '\n';
}

/// Runs `body` for one file, printing bad input as FILE:LINE:COLUMN lines; false when it was bad.
template <class Body> bool guard_input(const std::string& file, std::ostream& err, Body&& body) {
    try {
        body();
        return true;
    } catch (const InputError& e) {
        print_error(e, err);
    } catch (const std::exception& e) {
        err << display_name(file) << ":1:1: error: " << e.what() << '\n';
    }
    return false;
}

std::string render(const RunOutput& run, LogFormat format) {
    switch (format) {
    case LogFormat::json: return render_json(run.scenario, run.layout, run.values);
    case LogFormat::csv: return render_csv(run.scenario, run.layout, run.values);
    case LogFormat::text: break;
    }
    return render_text(run.scenario, run.layout, run.values);
}

} // namespace

int run_sim(const SimRequest& request, std::ostream& out, std::ostream& err) {
    if (!request.options.trace_path.empty() && request.files.size() != 1) {
        err << "collide sim: error: --trace takes exactly one scenario file\n";
        return 2;
    }
    std::vector<std::string> parts;
    bool bad = false;
    bool failed = false;
    for (const std::string& file : request.files) {
        bad |= !guard_input(file, err, [&] {
            const RunOutput run = run_scenario(file, request.options);
            parts.push_back(render(run, request.format));
            for (const ExpectOutcome& outcome : check_expectations(run.scenario, run.layout, run.values)) {
                if (!outcome.passed) {
                    err << outcome.message << '\n';
                    failed = true;
                }
            }
        });
    }
    if (bad) return 2;
    std::string text;
    if (parts.size() == 1) {
        text = parts[0];
    } else if (request.format == LogFormat::json) {
        text = "[\n";
        for (std::size_t i = 0; i < parts.size(); ++i) text += parts[i] + (i + 1 < parts.size() ? ",\n" : "");
        text += "]\n";
    } else {
        for (std::size_t i = 0; i < parts.size(); ++i) {
            if (request.format == LogFormat::text) text += fmt::format("# {}\n", request.files[i]);
            text += parts[i];
        }
    }
    if (request.output.empty()) {
        out << text;
    } else {
        try {
            write_file_atomically(request.output, text);
        } catch (const std::exception& e) {
            err << "collide sim: error: " << e.what() << '\n';
            return 2;
        }
    }
    return failed ? 1 : 0;
}

int run_validate(const std::vector<std::string>& files, std::ostream& out, std::ostream& err) {
    bool bad = false;
    for (const std::string& file : files) {
        bad |= !guard_input(file, err, [&] {
            const Scenario s = load_scenario(file);
            out << fmt::format("{}: ok ({} bodies, {} log entries, {} expectations)\n", display_name(file),
                               s.bodies.size(), s.log.size(), s.expect.size());
        });
    }
    return bad ? 2 : 0;
}

} // namespace collide
