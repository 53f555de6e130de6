// The sweep and merge commands as a user runs them: output, exit codes, atomic -o.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/project_dir.h"
#include "support/run_command.h"

using collide::test::run_collide;

namespace {
std::string slurp(const std::filesystem::path& p) {
    std::stringstream s;
    s << std::ifstream(p).rdbuf();
    return s.str();
}
const std::string kGrid = "scenarios/tunnel.yaml --vary speed=30:300:15 --vary offset=0:0.95:0.05 --detection both";
} // namespace

TEST_CASE("collide sweep writes CSV with a summary line on stderr") {
    const auto r = run_collide("sweep " + kGrid + " --format csv");
    CHECK(r.exit_code == 0);
    CHECK_THAT(r.out, Catch::StartsWith("# collide sweep grid: speed (19 values), offset (20 values); detection "
                                        "discrete, swept; digest 566df003c31ea39f\n"
                                        "cell,speed,offset,detection,first_contact.hit,first_contact.frame,"
                                        "first_contact.time,first_contact.x,first_contact.y,first_contact.z,"
                                        "tunnel.tunneled,tunnel.outcome,tunnel.frame,tunnel.time\n"
                                        // x_k = −3 + k/2: k = 5 is at −0.5 (outside), k = 6 at 0 (the
                                        // wall's middle: pushed out past it), k = 7 at 0.5, beyond it
                                        "0,30,0,discrete,true,6,0.1,0,0,0,true,2,7,0.11666666666666667\n"
                                        // t* = 2.65/30 lies in the step ending at frame 6 (t = 0.1); held
                                        "0,30,0,swept,true,6,0.08833333333333333,-0.35,0,0,false,0,,\n"));
    CHECK(std::count(r.out.begin(), r.out.end(), '\n') == 2 + 760);
    CHECK_THAT(r.err, Catch::Matches("sweep: 760 cells in .* s \\(\\d+ cells/s\\)\n"));
}

TEST_CASE("collide merge of shard files equals the unsharded sweep, -o writes the file") {
    namespace fs = std::filesystem;
    const collide::test::ScratchDir scratch("collide_sweep_cli");
    const fs::path& dir = scratch.path;
    const auto whole = run_collide("sweep " + kGrid + " --format csv --jobs 1");
    std::string shards;
    for (int k = 1; k <= 3; ++k) {
        const fs::path p = dir / ("s" + std::to_string(k) + ".csv");
        const auto r = run_collide("sweep " + kGrid + " --format csv --jobs 2 --shard " + std::to_string(k) +
                                   "/3 -o '" + p.string() + "'");
        REQUIRE(r.exit_code == 0);
        CHECK(r.out.empty());
        shards = "'" + p.string() + "' " + shards; // reversed order
    }
    const auto merged = run_collide("merge " + shards);
    CHECK(merged.exit_code == 0);
    CHECK(merged.out == whole.out);
    const auto to_file = run_collide("merge " + shards + " -o '" + (dir / "all.csv").string() + "'");
    CHECK(to_file.exit_code == 0);
    CHECK(slurp(dir / "all.csv") == whole.out);

    const auto missing = run_collide("merge '" + (dir / "s1.csv").string() + "'");
    CHECK(missing.exit_code == 2);
    CHECK(missing.err ==
          "collide merge: error: cell 1 (discrete) is missing from every shard (the grid has 380 cells)\n");
}

TEST_CASE("collide sweep rejects bad arguments with exit 2 and one line") {
    const auto bad_range = run_collide("sweep scenarios/tunnel.yaml --vary speed=1:0:1");
    CHECK(bad_range.exit_code == 2);
    CHECK(bad_range.err == "collide sweep: error: --vary speed=1:0:1: the step 1 moves away from TO (1 to 0)\n");
    const auto unknown = run_collide("sweep scenarios/tunnel.yaml --vary sped=1:2:1");
    CHECK(unknown.exit_code == 2);
    CHECK(unknown.err ==
          "collide sweep: error: --vary sped=1:2:1: unknown param 'sped'; the scenario's params are speed, offset\n");
    const auto measure = run_collide("sweep scenarios/tunnel.yaml --vary speed=30,60 --measure nope");
    CHECK(measure.exit_code == 2);
    CHECK_THAT(measure.err, Catch::Contains("the fields are first_contact.hit, first_contact.frame, "
                                            "first_contact.time, first_contact.x, first_contact.y, first_contact.z, "
                                            "tunnel.tunneled, tunnel.outcome, tunnel.frame, tunnel.time"));
    CHECK(run_collide("sweep scenarios/tunnel.yaml --vary speed=30,60 --shard 3/2").exit_code == 2);
    CHECK(run_collide("sweep scenarios/tunnel.yaml --vary speed=30,60 --format pdf").exit_code == 2);
    CHECK(run_collide("sweep scenarios/tunnel.yaml").exit_code == 2); // --vary is required
    CHECK(run_collide("sweep --help").exit_code == 0);
    const auto no_file = run_collide("sweep nowhere.yaml --vary speed=1");
    CHECK(no_file.exit_code == 2);
    CHECK_THAT(no_file.err, Catch::StartsWith("nowhere.yaml:1:1: error: cannot read"));
}

TEST_CASE("a param value the scenario rejects fails the sweep and leaves no output file") {
    namespace fs = std::filesystem;
    const collide::test::ScratchDir scratch("collide_sweep_bad");
    const fs::path& dir = scratch.path;
    const std::string yaml =
            "name: r\nparams: { r: 1 }\nworld: { rate: 60, frames: 3 }\n"
            "bodies:\n  ball: { sphere: { radius: $r } }\n  floor: { static: true, plane: { normal: [0, 1, 0] } }\n"
            "log:\n  - final: { body: ball }\n";
    const auto r = run_collide("sweep - --vary r=1,0.5,-1 --format csv -o '" + (dir / "out.csv").string() + "'", yaml);
    CHECK(r.exit_code == 2);
    CHECK_THAT(r.err, Catch::Contains("<stdin>:5:") && Catch::Contains("r = -1"));
    CHECK(fs::is_empty(dir));
}

TEST_CASE("a cell the scenario rejects in the first block prints nothing on stdout, not even the header") {
    // offset = 1 puts the frames outside [0, 1): the third cell is bad input.
    const auto r = run_collide("sweep scenarios/tunnel.yaml --vary offset=0:2:0.5 --format csv");
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err.find("scenarios/tunnel.yaml:11:10: error: world.phase must be in [0, 1)") == 0);
}
