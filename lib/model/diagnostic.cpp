#include "model/diagnostic.h"

#include "io/safe_text.h"

namespace collide {

std::string display_name(const std::string& file) { return file == "-" ? std::string("<stdin>") : file; }

std::string format_diagnostic(const Diagnostic& d) {
    // The file name and the message may quote input (a path from the command line, a key or a
    // value of the file): control and bidirectional characters are shown escaped, never sent.
    return escape_unsafe(d.file) + ":" + std::to_string(d.line) + ":" + std::to_string(d.column) +
           ": error: " + escape_unsafe(d.message);
}

namespace {
std::string first_line(const std::vector<Diagnostic>& problems) {
    return problems.empty() ? std::string("input error") : format_diagnostic(problems.front());
}
} // namespace

InputError::InputError(std::vector<Diagnostic> problems)
        : std::runtime_error(first_line(problems)), diagnostics(std::move(problems)) {}

InputError::InputError(std::string file, int line, int column, std::string message)
        : InputError(std::vector<Diagnostic>{{std::move(file), line, column, std::move(message)}}) {}

std::string InputError::formatted() const {
    std::string text;
    for (const Diagnostic& d : diagnostics) text += format_diagnostic(d) + "\n";
    return text;
}

} // namespace collide
