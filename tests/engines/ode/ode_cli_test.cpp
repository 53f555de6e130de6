// `--engine ode` from the command line: the version lists it, every shipped scenario has an ODE
// golden or is refused with one located line (those with a character, `ccd` or continuous
// detection, read from their text), a log starts with ODE's header, `--detection swept` is refused as the command
// line's, and `sweep --engine collide,ode` puts both engines' rows side by side, the same bytes for
// every --jobs (ODE's random row order is one per process: each engine keeps its own).
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "engines/ode/need_ode.h"
#include "support/run_command.h"

using collide::test::need_ode;
using collide::test::run_collide;
namespace fs = std::filesystem;

namespace {

/// The shipped scenarios, by file name, sorted.
std::vector<std::string> shipped_scenarios() {
    std::vector<std::string> out;
    for (const auto& e : fs::directory_iterator(fs::path(COLLIDE_SOURCE_DIR) / "scenarios"))
        if (e.path().extension() == ".yaml") out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

/// The scenario's text.
std::string text_of(const std::string& file) {
    std::stringstream text;
    text << std::ifstream(fs::path(COLLIDE_SOURCE_DIR) / "scenarios" / file).rdbuf();
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

TEST_CASE("collide --version lists ODE, double precision, beside collide's own engine", "[ode][cli]") {
    need_ode();
    const auto r = run_collide("--version");
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("engines: collide (") != std::string::npos);
    CHECK(r.out.find(", ode (ODE 0.16.2, double precision (dReal 8 bytes; OPCODE trimesh, no libccd))") !=
          std::string::npos);
    CHECK(r.out.find("not built in: ode") == std::string::npos);
}

TEST_CASE("Every shipped scenario has an ODE golden or is refused with one located line, as its text predicts",
          "[ode][cli]") {
    need_ode();
    // What ODE lacks, read from each file's text: a character, a body's ccd, continuous detection.
    // The others run (scripts/check-engines.sh checks them against these goldens).
    const std::regex lacks(R"((character: true|ccd: (true|speculative)|detection: (swept|speculative)))");
    int ran = 0, refused = 0;
    for (const std::string& f : shipped_scenarios()) {
        INFO(f);
        const std::string name = f.substr(0, f.size() - 5);
        const bool golden = fs::exists(fs::path(COLLIDE_SOURCE_DIR) / "expected" / (name + ".ode.log"));
        if (!std::regex_search(text_of(f), lacks)) {
            CHECK(golden);
            ++ran;
            continue;
        }
        CHECK(!golden);
        const auto r = run_collide("sim --engine ode scenarios/" + f);
        CHECK(r.exit_code == 2);
        CHECK(r.out.empty());
        const std::regex line("scenarios/" + name +
                              R"(\.yaml:[0-9]+:[0-9]+: error: --engine ode has no (character controller|continuous )"
                              R"(detection)[^\n]*\n)");
        CHECK(std::regex_match(r.err, line));
        ++refused;
        // check skips it, naming the reason; --strict fails it as bad input.
        const auto skipped = run_collide("check --engine ode scenarios/" + f);
        CHECK(skipped.exit_code == 0);
        CHECK(skipped.out.find(", 1 skipped (ode cannot run it; --strict fails it)") != std::string::npos);
        CHECK(run_collide("check --strict --engine ode scenarios/" + f).exit_code == 2);
    }
    CHECK(ran == 18);
    CHECK(refused == 13);
}

TEST_CASE("The refusal points at the key: a body's ccd, the world's detection", "[ode][cli]") {
    need_ode();
    // bouncing.yaml line 6: `  ball_0_5:  { sphere: …, restitution: 0.5, ccd: true }`; ramp.yaml
    // writes `  detection: swept` on a line of its own, line 10.
    const std::string bouncing = text_of("bouncing.yaml");
    const std::size_t line6 = [&] {
        std::size_t at = 0;
        for (int k = 1; k < 6; ++k) at = bouncing.find('\n', at) + 1;
        return at;
    }();
    const std::size_t column = bouncing.find("ccd: true", line6) - line6 + 1;
    const auto r = run_collide("sim --engine ode scenarios/bouncing.yaml");
    CHECK(r.err == "scenarios/bouncing.yaml:6:" + std::to_string(column) +
                           ": error: --engine ode has no continuous detection: body 'ball_0_5' has ccd: true (ODE "
                           "collides the poses at each step's start only)\n");
    const auto ramp = run_collide("sim --engine ode scenarios/ramp.yaml");
    CHECK(ramp.err.rfind("scenarios/ramp.yaml:10:3: error: --engine ode has no continuous detection: world.detection "
                         "is swept",
                         0) == 0);
}

TEST_CASE("ODE refuses --detection swept as the command line's", "[ode][cli]") {
    need_ode();
    const auto sim = run_collide("sim --engine ode --detection swept scenarios/tunnel.yaml");
    CHECK(sim.exit_code == 2);
    CHECK(sim.err == "collide sim: error: --engine ode has no continuous detection: --detection swept (ODE collides "
                     "the poses at each step's start only; use discrete)\n");
    const auto sweep =
            run_collide("sweep --engine collide,ode scenarios/tunnel.yaml --vary speed=30,60 --detection both");
    CHECK(sweep.exit_code == 2);
    CHECK(sweep.out.empty());
    CHECK(sweep.err.find("collide sweep: error: --engine ode has no continuous detection: --detection swept") == 0);
}

TEST_CASE("An ODE log starts with the engine and what maps approximately", "[ode][cli]") {
    need_ode();
    const auto r = run_collide("sim --engine ode scenarios/tunnel.yaml");
    CHECK(r.exit_code == 0);
    CHECK(r.out.rfind("engine → ODE 0.16.2, double precision", 0) == 0);
    CHECK(r.out.find("\nODE's approximations → one dWorldQuickStep per frame (the first phase·dt), 32 iterations") !=
          std::string::npos);
    CHECK(r.out.find("first contact of bullet with wall") != std::string::npos);
}

TEST_CASE("sweep --engine collide,ode puts each engine's rows beside the other's, the same bytes for every --jobs",
          "[ode][cli][determinism]") {
    need_ode();
    const std::string grid = " scenarios/tunnel.yaml --vary speed=30:300:30 --vary offset=0:0.9:0.1 --format csv";
    const auto both = run_collide("sweep --engine collide,ode" + grid + " --jobs 1");
    REQUIRE(both.exit_code == 0);
    CHECK(both.out.rfind("# collide sweep grid: speed (10 values), offset (10 values); engine collide, ode; "
                         "detection discrete;",
                         0) == 0);
    CHECK(run_collide("sweep --engine collide,ode" + grid + " --jobs 2").out == both.out);
    CHECK(run_collide("sweep --engine collide,ode" + grid + " --jobs 3").out == both.out);
    const auto rows = csv_rows(both.out);
    REQUIRE(rows.size() == 100 * 2);
    // Each engine's rows are its own sweep's rows with the engine named: the same bits.
    const auto collide_rows = csv_rows(run_collide("sweep --engine collide" + grid + " --jobs 2").out);
    const auto ode_rows = csv_rows(run_collide("sweep --engine ode" + grid + " --jobs 2").out);
    REQUIRE(collide_rows.size() == 100);
    REQUIRE(ode_rows.size() == 100);
    const auto with_engine = [](const std::string& row, const std::string& engine) {
        std::size_t at = 0;
        for (int k = 0; k < 3; ++k) at = row.find(',', at) + 1;
        return row.substr(0, at) + engine + "," + row.substr(at);
    };
    for (std::size_t c = 0; c < 100; ++c) {
        INFO("cell " << c);
        CHECK(rows[2 * c + 0] == with_engine(collide_rows[c], "collide"));
        CHECK(rows[2 * c + 1] == with_engine(ode_rows[c], "ode"));
    }
    // The table: a map per engine, titled by engine and mode.
    const auto table = run_collide("sweep --engine collide,ode scenarios/tunnel.yaml --vary speed=30:300:30 "
                                   "--vary offset=0:0.9:0.1 --jobs 2");
    REQUIRE(table.exit_code == 0);
    CHECK(table.out.find("collide discrete") != std::string::npos);
    CHECK(table.out.find("ode discrete") != std::string::npos);
}
