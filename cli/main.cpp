// The collide executable: wires the subcommands together. Each subcommand lives in its own
// file and only parses arguments and calls the library.
#include <CLI/CLI.hpp>

#include "commands.h"
#include "engine/registry.h"
#include "engines/builtin.h"
#include "probes/record_file.h"
#include "suggest.h"

int main(int argc, char** argv) {
    collide::register_builtin_engines();
    CLI::App app{"collide: collision scenario simulator and regression checker"};
    app.set_version_flag("--version", std::string("collide ") + COLLIDE_VERSION +
                                              "\nbuild: " + collide::describe_build() + "\n" + collide::engines_text());
    app.require_subcommand(1);
    int exit_code = 0;
    add_sim_command(app, exit_code);
    add_validate_command(app, exit_code);
    add_check_command(app, exit_code);
    add_review_command(app, exit_code);
    add_sweep_command(app, exit_code);
    add_merge_command(app, exit_code);
    add_diverge_command(app, exit_code);
    add_conform_command(app, exit_code);
    add_init_command(app, exit_code);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        // --help and --version exit 0; every parse error is trouble: 2, with a likely spelling.
        return report_parse_error(app, e, argc, argv);
    }
    return exit_code;
}
