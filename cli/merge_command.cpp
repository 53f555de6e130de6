// `collide merge FILE... [-o FILE] [--format F --scenario FILE [--measure M]]`: parse the
// options and hand them to the library.
#include <CLI/CLI.hpp>
#include <iostream>

#include "app/merge.h"
#include "commands.h"

void add_merge_command(CLI::App& app, int& exit_code) {
    auto* cmd = app.add_subcommand("merge", "Join the CSV of a sweep's shards into the whole grid, or draw its map");
    auto request = std::make_shared<collide::MergeRequest>();
    cmd->add_option("files", request->files, "Shard CSV files from collide sweep --format csv --shard K/N")->required();
    cmd->add_option("-o,--output", request->output, "Write to this file (atomically) instead of stdout");
    cmd->add_option("--format", request->format,
                    "csv (the merged rows, the default), or table, json, svg, html: what collide sweep writes for "
                    "the whole grid (needs --scenario)")
            ->check(CLI::IsMember({"table", "csv", "json", "svg", "html"}));
    cmd->add_option("--scenario", request->scenario, "The scenario the shards swept (for every format but csv)");
    cmd->add_option("--measure", request->measure, "The field a map shows (default: hit, else the first)");
    cmd->callback([request, &exit_code] { exit_code = collide::merge_command(*request, std::cerr); });
}
