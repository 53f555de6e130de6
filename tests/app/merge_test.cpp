// `collide merge --format` (app/merge.cpp): a sweep run in three shards and merged draws the
// very bytes the sweep run whole writes, in every format and with two engines; a map without
// the scenario, of another scenario, or of an unknown measure is bad input.
#include <catch2/catch.hpp>

#include <string>

#include "support/project_dir.h"
#include "support/run_command.h"

using namespace collide::test;

namespace {

const std::string kGrid = "scenarios/tunnel.yaml --vary speed=30:300:30 --vary offset=0:0.9:0.1 --detection both";

} // namespace

TEST_CASE("merge --format draws the merged shards as the whole sweep does, byte for byte", "[app][merge]") {
    const ScratchDir dir("collide_merge_formats");
    const std::string d = dir.path.string();
    for (int k = 1; k <= 3; ++k)
        REQUIRE(run_collide("sweep " + kGrid + " --format csv --shard " + std::to_string(k) + "/3 -o " + d + "/part" +
                            std::to_string(k) + ".csv")
                        .exit_code == 0);
    for (const std::string format : {"table", "json", "svg", "html"}) {
        INFO(format);
        REQUIRE(run_collide("sweep " + kGrid + " --format " + format + " -o " + d + "/whole." + format).exit_code == 0);
        // The shards in any order.
        const auto merged = run_collide("merge " + d + "/part3.csv " + d + "/part1.csv " + d + "/part2.csv --format " +
                                        format + " --scenario scenarios/tunnel.yaml -o " + d + "/merged." + format);
        CHECK(merged.exit_code == 0);
        CHECK(read_text(d + "/merged." + format) == read_text(d + "/whole." + format));
        CHECK(read_text(d + "/merged." + format).size() > 100);
    }
    const auto other = run_collide("merge " + d + "/part1.csv " + d + "/part2.csv " + d +
                                   "/part3.csv --format table --scenario scenarios/bouncing.yaml");
    CHECK(other.exit_code == 2);
    CHECK(other.err.find("the shards vary 'speed', which scenarios/bouncing.yaml has no param of") !=
          std::string::npos);
    const auto none = run_collide("merge " + d + "/part1.csv " + d + "/part2.csv " + d + "/part3.csv --format svg");
    CHECK(none.exit_code == 2);
    CHECK(none.err.find("give --scenario FILE") != std::string::npos);
    const auto measure = run_collide("merge " + d + "/part1.csv " + d + "/part2.csv " + d +
                                     "/part3.csv --format svg --scenario scenarios/tunnel.yaml --measure speeed");
    CHECK(measure.exit_code == 2);
    CHECK(measure.err.find("--measure speeed: no such field") != std::string::npos);
    // A missing shard is refused as plain merge refuses it.
    CHECK(run_collide("merge " + d + "/part1.csv " + d + "/part2.csv --format table --scenario scenarios/tunnel.yaml")
                  .exit_code == 2);
}

TEST_CASE("merge --format draws a sweep of two engines as the whole sweep does", "[app][merge]") {
    const ScratchDir dir("collide_merge_engines");
    const std::string d = dir.path.string();
    const std::string grid = kGrid + " --engine collide,bullet";
    if (run_collide("--version").out.find("bullet (") == std::string::npos)
        SUCCEED("this build has no Bullet");
    else {
        for (int k = 1; k <= 2; ++k)
            REQUIRE(run_collide("sweep " + grid + " --format csv --shard " + std::to_string(k) + "/2 -o " + d + "/e" +
                                std::to_string(k) + ".csv")
                            .exit_code == 0);
        REQUIRE(run_collide("sweep " + grid + " --format table -o " + d + "/whole.txt").exit_code == 0);
        CHECK(run_collide("merge " + d + "/e2.csv " + d +
                          "/e1.csv --format table --scenario scenarios/tunnel.yaml -o " + d + "/merged.txt")
                      .exit_code == 0);
        CHECK(read_text(d + "/merged.txt") == read_text(d + "/whole.txt"));
    }
}
