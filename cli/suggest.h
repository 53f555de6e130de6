#pragma once
/// \file
/// Friendlier parse errors: an unknown subcommand or option is named with the closest known
/// one ("did you mean 'sim'?").

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

/// The edit distance (insertions, deletions, substitutions, swaps of neighbours) between two
/// words.
std::size_t edit_distance(const std::string& a, const std::string& b);

/// The candidate closest to `word`, or "" when none is close enough to be a likely typo.
std::string closest_match(const std::string& word, const std::vector<std::string>& candidates);

/// Prints a parse error of `app` for the command line `argv` to stderr, with the closest
/// subcommand or option when one was misspelt, and returns the exit code: 0 for --help and
/// --version, 2 otherwise.
int report_parse_error(CLI::App& app, const CLI::ParseError& error, int argc, char** argv);
