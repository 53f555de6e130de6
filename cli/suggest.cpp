// Suggestions for misspelt subcommands and options.
#include "suggest.h"

#include <algorithm>
#include <iostream>
#include <numeric>
#include <regex>
#include <sstream>

#include "io/closest_word.h"
#include "io/safe_text.h"

using collide::closest_match;

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
    // CLI11's message, in collide's words: the command, the option and its value, what it takes,
    // and the command's help. Its text may quote an argument: it is printed with control and
    // bidirectional characters escaped (io/safe_text.h).
    const std::string where = program + (command ? " " + command->get_name() : "");
    const std::string what = error.what();
    std::smatch m;
    std::string message;
    // (std::regex recurses per character: a message quoting a 100,000-character argument is
    // printed shortened, never matched.)
    constexpr std::size_t kMatched = 1000;
    if (what.size() > kMatched) {
        message = shown(what);
    } else if (std::regex_match(what, m, std::regex(R"((-[-\w]+): (.*) not in \{(.*)\})"))) {
        std::vector<std::string> choices;
        std::stringstream list(m[3].str());
        for (std::string c; std::getline(list, c, ',');) choices.push_back(c);
        std::string shown_choices;
        for (std::size_t k = 0; k < choices.size(); ++k)
            shown_choices += (k == 0 ? "" : k + 1 == choices.size() ? " or " : ", ") + choices[k];
        message = m[1].str() + " " + shown(m[2].str()) + ": expected " + shown_choices;
        const std::string match = closest_match(m[2].str(), choices);
        if (!match.empty()) message += "; did you mean '" + match + "'?";
        if (m[2].str().find(',') != std::string::npos && m[1].str() == "--engine")
            message += " (one engine at a time here; `collide sweep --engine " + shown(m[2].str()) +
                       "` runs several side by side)";
    } else if (std::regex_match(what, m, std::regex(R"((-[-\w]+): Value (.*) not in range (.*) to (.*))"))) {
        message = m[1].str() + " " + shown(m[2].str()) + ": expected a whole number from " + m[3].str() + " to " +
                  m[4].str();
    } else if (std::regex_match(what, m, std::regex(R"((\w+) is required)"))) {
        message = "no " + m[1].str() + " given";
    } else if (std::regex_match(what, m, std::regex(R"((-[-\w]+): \d+ required (\w+) missing)"))) {
        message = m[1].str() + ": expected a value after it";
    } else {
        message = shown(what);
    }
    std::cerr << where << ": " << message << "\nRun '" << where << " --help' for the options.\n";
    return 2;
}
