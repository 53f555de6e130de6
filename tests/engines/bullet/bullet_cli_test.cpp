// `--engine bullet` from the command line: the version lists it, every shipped scenario with a
// character is refused with its located reason (exit 2), a Bullet log starts with its engine
// header, a golden written by another Bullet version is named as a version mismatch, and a
// Bullet sweep gives the same bytes for every --jobs and shard split; `sweep --engine collide,bullet`
// puts both engines' rows and maps side by side, in every format.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "app/measure.h"
#include "engines/bullet/need_bullet.h"
#include "report/golden.h"
#include "report/render.h"
#include "support/run_command.h"

using namespace collide;
using collide::test::need_bullet;
using collide::test::run_collide;
namespace fs = std::filesystem;

namespace {

/// The shipped scenarios whose text has a character.
std::vector<std::string> character_scenarios() {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(fs::path(COLLIDE_SOURCE_DIR) / "scenarios")) {
        if (e.path().extension() != ".yaml") continue;
        std::stringstream text;
        text << std::ifstream(e.path()).rdbuf();
        if (text.str().find("character: true") != std::string::npos) out.push_back(e.path().filename().string());
    }
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

TEST_CASE("collide --version lists Bullet beside collide's own engine", "[bullet][cli]") {
    need_bullet();
    const auto r = run_collide("--version");
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("engines: collide (") != std::string::npos);
    CHECK(r.out.find("bullet (Bullet 3.") != std::string::npos);
    CHECK(r.out.find("double precision") != std::string::npos);
}

TEST_CASE("Every shipped scenario with a character is refused by Bullet with its located reason (check: skipped, "
          "unless --strict)",
          "[bullet][cli]") {
    need_bullet();
    const std::vector<std::string> files = character_scenarios();
    REQUIRE(files.size() >= 3); // slope, step, wall-slide
    const std::regex line(
            R"(scenarios/[a-z-]+\.yaml:[0-9]+:[0-9]+: error: --engine bullet has no character controller: )"
            R"(body '[^']+' is a character\n)");
    for (const std::string& f : files) {
        INFO(f);
        // check skips it, naming the reason, and passes; --strict makes it bad input.
        const auto skipped = run_collide("check --engine bullet scenarios/" + f);
        CHECK(skipped.exit_code == 0);
        CHECK(skipped.out.find("skipped  ") != std::string::npos);
        CHECK(skipped.out.find(": --engine bullet has no character controller: body '") != std::string::npos);
        CHECK(skipped.out.find(", 1 skipped (bullet cannot run it; --strict fails it)") != std::string::npos);
        for (const char* command : {"sim", "check --strict", "sweep"}) {
            const std::string extra = std::string(command) == "sweep" ? " --vary x=1,2" : "";
            const std::string name = std::string(command).substr(0, std::string(command).find(' '));
            const std::string flags = std::string(command).find(' ') == std::string::npos
                                              ? ""
                                              : std::string(command).substr(std::string(command).find(' '));
            const auto r = run_collide(name + " --engine bullet scenarios/" + f + flags + extra);
            CHECK(r.exit_code == 2);
            if (std::string(command) == "sim") CHECK(std::regex_match(r.err, line));
            CHECK(r.err.find("has no character controller") != std::string::npos);
        }
    }
}

TEST_CASE("A Bullet log starts with the engine and what maps approximately", "[bullet][cli]") {
    need_bullet();
    const auto r = run_collide("sim --engine bullet scenarios/tunnel.yaml");
    CHECK(r.exit_code == 0);
    CHECK(r.out.rfind("engine → Bullet 3.", 0) == 0);
    CHECK(r.out.find("\nBullet's approximations → one Bullet step per frame") != std::string::npos);
    CHECK(r.out.find("first contact of bullet with wall") != std::string::npos);
    const auto own = run_collide("sim scenarios/tunnel.yaml");
    CHECK(own.out.find("engine →") == std::string::npos); // collide's own log has no header
}

