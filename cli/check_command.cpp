// `collide check`: parses its options and calls the library (app/check.h).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <iostream>
#include <map>
#include <memory>
#include <unistd.h>

#include "app/check.h"
#include "commands.h"
#include "engine/plugin_loader.h"

void add_check_command(CLI::App& app, int& exit_code) {
    struct State {
        collide::CheckOptions options;
        collide::ColorMode color = collide::ColorMode::automatic;
    };
    auto state = std::make_shared<State>();
    CLI::App* cmd = app.add_subcommand("check", "Run scenarios and compare each log with its golden file");
    cmd->add_option("paths", state->options.paths, "Scenario files or directories (default: scenarios/)");
    cmd->add_option("--expected", state->options.expected_dir, "Directory of golden logs")->capture_default_str();
    cmd->add_option("--engine", state->options.engine,
                    "The engine that runs them: collide (default; goldens NAME.log), bullet (NAME.bullet.log), ode "
                    "(NAME.ode.log), box3d (NAME.box3d.log) or a plugin's path, ./libNAME.so (NAME.ENGINE.log by "
                    "the name it reports)")
            ->check(CLI::Validator(
                    [](std::string& v) {
                        return collide::is_engine_path(v) ? std::string()
                                                          : CLI::IsMember({"collide", "bullet", "ode", "box3d"})(v);
                    },
                    ""));
    CLI::Option* update =
            cmd->add_option("--update", state->options.update_names,
                            "Write goldens that differ or are missing and remove stale ones; only NAMEs when given")
                    ->expected(0, -1);
    cmd->add_flag(
            "--strict", state->options.strict,
            "A scenario the engine cannot run (a character, for Bullet and Box3D) fails as bad input instead of being "
            "skipped");
    cmd->add_flag("--prune", state->options.prune,
                  "With --update: remove stale goldens even when --expected is not expected/");
    cmd->add_option("--artifacts", state->options.artifacts_dir,
                    "Save each failing scenario's actual log and diff as DIR/NAME.log and DIR/NAME.diff");
    cmd->add_option("--junit", state->options.junit_path, "Write a JUnit XML report to FILE");
    cmd->add_option("--html", state->options.html_path,
                    "Write a self-contained HTML report to FILE (summary, diffs, plots)");
    cmd->add_flag("--annotations", state->options.annotations, "Print GitHub Actions ::error annotations");
    cmd->add_option("--shard", state->options.shard,
                    "Check only shard K of N of the scenarios (index in sorted order mod N is K-1; stale goldens "
                    "in shard 1); auto: from a Slurm array task, auto/N: from a Kubernetes Indexed Job");
    cmd->add_option("--jobs,-j", state->options.jobs, "Scenarios run at once")
            ->check(CLI::Range(1, 1024))
            ->capture_default_str();
    const std::map<std::string, collide::ColorMode> colors{{"auto", collide::ColorMode::automatic},
                                                           {"always", collide::ColorMode::always},
                                                           {"never", collide::ColorMode::never}};
    // The help shows the words, not the transformer's table of enum values.
    cmd->add_option("--color", state->color,
                    "Colour diffs: auto (the default: only on a terminal, and never with NO_COLOR set), "
                    "always or never")
            ->type_name("auto|always|never")
            ->transform(CLI::CheckedTransformer(colors, CLI::ignore_case).description(""));
    cmd->callback([state, update, &exit_code] {
        collide::CheckOptions options = state->options;
        options.update = update->count() > 0;
        std::erase(options.update_names, std::string());
        options.color = collide::color_wanted(state->color);
        options.ci = collide::in_ci();
        options.progress = isatty(STDERR_FILENO) != 0;
        exit_code = collide::check_command(options, std::cout, std::cerr);
    });
}
