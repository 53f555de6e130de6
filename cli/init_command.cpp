// `collide init [DIR]`: parses its options and calls the library (app/init.h).
#include <CLI/CLI.hpp>
#include <iostream>

#include "app/init.h"
#include "commands.h"

void add_init_command(CLI::App& app, int& exit_code) {
    auto* cmd =
            app.add_subcommand("init", "Start a project of your own: a scenario, its golden, a GitHub Actions workflow "
                                       "and a README paragraph, whose `collide check` passes");
    auto options = std::make_shared<collide::InitOptions>();
    cmd->add_option("dir", options->dir, "The project's folder (default: here)");
    cmd->add_option("--collide-git", options->collide_git,
                    "The git URL the workflow builds collide from (default: a placeholder to replace)");
    cmd->callback([options, &exit_code] { exit_code = collide::init_command(*options, std::cout, std::cerr); });
}
