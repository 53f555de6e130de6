// `collide diverge A B` (or `collide diverge SCENARIO --set NAME=V1,V2 | --engine A,B | --jobs N1,N2`): the
// first frame at which two runs differ.
#include <CLI/CLI.hpp>
#include <iostream>

#include "app/diverge.h"
#include "commands.h"

void add_diverge_command(CLI::App& app, int& exit_code) {
    auto* cmd = app.add_subcommand("diverge",
                                   "The first frame at which two runs differ: two recordings (sim --record) or traces "
                                   "(sim --trace), or one scenario run two ways");
    auto request = std::make_shared<collide::DivergeRequest>();
    cmd->add_option("files", request->files,
                    "Two recordings or traces; or one scenario file (with --set, --engine or --jobs)")
            ->required();
    cmd->add_option("--set", request->set, "Run the scenario twice with this param at two values: NAME=V1,V2");
    cmd->add_option("--engine", request->engines, "Run the scenario by two engines: A,B (e.g. collide,bullet)");
    cmd->add_option("--jobs", request->jobs,
                    "Run the scenario on two thread counts: N1,N2 (e.g. 1,2; auto for every core): the world's "
                    "step promises the same bits for any count");
    cmd->add_option("--tolerance", request->tolerance,
                    "The largest difference of any number that is no difference (its unit: m, m/s, rad/s); "
                    "default 0: any bit");
    cmd->add_option("--show", request->show, "How many bodies to name at the first difference (default 10)");
    cmd->add_option("--plot", request->plot_path,
                    "Draw the divergence: FILE.svg (the largest difference against the frame) or FILE.html (that and "
                    "the 3D view of both runs from the first divergent frame)");
    cmd->add_option("--scenario", request->scenario,
                    "With two recordings and --plot FILE.html: the scenario both runs are of (its shapes)");
    cmd->callback([request, &exit_code] { exit_code = collide::diverge_command(*request, std::cout, std::cerr); });
}
