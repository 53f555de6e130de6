// The streaming merge (sweep/merge_shards.h) of shard files: the same bytes as the in-memory merge and
// the unsharded sweep, lines of any length, shards whose rows are out of grid order refused,
// and nothing on a stream (stdout) when a cell is missing.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>

#include "io/atomic_file.h"
#include "support/project_dir.h"
#include "support/run_command.h"
#include "sweep/closed_form.h"
#include "sweep/merge_shards.h"
#include "sweep/sweep_grid.h"

using namespace collide;
namespace fs = std::filesystem;

namespace {

std::string sweep_to(const std::string& path, const std::string& shard,
                     std::vector<std::string> varies = {"speed=30:300:7.5", "offset=0:0.999:0.001"}) {
    SweepRequest r;
    r.varies = std::move(varies); // by default 37 × 1000 cells, two modes
    r.detection = DetectionChoice::both;
    r.format = SweepFormat::csv;
    r.shard = shard;
    r.output = path;
    execute_grid(test::closed_form_tunnel(), r, SweepConsole{nullptr, false});
    return read_file(path);
}

std::string error_of(const std::vector<std::string>& files, const std::string& output) {
    try {
        merge_sweep_files(files, output);
    } catch (const InputError& e) {
        return format_diagnostic(e.diagnostics.front());
    }
    return "merged";
}

} // namespace

TEST_CASE("merging shard files streams the same bytes as the in-memory merge and the whole sweep", "[sweep][merge]") {
    const test::ProjectDir dir("collide_merge_files");
    const std::string whole = sweep_to(dir / "whole.csv", "");
    std::vector<std::string> files;
    std::vector<ShardText> texts;
    for (int k = 5; k >= 1; --k) { // in any order
        const std::string path = dir / ("part-" + std::to_string(k) + ".csv");
        texts.push_back({path, sweep_to(path, std::to_string(k) + "/5")});
        files.push_back(path);
    }
    merge_sweep_files(files, dir / "merged.csv");
    CHECK(test::read_text(dir / "merged.csv") == whole);
    CHECK(merge_sweep_csv(texts) == whole);
}

TEST_CASE("a line longer than the merge's read buffer is merged whole", "[sweep][merge]") {
    const test::ProjectDir dir("collide_merge_long");
    const std::string big(3 << 20, 'v'); // 3 MiB in one field: the 1 MiB buffer grows
    const std::string a = "cell,x,detection,note\n0,1,discrete," + big + "\n2,3,discrete,c\n";
    const std::string b = "cell,x,detection,note\n1,2,discrete,b" + big + "\n";
    test::write_text(dir / "a.csv", a);
    test::write_text(dir / "b.csv", b);
    merge_sweep_files({dir / "b.csv", dir / "a.csv"}, dir / "m.csv");
    CHECK(test::read_text(dir / "m.csv") ==
          "cell,x,detection,note\n0,1,discrete," + big + "\n1,2,discrete,b" + big + "\n2,3,discrete,c\n");
}

TEST_CASE("a shard whose rows are out of grid order is refused at the row", "[sweep][merge]") {
    const test::ProjectDir dir("collide_merge_order");
    test::write_text(dir / "a.csv", "cell,x,detection,v\n0,1,discrete,a\n2,3,discrete,c\n1,2,discrete,b\n");
    CHECK(error_of({dir / "a.csv"}, dir / "m.csv") ==
          dir / "a.csv" + ":4:1: error: the rows are out of grid order: cell 1 (discrete) comes after cell 2 "
                          "(discrete) at line "
                          "3; a shard lists its cells in grid order, as collide sweep writes them");
    CHECK_FALSE(fs::exists(dir / "m.csv"));
}

TEST_CASE("merge onto stdout prints nothing when a cell is missing", "[sweep][merge]") {
    const test::ProjectDir dir("collide_merge_stdout");
    sweep_to(dir / "p1.csv", "1/2");
    const auto r = test::run_collide("merge '" + dir / "p1.csv" + "'");
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK_THAT(r.err, Catch::Contains("cell 1 (discrete) is missing from every shard"));
}

TEST_CASE("a one-axis grid merges whole, and a grid line whose value counts were edited is refused", "[sweep][merge]") {
    // One axis is the slowest axis: its values stream by, none is kept (a 10^8-value axis
    // merges in the memory of a 10-value one).
    const test::ProjectDir dir("collide_merge_one_axis");
    const std::vector<std::string> offset = {"offset=0:0.999:0.001"};
    const std::string whole = sweep_to(dir / "whole.csv", "", offset);
    std::vector<std::string> files;
    for (int k = 1; k <= 3; ++k) {
        files.push_back(dir / ("part-" + std::to_string(k) + ".csv"));
        sweep_to(files.back(), std::to_string(k) + "/3", offset);
    }
    merge_sweep_files(files, dir / "merged.csv");
    CHECK(test::read_text(dir / "merged.csv") == whole);

    // Every shard's grid line edited alike: more values than the rows have, then more cells
    // than a grid may have (the count is not believed; the rows are counted instead).
    const auto edit_counts = [&](const std::string& from, const std::string& to) {
        std::vector<std::string> edited;
        for (const std::string& file : files) {
            std::string text = test::read_text(file);
            REQUIRE(text.find(from) != std::string::npos);
            text.replace(text.find(from), from.size(), to);
            edited.push_back(file + "." + to.substr(0, 4) + ".csv");
            test::write_text(edited.back(), text);
        }
        return edited;
    };
    CHECK(error_of(edit_counts("(1000 values)", "(1001 values)"), dir / "m.csv") ==
          ":0:0: error: cell 1000 (discrete) is missing from every shard (the grid has 1001 cells)");
    CHECK_THAT(error_of(edit_counts("(1000 values)", "(99999999999 values)"), dir / "m.csv"),
               Catch::StartsWith(":0:0: error: the rows make the grid '# collide sweep grid: offset (1000 "
                                 "values); detection discrete, swept; digest "));
    CHECK_FALSE(fs::exists(dir / "m.csv"));
}
