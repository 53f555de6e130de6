// `array:` — one body written once, copied onto a grid: names, row order, positions, and the
// located errors for counts, spacings, params and name clashes.
#include <catch2/catch.hpp>

#include <string>

#include "scenario/load.h"

using namespace collide;

namespace {

Scenario load_text(std::string_view text) {
    const ScenarioTemplate t = parse_scenario_template(text, "array.yaml");
    auto ev = t.make_evaluator();
    Scenario s;
    t.instantiate(apply_sets(t, {}), ev, s);
    return s;
}

/// The one diagnostic of `text`, as "LINE:COLUMN: message".
std::string error_of(std::string_view text) {
    try {
        load_text(text);
    } catch (const InputError& e) {
        REQUIRE(e.diagnostics.size() == 1);
        const Diagnostic& d = e.diagnostics[0];
        return std::to_string(d.line) + ":" + std::to_string(d.column) + ": " + d.message;
    }
    FAIL("accepted");
    return {};
}

} // namespace

TEST_CASE("an array makes count bodies named NAME0 … in row order, x fastest, then y, then z", "[scenario][array]") {
    const Scenario s = load_text("bodies:\n"
                                 "  floor: { static: true, box: { min: [-5, -1, -5], max: [5, 0, 5] } }\n"
                                 "  s: { sphere: { radius: 0.2 }, position: [1, 2, 3], velocity: [0, -1, 0],\n"
                                 "       restitution: 0.5, array: { count: [3, 2, 4], spacing: [0.5, 0.25, 2] } }\n"
                                 "  top: { sphere: { radius: 1 }, position: [0, 9, 0] }\n"
                                 "log:\n"
                                 "  - final: { body: s23 }\n"
                                 "  - final: { body: top }\n");
    REQUIRE(s.bodies.size() == 1 + 24 + 1);
    CHECK(s.bodies[0].name == "floor");
    CHECK(s.bodies[25].name == "top");
    for (int k = 0; k < 24; ++k) {
        const BodyDef& b = s.bodies[static_cast<std::size_t>(1 + k)];
        CHECK(b.name == "s" + std::to_string(k));
        const int ix = k % 3, iy = (k / 3) % 2, iz = k / 6;
        CHECK(b.position.x == 1 + 0.5 * ix);
        CHECK(b.position.y == 2 + 0.25 * iy);
        CHECK(b.position.z == 3 + 2.0 * iz);
        CHECK(b.velocity.y == -1);
        CHECK(b.restitution == 0.5);
        CHECK(std::get<Sphere>(b.shape).radius == 0.2);
    }
    CHECK(s.bodies[1 + 5].position.x == 2.0); // s5: ix 2, iy 1, iz 0
    CHECK(s.bodies[1 + 5].position.y == 2.25);
}

TEST_CASE("an array's count must be three whole numbers of at least 1", "[scenario][array]") {
    CHECK(error_of("bodies:\n  s: { sphere: { radius: 1 }, array: { count: [2, 0, 2], spacing: [1, 1, 1] } }\n")
                  .find("2:") == 0);
    CHECK(error_of("bodies:\n  s: { sphere: { radius: 1 }, array: { count: [2, 0, 2], spacing: [1, 1, 1] } }\n")
                  .find("bodies.s.array.count") != std::string::npos);
    CHECK(error_of("bodies:\n  s: { sphere: { radius: 1 }, array: { count: [2, -3, 2], spacing: [1, 1, 1] } }\n")
                  .find("bodies.s.array.count") != std::string::npos);
    CHECK(error_of("bodies:\n  s: { sphere: { radius: 1 }, array: { count: [2, 1.5, 2], spacing: [1, 1, 1] } }\n")
                  .find("bodies.s.array.count") != std::string::npos);
    CHECK(error_of("bodies:\n  s: { sphere: { radius: 1 }, array: { count: [2, 2], spacing: [1, 1, 1] } }\n")
                  .find("bodies.s.array.count") != std::string::npos);
    CHECK(error_of("bodies:\n  s: { sphere: { radius: 1 }, array: { spacing: [1, 1, 1] } }\n").find("count") !=
          std::string::npos);
}

TEST_CASE("an array over the body cap is refused at its count, naming the product", "[scenario][array]") {
    const std::string e = error_of(
            "bodies:\n  s: { sphere: { radius: 1 }, array: { count: [1000, 1000, 1000], spacing: [1, 1, 1] } }\n");
    CHECK(e.rfind("2:47: bodies.s.array.count: 1000 × 1000 × 1000 = 1000000000 bodies; a scenario may have at most "
                  "200000 bodies",
                  0) == 0);
    // Two arrays that fit alone but not together: the second is refused with what is left.
    const std::string two =
            error_of("bodies:\n"
                     "  a: { sphere: { radius: 1 }, array: { count: [100, 100, 15], spacing: [1, 1, 1] } }\n"
                     "  b: { sphere: { radius: 1 }, array: { count: [100, 100, 6], spacing: [1, 1, 1] } }\n");
    CHECK(two.rfind("3:", 0) == 0);
    CHECK(two.find("= 60000 bodies, and with the scenario's 150000 other bodies 210000; a scenario may have at most "
                   "200000 bodies (50000 for this array)") != std::string::npos);
}

