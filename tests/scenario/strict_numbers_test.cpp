// Strict numbers: an expression is arithmetic and functions only (no comma operator, no
// assignment, no comparison), vectors and quaternions normalise without overflow, a value that
// overflows is a located error (never `inf` printed), a --shard N beyond any grid is refused.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>

#include "math/quat.h"
#include "math/vec3.h"
#include "scenario/expression.h"
#include "scenario/load.h"
#include "support/run_command.h"
#include "sweep/grid.h"

using namespace collide;
using collide::test::run_collide;

namespace {

std::string first_problem(std::string_view yaml) {
    try {
        const ScenarioTemplate t = parse_scenario_template(yaml, "bad.yaml");
        auto ev = t.make_evaluator();
        Scenario s;
        t.instantiate(apply_sets(t, {}), ev, s);
    } catch (const InputError& e) {
        return format_diagnostic(e.diagnostics.front());
    }
    return "";
}

} // namespace

TEST_CASE("radius: 0,5 is a located error suggesting 0.5, not 5") {
    const std::string yaml = "bodies:\n  b: { sphere: { radius: '0,5' } }\n";
    CHECK_THAT(first_problem(yaml), Catch::StartsWith("bad.yaml:2:") && Catch::Contains("did you mean 0.5?"));
    CHECK_THAT(first_problem("params: { a: 1 }\nbodies:\n  b: { sphere: { radius: '($a, 2)' } }\n"),
               Catch::Contains("a comma separates a function's arguments only"));
    // A function's arguments keep their commas.
    CHECK(first_problem("params: { a: 1 }\nbodies:\n  b: { sphere: { radius: 'max($a, 0.5)' } }\n").empty());
}

TEST_CASE("assignment, comparison and other operators are refused in expressions") {
    for (const char* text : {"$a=5", "$a+=1", "$a>1", "$a==1", "$a ? 1 : 2", "$a && 1"}) {
        INFO(text);
        const std::string yaml =
                std::string("params: { a: 1 }\nbodies:\n  b: { sphere: { radius: '") + text + "' } }\n";
        CHECK_THAT(first_problem(yaml), Catch::StartsWith("bad.yaml:3:") && Catch::Contains("is not allowed"));
    }
    CHECK(detail::expression_problem("-3 + $offset * $speed / 60 ^ 2").empty());
    CHECK(detail::expression_problem("sin(_pi / 4) * min($a, 2)").empty());
}

TEST_CASE("an over-long expression is not echoed whole") {
    const std::string text(200000, '(');
    const std::string yaml = "bodies:\n  b: { sphere: { radius: '" + text + "' } }\n";
    const std::string problem = first_problem(yaml);
    CHECK_FALSE(problem.empty());
    CHECK(problem.size() < 400);
    CHECK(problem.find('\n') == std::string::npos);
}

TEST_CASE("vectors and quaternions normalise without overflow or underflow") {
    const Vec3 big = normalize(Vec3{1e200, 1e200, 0});
    CHECK(big.x == Approx(std::sqrt(0.5)));
    CHECK(big.y == Approx(std::sqrt(0.5)));
    const Vec3 tiny = normalize(Vec3{3e-162, 3e-162, 0});
    CHECK(length(tiny) == Approx(1.0));
    CHECK(length(normalize(Vec3{1e-320, 0, 0})) == Approx(1.0));
    CHECK(is_zero(normalize(Vec3{0, 0, 0})));
    // Ordinary vectors: exactly a / |a|, as before.
    const Vec3 v{3, 4, 12};
    CHECK(normalize(v).x == v.x / std::sqrt(169.0));
    const Quat q = normalize(Quat{1e200, 1e200, 0, 0});
    CHECK(q.w == Approx(std::sqrt(0.5)));
    CHECK(q.x == Approx(std::sqrt(0.5)));
    const Quat r = quat_from_axis_degrees(Vec3{0, 0, 1e-200}, 90);
    CHECK(r.z == Approx(std::sqrt(0.5)));
}

TEST_CASE("a normal of [1e200, 1e200, 0] is a 45-degree normal, not the zero vector") {
    const std::string yaml = "log:\n  - slope: { normal: [1e200, 1e200, 0], limit: 46 }\n";
    CHECK(first_problem(yaml).empty());
    CHECK(first_problem("log:\n  - slope: { normal: [1e-200, 0, 0], limit: 46 }\n").empty());
    CHECK_THAT(first_problem("log:\n  - slope: { normal: [0, 0, 0], limit: 46 }\n"), Catch::Contains("zero vector"));
}

TEST_CASE("split of a velocity that overflows is a located error, never inf") {
    const auto r = run_collide("sim -", "log:\n  - split: { velocity: [1e300, -1e300, 0], normal: [1, -1, 0] }\n");
    CHECK(r.exit_code == 2);
    CHECK(r.out.find("inf") == std::string::npos);
    CHECK_THAT(r.err, Catch::StartsWith("<stdin>:2:") && Catch::Contains("overflows"));
    const auto respond = run_collide(
            "sim -",
            "log:\n  - respond: { velocity: [1e300, -1e300, 0], normal: [-1, 1, 0], restitution: 1, friction: 0 }\n");
    CHECK(respond.exit_code == 2);
    CHECK(respond.out.find("inf") == std::string::npos);
}

TEST_CASE("a shard count of 18446744073709551615 is refused") {
    CHECK_THROWS_WITH(parse_shard("1/18446744073709551615"), Catch::Contains("N must be at most"));
    const auto r =
            run_collide("sweep scenarios/tunnel.yaml --vary speed=30,60 --format csv --shard 1/18446744073709551615");
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
}

TEST_CASE("a sweep cell whose value overflows stops the sweep with an error, never prints inf") {
    const auto r = run_collide("sweep - --vary v=1,1e300 --format csv",
                               "params: { v: 1 }\nlog:\n  - split: { velocity: [$v, -$v, 0], normal: [1, -1, 0] }\n");
    CHECK(r.exit_code == 2);
    CHECK(r.out.find("inf") == std::string::npos);
    CHECK_THAT(r.err, Catch::Contains("cell 1 (discrete)") && Catch::Contains("overflows"));
}

TEST_CASE("a scenario's rotation axis or quaternion scaled by 1e200 or 1e-200 is the same turn") {
    // 90 degrees about z: the unit quaternion (cos 45°, 0, 0, sin 45°), whatever the scale.
    for (const char* rotation : {"{ axis: [0, 0, 1e200], degrees: 90 }", "{ axis: [0, 0, 1e-200], degrees: 90 }",
                                 "{ quaternion: [1e200, 0, 0, 1e200] }", "{ quaternion: [1e-200, 0, 0, 1e-200] }",
                                 "{ quaternion: [3e-162, 0, 0, 3e-162] }"}) {
        INFO(rotation);
        const std::string yaml = std::string("bodies:\n  b: { sphere: { radius: 1 }, rotation: ") + rotation + " }\n";
        const ScenarioTemplate t = parse_scenario_template(yaml, "turn.yaml");
        auto ev = t.make_evaluator();
        Scenario s;
        t.instantiate(apply_sets(t, {}), ev, s);
        REQUIRE(s.bodies.size() == 1);
        const Quat q = s.bodies[0].rotation;
        CHECK(q.w == Approx(std::sqrt(0.5)));
        CHECK(q.x == Approx(0).margin(1e-15));
        CHECK(q.y == Approx(0).margin(1e-15));
        CHECK(q.z == Approx(std::sqrt(0.5)));
    }
}
