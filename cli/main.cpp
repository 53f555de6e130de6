// The collide executable: wires the subcommands together. Each subcommand lives in its own
// file and only parses arguments and calls the library.
#include <CLI/CLI.hpp>

int main(int argc, char** argv) {
    CLI::App app{"collide: collision scenario simulator and regression checker"};
    app.set_version_flag("--version", std::string("collide ") + COLLIDE_VERSION);
    app.require_subcommand(1);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        const int code = app.exit(e);
        return code == 0 ? 0 : 2;
    }
    return 0;
}
