// The registry of engines (engine/registry.h): collide's own is always there; an engine this
// build lacks is refused with how to get it.
#include <catch2/catch.hpp>

#include <string>

#include "engine/registry.h"

using namespace collide;

TEST_CASE("collide's own engine is always registered, first", "[engine]") {
    const EngineSpec* own = find_engine("collide");
    REQUIRE(own != nullptr);
    CHECK(engines().front() == own);
    CHECK(own->make()->name() == "collide");
    CHECK(own->header(Scenario{}).empty()); // collide's goldens carry no header
    CHECK(engines_text().rfind("engines: collide (", 0) == 0);
}

TEST_CASE("An engine the program has not is a one-line error saying how to get it", "[engine]") {
    try {
        (void)require_engine("nosuch");
        FAIL("no throw");
    } catch (const InputError& e) {
        CHECK(std::string(e.what()).find("no such engine") != std::string::npos);
    }
    if (find_engine("bullet") == nullptr) { // a build without Bullet (or a test binary that did not register it)
        try {
            (void)require_engine("bullet");
            FAIL("no throw");
        } catch (const InputError& e) {
            const std::string m = e.what();
            CHECK(m.find("apt-get install libbullet-dev") != std::string::npos);
            CHECK(m.find("-DCOLLIDE_ENGINES=ON") != std::string::npos);
            CHECK(m.find('\n') == std::string::npos); // one line
        }
        CHECK(engines_text().find("not built in: bullet") != std::string::npos);
    } else {
        CHECK(engines_text().find("bullet (Bullet ") != std::string::npos);
    }
}
