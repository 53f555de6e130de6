// `collide init` (app/init.cpp): a starter project whose check passes, run as its workflow runs
// it; the scenario's expectations are the closed form h·e^(2n); a second init, or a file in the
// way, writes nothing; a README of one's own is left as it is.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <sstream>
#include <string>

#include "app/check.h"
#include "app/init.h"
#include "support/project_dir.h"

using namespace collide;
using namespace collide::test;
namespace fs = std::filesystem;

namespace {

struct Run {
    int code;
    std::string out, err;
};

Run init(const std::string& dir) {
    InitOptions o;
    o.dir = dir;
    std::ostringstream out, err;
    const int code = init_command(o, out, err);
    return {code, out.str(), err.str()};
}

} // namespace

TEST_CASE("collide init writes a project whose check passes, run as its workflow runs it", "[app][init]") {
    const ScratchDir scratch("collide_init");
    const std::string dir = (scratch.path / "mine").string();
    const Run r = init(dir);
    REQUIRE(r.code == 0);
    CHECK(r.err.empty());
    for (const char* f : {"scenarios/drop.yaml", "expected/drop.log", "expected/drop.values",
                          ".github/workflows/collide.yml", "README.md"})
        CHECK(fs::is_regular_file(fs::path(dir) / f));
    // The golden is the closed form printed: 1 m · 0.8^(2n) = 0.64, 0.4096, 0.262144 m.
    CHECK(read_text(dir + "/expected/drop.log") ==
          "dropped from 1 m with restitution 0.8, apex after 1, 2 and 3 bounces → 0.640 m, 0.410 m, 0.262 m\n");
    CheckOptions o;
    o.paths = {dir + "/scenarios"};
    o.expected_dir = dir + "/expected";
    o.ci = true;
    std::ostringstream out, err;
    CHECK(check_command(o, out, err) == 0);
    CHECK(out.str() ==
          "ok       drop\ncheck: 1 passed, 0 failed; CI is set: goldens are read only (--update writes them)\n");

    // The workflow's check step, run in the project as GitHub would (collide already built).
    const std::string workflow = read_text(dir + "/.github/workflows/collide.yml");
    const std::string step =
            "/opt/collide/build/collide check --jobs 2 --junit junit.xml --artifacts collide-artifacts";
    REQUIRE(workflow.find("      - run: " + step + "\n") != std::string::npos);
    CHECK(workflow.find("COLLIDE_GIT: https://example.invalid/collide.git  # where your team keeps") !=
          std::string::npos);
    const std::string command = "cd '" + dir + "' && CI=true '" + COLLIDE_EXE + "'" +
                                step.substr(std::string("/opt/collide/build/collide").size()) + " >/dev/null 2>&1";
    CHECK(std::system(command.c_str()) == 0);
    CHECK(read_text(dir + "/junit.xml").find("<testcase name=\"drop\" classname=\"scenarios/drop.yaml\"") !=
          std::string::npos);
}

TEST_CASE("collide init never overwrites: a second init, or a file in the way, writes nothing", "[app][init]") {
    const ScratchDir scratch("collide_init_twice");
    const std::string dir = (scratch.path / "p").string();
    REQUIRE(init(dir).code == 0);
    write_text(dir + "/scenarios/drop.yaml", "mine\n");
    const Run again = init(dir);
    CHECK(again.code == 2);
    CHECK(again.err == dir + "/scenarios/drop.yaml: error: is already there: `collide init` writes a new project "
                             "and never overwrites a file (give another folder, or remove it)\n");
    CHECK(read_text(dir + "/scenarios/drop.yaml") == "mine\n");

    // A README of one's own stays; the paragraph is printed for it instead.
    const std::string other = (scratch.path / "q").string();
    fs::create_directories(other);
    write_text(other + "/README.md", "# my game\n");
    const Run r = init(other);
    CHECK(r.code == 0);
    CHECK(read_text(other + "/README.md") == "# my game\n");
    CHECK(r.out.find("README.md is there already: left as it is; its paragraph on collide would be:") !=
          std::string::npos);
    CHECK(r.out.find("## Collision goldens") != std::string::npos);
}
