// `collide merge FILE... [-o FILE]`: parse the options and hand them to the library.
#include <CLI/CLI.hpp>
#include <iostream>

#include "app/merge.h"
#include "commands.h"

void add_merge_command(CLI::App& app, int& exit_code) {
    auto* cmd = app.add_subcommand("merge", "Join the CSV of a sweep's shards into the whole grid");
    auto files = std::make_shared<std::vector<std::string>>();
    auto output = std::make_shared<std::string>();
    cmd->add_option("files", *files, "Shard CSV files from collide sweep --format csv --shard K/N")->required();
    cmd->add_option("-o,--output", *output, "Write to this file (atomically) instead of stdout");
    cmd->callback([files, output, &exit_code] { exit_code = collide::merge_command(*files, *output, std::cerr); });
}
