#include "scenario/diagnostic.h"

namespace collide {

std::string format_diagnostic(const Diagnostic& d) {
    return d.file + ":" + std::to_string(d.line) + ":" + std::to_string(d.column) + ": error: " + d.message;
}

namespace {
std::string first_line(const std::vector<Diagnostic>& problems) {
    return problems.empty() ? std::string("scenario error") : format_diagnostic(problems.front());
}
} // namespace

ScenarioError::ScenarioError(std::vector<Diagnostic> problems)
    : std::runtime_error(first_line(problems)), diagnostics(std::move(problems)) {}

std::string ScenarioError::formatted() const {
    std::string text;
    for (const Diagnostic& d : diagnostics) text += format_diagnostic(d) + "\n";
    return text;
}

} // namespace collide
