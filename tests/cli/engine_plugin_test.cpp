// `--engine PATH` through the commands (engine/plugin_loader.h): `check` keeps a plugin's goldens
// under the name it reports (NAME.bounce.log), and collide's own `check --update` leaves them be;
// `check` skips what the plugin refuses; `sweep --engine collide,PATH` tabulates both engines, the
// plugin's rows named by its name; `sim` prints the plugin's engine line first. The plugin is the
// example engine, examples/engine-plugin/bounce.c, built in the tree.
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "support/project_dir.h"
#include "support/run_command.h"

using collide::test::ProjectDir;
using collide::test::run_collide;

namespace {

const std::string kBounce = std::string("'") + COLLIDE_BOUNCE_PLUGIN + "'";

/// The fields of a CSV line (no quoting in a sweep's numbers), empty ones included.
std::vector<std::string> split(const std::string& line, char by) {
    std::vector<std::string> parts(1);
    for (const char c : line)
        if (c == by)
            parts.emplace_back();
        else
            parts.back() += c;
    return parts;
}

} // namespace

TEST_CASE("sim --engine PATH prints the plugin's engine and approximations first", "[engine][plugin][cli]") {
    const auto r = run_collide("sim scenarios/bouncing.yaml --engine " + kBounce);
    CHECK(r.exit_code == 0);
    CHECK(r.err.empty());
    CHECK(r.out.rfind("engine → bounce 1.0, spheres on boxes and planes (collide's example plugin, engine ABI 1)\n"
                      "bounce's approximations → one semi-implicit Euler step per frame",
                      0) == 0);
    CHECK(r.out.find("expectations → not checked with --engine bounce: they state collide's answers\n") !=
          std::string::npos);
    // Both engines: each log under its engine's name.
    const auto both = run_collide("sim scenarios/bouncing.yaml --engine collide," + std::string(COLLIDE_BOUNCE_PLUGIN));
    CHECK(both.exit_code == 0);
    CHECK(both.out.find("# engine collide\n") != std::string::npos);
    CHECK(both.out.find("# engine bounce\n") != std::string::npos);
}

TEST_CASE("check --engine PATH keeps the plugin's goldens by its name; collide's own check leaves them be",
          "[engine][plugin][cli]") {
    const ProjectDir project("collide_plugin_check");
    std::filesystem::copy_file(std::string(COLLIDE_SOURCE_DIR) + "/scenarios/bouncing.yaml",
                               project / "scenarios/bouncing.yaml");
    const std::string where = " --expected '" + (project / "expected") + "'";
    const auto update =
            run_collide("check '" + (project / "scenarios") + "' --engine " + kBounce + where + " --update");
    CHECK(update.exit_code == 0);
    CHECK(std::filesystem::is_regular_file(project / "expected/bouncing.bounce.log"));
    CHECK(std::filesystem::is_regular_file(project / "expected/bouncing.bounce.values"));
    CHECK(run_collide("check '" + (project / "scenarios") + "' --engine " + kBounce + where).exit_code == 0);
    // collide's own goldens beside them: its --update (--prune: stale goldens go too) writes
    // bouncing.log and removes nothing: bouncing.bounce.log is another engine's golden.
    const auto own = run_collide("check '" + (project / "scenarios") + "'" + where + " --update --prune");
    CHECK(own.exit_code == 0);
    CHECK(own.out.find("removed") != std::string::npos);
    CHECK(own.out.find("0 removed") != std::string::npos);
    CHECK(std::filesystem::is_regular_file(project / "expected/bouncing.log"));
    CHECK(std::filesystem::is_regular_file(project / "expected/bouncing.bounce.log"));
}

TEST_CASE("check --engine PATH skips a scenario the plugin refuses, and --strict fails it", "[engine][plugin][cli]") {
    const auto skip = run_collide("check scenarios/ramp.yaml --engine " + kBounce);
    CHECK(skip.exit_code == 0);
    CHECK(skip.out.find("skipped  ramp (scenarios/ramp.yaml:14:3: --engine bounce cannot run body 'ramp' (friction): "
                        "bounce has no friction") != std::string::npos);
    CHECK(skip.out.find("1 skipped (bounce cannot run it") != std::string::npos);
    CHECK(run_collide("check scenarios/ramp.yaml --strict --engine " + kBounce).exit_code == 2);
}

TEST_CASE("sweep --engine collide,PATH tabulates the plugin's rows under its name, hitting where collide's "
          "discrete world does",
          "[engine][plugin][cli]") {
    const auto r = run_collide("sweep scenarios/tunnel.yaml --vary speed=30:135:15 --vary offset=0.04:0.94:0.1 "
                               "--engine collide," +
                               std::string(COLLIDE_BOUNCE_PLUGIN) + " --format csv");
    REQUIRE(r.exit_code == 0);
    std::stringstream lines(r.out);
    std::string line;
    std::vector<std::string> header;
    while (std::getline(lines, line))
        if (line.rfind("cell,", 0) == 0) {
            header = split(line, ',');
            break;
        }
    REQUIRE(!header.empty());
    const auto column = [&](const std::string& name) {
        for (std::size_t k = 0; k < header.size(); ++k)
            if (header[k] == name) return k;
        FAIL("no column " << name);
        return std::size_t{0};
    };
    const std::size_t cell = column("cell"), engine = column("engine"), hit = column("first_contact.hit"),
                      frame = column("first_contact.frame");
    std::map<std::string, std::map<std::string, std::string>> by_engine; // engine → cell → hit and frame
    while (std::getline(lines, line)) {
        const std::vector<std::string> row = split(line, ',');
        if (row.size() < header.size()) continue;
        by_engine[row[engine]][row[cell]] = row[hit] + " " + row[frame];
    }
    REQUIRE(by_engine.size() == 2);
    REQUIRE(by_engine.count("bounce") == 1);
    CHECK(by_engine["collide"].size() == 8 * 10);
    // No gravity: bounce's Euler steps are exact, and its discrete overlap test at the sampled
    // frames is collide's (no offset of this grid puts the ball exactly touching the wall).
    CHECK(by_engine["collide"] == by_engine["bounce"]);
}
