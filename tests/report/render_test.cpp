// Rendering: the text log reproduces the lines of expected/*.log from measured values, JSON keeps
// full precision, NaN prints as "none"/null, and rounding never prints "-0.000".
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "probes/simulate.h"
#include "report/render.h"
#include "scenario/load.h"

using namespace collide;

namespace {
Scenario two_boxes() {
    Scenario s;
    s.name = "mtv";
    s.bodies.resize(2);
    s.bodies[0].name = "floor";
    s.bodies[1].name = "feet";
    return s;
}
} // namespace

TEST_CASE("axis overlaps print one line per axis and mark the shallowest, as scenarios/mtv.yaml does") {
    Scenario s = two_boxes();
    s.log.push_back(LogDef{"axis_overlaps", "", "", 2, {}, AxisOverlapsLog{0, 1}});
    const Layout layout = layout_of(s);
    const double values[] = {5.4, 0.3, 5.4};
    CHECK(render_text(s, layout, values) == "push out along x → 5.40 m\n"
                                            "push out along y → 0.30 m  // the shallowest, so this is the way out\n"
                                            "push out along z → 5.40 m\n");
}

TEST_CASE("a contact normal prints trimmed, like (0, 1, 0); a user label and note replace the defaults") {
    Scenario s = two_boxes();
    s.log.push_back(LogDef{
            "contact", "boxContact(floor, feet).normal", "straight up, as a floor should", -1, {}, ContactLog{0, 1}});
    const Layout layout = layout_of(s);
    const double values[] = {1, 0, 1, -0.0, 0.3};
    CHECK(render_text(s, layout, values) ==
          "boxContact(floor, feet).normal → normal (0, 1, 0), depth 0.300 m  // straight up, as a floor should\n");
}

TEST_CASE("apex entries print the measured heights and the analytic ones only when they differ") {
    Scenario s;
    s.bodies.resize(2);
    s.bodies[0].name = "ball";
    s.bodies[0].restitution = 0.5;
    s.bodies[1].name = "floor";
    s.log.push_back(LogDef{"apex", "", "", -1, {}, ApexLog{0, 3, 2.0, 1}});
    const Layout layout = layout_of(s);
    const double same[] = {0.5, 0.125, 0.03125, 0.5, 0.125, 0.03125, 3};
    CHECK(render_text(s, layout, same) ==
          "dropped from 2 m with restitution 0.5, apex after 1, 2 and 3 bounces → 0.500 m, 0.125 m, 0.031 m\n");
    const double off[] = {0.48, 0.125, 0.03125, 0.5, 0.125, 0.03125, 3};
    CHECK(render_text(s, layout, off) ==
          "dropped from 2 m with restitution 0.5, apex after 1, 2 and 3 bounces → 0.480 m, 0.125 m, 0.031 m"
          "  // h·e^(2n) gives 0.500 m, 0.125 m, 0.031 m\n");
}

TEST_CASE("a missed first contact prints none and JSON gives null for unmeasured fields") {
    Scenario s;
    s.world.frames = 40;
    s.bodies.resize(2);
    s.bodies[0].name = "bullet";
    s.bodies[1].name = "wall";
    s.log.push_back(LogDef{"first_contact", "", "", -1, {}, FirstContactLog{0, 1}});
    const Layout layout = layout_of(s);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double values[] = {0, nan, nan, nan, nan, nan};
    CHECK(render_text(s, layout, values) == "first contact of bullet with wall → none in 40 frames\n");
    const std::string json = render_json(s, layout, values);
    CHECK(json.find("\"hit\": false") != std::string::npos);
    CHECK(json.find("\"frame\": null") != std::string::npos);
}

TEST_CASE("the separating axis readout names the axis as expected/sat-boxes.log does") {
    Scenario s;
    s.bodies.resize(2);
    s.bodies[0].name = "stick_a";
    s.bodies[1].name = "stick_b";
    s.log.push_back(LogDef{"separating_axis", "", "", -1, {}, SeparatingAxisLog{0, 1}});
    const Layout layout = layout_of(s);
    const double values[] = {1, 8, 15, 2, 1, 2, 0.05, 0, 1, 0};
    CHECK(render_text(s, layout, values) ==
          "separating axis of A = stick_a and B = stick_b → A's edge 1 × B's edge 2, the 8th of 15 axes, "
          "gap 0.050 m → apart\n");
}

