#pragma once
/// \file
/// `collide init [DIR]`: a starter project of one's own — a scenario with closed-form
/// expectations, its golden written by `collide check --update`, a GitHub Actions workflow that
/// checks the goldens on every push, and a README paragraph — whose `collide check` passes.
///
/// Writes, under DIR (made when missing):
///     scenarios/drop.yaml          a ball dropped with restitution 0.8: apex heights h·e^(2n)
///     expected/drop.log, .values   its golden
///     .github/workflows/collide.yml
///     README.md                    the paragraph (only when there is no README.md; else printed)
/// Nothing is written when any of the first four exists (exit 2, naming it): init never
/// overwrites a project's files.

#include <iosfwd>
#include <string>

namespace collide {

/// What `collide init` was asked to do.
struct InitOptions {
    std::string dir = "."; ///< the project's folder
    /// Where the workflow fetches collide's source from (a git URL); empty: a placeholder the
    /// workflow's comment asks to replace.
    std::string collide_git;
};

/// Writes the starter project (see the file comment); what it wrote and what to do next on
/// `out`, problems on `err`. Returns 0, or 2 when a file is in the way or cannot be written.
int init_command(const InitOptions& options, std::ostream& out, std::ostream& err);

/// The starter scenario's text (scenarios/drop.yaml).
extern const char* const kStarterScenario;

} // namespace collide
