// `collide sim --plot FILE.html` with the 3D view: beside the 2D views by default, alone with
// `--view 3d`, refused for an SVG; the same scenario gives the same page, byte for byte.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <unistd.h>

#include "support/run_command.h"

using collide::test::run_collide;
namespace fs = std::filesystem;

namespace {

std::string read(const fs::path& path) {
    std::stringstream text;
    text << std::ifstream(path).rdbuf();
    return text.str();
}

} // namespace

TEST_CASE("sim --plot FILE.html draws the 3D view beside the 2D views; --view 3d draws it alone") {
    const fs::path dir =
            fs::temp_directory_path() / ("collide_sim_view3d_test_" + std::to_string(::getpid())); // one per run
    fs::remove_all(dir);
    fs::create_directories(dir);
    auto r = run_collide("sim scenarios/door.yaml --plot " + (dir / "both.html").string());
    REQUIRE(r.exit_code == 0);
    const std::string both = read(dir / "both.html");
    CHECK(both.find("<svg xmlns=\"http://www.w3.org/2000/svg\"") != std::string::npos);
    CHECK(both.find("<div class=\"view3d\" id=\"view3d\"></div>") != std::string::npos);
    CHECK(both.find("var THREE=(function(){") != std::string::npos); // three.js, embedded

    r = run_collide("sim scenarios/door.yaml --view 3d --plot " + (dir / "3d.html").string());
    REQUIRE(r.exit_code == 0);
    const std::string alone = read(dir / "3d.html");
    CHECK(alone.find("<svg xmlns=") == std::string::npos);
    CHECK(alone.find("<div class=\"view3d\" id=\"view3d\"></div>") != std::string::npos);

    r = run_collide("sim scenarios/door.yaml --view xy --plot " + (dir / "xy.html").string());
    REQUIRE(r.exit_code == 0);
    const std::string flat = read(dir / "xy.html");
    CHECK(flat.find("data-view=\"xy\"") != std::string::npos);
    CHECK(flat.find("id=\"view3d\"") == std::string::npos);
    CHECK(flat.find("var THREE=") == std::string::npos);

    // Deterministic: the same page again, byte for byte.
    r = run_collide("sim scenarios/door.yaml --view 3d --plot " + (dir / "again.html").string());
    REQUIRE(r.exit_code == 0);
    CHECK(read(dir / "again.html") == alone);

    r = run_collide("sim scenarios/door.yaml --view 3d --plot " + (dir / "door.svg").string());
    CHECK(r.exit_code == 2);
    CHECK(r.err.find("--view 3d draws into a page: --plot FILE.html") != std::string::npos);
    CHECK(!fs::exists(dir / "door.svg"));
    r = run_collide("sim scenarios/door.yaml --view 4d --plot " + (dir / "door.html").string());
    CHECK(r.exit_code == 2);
    CHECK(!fs::exists(dir / "door.html"));
    fs::remove_all(dir);
}
