// `collide check` end to end with real scenario files: --update then check passes and
// reproduces the goldens byte for byte, CI never writes a missing golden, bad YAML exits 2,
// a scenario's tolerance override is honoured, --jobs does not change a byte of the output.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "support/run_command.h"

using collide::test::run_collide;
namespace fs = std::filesystem;

namespace {
struct Dir {
    fs::path path;
    explicit Dir(const std::string& name) : path(fs::temp_directory_path() / ("collide_check_cli_" + name)) {
        fs::remove_all(path);
        fs::create_directories(path / "s");
    }
    ~Dir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    std::string operator/(const std::string& rel) const { return (path / rel).string(); }
};
void write(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }
std::string read(const std::string& path) {
    std::stringstream s;
    s << std::ifstream(path, std::ios::binary).rdbuf();
    return s.str();
}
} // namespace

TEST_CASE("check --update writes the goldens of the shipped scenarios, then check passes and a rerun reproduces them") {
    Dir d("update");
    const auto u = run_collide("check --expected " + (d / "exp") + " --update");
    REQUIRE(u.exit_code == 0);
    const std::string tunnel = read(d / "exp/tunnel.log");
    CHECK(tunnel == "first contact of bullet with wall → frame 3 at t = 0.050 s, centre (0.000, 0.000, 0.000) m\n");
    const auto again = run_collide("check --expected " + (d / "exp"));
    CHECK(again.exit_code == 0);
    int shipped = 0;
    for (const auto& entry : fs::directory_iterator(std::string(COLLIDE_SOURCE_DIR) + "/scenarios"))
        shipped += entry.path().extension() == ".yaml" ? 1 : 0;
    CHECK(again.out.find("check: " + std::to_string(shipped) + " passed, 0 failed") != std::string::npos);
    fs::remove(d / "exp/tunnel.log");
    REQUIRE(run_collide("check --expected " + (d / "exp") + " --update tunnel").exit_code == 0);
    CHECK(read(d / "exp/tunnel.log") == tunnel);
}

TEST_CASE("check with CI set reports a missing golden, writes nothing, and says so") {
    Dir d("ci");
    write(d / "s/steep.yaml", "log:\n  - slope: { surface_degrees: 50, limit: 46 }\n");
    const char* before = std::getenv("CI");
    const std::string saved = before ? before : "";
    ::setenv("CI", "true", 1);
    const auto ci = run_collide("check " + (d / "s") + " --expected " + (d / "exp"));
    if (before)
        ::setenv("CI", saved.c_str(), 1);
    else
        ::unsetenv("CI");
    CHECK(ci.exit_code == 1);
    CHECK(ci.out.find("CI is set: goldens are read only") != std::string::npos);
    CHECK_FALSE(fs::exists(d / "exp/steep.log"));
}

TEST_CASE("check exits 2 on bad YAML with a FILE:LINE:COLUMN line and writes no golden") {
    Dir d("bad");
    write(d / "s/typo.yaml", "log:\n  - slope: { surface_degrees: 50, limitt: 46 }\n");
    const auto r = run_collide("check " + (d / "s") + " --expected " + (d / "exp") + " --update");
    CHECK(r.exit_code == 2);
    CHECK(r.err.find((d / "s/typo.yaml") + ":2:35: error: ") != std::string::npos);
    CHECK_FALSE(fs::exists(d / "exp/typo.log"));
}

TEST_CASE("check honours a scenario's tolerance override") {
    Dir d("tolerance");
    write(d / "s/steep.yaml", "tolerance: { absolute: 0.5 }\nlog:\n  - slope: { surface_degrees: 50, limit: 46 }\n");
    fs::create_directories(d.path / "exp");
    write(d / "exp/steep.log", "slope of a surface with normal (-0.766, 0.643, 0) → 50.400°, too steep to stand on, "
                               "over the 46° limit\n");
    const std::string args = "check " + (d / "s") + " --expected " + (d / "exp");
    const auto loose = run_collide(args);
    INFO(loose.out);
    CHECK(loose.exit_code == 0);
    write(d / "s/steep.yaml", "log:\n  - slope: { surface_degrees: 50, limit: 46 }\n");
    const auto strict = run_collide(args);
    CHECK(strict.exit_code == 1);
    CHECK(strict.out.find("number 1: expected 50.400, actual 50.000 (diff 0.400 > tolerance 0.001)") !=
          std::string::npos);
}

TEST_CASE("check output is the same bytes with --jobs 1 and --jobs 2") {
    Dir d("jobs");
    const auto one = run_collide("check --expected " + (d / "exp") + " --jobs 1");
    const auto two = run_collide("check --expected " + (d / "exp") + " --jobs 2");
    CHECK(one.exit_code == 1);
    CHECK(one.out == two.out);
    CHECK(one.err == two.err);
}

TEST_CASE("check parse errors exit 2 and --help exits 0") {
    CHECK(run_collide("check --jobs 0").exit_code == 2);
    CHECK(run_collide("check --color sometimes").exit_code == 2);
    CHECK(run_collide("check --help").exit_code == 0);
}
