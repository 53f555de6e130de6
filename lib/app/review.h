#pragma once
/// \file
/// `collide review`: walk the pending results a failing `collide check` left beside the goldens
/// (`EXPECTED/NAME.log.new` and `EXPECTED/NAME.values.new`, app/check.h) and accept or reject
/// each, as snapshot testing tools do.
///
/// Accepting writes the pending log and values as the golden, byte for byte what
/// `collide check --update NAME` writes, each file atomically, then removes the pending files;
/// rejecting removes them. Interactively each pending result's diff is shown (golden → pending:
/// the lines and every full-precision value that changed), then `a` accept, `r` reject, `s` skip,
/// `q` quit is read from the input, one answer a line (end of input: quit).
///
/// Exit codes: 0 done (also when nothing is pending: it says so); 2 bad input (a name with no
/// pending result, a pending result missing its values or not matching them, a file that cannot
/// be written), in which case nothing is accepted or rejected when the names were wrong.

#include <istream>
#include <ostream>
#include <string>
#include <vector>

namespace collide {

/// What `collide review` was asked to do.
struct ReviewOptions {
    /// How the pending results are decided.
    enum class Mode {
        interactive, ///< show each and ask
        accept_all,  ///< accept every pending result
        reject_all,  ///< reject every pending result
        named,       ///< accept `accept`, reject `reject`, leave the rest pending
    };
    std::string expected_dir = "expected"; ///< where the goldens and pending results live
    Mode mode = Mode::interactive;
    std::vector<std::string> accept; ///< with `named`: names (stems, or a golden or pending path) to accept
    std::vector<std::string> reject; ///< with `named`: names to reject
    bool color = false;              ///< ANSI colours in diffs
};

/// The names (stems) of the pending results in `expected_dir`, sorted.
std::vector<std::string> pending_names(const std::string& expected_dir);

/// Runs `collide review`: answers come from `in` (interactive mode), the report goes to `out`,
/// problems to `err`. Returns the exit code (see the file comment).
int review_command(const ReviewOptions& options, std::istream& in, std::ostream& out, std::ostream& err);

} // namespace collide
