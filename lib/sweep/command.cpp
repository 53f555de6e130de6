#include "sweep/command.h"

#include <cstdio>
#include <unistd.h>

#include <fmt/format.h>

#include "scenario/load.h"
#include "sweep/merge.h"
#include "sweep/scenario_model.h"

namespace collide {

namespace {

/// Runs `body`, turning every kind of bad input into lines on stderr and exit code 2.
template <class Body> int report_errors(const char* command, Body&& body) {
    try {
        body();
        return 0;
    } catch (const InputError& e) {
        fmt::print(stderr, "{}", e.formatted());
    } catch (const SweepError& e) {
        fmt::print(stderr, "{}\n", e.format(command));
    } catch (const std::exception& e) {
        fmt::print(stderr, "collide {}: error: {}\n", command, e.what());
    }
    return 2;
}

} // namespace

int sweep_command(const std::string& file, const SweepRequest& request) {
    return report_errors("sweep", [&] {
        const SweepModel model = scenario_sweep_model(load_scenario_template(file));
        run_sweep(model, request, SweepConsole{stderr, ::isatty(::fileno(stderr)) != 0});
    });
}

int merge_command(const std::vector<std::string>& files, const std::string& output) {
    return report_errors("merge", [&] { merge_sweep_files(files, output); });
}

} // namespace collide
