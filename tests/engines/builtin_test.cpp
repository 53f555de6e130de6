// The engines built into the program (engines/builtin.h), seen from the command line: a build
// without Bullet (-DCOLLIDE_ENGINES=OFF, or auto without libbullet-dev) refuses `--engine
// bullet` with exit 2 and how to get it, and `collide --version` does not list it; likewise `--engine
// ode` without ODE and `--engine box3d` without Box3D (-DCOLLIDE_ENGINES=OFF). A build with the
// engine skips these (its own are in engines/bullet/bullet_cli_test.cpp,
// engines/ode/ode_cli_test.cpp and engines/box3d/box3d_cli_test.cpp).
#include <catch2/catch.hpp>

#include <string>

#include "support/run_command.h"
#include "support/skip.h"

using collide::test::run_collide;

namespace {

void need_no_bullet() {
#ifdef COLLIDE_WITH_BULLET
    collide::test::skip_test("this build has Bullet (configure with -DCOLLIDE_ENGINES=OFF to run this)");
#endif
}

void need_no_box3d() {
#ifdef COLLIDE_WITH_BOX3D
    collide::test::skip_test("this build has Box3D (configure with -DCOLLIDE_ENGINES=OFF to run this)");
#endif
}

} // namespace

TEST_CASE("Without Bullet, --engine bullet exits 2 saying how to get it", "[engine][cli]") {
    need_no_bullet();
    for (const std::string command :
         {"sim --engine bullet scenarios/bouncing.yaml", "check --engine bullet scenarios/tunnel.yaml",
          "sweep --engine bullet scenarios/tunnel.yaml --vary speed=30,60",
          "sweep --engine collide,bullet scenarios/tunnel.yaml --vary speed=30,60"}) {
        INFO(command);
        const auto r = run_collide(command);
        CHECK(r.exit_code == 2);
        // check's summary names the scenario it could not check, on stdout; the others print nothing there.
        CHECK((command.rfind("check", 0) == 0 ? r.out.find("bad input, not checked") != std::string::npos
                                              : r.out.empty()));
        CHECK(r.err.find("error: --engine bullet: this collide was built without bullet; install it (apt-get "
                         "install libbullet-dev) and rebuild with -DCOLLIDE_ENGINES=ON\n") != std::string::npos);
        CHECK(r.err.find('\n') == r.err.size() - 1); // one line
    }
}

TEST_CASE("Without Bullet, collide --version lists collide's own engine and not Bullet", "[engine][cli]") {
    need_no_bullet();
    const auto r = run_collide("--version");
    CHECK(r.exit_code == 0);
    CHECK(r.out.find("engines: collide (collide's own world (exact))") != std::string::npos);
    CHECK(r.out.find("not built in: bullet (apt-get install libbullet-dev") != std::string::npos);
    CHECK(r.out.find("bullet (Bullet") == std::string::npos);
}

TEST_CASE("Without ODE, --engine ode exits 2 saying how to get it, and --version names it as not built in",
          "[engine][cli]") {
#ifdef COLLIDE_WITH_ODE
    collide::test::skip_test("this build has ODE (configure with -DCOLLIDE_ENGINES=OFF to run this)");
#endif
    const auto r = run_collide("sim --engine ode scenarios/bouncing.yaml");
    CHECK(r.exit_code == 2);
    CHECK(r.err == "collide sim: error: --engine ode: this collide was built without ode; install it (apt-get install "
                   "libode-dev) and rebuild with -DCOLLIDE_ENGINES=ON\n");
    const auto v = run_collide("--version");
    CHECK(v.out.find("not built in: ode (apt-get install libode-dev, then rebuild with -DCOLLIDE_ENGINES=ON)") !=
          std::string::npos);
}

TEST_CASE("Without Box3D, --engine box3d exits 2 saying how to get it, and --version says it too", "[engine][cli]") {
    need_no_box3d();
    const auto r = run_collide("sim --engine box3d scenarios/bouncing.yaml");
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err.find("error: --engine box3d: this collide was built without box3d; rebuild with "
                     "-DCOLLIDE_ENGINES=ON (it is vendored in third_party/box3d)\n") != std::string::npos);
    CHECK(r.err.find('\n') == r.err.size() - 1); // one line
    const auto version = run_collide("--version");
    CHECK(version.out.find("not built in: box3d (vendored in third_party/box3d: rebuild with -DCOLLIDE_ENGINES=ON)") !=
          std::string::npos);
}
