#include "app/sweep.h"

#include <cstdio>
#include <unistd.h>

#include "app/errors.h"
#include "io/atomic_file.h"
#include "scenario/load.h"
#include "sweep/scenario_model.h"

namespace collide {

int sweep_command(const std::string& file, const SweepRequest& request, std::ostream& err) {
    return exit_code_for_errors(err, "sweep", [&] {
        refuse_output_onto_inputs(request.output, "-o", {file});
        const SweepModel model = scenario_sweep_model(load_scenario_template(file));
        execute_grid(model, request, SweepConsole{stderr, ::isatty(::fileno(stderr)) != 0});
    });
}

} // namespace collide
