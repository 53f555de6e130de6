#include "app/init.h"

#include <filesystem>
#include <fmt/format.h>
#include <ostream>
#include <sstream>
#include <system_error>

#include "app/check.h"
#include "app/errors.h"
#include "io/atomic_file.h"

namespace collide {

namespace fs = std::filesystem;

const char* const kStarterScenario =
        R"(# A ball dropped 1 m (its bottom above the floor) with restitution 0.8, swept: each bounce keeps
# e² of the height, so the n-th apex is h·e^(2n) — 0.64, 0.4096 and 0.262144 m — and the
# expectations hold collide to that within 1e-6. Edit it, then `collide check` (and
# `collide review` to accept what changed).
name: drop
about: A ball dropped from 1 m with restitution 0.8 bounces to 1 m · 0.8^(2n) at its n-th apex.
world: { rate: 60, duration: 3, gravity: [0, -9.81, 0], detection: swept }
bodies:
  floor: { static: true, box: { min: [-5, -1, -5], max: [5, 0, 5] } }
  ball: { sphere: { radius: 0.1 }, position: [0, 1.1, 0], restitution: 0.8, friction: 0 }
log:
  - apex: { body: ball, bounces: 3, drop_height: 1, floor: floor }
    id: drop
expect:
  - { value: drop.apex_1, equals: drop.analytic_1, tolerance: 1e-6 }
  - { value: drop.apex_2, equals: drop.analytic_2, tolerance: 1e-6 }
  - { value: drop.apex_3, equals: drop.analytic_3, tolerance: 1e-6 }
)";

namespace {

/// The workflow: collide built from its source on Debian 12, then `collide check` of the
/// project's scenarios against its goldens, the reports kept when it fails.
std::string workflow_of(const std::string& git) {
    const bool placeholder = git.empty();
    return fmt::format(R"(# collide's goldens checked on every push and pull request (written by `collide init`).
# It builds collide from its source (COLLIDE_GIT at COLLIDE_REF) on Debian 12 and runs
# `collide check` over scenarios/ against expected/; when a check fails, its JUnit report and
# each failing scenario's log, diff and recording (for `collide diverge`) are kept as an artifact.
# Goldens hold collide's results bit for bit: pin COLLIDE_REF to the collide your goldens were
# blessed with, and move it in the commit that re-blesses them.
name: collide
on: [push, pull_request]
env:
  COLLIDE_GIT: {}{}
  COLLIDE_REF: main
jobs:
  check:
    runs-on: ubuntu-latest
    container: debian:12
    steps:
      - run: apt-get update -qq && apt-get install -y -qq git ca-certificates
      - uses: actions/checkout@v4
      - run: git clone --depth 1 --branch "$COLLIDE_REF" "$COLLIDE_GIT" /opt/collide
      - run: bash /opt/collide/scripts/build.sh
      - run: /opt/collide/build/collide check --jobs 2 --junit junit.xml --artifacts collide-artifacts
      - if: failure()
        uses: actions/upload-artifact@v4
        with:
          name: collide-check
          path: |
            junit.xml
            collide-artifacts
)",
                       placeholder ? "https://example.invalid/collide.git" : git,
                       placeholder ? "  # where your team keeps collide's source: replace this" : "");
}

/// The README paragraph.
const char* const kReadme = R"(## Collision goldens

`scenarios/` holds collide scenarios (YAML: bodies, world, what to log, closed-form
expectations); `expected/` their goldens, the logs collide printed when they were blessed, with
every value at full precision. `collide check` runs every scenario and fails on any value that
moved beyond its tolerance or any expectation that no longer holds; `collide review` shows each
change and accepts or rejects it; `collide check --update NAME` blesses one without looking.
CI (`.github/workflows/collide.yml`) runs `collide check` on every push.
)";

} // namespace

int init_command(const InitOptions& options, std::ostream& out, std::ostream& err) {
    return exit_code_for_errors(err, "init", [&]() -> int {
        const fs::path dir(options.dir.empty() ? "." : options.dir);
        const auto at = [&](const char* rel) { return (dir / rel).lexically_normal().generic_string(); };
        const std::string scenario = at("scenarios/drop.yaml"), log = at("expected/drop.log"),
                          values = at("expected/drop.values"), workflow = at(".github/workflows/collide.yml"),
                          readme = at("README.md");
        std::error_code ec;
        for (const std::string& p : {scenario, log, values, workflow})
            if (fs::exists(p, ec) || fs::is_symlink(p, ec))
                throw InputError({Diagnostic{p, 0, 0,
                                             "is already there: `collide init` writes a new project and never "
                                             "overwrites a file (give another folder, or remove it)"}});
        if (fs::exists(dir, ec) && !fs::is_directory(dir, ec))
            throw InputError({Diagnostic{dir.generic_string(), 0, 0, "not a folder"}});
        for (const std::string& p : {scenario, log, workflow}) fs::create_directories(fs::path(p).parent_path(), ec);
        write_file_atomically(scenario, kStarterScenario);
        write_file_atomically(workflow, workflow_of(options.collide_git));
        // The golden: what `collide check --update` writes for it, made by check itself.
        CheckOptions check;
        check.paths = {scenario};
        check.expected_dir = at("expected");
        check.update = true;
        check.ci = true; // no pending files
        std::ostringstream check_out, check_err;
        const int code = check_command(check, check_out, check_err);
        if (code != 0) {
            err << check_err.str();
            throw std::runtime_error("the starter scenario's golden could not be written: " + check_out.str());
        }
        const bool wrote_readme = !fs::exists(readme, ec);
        if (wrote_readme) write_file_atomically(readme, kReadme);
        out << fmt::format("created  {}\ncreated  {}\ncreated  {}\ncreated  {}\n", scenario, log, values, workflow);
        if (wrote_readme)
            out << "created  " << readme << '\n';
        else
            out << readme << " is there already: left as it is; its paragraph on collide would be:\n\n"
                << kReadme << '\n';
        const bool here = dir.lexically_normal() == fs::path(".");
        out << fmt::format("next: {}`collide check` (it passes), edit scenarios/drop.yaml, `collide check` again, "
                           "`collide review`{}\n",
                           here ? "" : fmt::format("cd {} && ", dir.generic_string()),
                           options.collide_git.empty()
                                   ? "; set COLLIDE_GIT in .github/workflows/collide.yml to where collide's source is"
                                   : "");
        return kExitOk;
    });
}

} // namespace collide
