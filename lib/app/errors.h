#pragma once
/// \file
/// The one way every command turns what went wrong into stderr lines and an exit code.
///
/// A command's body runs inside exit_code_for_errors: an InputError prints its diagnostics,
/// one a line, and gives exit code 2; an OutputError (io/atomic_file.h: an output that cannot be
/// written, never blamed on an input) or any other std::exception prints one line
/// `collide COMMAND: error: what` and gives 2 as well. A diagnostic without
/// a file (a bad command-line argument) reads `collide COMMAND: error: what`, one without a line
/// `FILE: error: what`, any other `FILE:LINE:COLUMN: error: what` (model/diagnostic.h).

#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "model/diagnostic.h"

namespace collide {

/// Exit codes shared by every command.
enum ExitCode : int {
    kExitOk = 0,      ///< everything held
    kExitFailed = 1,  ///< a failed expectation or a difference
    kExitBadInput = 2 ///< bad input, or output that could not be written
};

/// One diagnostic as a line (without '\n'): `collide COMMAND: error: what` when it names no
/// file, `FILE: error: what` when it has no line, else `FILE:LINE:COLUMN: error: what`.
std::string format_problem(const Diagnostic& diagnostic, std::string_view command);

/// Prints each diagnostic on its own line (format_problem).
void print_problems(std::ostream& err, std::span<const Diagnostic> problems, std::string_view command);

/// What the exception being handled says, as diagnostics: an InputError's own; any other
/// std::exception as one diagnostic at `where` with its what() as the message. Call only from a
/// catch block; an exception that is not a std::exception is rethrown.
std::vector<Diagnostic> problems_of_current_exception(const Diagnostic& where);

/// Runs `body` (returning an exit code, or nothing for 0) and returns its exit code; when it
/// throws, prints what went wrong on `err` (problems_of_current_exception with `where`: no file,
/// so `collide COMMAND: error: what`, unless the caller names a file such as the scenario being
/// worked on) and returns kExitBadInput.
template <class Fn> int exit_code_for_errors(std::ostream& err, std::string_view command, Fn&& body,
                                             const Diagnostic& where = {"", 0, 0, ""}) {
    try {
        if constexpr (std::is_void_v<std::invoke_result_t<Fn&>>) {
            body();
            return kExitOk;
        } else {
            return body();
        }
    } catch (...) {
        print_problems(err, problems_of_current_exception(where), command);
        return kExitBadInput;
    }
}

} // namespace collide
