#include "app/errors.h"

#include <exception>

#include "io/atomic_file.h"
#include "io/safe_text.h"

namespace collide {

std::string format_problem(const Diagnostic& d, std::string_view command) {
    if (d.file.empty()) return "collide " + std::string(command) + ": error: " + escape_unsafe(d.message);
    if (d.line <= 0) return escape_unsafe(d.file) + ": error: " + escape_unsafe(d.message);
    return format_diagnostic(d);
}

void print_problems(std::ostream& err, std::span<const Diagnostic> problems, std::string_view command) {
    for (const Diagnostic& d : problems) err << format_problem(d, command) << '\n';
}

std::vector<Diagnostic> problems_of_current_exception(const Diagnostic& where) {
    const auto at_where = [&](const char* what) {
        Diagnostic d = where;
        d.message = what;
        return std::vector<Diagnostic>{std::move(d)};
    };
    try {
        throw;
    } catch (const InputError& e) {
        return e.diagnostics.empty() ? at_where(e.what()) : e.diagnostics;
    } catch (const OutputError& e) {
        // An output that cannot be written is no input's fault: its message names the output.
        return {Diagnostic{"", 0, 0, e.what()}};
    } catch (const std::exception& e) {
        return at_where(e.what());
    }
}

} // namespace collide
