#pragma once
/// \file
/// The one located diagnostic of collide: a problem pinned to the place in an input file
/// (scenario YAML, golden log, sweep CSV, command-line option) where it was written, and the
/// error that carries one or more of them. Every message reads `FILE:LINE:COLUMN: error: what
/// is wrong`; every command turns an InputError into those lines and exit code 2.

#include <stdexcept>
#include <string>
#include <vector>

namespace collide {

/// Where in an input file something was written: 1-based line and column.
struct SourceMark {
    int line = 0;   ///< 1-based line; 0 when unknown
    int column = 0; ///< 1-based column; 0 when unknown
};

/// One problem in an input.
struct Diagnostic {
    std::string file;    ///< the path as given ("<stdin>" for standard input)
    int line = 1;        ///< 1-based line of the offending node
    int column = 1;      ///< 1-based column of the offending node
    std::string message; ///< what is wrong, one line, no trailing full stop needed
};

/// The name a scenario file (Scenario::file) is shown as in diagnostics: "<stdin>" for "-",
/// else the path.
std::string display_name(const std::string& file);

/// "FILE:LINE:COLUMN: error: message".
std::string format_diagnostic(const Diagnostic& diagnostic);

/// An input that cannot be used. `what()` is the first diagnostic, formatted; `diagnostics`
/// holds every problem found (one per problem, in file order where possible).
class InputError : public std::runtime_error {
public:
    /// An error carrying at least one diagnostic.
    explicit InputError(std::vector<Diagnostic> problems);
    /// An error with one diagnostic.
    InputError(std::string file, int line, int column, std::string message);
    /// Every problem found.
    std::vector<Diagnostic> diagnostics;
    /// All diagnostics formatted, one a line, each ending with '\n'.
    std::string formatted() const;
};

/// A scenario that is valid but asks for what an engine lacks (a character run by Bullet):
/// `check --engine E` reports it as skipped (unless --strict), everything else as bad input.
class UnsupportedError : public InputError {
public:
    using InputError::InputError;
};

} // namespace collide
