#include "app/sweep.h"

#include <cstdio>
#include <unistd.h>

#include "app/errors.h"
#include "engine/registry.h"
#include "io/atomic_file.h"
#include "scenario/load.h"
#include "sweep/grid.h"
#include "sweep/scenario_model.h"

namespace collide {

namespace {

/// FNV-1a (64 bits) of `text`.
std::uint64_t digest_of(std::string_view text) {
    std::uint64_t h = 14695981039346656037ull;
    for (const char c : text) h = (h ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    return h;
}

} // namespace

int sweep_command(const std::string& file, const SweepRequest& request, std::ostream& err) {
    return exit_code_for_errors(err, "sweep", [&] {
        refuse_output_onto_inputs(request.output, "-o", {file});
        const std::string text = read_scenario_text(file);
        std::vector<std::string> names = parse_engine_list(request.engine);
        std::vector<const EngineSpec*> engines;
        for (std::string& name : names) {
            engines.push_back(&require_engine(name));
            name = engines.back()->name; // a plugin's path: the name it registered
        }
        const ScenarioTemplate scenario = parse_scenario_template(text, file);
        for (const EngineSpec* engine : engines) engine->refuse_unsupported(scenario.base());
        if (request.detection) // each mode --detection asks for (the command line's, not the file's)
            for (const Detection mode : modes_of(*request.detection)) {
                Scenario variant = scenario.base();
                variant.world.detection = mode;
                variant.detection_mark = {};
                for (const EngineSpec* engine : engines) engine->refuse_unsupported(variant);
            }
        SweepModel model = scenario_sweep_model(scenario, names);
        // A resumed run's rows must come from this very text, and from the same engines.
        std::string identity = text;
        for (const EngineSpec* engine : engines)
            if (engine->name != "collide") identity += "\n# engine " + engine->version;
        model.source_digest = digest_of(identity);
        execute_grid(model, request, SweepConsole{stderr, ::isatty(::fileno(stderr)) != 0});
    });
}

} // namespace collide
