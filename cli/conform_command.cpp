// `collide conform`: parses its options and calls the library (app/conform.h).
#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>
#include <unistd.h>

#include "app/conform.h"
#include "commands.h"

void add_conform_command(CLI::App& app, int& exit_code) {
    auto request = std::make_shared<collide::ConformRequest>();
    auto format = std::make_shared<std::string>("text");
    CLI::App* cmd = app.add_subcommand(
            "conform", "Score engines against the scenarios' expectations: each scenario through each engine");
    cmd->add_option("paths", request->paths, "Scenario files or directories (default: scenarios/)");
    cmd->add_option("--engine", request->engines,
                    "The engines, comma-separated (collide,bullet,ode,box3d, or a plugin's path ./libNAME.so); "
                    "default: every engine this collide has");
    cmd->add_option("--format", *format,
                    "text (a table of scenarios × engines and a summary per engine); json (every expectation "
                    "of every run); html (the table, each run's expectations and 3D view)")
            ->type_name("text|json|html")
            ->check(CLI::IsMember({"text", "json", "html"}).description(""));
    cmd->add_option("-o,--output", request->output, "Write the report to this file (atomically)");
    cmd->add_flag("--strict", request->strict, "Exit 1 when an engine failed an expectation it ran");
    cmd->callback([request, format, &exit_code] {
        request->format = *format == "json"   ? collide::ConformFormat::json
                          : *format == "html" ? collide::ConformFormat::html
                                              : collide::ConformFormat::text;
        request->progress = isatty(STDERR_FILENO) != 0;
        exit_code = collide::conform_command(*request, std::cout, std::cerr);
    });
}
