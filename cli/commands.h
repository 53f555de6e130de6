#pragma once
/// \file
/// The subcommands of `collide`. Each registers its options on the app and a callback that
/// calls one library function and stores the exit code.

#include <CLI/CLI.hpp>

/// `collide sim FILE...`: run scenarios and print their logs.
void add_sim_command(CLI::App& app, int& exit_code);
/// `collide validate FILE...`: load and check scenarios without running them.
void add_validate_command(CLI::App& app, int& exit_code);
/// `collide check [FILE|DIR]...`: run scenarios and compare their logs with the goldens.
void add_check_command(CLI::App& app, int& exit_code);
/// `collide review [--accept-all | --reject-all | --accept NAME... | --reject NAME...]`: accept or
/// reject the pending results of a failing check.
void add_review_command(CLI::App& app, int& exit_code);
/// `collide sweep FILE --vary …`: run a scenario over a parameter grid.
void add_sweep_command(CLI::App& app, int& exit_code);
/// `collide merge FILE...`: join a sweep's shard CSVs.
void add_merge_command(CLI::App& app, int& exit_code);
/// `collide diverge`: the first frame at which two runs differ.
void add_diverge_command(CLI::App& app, int& exit_code);
/// `collide conform [FILE|DIR]... [--engine LIST] [--format text|json|html]`: every scenario's
/// expectations through every engine.
void add_conform_command(CLI::App& app, int& exit_code);
/// `collide init [DIR]`: a starter project of one's own.
void add_init_command(CLI::App& app, int& exit_code);
