// `collide sweep FILE --vary …`: parse the options and hand them to the library.
#include <CLI/CLI.hpp>
#include <iostream>

#include "app/sweep.h"
#include "commands.h"

void add_sweep_command(CLI::App& app, int& exit_code) {
    auto* cmd = app.add_subcommand("sweep", "Run a scenario once per cell of a parameter grid");
    auto file = std::make_shared<std::string>();
    auto request = std::make_shared<collide::SweepRequest>();
    auto detection = std::make_shared<std::string>();
    auto format = std::make_shared<std::string>("table");
    cmd->add_option("file", *file, "Scenario file ('-' reads stdin)")->required();
    cmd->add_option("--vary", request->varies,
                    "Vary a param: NAME=FROM:TO:STEP or NAME=A,B,C (repeatable; the first varies slowest)")
            ->required();
    cmd->add_option("--detection", *detection, "Detection per cell (default: the scenario's)")
            ->check(CLI::IsMember({"discrete", "swept", "speculative", "both", "all"}));
    cmd->add_option("--engine", request->engine,
                    "The engine every cell runs: collide (default), bullet, ode, box3d, or a plugin's path "
                    "(./libNAME.so); several (collide,bullet,ode,box3d) run each, their maps side by side");
    cmd->add_option("--format", *format, "Output format")
            ->check(CLI::IsMember({"table", "csv", "json", "svg", "html"}));
    cmd->add_option("--measure", request->measure, "The field a map shows (default: hit, else the first)");
    cmd->add_option("--jobs", request->jobs, "Threads (default: every core)")->check(CLI::Range(1, 4096));
    cmd->add_option("--shard", request->shard,
                    "Run only shard K of N (cells whose index mod N is K-1); auto: K and N from a Slurm array "
                    "task (SLURM_ARRAY_TASK_ID, _MIN, _MAX, _COUNT), auto/N: K from a Kubernetes Indexed Job "
                    "(JOB_COMPLETION_INDEX)");
    cmd->add_option("--checkpoint", request->checkpoint,
                    "Resumable CSV to a file: keep its finished rows in FILE.chunks/ at least every SECONDS (0: "
                    "after every block), so that a run killed, preempted or requeued and started again with the "
                    "same arguments goes on after them")
            ->type_name("SECONDS")
            ->check(CLI::Range(0.0, 86400.0));
    cmd->add_option("-o,--output", request->output, "Write to this file (atomically) instead of stdout");
    cmd->callback([file, request, detection, format, &exit_code] {
        if (!detection->empty()) request->detection = collide::parse_detection_choice(*detection);
        request->format = collide::parse_sweep_format(*format);
        exit_code = collide::sweep_command(*file, *request, std::cerr);
    });
}
