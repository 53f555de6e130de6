#pragma once
/// \file
/// Problems found in a scenario file, each pinned to the place it was written, and the error
/// that carries them. Every message reads `FILE:LINE:COLUMN: error: what is wrong`.

#include <stdexcept>
#include <string>
#include <vector>

namespace collide {

/// One problem in a scenario file.
struct Diagnostic {
    std::string file;    ///< the path as given ("<stdin>" for standard input)
    int line = 1;        ///< 1-based line of the offending YAML node
    int column = 1;      ///< 1-based column of the offending YAML node
    std::string message; ///< what is wrong, one line, no trailing full stop needed
};

/// "FILE:LINE:COLUMN: error: message".
std::string format_diagnostic(const Diagnostic& diagnostic);

/// A scenario that cannot be loaded or instantiated. `what()` is the first diagnostic, formatted;
/// `diagnostics` holds every problem found (one per problem, in file order where possible).
class ScenarioError : public std::runtime_error {
public:
    /// An error carrying at least one diagnostic.
    explicit ScenarioError(std::vector<Diagnostic> problems);
    /// Every problem found.
    std::vector<Diagnostic> diagnostics;
    /// All diagnostics formatted, one a line, each ending with '\n'.
    std::string formatted() const;
};

} // namespace collide