TEST_CASE("check names a golden written by another Bullet version as a version mismatch", "[bullet][cli]") {
    need_bullet();
    // A golden as another version would write it: the same run, its engine line changed, its
    // values and digest consistent (not a hand edit).
    SimOptions options;
    options.engine = "bullet";
    MeasuredScenario m = measure_scenario(std::string(COLLIDE_SOURCE_DIR) + "/scenarios/tunnel.yaml", options);
    REQUIRE(m.scenario.engine_header.at(0).rfind("engine → Bullet ", 0) == 0);
    m.scenario.engine_header[0] = "engine → Bullet 3.17, double precision (btGetVersion() 317, btScalar 8 bytes)";
    const std::string text = render_text(m.scenario, m.layout, m.values);
    const fs::path dir = fs::temp_directory_path() / ("collide_bullet_version_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    std::ofstream(dir / "tunnel.bullet.log") << text;
    std::ofstream(dir / "tunnel.bullet.values")
            << render_values(m.scenario, m.layout, m.values, text, "tunnel.bullet.log");
    const auto r = run_collide("check --engine bullet --expected '" + dir.string() + "' scenarios/tunnel.yaml", "");
    fs::remove_all(dir);
    CHECK(r.exit_code == 1);
    CHECK(r.out.find("engine version mismatch: the golden was written by Bullet 3.17") != std::string::npos);
}

// [heavy]: 100 cells, six sweeps and a merge for each engine set; the sanitizer job runs the smaller Bullet sweeps.
TEST_CASE("A Bullet sweep gives the same bytes for every --jobs and shard split", "[bullet][cli][determinism][heavy]") {
    need_bullet();
    const std::string engines = GENERATE(as<std::string>{}, "bullet", "collide,bullet");
    INFO("--engine " << engines);
    const std::string grid = "sweep --engine " + engines +
                             " scenarios/tunnel.yaml --vary speed=20:200:20 --vary offset=0:0.9:0.1 "
                             "--detection both --format csv";
    const auto one = run_collide(grid + " --jobs 1");
    REQUIRE(one.exit_code == 0);
    CHECK(one.out.find("\n") != std::string::npos);
    CHECK(run_collide(grid + " --jobs 2").out == one.out);
    CHECK(run_collide(grid + " --jobs 3").out == one.out);
    // Three shards merged in grid order give the whole grid.
    const fs::path dir = fs::temp_directory_path() / ("collide_bullet_shards_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    std::string parts;
    for (int k = 1; k <= 3; ++k) {
        const std::string part = (dir / ("part" + std::to_string(k) + ".csv")).string();
        REQUIRE(run_collide(grid + " --jobs 2 --shard " + std::to_string(k) + "/3 -o '" + part + "'").exit_code == 0);
        parts += " '" + part + "'";
    }
    const auto merged = run_collide("merge" + parts);
    fs::remove_all(dir);
    CHECK(merged.exit_code == 0);
    CHECK(merged.out == one.out);
}

namespace {

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

TEST_CASE("sweep --engine collide,bullet puts each engine's rows beside the other's, each as its own sweep gives them",
          "[bullet][cli][heavy]") { // [heavy]: 380 cells of both engines, three sweeps
    need_bullet();
    const std::string grid = " scenarios/tunnel.yaml --vary speed=30:300:15 --vary offset=0:0.95:0.05 "
                             "--detection both --format csv --jobs 2";
    const auto both = run_collide("sweep --engine collide,bullet" + grid);
    REQUIRE(both.exit_code == 0);
    CHECK(both.out.rfind("# collide sweep grid: speed (19 values), offset (20 values); engine collide, bullet; "
                         "detection discrete, swept;",
                         0) == 0);
    CHECK(both.out.find("\ncell,speed,offset,engine,detection,first_contact.hit,") != std::string::npos);
    const auto rows = csv_rows(both.out);
    REQUIRE(rows.size() == 380 * 4);
    // Each engine's rows are its own sweep's rows with the engine named: the same bits.
    const auto collide_rows = csv_rows(run_collide("sweep --engine collide" + grid).out);
    const auto bullet_rows = csv_rows(run_collide("sweep --engine bullet" + grid).out);
    REQUIRE(collide_rows.size() == 380 * 2);
    REQUIRE(bullet_rows.size() == 380 * 2);
    const auto with_engine = [](const std::string& row, const std::string& engine) {
        // cell,speed,offset,detection,… → cell,speed,offset,ENGINE,detection,…
        std::size_t at = 0;
        for (int k = 0; k < 3; ++k) at = row.find(',', at) + 1;
        return row.substr(0, at) + engine + "," + row.substr(at);
    };
    int collide_swept_caught = 0;
    for (std::size_t c = 0; c < 380; ++c) {
        INFO("cell " << c);
        CHECK(rows[4 * c + 0] == with_engine(collide_rows[2 * c + 0], "collide"));
        CHECK(rows[4 * c + 1] == with_engine(collide_rows[2 * c + 1], "collide"));
        CHECK(rows[4 * c + 2] == with_engine(bullet_rows[2 * c + 0], "bullet"));
        CHECK(rows[4 * c + 3] == with_engine(bullet_rows[2 * c + 1], "bullet"));
        collide_swept_caught += rows[4 * c + 1].find(",collide,swept,true,") != std::string::npos;
    }
    CHECK(collide_swept_caught == 380); // collide's swept detection stops the ball in every cell

    // The table: four maps, titled by engine and mode, two side by side.
    const auto table = run_collide("sweep --engine collide,bullet scenarios/tunnel.yaml --vary speed=30:300:15 "
                                   "--vary offset=0:0.95:0.05 --detection both --jobs 2");
    REQUIRE(table.exit_code == 0);
    CHECK(table.out.find("collide discrete                                  collide swept") != std::string::npos);
    CHECK(table.out.find("bullet discrete                                   bullet swept") != std::string::npos);
    CHECK(table.out.find("collide discrete") < table.out.find("bullet discrete"));
}

TEST_CASE("sweep --engine collide,bullet gives the same bytes in every format for every --jobs",
          "[bullet][cli][determinism]") {
    need_bullet();
    const std::string format = GENERATE(as<std::string>{}, "table", "json", "svg", "html");
    INFO("--format " << format);
    const std::string grid = "sweep --engine collide,bullet scenarios/tunnel.yaml --vary speed=30:300:45 "
                             "--vary offset=0:0.9:0.3 --detection both --format " +
                             format;
    const auto one = run_collide(grid + " --jobs 1");
    REQUIRE(one.exit_code == 0);
    CHECK(run_collide(grid + " --jobs 2").out == one.out);
    CHECK(run_collide(grid + " --jobs 3").out == one.out);
    if (format != "json") // JSON names a map's engine and detection apart (below)
        for (const char* variant : {"collide discrete", "collide swept", "bullet discrete", "bullet swept"})
            CHECK(one.out.find(variant) != std::string::npos);
    if (format == "json") {
        const auto doc = nlohmann::json::parse(one.out);
        CHECK(doc["engines"] == nlohmann::json::array({"collide", "bullet"}));
        // Each cell's rows in the order engine-major, mode-minor: the fourth is bullet's swept.
        CHECK(doc["cells"][3]["engine"] == "bullet");
        CHECK(doc["cells"][3]["detection"] == "swept");
    }
    if (format == "html") CHECK(one.out.find("data-mode=\"bullet swept\" data-engine=\"bullet\"") != std::string::npos);
}

TEST_CASE("sweep --engine names each engine once", "[bullet][cli]") {
    need_bullet();
    const auto twice = run_collide("sweep scenarios/tunnel.yaml --vary speed=30,60 --engine collide,bullet,collide");
    CHECK(twice.exit_code == 2);
    CHECK(twice.err == "collide sweep: error: --engine collide,bullet,collide: collide is named twice\n");
    const auto unknown = run_collide("sweep scenarios/tunnel.yaml --vary speed=30,60 --engine collide,havok");
    CHECK(unknown.exit_code == 2);
    CHECK(unknown.err.find("--engine havok: no such engine") != std::string::npos);
}