TEST_CASE("JSON keeps full precision and CSV lists every field") {
    Scenario s;
    s.log.push_back(LogDef{"respond", "", "", -1, {}, RespondLog{{5, -1, 0}, {0, 1, 0}, 0, 0.3}});
    const Layout layout = layout_of(s);
    const double values[] = {3.5000000000000004, 0, 0, 3.5000000000000004};
    CHECK(render_json(s, layout, values).find("3.5000000000000004") != std::string::npos);
    CHECK(render_csv(s, layout, values) ==
          "scenario,entry,field,value,unit\n,respond,vx,3.5000000000000004,m/s\n,respond,vy,0,m/s\n,respond,vz,0,m/s\n"
          ",respond,speed,3.5000000000000004,m/s\n");
    s.name = "a, \"b\"";
    CHECK(render_csv(s, layout, values).find("\n\"a, \"\"b\"\"\",respond,vx,") != std::string::npos);
    CHECK(render_json(s, layout, values, -1).find('\n') == render_json(s, layout, values, -1).size() - 1);
}

TEST_CASE("a scenario name a spreadsheet would read as a formula is quoted after a ' in CSV") {
    Scenario s;
    s.log.push_back(LogDef{"respond", "", "", -1, {}, RespondLog{{5, -1, 0}, {0, 1, 0}, 0, 0.3}});
    const Layout layout = layout_of(s);
    const double values[] = {1, 0, 0, 1};
    s.name = "=cmd|' /C calc'!A0";
    CHECK(render_csv(s, layout, values).find("\n\"'=cmd|' /C calc'!A0\",respond,vx,1,m/s\n") != std::string::npos);
    for (const char* name : {"+1", "-1", "@SUM(A1)"}) {
        s.name = name;
        CHECK(render_csv(s, layout, values).find("\n\"'" + std::string(name) + "\",respond,") != std::string::npos);
    }
    s.name = "ball's run"; // an apostrophe elsewhere needs nothing
    CHECK(render_csv(s, layout, values).find("\nball's run,respond,") != std::string::npos);
}

TEST_CASE("a trigger entry prints when the body entered and left, or that it never did") {
    Scenario s;
    s.world.frames = 200;
    s.bodies.resize(2);
    s.bodies[0].name = "ball";
    s.bodies[1].name = "zone";
    s.log.push_back(LogDef{"trigger", "", "", -1, {}, TriggerLog{0, 1}});
    const Layout layout = layout_of(s);
    const double nan = std::numeric_limits<double>::quiet_NaN();
    const double both[] = {1, 75, 1.2549, 1, 125, 2.0876, 1};
    CHECK(render_text(s, layout, both) ==
          "ball in zone → entered at frame 75, t = 1.255 s; left at frame 125, t = 2.088 s\n");
    const double twice[] = {1, 75, 1.2549, 1, 125, 2.0876, 2};
    CHECK(render_text(s, layout, twice) ==
          "ball in zone → entered at frame 75, t = 1.255 s; left at frame 125, t = 2.088 s; entered 2 times\n");
    const double stays[] = {1, 75, 1.2549, 0, nan, nan, 1};
    CHECK(render_text(s, layout, stays) == "ball in zone → entered at frame 75, t = 1.255 s; never left\n");
    const double never[] = {0, nan, nan, 0, nan, nan, 0};
    CHECK(render_text(s, layout, never) == "ball in zone → never entered in 200 frames\n");
    const std::string json = render_json(s, layout, never);
    CHECK(json.find("\"entered\": false") != std::string::npos);
    CHECK(json.find("\"enter_time\": null") != std::string::npos);
    CHECK(json.find("\"events\": 0") != std::string::npos);
}

