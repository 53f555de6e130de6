// `--shard auto`: K and N from a Slurm array task or a Kubernetes Indexed Job, and a clear
// error naming what it looked for otherwise.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <map>
#include <string>
#include <vector>

#include "support/run_command.h"
#include "sweep/grid.h"

using namespace collide;

namespace {

/// An environment holding exactly `vars`.
Environment env_of(std::map<std::string, std::string> vars) {
    auto held = std::make_shared<std::map<std::string, std::string>>(std::move(vars));
    return [held](const char* name) -> const char* {
        const auto it = held->find(name);
        return it == held->end() ? nullptr : it->second.c_str();
    };
}

std::map<std::string, std::string> slurm(int id, int min, int max, int count, int step = 0) {
    std::map<std::string, std::string> v = {{"SLURM_ARRAY_TASK_ID", std::to_string(id)},
                                            {"SLURM_ARRAY_TASK_MIN", std::to_string(min)},
                                            {"SLURM_ARRAY_TASK_MAX", std::to_string(max)},
                                            {"SLURM_ARRAY_TASK_COUNT", std::to_string(count)}};
    if (step > 0) v["SLURM_ARRAY_TASK_STEP"] = std::to_string(step);
    return v;
}

std::string error_of(std::string_view text, const Environment& env) {
    try {
        parse_shard(text, env);
    } catch (const InputError& e) {
        return e.diagnostics.front().message;
    }
    return "accepted";
}

} // namespace

TEST_CASE("sweep --shard auto in a Slurm array: K is the task's place in the array, N its count", "[sweep][shard]") {
    // --array=0-15 and --array=1-16: both give shards 1/16 … 16/16.
    for (int id = 0; id < 16; ++id) {
        const Shard zero = parse_shard("auto", env_of(slurm(id, 0, 15, 16)));
        const Shard one = parse_shard("auto", env_of(slurm(id + 1, 1, 16, 16)));
        CHECK(zero.index == static_cast<std::uint64_t>(id));
        CHECK(zero.count == 16);
        CHECK(one.index == zero.index);
        CHECK(one.count == 16);
    }
    // --array=3-11:4 is 3, 7, 11: task 7 is the second of three; without STEP it is inferred.
    CHECK(parse_shard("auto", env_of(slurm(7, 3, 11, 3, 4))).index == 1);
    CHECK(parse_shard("auto", env_of(slurm(11, 3, 11, 3))).index == 2);
    CHECK(parse_shard("auto/3", env_of(slurm(3, 3, 11, 3, 4))).count == 3);
    CHECK(parse_shard("auto", env_of(slurm(4, 0, 15, 16))).source == "SLURM_ARRAY_TASK_ID=4 of 0-15");
    // Slurm's variables win over a Kubernetes index.
    auto both = slurm(2, 1, 4, 4);
    both["JOB_COMPLETION_INDEX"] = "0";
    CHECK(parse_shard("auto", env_of(both)).index == 1);
}

TEST_CASE("sweep --shard auto refuses a Slurm array it cannot number, naming the variable", "[sweep][shard]") {
    CHECK_THAT(error_of("auto/8", env_of(slurm(1, 1, 16, 16))),
               Catch::Contains("the Slurm array has 16 tasks (SLURM_ARRAY_TASK_COUNT), not 8"));
    CHECK_THAT(error_of("auto", env_of(slurm(2, 1, 7, 3, 1))), // --array=1,2,7: Slurm sets STEP 1 for a list
               Catch::Contains("is not a range"));
    CHECK_THAT(error_of("auto", env_of(slurm(4, 1, 7, 4, 2))), Catch::Contains("SLURM_ARRAY_TASK_ID 4 is not a task"));
    auto partial = slurm(1, 1, 4, 4);
    partial.erase("SLURM_ARRAY_TASK_COUNT");
    CHECK_THAT(error_of("auto", env_of(partial)), Catch::Contains("SLURM_ARRAY_TASK_COUNT is not"));
    auto text = slurm(1, 1, 4, 4);
    text["SLURM_ARRAY_TASK_ID"] = "one";
    CHECK_THAT(error_of("auto", env_of(text)), Catch::Contains("SLURM_ARRAY_TASK_ID is 'one', not a whole number"));
}

TEST_CASE("sweep --shard auto/N in a Kubernetes Indexed Job: K − 1 is JOB_COMPLETION_INDEX", "[sweep][shard]") {
    const Shard s = parse_shard("auto/4", env_of({{"JOB_COMPLETION_INDEX", "3"}}));
    CHECK(s.index == 3);
    CHECK(s.count == 4);
    CHECK_THAT(error_of("auto", env_of({{"JOB_COMPLETION_INDEX", "3"}})), Catch::Contains("give --shard auto/N"));
    CHECK_THAT(error_of("auto/3", env_of({{"JOB_COMPLETION_INDEX", "3"}})), Catch::Contains("is not below N = 3"));
}

TEST_CASE("sweep --shard auto outside an array task names what it looked for", "[sweep][shard]") {
    CHECK(error_of("auto", env_of({})) ==
          "--shard auto: this is no array task: looked for SLURM_ARRAY_TASK_ID (a Slurm job array, sbatch --array) "
          "and JOB_COMPLETION_INDEX (a Kubernetes Indexed Job); outside them give --shard K/N");
    CHECK_THAT(error_of("auto/0", env_of({})), Catch::Contains("expected auto or auto/N"));
    CHECK_THAT(error_of("auto/x", env_of({})), Catch::Contains("expected auto or auto/N"));
}

TEST_CASE("collide sweep --shard auto runs the array task's shard; outside one it exits 2", "[sweep][shard]") {
    const std::string sweep = "sweep scenarios/tunnel.yaml --vary speed=30:300:15 --detection both --format csv ";
    const std::vector<std::string> vars = {"SLURM_ARRAY_TASK_ID",    "SLURM_ARRAY_TASK_MIN",  "SLURM_ARRAY_TASK_MAX",
                                           "SLURM_ARRAY_TASK_COUNT", "SLURM_ARRAY_TASK_STEP", "JOB_COMPLETION_INDEX"};
    // The child processes inherit this test's environment: set it, and put it back after.
    std::map<std::string, std::string> saved;
    for (const std::string& v : vars)
        if (const char* value = std::getenv(v.c_str())) saved[v] = value;
    for (const std::string& v : vars) ::unsetenv(v.c_str());
    const auto outside = test::run_collide(sweep + "--shard auto");
    const auto by_hand = test::run_collide(sweep + "--shard 3/4");
    for (const auto& [name, value] : slurm(2, 0, 3, 4, 1)) ::setenv(name.c_str(), value.c_str(), 1);
    const auto task = test::run_collide(sweep + "--shard auto");
    for (const std::string& v : vars) ::unsetenv(v.c_str());
    for (const auto& [name, value] : saved) ::setenv(name.c_str(), value.c_str(), 1);

    REQUIRE(by_hand.exit_code == 0);
    CHECK(task.exit_code == 0);
    CHECK(task.out == by_hand.out);
    CHECK_THAT(task.err, Catch::StartsWith("sweep: shard 3/4 (SLURM_ARRAY_TASK_ID=2 of 0-3)\n"));
    CHECK(outside.exit_code == 2);
    CHECK_THAT(outside.err, Catch::Contains("looked for SLURM_ARRAY_TASK_ID"));
}
