// Suggestions for misspelt subcommands and options.
#include "suggest.h"

#include <algorithm>
#include <iostream>
#include <numeric>
#include <sstream>

#include "io/safe_text.h"

std::size_t edit_distance(const std::string& a, const std::string& b) {
    // Optimal string alignment distance, over three rows.
    std::vector<std::size_t> before(b.size() + 1), previous(b.size() + 1), current(b.size() + 1);
    std::iota(previous.begin(), previous.end(), std::size_t{0});
    for (std::size_t i = 1; i <= a.size(); ++i) {
        current[0] = i;
        for (std::size_t j = 1; j <= b.size(); ++j) {
            const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
            current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
                current[j] = std::min(current[j], before[j - 2] + 1);
        }
        before.swap(previous);
        previous.swap(current);
    }
    return previous[b.size()];
}

std::string closest_match(const std::string& word, const std::vector<std::string>& candidates) {
    std::string best;
    std::size_t best_distance = 0;
    for (const std::string& c : candidates) {
        const std::size_t d = edit_distance(word, c);
        if (best.empty() || d < best_distance) {
            best = c;
            best_distance = d;
        }
    }
    // A typo changes a few letters, not most of the word; a prefix ("val") also counts.
    const std::size_t allowed = std::max<std::size_t>(1, std::min(word.size(), best.size()) / 3);
    if (!best.empty() && (best_distance <= allowed || (word.size() >= 2 && best.starts_with(word)))) return best;
    for (const std::string& c : candidates)
        if (word.size() >= 2 && c.starts_with(word)) return c;
    return {};
}

namespace {

std::vector<std::string> subcommand_names(const CLI::App& app) {
    std::vector<std::string> names;
    for (const CLI::App* sub : app.get_subcommands([](const CLI::App*) { return true; }))
        names.push_back(sub->get_name());
    return names;
}

std::vector<std::string> option_names(const CLI::App& app) {
    std::vector<std::string> names{"--help"};
    for (const CLI::Option* opt : app.get_options()) {
        for (const std::string& l : opt->get_lnames()) names.push_back("--" + l);
        for (const std::string& s : opt->get_snames()) names.push_back("-" + s);
    }
    return names;
}

} // namespace

namespace {

/// An argument as an error message quotes it: control and bidirectional characters escaped
/// (io/safe_text.h), and cut when it is long.
std::string shown(const std::string& text) {
    if (text.size() <= 300) return collide::escape_unsafe(text);
    return collide::escape_unsafe(text.substr(0, 240)) + "… (" + std::to_string(text.size()) + " characters)";
}

} // namespace

int report_parse_error(CLI::App& app, const CLI::ParseError& error, int argc, char** argv) {
    if (error.get_exit_code() == 0) return app.exit(error);
    // The subcommand given, if any, and the first word that is neither it nor an option.
    const std::vector<std::string> commands = subcommand_names(app);
    CLI::App* command = nullptr;
    std::string stray;
    for (int i = 1; i < argc; ++i) {
        const std::string arg = argv[i];
        if (arg.empty() || arg[0] == '-') continue;
        if (std::find(commands.begin(), commands.end(), arg) != commands.end())
            command = app.get_subcommand(arg);
        else
            stray = arg;
        break;
    }
    const std::string program = "collide";
    if (command == nullptr && !stray.empty()) {
        std::cerr << program << ": unknown command '" << shown(stray) << "'";
        const std::string match = closest_match(stray, commands);
        if (!match.empty()) std::cerr << "; did you mean '" << match << "'?";
        std::cerr << "\nRun '" << program << " --help' for the commands.\n";
        return 2;
    }
    // An unknown option: name the closest option of the subcommand (or of the program).
    const CLI::App& scope = command != nullptr ? *command : app;
    for (int i = 1; i < argc; ++i) {
        std::string arg = argv[i];
        if (arg == "--") break;
        if (arg.size() < 2 || arg[0] != '-') continue;
        arg = arg.substr(0, arg.find('='));
        const std::vector<std::string> known = option_names(scope);
        if (std::find(known.begin(), known.end(), arg) != known.end() || arg == "--version") continue;
        if (arg.size() > 2 && arg[1] != '-') arg = arg.substr(0, 2); // -abc: a short flag and its value
        if (std::find(known.begin(), known.end(), arg) != known.end()) continue;
        std::cerr << program << (command ? " " + command->get_name() : "") << ": unknown option '" << shown(arg) << "'";
        const std::string match = closest_match(arg, known);
        if (!match.empty()) std::cerr << "; did you mean '" << match << "'?";
        std::cerr << "\nRun '" << program << (command ? " " + command->get_name() : "")
                  << " --help' for the options.\n";
        return 2;
    }
    // CLI11's own message may quote an argument: its lines are printed with control and
    // bidirectional characters escaped (io/safe_text.h).
    std::ostringstream out, err;
    app.exit(error, out, err);
    for (std::ostringstream* s : {&out, &err}) {
        std::istringstream lines(s->str());
        std::ostream& to = s == &out ? std::cout : std::cerr;
        for (std::string line; std::getline(lines, line);) to << shown(line) << '\n';
    }
    return 2;
}
