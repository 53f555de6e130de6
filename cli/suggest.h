#pragma once
/// \file
/// Friendlier parse errors: an unknown subcommand or option is named with the closest known
/// one ("did you mean 'sim'?").

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "io/closest_word.h"

/// Prints a parse error of `app` for the command line `argv` to stderr, with the closest
/// subcommand or option when one was misspelt, and returns the exit code: 0 for --help and
/// --version, 2 otherwise.
int report_parse_error(CLI::App& app, const CLI::ParseError& error, int argc, char** argv);
