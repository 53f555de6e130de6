// `collide sim FILE...`: parse the options and hand them to the library.
#include <CLI/CLI.hpp>
#include <iostream>
#include <unistd.h>

#include "app/sim.h"
#include "commands.h"

void add_sim_command(CLI::App& app, int& exit_code) {
    auto* cmd = app.add_subcommand("sim", "Run scenarios and print their logs");
    auto request = std::make_shared<collide::SimRequest>();
    auto detection = std::make_shared<std::string>();
    auto format = std::make_shared<std::string>("text");
    cmd->add_option("files", request->files, "Scenario files ('-' reads stdin)")->required();
    cmd->add_option("--detection", *detection, "Override the world's detection")
            ->check(CLI::IsMember({"discrete", "swept", "speculative"}));
    cmd->add_option("--engine", request->options.engine,
                    "The engine that runs it: collide (default), bullet, ode, box3d, or a plugin's path (./libNAME.so: "
                    "a shared library with collide's engine ABI); several, comma-separated (collide,bullet,ode,box3d), "
                    "print their logs one after the other and --plot draws their runs in one picture");
    cmd->add_option("--set", request->options.sets, "Override a param: NAME=VALUE (repeatable)");
    cmd->add_option("--format", *format,
                    "Log format: text; json (a list, one object per file); jsonl (JSON Lines: one object a "
                    "line); csv (one header, a scenario column)")
            ->type_name("text|json|jsonl|csv")
            ->check(CLI::IsMember({"text", "json", "jsonl", "csv"}).description(""));
    cmd->add_option(
            "--trace", request->options.trace_path,
            "Write every body's state and every contact per frame to this CSV ('-': stdout, instead of the log)");
    cmd->add_option("--record", request->options.record_path,
                    "Write every frame's state of every body, exactly, and the contacts to this binary file (for "
                    "collide diverge)");
    auto view = std::make_shared<std::string>();
    cmd->add_option("--plot", request->options.plot_path, "Draw the run: FILE.svg, or FILE.html (interactive)");
    cmd->add_option("--view", *view,
                    "The plot's one view: xy, xz, zy, or 3d (HTML: the 3D view alone; default: side and top "
                    "views chosen by the motion, and the 3D view in a page)")
            ->check(CLI::IsMember({"xy", "xz", "zy", "3d"}));
    auto jobs = std::make_shared<std::string>("1");
    cmd->add_option("--jobs,-j", *jobs,
                    "Threads one world steps on: N, or auto (every core); the same log, trace and bits for "
                    "every count (default: 1)")
            ->type_name("N|auto")
            ->check(CLI::Validator(
                    [](std::string& v) -> std::string {
                        if (v == "auto") return {};
                        try {
                            std::size_t used = 0;
                            const int n = std::stoi(v, &used);
                            if (used == v.size() && n >= 1 && n <= 1024) return {};
                        } catch (const std::exception&) {}
                        return "a thread count from 1 to 1024, or auto, not '" + v + "'";
                    },
                    "N|auto"));
    cmd->add_option("-o,--output", request->output, "Write the log to this file (atomically)");
    cmd->callback([request, detection, format, view, jobs, &exit_code] {
        request->options.jobs = *jobs == "auto" ? 0 : std::stoi(*jobs);
        request->options.plot = collide::plot_options_for_view(*view).value_or(collide::PlotOptions{});
        request->options.progress = isatty(STDERR_FILENO) != 0; // a live line on a terminal, nothing on a pipe
        if (*detection == "discrete") request->options.detection = collide::Detection::discrete;
        if (*detection == "swept") request->options.detection = collide::Detection::swept;
        if (*detection == "speculative") request->options.detection = collide::Detection::speculative;
        request->format = *format == "json"    ? collide::LogFormat::json
                          : *format == "jsonl" ? collide::LogFormat::jsonl
                          : *format == "csv"   ? collide::LogFormat::csv
                                               : collide::LogFormat::text;
        exit_code = collide::sim_command(*request, std::cout, std::cerr);
    });
}
