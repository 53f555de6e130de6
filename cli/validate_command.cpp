// `collide validate FILE...`: load and check scenarios without running them.
#include <CLI/CLI.hpp>
#include <iostream>

#include "app/validate.h"
#include "commands.h"

void add_validate_command(CLI::App& app, int& exit_code) {
    auto* cmd = app.add_subcommand("validate", "Load and check scenarios without running them");
    auto files = std::make_shared<std::vector<std::string>>();
    cmd->add_option("files", *files, "Scenario files ('-' reads stdin)")->required();
    cmd->callback([files, &exit_code] { exit_code = collide::validate_command(*files, std::cout, std::cerr); });
}