TEST_CASE("the body cap counts the bodies after an array too, and its refusal is the only error", "[scenario][array]") {
    // 200 × 10 × 100 = 200,000 spheres and a floor are 200,001 bodies, whichever comes first;
    // the log's reference to the refused array's first body is no second error.
    const std::string floor = "  floor: { static: true, box: { min: [-50, -2, -50], max: [50, 0, 50] } }\n";
    const std::string spheres =
            "  s: { sphere: { radius: 0.2 }, array: { count: [200, 10, 100], spacing: [0.5, 0.5, 0.5] } }\n";
    const std::string log = "log:\n  - final: { body: s0 }\n  - final: { body: s199999 }\n";
    CHECK(error_of("bodies:\n" + floor + spheres + log) ==
          "3:49: bodies.s.array.count: 200 × 10 × 100 = 200000 bodies, and with the scenario's 1 other body 200001; a "
          "scenario may have at most 200000 bodies (199999 for this array)");
    CHECK(error_of("bodies:\n" + spheres + floor + log) ==
          "2:49: bodies.s.array.count: 200 × 10 × 100 = 200000 bodies, and with the scenario's 1 other body 200001; a "
          "scenario may have at most 200000 bodies (199999 for this array)");
    // Exactly at the cap: 199,999 spheres and the floor load, in either order.
    const std::string fewer =
            "  s: { sphere: { radius: 0.2 }, array: { count: [199999, 1, 1], spacing: [0.5, 0.5, 0.5] } }\n";
    CHECK(load_text("bodies:\n" + fewer + floor).bodies.size() == 200000);
    CHECK(load_text("bodies:\n" + floor + fewer).bodies.size() == 200000);
    // A name the refused array would not have made is still an error of its own.
    try {
        load_text("bodies:\n" + floor + spheres + "log:\n  - final: { body: s200000 }\n");
        FAIL("accepted");
    } catch (const InputError& e) {
        REQUIRE(e.diagnostics.size() == 2);
        CHECK(e.diagnostics[1].message.find("no body named 's200000'") != std::string::npos);
    }
}

TEST_CASE("bodies: refused for holding more than 200,000 bodies is the only error", "[scenario][array]") {
    std::string yaml = "bodies:\n";
    for (int i = 0; i <= 200000; ++i) yaml += "  b" + std::to_string(i) + ": { sphere: { radius: 1 } }\n";
    yaml += "log:\n  - final: { body: b5 }\n";
    CHECK(error_of(yaml) == "2:3: bodies: 200001 items; a scenario may have at most 200000");
}

TEST_CASE("an array refused for its count leaves no error about its bodies", "[scenario][array]") {
    CHECK(error_of("bodies:\n  s: { sphere: { radius: 1 }, array: { count: [2, 0, 2], spacing: [1, 1, 1] } }\n"
                   "log:\n  - final: { body: s1 }\n")
                  .rfind("2:51: bodies.s.array.count[1] must be in [1, 200000], got 0", 0) == 0);
}

TEST_CASE("an array's body takes plain numbers, not params", "[scenario][array]") {
    const std::string e =
            error_of("params: { r: 1 }\n"
                     "bodies:\n  s: { sphere: { radius: $r }, array: { count: [2, 2, 2], spacing: [1, 1, 1] } }\n");
    CHECK(e.rfind("3:", 0) == 0);
    CHECK(e.find("plain numbers, not $params") != std::string::npos);
}

TEST_CASE("an array's names may not clash with another body's", "[scenario][array]") {
    // Before: the array's body s1 would take the name of an earlier body.
    const std::string before =
            error_of("bodies:\n"
                     "  s1: { sphere: { radius: 1 } }\n"
                     "  s: { sphere: { radius: 1 }, array: { count: [3, 1, 1], spacing: [1, 1, 1] } }\n");
    CHECK(before.rfind("3:31: bodies.s: the array's body 1 is named s1, but a body of that name comes before it", 0) ==
          0);
    // After: a later body named like one of the array's.
    const std::string after =
            error_of("bodies:\n"
                     "  s: { sphere: { radius: 1 }, array: { count: [3, 1, 1], spacing: [1, 1, 1] } }\n"
                     "  s2: { sphere: { radius: 1 } }\n");
    CHECK(after.rfind("3:3: bodies.s2: an array before it already made a body of that name", 0) == 0);
    // The array's own name is no body once it is an array.
    CHECK(error_of("bodies:\n"
                   "  s: { sphere: { radius: 1 }, array: { count: [2, 1, 1], spacing: [1, 1, 1] } }\n"
                   "log:\n  - final: { body: s }\n")
                  .find("no body named 's'") != std::string::npos);
}

TEST_CASE("10,000 bodies written by an array load, and so do 200,000", "[scenario][array]") {
    const Scenario s = load_text("bodies:\n  s: { sphere: { radius: 0.2 }, array: { count: [100, 100, 20], spacing: "
                                 "[0.5, 0.5, 0.5] } }\n");
    REQUIRE(s.bodies.size() == 200000);
    CHECK(s.bodies.back().name == "s199999");
    CHECK(s.bodies.back().position.x == 99 * 0.5);
    CHECK(s.bodies.back().position.z == 19 * 0.5);
}
