// `collide review`: parses its options and calls the library (app/review.h).
#include <CLI/CLI.hpp>

#include <iostream>
#include <map>
#include <memory>

#include "app/check.h"
#include "app/review.h"
#include "commands.h"

void add_review_command(CLI::App& app, int& exit_code) {
    struct State {
        collide::ReviewOptions options;
        bool accept_all = false;
        bool reject_all = false;
        collide::ColorMode color = collide::ColorMode::automatic;
    };
    auto state = std::make_shared<State>();
    CLI::App* cmd = app.add_subcommand("review",
                                       "Accept or reject the pending results a failing check left beside the goldens");
    cmd->add_option("--expected", state->options.expected_dir, "Directory of golden logs")->capture_default_str();
    CLI::Option* all = cmd->add_flag("--accept-all", state->accept_all, "Accept every pending result");
    CLI::Option* none = cmd->add_flag("--reject-all", state->reject_all, "Reject every pending result");
    CLI::Option* accept = cmd->add_option("--accept", state->options.accept, "Accept these pending results (NAME...)");
    CLI::Option* reject = cmd->add_option("--reject", state->options.reject, "Reject these pending results (NAME...)");
    all->excludes(none)->excludes(accept)->excludes(reject);
    none->excludes(accept)->excludes(reject);
    const std::map<std::string, collide::ColorMode> colors{{"auto", collide::ColorMode::automatic},
                                                           {"always", collide::ColorMode::always},
                                                           {"never", collide::ColorMode::never}};
    cmd->add_option("--color", state->color, "Colour diffs: auto (a terminal without NO_COLOR), always, never")
            ->transform(CLI::CheckedTransformer(colors, CLI::ignore_case));
    cmd->callback([state, &exit_code] {
        using Mode = collide::ReviewOptions::Mode;
        collide::ReviewOptions options = state->options;
        if (state->accept_all)
            options.mode = Mode::accept_all;
        else if (state->reject_all)
            options.mode = Mode::reject_all;
        else if (!options.accept.empty() || !options.reject.empty())
            options.mode = Mode::named;
        options.color = collide::color_wanted(state->color);
        exit_code = collide::review_command(options, std::cin, std::cout, std::cerr);
    });
}
