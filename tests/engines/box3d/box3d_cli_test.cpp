// `--engine box3d` from the command line: the version names the vendored commit, every shipped
// scenario Box3D cannot run is refused with one located line (exit 2), a Box3D log starts with
// its engine header and is the same bytes run after run, and `sweep --engine collide,bullet,box3d`
// puts the three engines' rows side by side, each as its own sweep gives them.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "engines/box3d/need_box3d.h"
#include "support/run_command.h"

using namespace collide;
using collide::test::need_box3d;
using collide::test::run_collide;
namespace fs = std::filesystem;

namespace {

/// A file of the source tree, whole.
std::string read_source(const std::string& path) {
    std::stringstream text;
    text << std::ifstream(fs::path(COLLIDE_SOURCE_DIR) / path).rdbuf();
    return text.str();
}

/// The data rows of a sweep CSV (its grid line and header left out).
std::vector<std::string> csv_rows(const std::string& csv) {
    std::vector<std::string> rows;
    std::istringstream in(csv);
    std::string line;
    for (int n = 0; std::getline(in, line); ++n)
        if (n >= 2) rows.push_back(line);
    return rows;
}

} // namespace

TEST_CASE("collide --version lists Box3D at the commit third_party/box3d/VERSION names", "[box3d][cli]") {
    need_box3d();
    // VERSION is "COMMIT DATE": the line names the commit's first 7 digits and its date.
    std::istringstream version(read_source("third_party/box3d/VERSION"));
    std::string commit, date;
    version >> commit >> date;
    REQUIRE(commit.size() == 40);
    const auto r = run_collide("--version");
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("box3d (Box3D 0.2.0 at " + commit.substr(0, 7) + " (" + date +
                     "), single precision, 4 substeps, soft contacts)") != std::string::npos);
}

TEST_CASE("Every shipped scenario Box3D cannot run is refused with one located line", "[box3d][cli]") {
    need_box3d();
    // The shipped scenarios with a character (slope, step, wall-slide, …) or a plane: each is
    // refused by sim (exit 2, FILE:LINE:COL at the body), skipped by check (exit 0).
    std::vector<std::string> refused;
    for (const auto& e : fs::directory_iterator(fs::path(COLLIDE_SOURCE_DIR) / "scenarios")) {
        if (e.path().extension() != ".yaml") continue;
        const std::string text = read_source("scenarios/" + e.path().filename().string());
        if (text.find("character: true") != std::string::npos || text.find("plane: {") != std::string::npos)
            refused.push_back(e.path().filename().string());
    }
    std::sort(refused.begin(), refused.end());
    REQUIRE(refused.size() >= 3);
    const std::regex line(R"(scenarios/[a-z-]+\.yaml:[0-9]+:[0-9]+: error: --engine box3d has no )"
                          R"((character controller|plane shape): body '[^']+' is a [^\n]*\n)");
    for (const std::string& f : refused) {
        INFO(f);
        const auto r = run_collide("sim --engine box3d scenarios/" + f);
        CHECK(r.exit_code == 2);
        CHECK(std::regex_match(r.err, line));
        CHECK(r.out.empty());
        const auto skipped = run_collide("check --engine box3d scenarios/" + f);
        CHECK(skipped.exit_code == 0);
        CHECK(skipped.out.find(", 1 skipped (box3d cannot run it; --strict fails it)") != std::string::npos);
    }
}

TEST_CASE("A Box3D log starts with the engine and what maps approximately, the same bytes run after run",
          "[box3d][cli][determinism]") {
    need_box3d();
    const auto r = run_collide("sim --engine box3d scenarios/bouncing.yaml");
    CHECK(r.exit_code == 0);
    CHECK(r.out.rfind("engine → Box3D 0.2.0 at ", 0) == 0);
    CHECK(r.out.find("\nBox3D's approximations → one b3World_Step per frame") != std::string::npos);
    CHECK(r.out.find("\nexpectations → not checked with --engine box3d") != std::string::npos);
    CHECK(run_collide("sim --engine box3d scenarios/bouncing.yaml").out == r.out);
    // Beside collide's and Bullet's: each log under its engine's line, collide's first.
    const auto three = run_collide("sim --engine box3d,collide scenarios/tunnel.yaml");
    CHECK(three.exit_code == 0);
    CHECK(three.out.find("# engine collide") < three.out.find("# engine box3d"));
}

TEST_CASE("sweep --engine collide,bullet,box3d puts each engine's rows beside the others', each as its own sweep "
          "gives them",
          "[box3d][cli]") {
    need_box3d();
#ifndef COLLIDE_WITH_BULLET
    collide::test::skip_test("this build has no Bullet (configure with -DCOLLIDE_ENGINES=ON)");
#endif
    const std::string grid = " scenarios/tunnel.yaml --vary speed=30:300:45 --vary offset=0:0.9:0.3 "
                             "--detection both --format csv";
    const auto all = run_collide("sweep --engine box3d,collide,bullet" + grid + " --jobs 2");
    REQUIRE(all.exit_code == 0);
    CHECK(all.out.rfind("# collide sweep grid: speed (7 values), offset (4 values); engine collide, bullet, box3d; "
                        "detection discrete, swept;",
                        0) == 0);
    CHECK(run_collide("sweep --engine box3d,collide,bullet" + grid + " --jobs 1").out == all.out);
    const auto rows = csv_rows(all.out);
    REQUIRE(rows.size() == 28 * 6);
    const auto with_engine = [](const std::string& row, const std::string& engine) {
        // cell,speed,offset,detection,… → cell,speed,offset,ENGINE,detection,…
        std::size_t at = 0;
        for (int k = 0; k < 3; ++k) at = row.find(',', at) + 1;
        return row.substr(0, at) + engine + "," + row.substr(at);
    };
    const std::vector<std::string> engines = {"collide", "bullet", "box3d"};
    for (std::size_t e = 0; e < engines.size(); ++e) {
        const auto own = csv_rows(run_collide("sweep --engine " + engines[e] + grid).out);
        REQUIRE(own.size() == 28 * 2);
        for (std::size_t c = 0; c < 28; ++c) {
            INFO(engines[e] << " cell " << c);
            CHECK(rows[6 * c + 2 * e + 0] == with_engine(own[2 * c + 0], engines[e]));
            CHECK(rows[6 * c + 2 * e + 1] == with_engine(own[2 * c + 1], engines[e]));
        }
    }
}
