// `collide check --shard K/N`: each shard checks its share of the scenarios (index in sorted
// order mod N is K − 1) and writes its own JUnit file; together the files list every scenario
// once, and a stale golden once (in shard 1).
#include <catch2/catch.hpp>

#include <filesystem>
#include <map>
#include <regex>
#include <string>

#include "support/project_dir.h"
#include "support/run_command.h"

namespace fs = std::filesystem;
using collide::test::read_text;

namespace {

/// The testcase names of a JUnit file.
std::vector<std::string> cases_of(const std::string& junit) {
    std::vector<std::string> names;
    const std::regex testcase("<testcase name=\"([^\"]*)\"");
    for (auto it = std::sregex_iterator(junit.begin(), junit.end(), testcase); it != std::sregex_iterator(); ++it)
        names.push_back((*it)[1]);
    return names;
}

} // namespace

TEST_CASE("check --shard K/N: the shards' JUnit files list every scenario once", "[app][check][shard]") {
    const collide::test::ProjectDir dir("collide_check_shard");
    const std::vector<std::string> names = {"tunnel", "mtv", "slope", "raycast", "sat-boxes", "triangle-box", "slide"};
    for (const std::string& n : names) {
        fs::copy_file(std::string(COLLIDE_SOURCE_DIR) + "/scenarios/" + n + ".yaml",
                      dir / ("scenarios/" + n + ".yaml"));
        for (const char* ext : {".log", ".values"})
            fs::copy_file(std::string(COLLIDE_SOURCE_DIR) + "/expected/" + n + ext, dir / ("expected/" + n + ext));
    }
    // A golden whose scenario is gone: stale, reported by shard 1 alone.
    fs::copy_file(dir / "expected/mtv.log", dir / "expected/gone.log");
    fs::copy_file(dir / "expected/mtv.values", dir / "expected/gone.values");

    std::map<std::string, int> seen;
    for (int k = 1; k <= 3; ++k) {
        const std::string junit = dir / ("junit-" + std::to_string(k) + ".xml");
        const auto r =
                collide::test::run_collide("check '" + (dir / "scenarios") + "' --expected '" + (dir / "expected") +
                                           "' --shard " + std::to_string(k) + "/3 --junit '" + junit + "'");
        INFO(r.out << r.err);
        CHECK(r.exit_code == (k == 1 ? 1 : 0)); // the stale golden fails shard 1
        // 7 scenarios in sorted order: mtv raycast sat-boxes slide slope triangle-box tunnel.
        const std::string share = k == 1 ? "3 of 7" : "2 of 7";
        CHECK_THAT(r.out, Catch::Contains("; shard " + std::to_string(k) + "/3: " + share + " scenarios\n"));
        for (const std::string& name : cases_of(read_text(junit))) ++seen[name];
    }
    CHECK(seen.size() == names.size() + 1);
    for (const std::string& n : names) CHECK(seen[n] == 1);
    CHECK(seen["gone"] == 1);
    // Shard 2 of 3 holds the 2nd and 5th: raycast and slope.
    const std::vector<std::string> second = cases_of(read_text(dir / "junit-2.xml"));
    CHECK(second == std::vector<std::string>{"raycast", "slope"});
}

TEST_CASE("check --shard auto takes the shard from a Slurm array task", "[app][check][shard]") {
    const char* vars[] = {"SLURM_ARRAY_TASK_ID", "SLURM_ARRAY_TASK_MIN", "SLURM_ARRAY_TASK_MAX",
                          "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_STEP"};
    const char* values[] = {"0", "0", "1", "2", "1"};
    std::map<std::string, std::string> saved;
    for (const char* v : vars)
        if (const char* old = std::getenv(v)) saved[v] = old;
    for (int i = 0; i < 5; ++i) ::setenv(vars[i], values[i], 1);
    const auto automatic = collide::test::run_collide("check scenarios/tunnel.yaml scenarios/mtv.yaml --shard auto");
    for (const char* v : vars) ::unsetenv(v);
    for (const auto& [name, value] : saved) ::setenv(name.c_str(), value.c_str(), 1);
    const auto by_hand = collide::test::run_collide("check scenarios/tunnel.yaml scenarios/mtv.yaml --shard 1/2");
    CHECK(automatic.exit_code == 0);
    CHECK_THAT(automatic.out,
               Catch::StartsWith("ok       mtv\n") &&
                       Catch::EndsWith("; shard 1/2: 1 of 2 scenarios (SLURM_ARRAY_TASK_ID=0 of 0-1)\n"));
    CHECK_THAT(by_hand.out, Catch::EndsWith("; shard 1/2: 1 of 2 scenarios\n"));
}