TEST_CASE("a logged number from 1e15 on prints in scientific notation, one below it in fixed") {
    // A ray from 2r down onto a ball of radius r at the origin hits after r, at (0, r, 0).
    const auto line = [](const std::string& r, const std::string& from) {
        const ScenarioTemplate t = parse_scenario_template(
                "world: { rate: 60, frames: 1, gravity: [0, 0, 0] }\n"
                "bodies:\n  b: { sphere: { radius: " +
                        r +
                        " }, position: [0, 0, 0] }\n"
                        "log:\n  - raycast: { from: [0, " +
                        from + ", 0], direction: [0, -1, 0], targets: [b], max_distance: 1e300 }\n",
                "big.yaml");
        auto evaluator = t.make_evaluator();
        Scenario s;
        t.instantiate(t.default_params(), evaluator, s);
        const Layout layout = layout_of(s);
        return render_text(s, layout, simulate(s));
    };
    CHECK(line("1e100", "2e100") == "ray from (0, 2e+100, 0) along (0, -1, 0) → hits b first at 1.000e+100 m, point "
                                    "(0.000, 1.000e+100, 0.000) m, normal (0, 1, 0)\n");
    CHECK(line("4e14", "8e14") == "ray from (0, 800000000000000, 0) along (0, -1, 0) → hits b first at "
                                  "400000000000000.000 m, point (0.000, 400000000000000.000, 0.000) m, normal (0, 1, "
                                  "0)\n");
}

TEST_CASE("a logged number below 1e-6 but not 0 prints in scientific notation, a direction's components in fixed") {
    // A ray from 2r down onto a ball of radius r at the origin hits after r, at (0, r, 0): with
    // r = 6.1e-7 m, fixed decimals would print both as 0.000.
    const ScenarioTemplate t = parse_scenario_template(
            "world: { rate: 60, frames: 1, gravity: [0, 0, 0] }\n"
            "bodies:\n  b: { sphere: { radius: 6.1e-7 }, position: [0, 0, 0] }\n"
            "log:\n  - raycast: { from: [0, 1.22e-6, 0], direction: [1e-9, -1, 0], targets: [b] }\n"
            "  - slope: { surface_degrees: 90, limit: 46 }\n",
            "small.yaml");
    auto evaluator = t.make_evaluator();
    Scenario s;
    t.instantiate(t.default_params(), evaluator, s);
    const std::string text = render_text(s, layout_of(s), simulate(s));
    INFO(text);
    // The hit: 6.1e-7 m away at (x, 6.1e-7, 0), x = 6.1e-16 m along the 1e-9 tilt (below 1e-6:
    // scientific, whatever its last digits), the normal's components in fixed decimals.
    CHECK_THAT(text, Catch::StartsWith("ray from (0, 1.22e-06, 0) along (0, -1, 0) → hits b first at 6.100e-07 m, "
                                       "point (6.") &&
                             Catch::Contains("e-16, 6.100e-07, 0.000) m, normal (0, 1, 0)\n"));
    // A surface at 90°: its normal (cos 90°, sin 90°) has an x of 6.1e-17, printed as the 0 it stands for.
    CHECK_THAT(text, Catch::Contains("slope of a surface with normal (-1, 0, 0) → 90.000°, too steep"));
}

TEST_CASE("a vector's component below 1e-6 beside a larger one prints fixed; a vector below 1e-6 in scientific") {
    // Nothing moves (no gravity, no velocity): each body ends where it starts, exactly.
    const ScenarioTemplate t =
            parse_scenario_template("world: { rate: 60, frames: 1, gravity: [0, 0, 0] }\n"
                                    "bodies:\n"
                                    "  big: { sphere: { radius: 0.1 }, position: [11.229, 0.498, 5.6e-7] }\n"
                                    "  small: { sphere: { radius: 0.1 }, position: [0, 6.1e-7, -2e-9] }\n"
                                    "log:\n  - final: { body: big }\n  - final: { body: small }\n",
                                    "vectors.yaml");
    auto evaluator = t.make_evaluator();
    Scenario s;
    t.instantiate(t.default_params(), evaluator, s);
    const std::string text = render_text(s, layout_of(s), simulate(s));
    INFO(text);
    CHECK_THAT(text, Catch::Contains("big at the end → position (11.229, 0.498, 0.000) m, velocity (0.000, 0.000, "
                                     "0.000) m/s"));
    CHECK_THAT(text, Catch::Contains("small at the end → position (0.000, 6.100e-07, -2.000e-09) m"));
}
