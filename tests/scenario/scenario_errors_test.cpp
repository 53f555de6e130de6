// One test per mistake a user can make in a scenario: each asserts the exact line and column
// of the diagnostic and the key part of its message. Columns are found by searching the line's
// text for the offending token, so each test states *which* token is blamed.
#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "scenario/load.h"
#include "support/run_command.h"

using namespace collide;

namespace {

/// Every diagnostic from parsing `yaml` and instantiating it with the defaults plus `sets`.
std::vector<Diagnostic> problems(std::string_view yaml, const std::vector<std::string>& sets = {}) {
    try {
        const ScenarioTemplate t = parse_scenario_template(yaml, "bad.yaml");
        auto ev = t.make_evaluator();
        Scenario s;
        t.instantiate(apply_sets(t, sets), ev, s);
    } catch (const InputError& e) {
        return e.diagnostics;
    }
    return {};
}

/// 1-based column of the first occurrence of `token` on 1-based `line` of `text`.
int column_of(std::string_view text, int line, std::string_view token) {
    std::size_t start = 0;
    for (int l = 1; l < line; ++l) start = text.find('\n', start) + 1;
    const std::size_t end = text.find('\n', start);
    const std::string_view row = text.substr(start, end == std::string_view::npos ? text.size() - start : end - start);
    const std::size_t at = row.find(token);
    REQUIRE(at != std::string_view::npos);
    return static_cast<int>(at) + 1;
}

std::string all(const std::vector<Diagnostic>& ds) {
    std::string s;
    for (const Diagnostic& d : ds) s += format_diagnostic(d) + "\n";
    return s;
}

/// Requires exactly one diagnostic, at `line` and the column where `token` starts, whose message
/// contains `part`.
void expect_one(std::string_view yaml, int line, std::string_view token, const std::string& part,
                const std::vector<std::string>& sets = {}) {
    const std::vector<Diagnostic> ds = problems(yaml, sets);
    INFO(all(ds));
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].file == "bad.yaml");
    CHECK(ds[0].line == line);
    CHECK(ds[0].column == column_of(yaml, line, token));
    CHECK_THAT(ds[0].message, Catch::Contains(part));
}

/// Two plain bodies, a and b, for the log tests.
const char* const kTwoBodies = "bodies:\n  a: { sphere: { radius: 1 } }\n  b: { sphere: { radius: 1 } }\n";

/// One body with a final entry logged, for the expect tests.
const char* const kLogged = "bodies:\n  a: { sphere: { radius: 1 } }\nlog:\n  - final: { body: a }\n";

/// One mistake in a scenario and where and how it must be reported: exactly one diagnostic, at
/// `line` and the column where `token` starts, its message containing `part`.
struct Mistake {
    Mistake(const char* what_, std::string yaml_, int line_, std::string token_, std::string part_,
            std::vector<std::string> sets_ = {})
            : what(what_), yaml(std::move(yaml_)), line(line_), token(std::move(token_)), part(std::move(part_)),
              sets(std::move(sets_)) {}
    const char* what;              ///< the behaviour, as the test's name would say it
    std::string yaml;              ///< the scenario
    int line;                      ///< 1-based line of the diagnostic
    std::string token;             ///< the text at its column
    std::string part;              ///< part of its message
    std::vector<std::string> sets; ///< --set values to instantiate with
};

/// Checks every mistake of a table as expect_one does, without stopping at the first that
/// fails; returns how many it checked.
template <std::size_t N> int check_mistakes(const Mistake (&cases)[N]) {
    int checked = 0;
    for (const Mistake& m : cases) {
        INFO(m.what);
        const std::vector<Diagnostic> ds = problems(m.yaml, m.sets);
        INFO(all(ds));
        ++checked;
        if (ds.size() != 1) {
            FAIL_CHECK(ds.size() << " diagnostics instead of 1");
            continue;
        }
        CHECK(ds[0].file == "bad.yaml");
        CHECK(ds[0].line == m.line);
        CHECK(ds[0].column == column_of(m.yaml, m.line, m.token));
        CHECK_THAT(ds[0].message, Catch::Contains(m.part));
    }
    return checked;
}

/// Requires exactly one diagnostic at line 1, column 1.
void expect_whole_file(std::string_view yaml, const std::string& part) {
    const std::vector<Diagnostic> ds = problems(yaml);
    INFO(all(ds));
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].line == 1);
    CHECK(ds[0].column == 1);
    CHECK_THAT(ds[0].message, Catch::Contains(part));
}

} // namespace

// ---- the file as a whole -----------------------------------------------------------------

TEST_CASE("each mistake in the file as a whole is one located error, at the token to blame", "[scenario][errors]") {
    const Mistake cases[] = {
            {"a top level that is a list is not a scenario", "- a\n- b\n", 1, "-", "must be a mapping"},
            {"a top level that is a plain word is not a scenario", "hello\n", 1, "hello", "must be a mapping"},
            {"a second YAML document in the file is an error where it starts", "name: a\n---\nname: b\n", 2, "---",
             "one YAML document"},
    };
    CHECK(check_mistakes(cases) == 3);
}

TEST_CASE("an empty file is an empty scenario at 1:1", "[scenario][errors]") {
    expect_whole_file("", "empty scenario");
}

TEST_CASE("a file of comments only is an empty scenario", "[scenario][errors]") {
    expect_whole_file("# nothing here\n\n   # still nothing\n", "empty scenario");
}

TEST_CASE("a file with a NUL byte is refused as binary at 1:1", "[scenario][errors]") {
    expect_whole_file(std::string_view("name: a\n\0\x01\x02", 11), "NUL byte at line 2, column 1");
}

TEST_CASE("a file that is not UTF-8 is refused at 1:1", "[scenario][errors]") {
    expect_whole_file("name: ok\nabout: caf\xe9 au lait\n", "invalid UTF-8 at line 2, column 11");
}

TEST_CASE("a YAML syntax error is reported where the parser stopped", "[scenario][errors]") {
    const std::string yaml = "name: a\nworld: { rate: [60 }\n";
    const auto ds = problems(yaml);
    INFO(all(ds));
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].line == 2);
    CHECK(ds[0].column == column_of(yaml, 2, "}"));
    CHECK_THAT(ds[0].message, Catch::StartsWith("YAML: "));
}

TEST_CASE("a flow collection never closed is reported at its opening bracket, not where yaml-cpp gave up",
          "[scenario][errors]") {
    // yaml-cpp stops at the next token after the collection (3:1 for the first case, 6:1 with
    // blank lines between); the writer's mistake is the '{' or '[' on line 2.
    const Mistake cases[] = {
            {"a map flow without its '}'", "name: a\nworld: { rate: 60, frames: 10\nbodies: {}\n", 2, "{",
             "YAML: this '{' is never closed: no '}' before line 3, column "},
            {"a map flow without its '}', blank lines after",
             "name: a\nworld: { rate: 60, frames: 10\n\n\n\nbodies: {}\n", 2, "{",
             "YAML: this '{' is never closed: no '}' before line 6, column "},
            {"a sequence flow without its ']'", "name: a\nworld:\n  gravity: [0, -9.81, 0\n  rate: 60\n", 3, "[",
             "YAML: this '[' is never closed"},
            {"the unclosed one of several, past closed ones and brackets in quotes and comments",
             "about: \"a { b [\"  # } ]\nworld: { gravity: [0, 0, 0], rate: 60 }\nbodies: { a: { sphere: { radius: 1 } "
             "}\nlog: []\n",
             3, "{ a", "YAML: this '{' is never closed"},
    };
    CHECK(check_mistakes(cases) == 4);
}

TEST_CASE("a tab used for indentation is a YAML error with its line", "[scenario][errors]") {
    const auto ds = problems("world:\n\trate: 5\n");
    INFO(all(ds));
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].line == 2);
    CHECK_THAT(ds[0].message, Catch::StartsWith("YAML: "));
}

TEST_CASE("absurdly deep flow nesting is refused before parsing", "[scenario][errors]") {
    const std::string yaml = "about: " + std::string(200000, '[') + std::string(200000, ']') + "\n";
    // 64 levels allowed; the top-level mapping is level 1, so the 64th '[' (column 7 + 64) is level 65.
    const auto ds = problems(yaml);
    INFO(all(ds));
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].line == 1);
    CHECK(ds[0].column == 7 + 64);
    CHECK_THAT(ds[0].message, Catch::Contains("nesting deeper than 64"));
}

TEST_CASE("absurdly deep block nesting is refused before parsing", "[scenario][errors]") {
    std::string yaml;
    for (int i = 0; i < 100; ++i) yaml += std::string(static_cast<std::size_t>(i), ' ') + "k:\n";
    expect_one(yaml, 65, "k", "nesting deeper than 64");
}

TEST_CASE("absurdly deep compact sequences are refused before parsing", "[scenario][errors]") {
    std::string yaml = "about: x\nlog:\n  ";
    for (int i = 0; i < 100; ++i) yaml += "- ";
    yaml += "x\n";
    const auto ds = problems(yaml);
    INFO(all(ds));
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].line == 3);
    CHECK_THAT(ds[0].message, Catch::Contains("nesting deeper than 64"));
}

TEST_CASE("brackets inside quotes, comments and block scalars do not count as nesting", "[scenario][errors]") {
    const std::string deep(100, '[');
    const std::string yaml = "about: \"" + deep + "\"  # " + deep + "\nname: '" + deep + "'\n";
    CHECK(problems(yaml).empty());
    std::string block = "about: |\n";
    for (int i = 1; i < 100; ++i) block += std::string(static_cast<std::size_t>(i), ' ') + "x\n";
    const auto ds = problems(block);
    INFO(all(ds));
    REQUIRE(ds.size() == 1); // a multi-line about is wrong, but not for its nesting
    CHECK_THAT(ds[0].message, Catch::Contains("one line"));
}

TEST_CASE("an unreadable file is reported as FILE:1:1 cannot read", "[scenario][errors]") {
    const std::string path = "/nonexistent/dir/none.yaml";
    try {
        load_scenario_template(path);
        FAIL("loaded a missing file");
    } catch (const InputError& e) {
        CHECK(std::string(e.what()) == path + ":1:1: error: cannot read: No such file or directory");
    }
}

TEST_CASE("a directory given as a scenario is refused, pointing at check", "[scenario][errors]") {
    const std::string dir = std::filesystem::temp_directory_path().string();
    try {
        load_scenario_template(dir);
        FAIL("loaded a directory");
    } catch (const InputError& e) {
        CHECK(e.diagnostics.at(0).line == 0); // the path as a whole, no position in it
        CHECK(e.diagnostics.at(0).message ==
              "a folder, not a scenario file: `collide check " + dir + "` runs every scenario in it");
    }
}

// ---- keys --------------------------------------------------------------------------------

TEST_CASE("each mistake in keys is one located error, at the token to blame", "[scenario][errors]") {
    const Mistake cases[] = {
            {"an unknown top-level key is an error at the key", "name: a\nbodys: {}\n", 2, "bodys",
             "unknown key 'bodys'"},
            {"a misspelt key inside a body is an error naming the keys allowed there",
             "bodies:\n  b: { sphere: { radius: 1 }, positon: [0, 0, 0] }\n", 2, "positon",
             "expected one of: sphere, box"},
            {"a duplicate top-level key is an error at the second one", "name: a\nabout: x\nname: b\n", 3, "name",
             "duplicate key 'name' (first given at line 1)"},
            {"two bodies with the same name are a duplicate key",
             "bodies:\n  ball: { sphere: { radius: 1 } }\n  ball: { sphere: { radius: 2 } }\n", 3, "ball",
             "duplicate key 'ball'"},
            {"a missing required key points at its parent mapping and names the key",
             "bodies:\n  b: { capsule: { a: [0, 0, 0], b: [0, 1, 0] } }\n", 2, "{ a:", "missing required key 'radius'"},
            {"an unknown key in tolerance is an error", "tolerance: { absolute: 1e-6, relativ: 1e-3 }\n", 1, "relativ",
             "unknown key 'relativ'"},
    };
    CHECK(check_mistakes(cases) == 6);
}

TEST_CASE("a duplicate key inside a flow mapping is an error at the second one", "[scenario][errors]") {
    const std::string yaml = "bodies: { b: { sphere: { radius: 1, radius: 2 } } }\n";
    const auto ds = problems(yaml);
    INFO(all(ds));
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].column == static_cast<int>(yaml.find("radius: 2")) + 1);
    CHECK_THAT(ds[0].message, Catch::Contains("duplicate key 'radius'"));
}

// ---- numbers -----------------------------------------------------------------------------

TEST_CASE("each mistake in numbers is one located error, at the token to blame", "[scenario][errors]") {
    const Mistake cases[] = {
            {"a negative radius is an error at the number", "bodies: { b: { sphere: { radius: -0.3 } } }\n", 1, "-0.3",
             "radius must be > 0, got -0.3"},
            {"a NaN written .nan is an error", "world: { gravity: [0, .nan, 0] }\n", 1, ".nan",
             "gravity[1] must be a finite number"},
            {"an infinity written .inf is an error", "world: { rest_time: -.inf }\n", 1, "-.inf",
             "must be a finite number"},
            {"a number too large for a double (1e999) is an error", "bodies: { b: { sphere: { radius: 1e999 } } }\n", 1,
             "1e999", "must be a finite number, got 1e999"},
            {"a word where a number is expected is an error", "bodies: { b: { sphere: { radius: big } } }\n", 1, "big",
             "expected a number, got \"big\""},
            {"true where a number is expected is an error", "bodies: { b: { sphere: { radius: true } } }\n", 1, "true",
             "expected a number, got true"},
            {"a mapping where a list is expected is an error",
             "bodies:\n  b: { sphere: { radius: 1 }, position: { x: 1 } }\n", 2, "{ x",
             "position: expected a list of 3 numbers [x, y, z], got a mapping"},
            {"a list where a number is expected is an error", "bodies: { b: { sphere: { radius: [1] } } }\n", 1, "[1]",
             "expected a number, got a list"},
            {"a vector with two numbers is an error", "world: { gravity: [0, -9.81] }\n", 1, "[0",
             "expected 3 numbers [x, y, z], got 2"},
            {"a vector with four numbers is an error",
             "bodies: { b: { sphere: { radius: 1 }, velocity: [1, 2, 3, 4] } }\n", 1, "[1, 2",
             "expected 3 numbers [x, y, z], got 4"},
            {"an empty value where a number is expected is an error at its key", "world:\n  rate:\n", 2, "rate",
             "expected a number, got nothing"},
    };
    CHECK(check_mistakes(cases) == 11);
}

// ---- expressions and params --------------------------------------------------------------

TEST_CASE("each mistake in expressions and params is one located error, at the token to blame", "[scenario][errors]") {
    const Mistake cases[] = {
            {"an unknown $name is an error naming the params there are",
             "params: { speed: 1 }\nbodies: { b: { sphere: { radius: 1 }, velocity: [$sped, 0, 0] } }\n", 2, "$sped",
             "unknown param '$sped' (params: speed)"},
            {"a $name in a scenario without params is an error", "world: { phase: $offset }\n", 1, "$offset",
             "this scenario has no params"},
            {"an expression that does not parse is an error with muparser's reason",
             "params: { a: 1 }\nworld: { phase: \"$a *\" }\n", 2, "\"$a", "cannot read the expression \"$a *\""},
            {"a constant expression is checked like a number", "bodies: { b: { sphere: { radius: \"1 - 2\" } } }\n", 1,
             "\"1 - 2\"", "\"1 - 2\" gives -1"},
            {"a param whose default is not a plain number is an error", "params: { speed: fast }\n", 1, "fast",
             "a param's default must be a plain number"},
            {"a param whose default is NaN is an error", "params: { speed: .NaN }\n", 1, ".NaN",
             "params.speed must be a finite number"},
            {"a param name that is not an identifier is an error", "params: { 2fast: 1 }\n", 1, "2fast",
             "a param name is a letter or '_'"},
            {"a param that makes a value invalid is reported at the expression",
             "params: { r: 1 }\nbodies: { b: { sphere: { radius: \"$r - 2\" } } }\n", 2, "\"$r",
             "radius must be > 0, but \"$r - 2\" gives -1"},
            {"a --set to an invalid value is reported at the expression that uses it",
             "params: { rate: 60 }\nworld: { rate: $rate }\n",
             2,
             "$rate",
             "world.rate must be > 0, but \"$rate\" gives 0",
             {"rate=0"}},
            {"a NaN produced by an expression after substitution is an error",
             "params: { x: 4 }\nworld: { skin: \"sqrt($x)\" }\n",
             2,
             "\"sqrt",
             "world.skin must be a finite number",
             {"x=-1"}},
            {"a param in bounces is refused: it decides the log's fields",
             "params: { n: 3 }\nbodies: { b: { sphere: { radius: 1 } } }\nlog:\n  - apex: { body: b, bounces: $n }\n",
             4, "$n", "must be a plain number"},
    };
    CHECK(check_mistakes(cases) == 11);
}

TEST_CASE("a --set of an unknown param names the file and the params", "[scenario][errors]") {
    const auto ds = problems("params:\n  speed: 1\n  offset: 0\n", {"sped=3"});
    INFO(all(ds));
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].file == "bad.yaml");
    CHECK(ds[0].line == 2); // the params mapping
    CHECK_THAT(ds[0].message, Catch::Contains("no param named 'sped' (params: speed, offset)"));
}

TEST_CASE("a --set of a value that is not a number is an error", "[scenario][errors]") {
    const auto ds = problems("params: { speed: 1 }\n", {"speed=fast"});
    INFO(all(ds));
    REQUIRE(ds.size() == 1);
    CHECK_THAT(ds[0].message, Catch::Contains("--set speed=fast: the value is not a number"));
}

TEST_CASE("a --set without '=' is an error", "[scenario][errors]") {
    const auto ds = problems("params: { speed: 1 }\n", {"speed"});
    REQUIRE(ds.size() == 1);
    CHECK_THAT(ds[0].message, Catch::Contains("expected NAME=VALUE"));
}

// ---- world -------------------------------------------------------------------------------

TEST_CASE("each mistake in world is one located error, at the token to blame", "[scenario][errors]") {
    const Mistake cases[] = {
            {"a rate of zero is an error", "world: { rate: 0 }\n", 1, "0", "world.rate must be > 0, got 0"},
            {"a negative dt is an error", "world: { dt: -0.01 }\n", 1, "-0.01", "world.dt must be > 0"},
            {"rate and dt together are an error at the second", "world: { rate: 60, dt: 0.01 }\n", 1, "dt",
             "give rate or dt, not both"},
            {"zero frames is an error", "world: { frames: 0 }\n", 1, "0",
             "world.frames must be in [1, 10000000], got 0"},
            {"a fractional frame count is an error", "world: { frames: 2.5 }\n", 1, "2.5", "must be a whole number"},
            {"frames and duration together are an error", "world: { frames: 10, duration: 1 }\n", 1, "duration",
             "give frames or duration, not both"},
            {"a phase of 1 is outside the half-open range from 0 to 1", "world: { phase: 1 }\n", 1, "1",
             "world.phase must be in [0, 1)"},
            {"an unknown detection mode is an error", "world: { detection: continuous }\n", 1, "continuous",
             "must be discrete, swept or speculative"},
            {"an unknown integrator is an error", "world: { integrator: rk4 }\n", 1, "rk4", "must be exact or euler"},
            {"a negative step height is an error",
             "bodies:\n  b: { sphere: { radius: 1 }, character: true, step_height: -0.2 }\n", 2, "-0.2", "step_height"},
            {"a character takes no speculative contacts",
             "bodies:\n  c: { sphere: { radius: 1 }, character: true, ccd: speculative }\n", 2, "ccd",
             "no speculative contacts"},
            {"too many character iterations are an error", "world: { character_iterations: 17 }\n", 1, "17",
             "must be in [1, 16]"},
            {"a negative skin is an error", "world: { skin: -0.001 }\n", 1, "-0.001", "world.skin must be >= 0"},
            {"a duration that gives absurdly many frames is an error", "world: { dt: 1e-9, duration: 100 }\n", 1, "100",
             "frames; at most 10000000"},
            {"world given as a list is an error", "world: [60]\n", 1, "[60]",
             "world: expected a mapping of keys, got a list"},
    };
    CHECK(check_mistakes(cases) == 15);
}

TEST_CASE("an unknown friction model or combine rule is an error", "[scenario][errors]") {
    expect_one("world: { friction_model: viscous }\n", 1, "viscous", "must be coulomb or per_contact");
    expect_one("world: { friction_combine: median }\n", 1, "median", "must be max, min, average or multiply");
    expect_one("world:\n  restitution_combine: 3\n", 2, "3", "world.restitution_combine must be max, min");
}

TEST_CASE("a body cannot be kinematic and static, or kinematic and a character", "[scenario][errors]") {
    expect_one("bodies:\n  p: { box: { half: [1, 1, 1] }, static: true, kinematic: true }\n", 2, "kinematic",
               "static or kinematic, not both");
    expect_one("bodies:\n  p: { sphere: { radius: 1 }, kinematic: true, character: true }\n", 2, "character",
               "cannot be kinematic too");
    expect_one("bodies:\n  p: { sphere: { radius: 1 }, kinematic: 2 }\n", 2, "2", "kinematic");
}

TEST_CASE("step height and snap distance are for characters, and not negative", "[scenario][errors]") {
    expect_one("bodies:\n  b: { sphere: { radius: 1 }, step_height: 0.3 }\n", 2, "step_height", "for characters");
    expect_one("bodies:\n  b: { sphere: { radius: 1 }, character: true, snap_distance: -1 }\n", 2, "-1",
               "snap_distance");
}

TEST_CASE("angular_velocity on a body that cannot turn is an error", "[scenario][errors]") {
    expect_one("bodies:\n  d: { box: { half: [1, 0.1, 1] }, static: true, angular_velocity: [0, 1, 0] }\n", 2,
               "angular_velocity", "a static body never turns");
    expect_one("bodies:\n  d: { sphere: { radius: 1 }, character: true, angular_velocity: [0, 1, 0] }\n", 2,
               "angular_velocity", "a character never turns");
    expect_one("bodies:\n  d: { box: { half: [1, 0.1, 1] }, fixed_rotation: true, angular_velocity: [0, 1, 0] }\n", 2,
               "angular_velocity", "fixed_rotation keeps it from turning");
}

TEST_CASE("fixed_rotation is for dynamic bodies", "[scenario][errors]") {
    expect_one("bodies:\n  d: { box: { half: [1, 0.1, 1] }, static: true, fixed_rotation: true }\n", 2,
               "fixed_rotation", "fixed_rotation is for dynamic bodies (a static body never moves)");
    expect_one("bodies:\n  d: { box: { half: [1, 0.1, 1] }, kinematic: true, fixed_rotation: true }\n", 2,
               "fixed_rotation", "kinematic body turns only at its angular_velocity");
    expect_one("bodies:\n  d: { box: { half: [1, 0.1, 1] }, fixed_rotation: 1 }\n", 2, "1 }", "fixed_rotation");
    const ScenarioTemplate t =
            parse_scenario_template("bodies:\n  d: { box: { half: [1, 0.1, 1] }, fixed_rotation: true }\n", "ok.yaml");
    CHECK(t.base().bodies[0].fixed_rotation);
}

TEST_CASE("mass or density, not both; a density needs a volume", "[scenario][errors]") {
    expect_one("bodies:\n  d: { sphere: { radius: 1 }, mass: 2, density: 1000 }\n", 2, "density",
               "give mass or density, not both");
    expect_one("bodies:\n  d: { triangle: { a: [0, 0, 0], b: [1, 0, 0], c: [0, 1, 0] }, density: 10 }\n", 2, "density",
               "a triangle has no volume");
    expect_one("bodies:\n  d: { hull: { points: [[0, 0, 0], [1, 0, 0], [0, 1, 0], [1, 1, 0]] }, density: 10 }\n", 2,
               "density", "the hull is flat");
    expect_one("bodies:\n  d: { sphere: { radius: 1 }, density: 0 }\n", 2, "0 }", "density must be > 0");
    expect_one("bodies:\n  d: { sphere: { radius: 1 }, density: -5 }\n", 2, "-5", "density must be > 0");
    const ScenarioTemplate t =
            parse_scenario_template("bodies:\n  d: { box: { half: [1, 0.1, 1] }, density: 700 }\n", "ok.yaml");
    CHECK(t.base().bodies[0].density == 700);
    CHECK(mass_of(t.base().bodies[0]) == Approx(700 * 2 * 0.2 * 2).epsilon(1e-15)); // 700 kg/m³ × 0.8 m³
}

TEST_CASE("a dynamic body's angular_velocity is its initial one, in rad/s about its centre of mass", "[scenario]") {
    const ScenarioTemplate t = parse_scenario_template(
            "bodies:\n  d: { box: { half: [1, 0.1, 1] }, angular_velocity: [0, 3, -1] }\n", "ok.yaml");
    REQUIRE(t.base().bodies.size() == 1);
    CHECK(body_kind(t.base().bodies[0]) == BodyKind::dynamic);
    CHECK(t.base().bodies[0].angular_velocity == Vec3{0, 3, -1});
}

TEST_CASE("a kinematic body's angular_velocity is read in rad/s", "[scenario]") {
    const ScenarioTemplate t = parse_scenario_template(
            "bodies:\n  d: { box: { half: [1, 0.1, 1] }, kinematic: true, angular_velocity: [0, 0, 2.5] }\n",
            "ok.yaml");
    REQUIRE(t.base().bodies.size() == 1);
    CHECK(t.base().bodies[0].angular_velocity == Vec3{0, 0, 2.5});
}

TEST_CASE("the friction settings are read", "[scenario]") {
    const ScenarioTemplate t = parse_scenario_template(
            "world: { friction_model: per_contact, friction_combine: multiply, restitution_combine: min }\n"
            "bodies:\n  p: { box: { half: [1, 1, 1] }, kinematic: true, velocity: [0, 1, 0] }\n",
            "ok.yaml");
    const Scenario& s = t.base();
    CHECK(s.world.friction_model == FrictionModel::per_contact);
    CHECK(s.world.friction_combine == Combine::multiply);
    CHECK(s.world.restitution_combine == Combine::min);
    REQUIRE(s.bodies.size() == 1);
    CHECK(s.bodies[0].kinematic);
    CHECK(parse_scenario_template("name: x\n", "d.yaml").base().world.friction_model == FrictionModel::coulomb);
}

// ---- scenario-level values ---------------------------------------------------------------

TEST_CASE("each mistake in scenario-level values is one located error, at the token to blame", "[scenario][errors]") {
    const Mistake cases[] = {
            {"an empty name is an error at the key", "name:\n", 1, "name", "name is empty"},
            {"decimals beyond 12 are an error", "decimals: 13\n", 1, "13", "decimals must be in [0, 12]"},
            {"a name given as a list is an error", "name: [a, b]\n", 1, "[a", "name: expected text, got a list"},
    };
    CHECK(check_mistakes(cases) == 3);
}

// ---- bodies ------------------------------------------------------------------------------

TEST_CASE("each mistake in bodies is one located error, at the token to blame", "[scenario][errors]") {
    const Mistake cases[] = {
            {"a body with no shape is an error at the body", "bodies:\n  ghost: { position: [0, 1, 0] }\n", 2, "{",
             "bodies.ghost: no shape"},
            {"a body with two shapes is an error at the second",
             "bodies:\n  b: { sphere: { radius: 1 }, box: { min: [0, 0, 0], max: [1, 1, 1] } }\n", 2, "box",
             "exactly one shape, but it has sphere and box"},
            {"a dynamic plane is an error at the plane", "bodies:\n  ground: { plane: { normal: [0, 1, 0] } }\n", 2,
             "plane", "must be static"},
            {"a plane with a zero normal is an error",
             "bodies:\n  ground: { static: true, plane: { normal: [0, 0, 0] } }\n", 2, "[0, 0, 0]",
             "normal must not be the zero vector"},
            {"a box whose max is below its min is an error at max",
             "bodies:\n  b: { box: { min: [0, 2, 0], max: [1, 1, 1] } }\n", 2, "[1, 1, 1]",
             "max.y (1) is below min.y (2)"},
            {"a box mixing min/max with half is an error",
             "bodies:\n  b: { box: { min: [0, 0, 0], half: [1, 1, 1] } }\n", 2, "half", "not both"},
            {"a box with min but no max names the missing key", "bodies:\n  b: { box: { min: [0, 0, 0] } }\n", 2,
             "{ min", "missing required key 'max'"},
            {"a box with a negative half size is an error", "bodies:\n  b: { box: { half: [1, -1, 1] } }\n", 2, "-1",
             "half[1] must be > 0"},
            {"a box of no size along an axis is an error (a shape must have a volume)",
             "bodies:\n  b: { box: { half: [1, 0, 1] } }\n", 2, "0, 1]", "half[1] must be > 0, got 0"},
            {"a box whose max is its min on an axis is an error",
             "bodies:\n  b: { box: { min: [0, 0, 0], max: [1, 0, 1] } }\n", 2, "[1, 0, 1]",
             "max.y (0) is min.y (0): a box needs a size on every axis"},
            {"a sphere of radius 0 is an error", "bodies:\n  b: { sphere: { radius: 0 } }\n", 2, "0 }",
             "radius must be > 0, got 0"},
            {"a capsule of radius 0 is an error",
             "bodies:\n  b: { capsule: { a: [0, 0, 0], b: [0, 1, 0], radius: 0 } }\n", 2, "0 }",
             "radius must be > 0, got 0"},
            {"a hull with two points is an error", "bodies:\n  h: { hull: { points: [[0, 0, 0], [1, 0, 0]] } }\n", 2,
             "[[", "needs 3 to 32 points, got 2"},
            {"a hull point with two numbers is an error at that point",
             "bodies:\n  h: { hull: { points: [[0, 0, 0], [1, 0], [0, 1, 0]] } }\n", 2, "[1, 0]",
             "points[1]: expected 3 numbers"},
            {"a restitution above 1 is an error", "bodies: { b: { sphere: { radius: 1 }, restitution: 1.5 } }\n", 1,
             "1.5", "restitution must be in [0, 1]"},
            {"a zero mass is an error", "bodies: { b: { sphere: { radius: 1 }, mass: 0 } }\n", 1, "0 }",
             "mass must be > 0"},
            {"a slope limit beyond 90 degrees is an error",
             "bodies: { b: { sphere: { radius: 1 }, slope_limit: 95 } }\n", 1, "95", "must be in [0, 90]"},
            {"a flag that is not true or false is an error",
             "bodies: { b: { sphere: { radius: 1 }, static: maybe } }\n", 1, "maybe", "expected true or false"},
            {"a body that is a number is an error", "bodies:\n  b: 5\n", 2, "5", "bodies.b: expected a mapping"},
            {"bodies given as a list is an error", "bodies:\n  - a\n", 2, "-", "bodies: expected a mapping"},
    };
    CHECK(check_mistakes(cases) == 20);
}

TEST_CASE("a shape without a size is refused at the shape, as written or as a param makes it", "[scenario][errors]") {
    const Mistake cases[] = {
            {"a capsule whose ends are one point has no length",
             "bodies:\n  b: { capsule: { a: [0, 1, 0], b: [0, 1, 0], radius: 0.5 } }\n", 2,
             "{ a:", "bodies.b.capsule: a and b are the same point: a capsule needs a length"},
            {"a triangle whose corners are on one line has no area",
             "bodies:\n  t: { mass: 1, triangle: { a: [0, 0, 0], b: [1, 1, 1], c: [3, 3, 3] } }\n", 2,
             "{ a:", "bodies.t.triangle: corners a, b and c lie on one line"},
            {"a triangle with two corners at one point has no area",
             "bodies:\n  t: { mass: 1, triangle: { a: [0, 0, 0], b: [0, 0, 0], c: [1, 0, 0] } }\n", 2,
             "{ a:", "lie on one line: a triangle needs an area"},
            {"a hull of one point repeated has no area",
             "bodies:\n  h: { mass: 1, hull: { points: [[1, 2, 3], [1, 2, 3], [1, 2, 3]] } }\n", 2, "{ points",
             "bodies.h.hull: every point is the same"},
            {"a hull whose points are on one line has no area",
             "bodies:\n  h: { mass: 1, hull: { points: [[0, 0, 0], [0.1, 0.2, 0.3], [0.3, 0.6, 0.9], [-1, -2, -3]] } "
             "}\n",
             2, "{ points", "bodies.h.hull: its points lie on one line"},
            {"a param that puts a capsule's ends together is reported at the capsule",
             "params: { l: 1 }\nbodies:\n  b: { capsule: { a: [0, 0, 0], b: [0, $l, 0], radius: 0.5 } }\n",
             3,
             "{ a:",
             "bodies.b.capsule: a and b are the same point",
             {"l=0"}},
            {"a param that lays a triangle flat on a line is reported at the triangle",
             "params: { y: 1 }\nbodies:\n  t: { mass: 1, triangle: { a: [0, 0, 0], b: [1, 0, 0], c: [2, $y, 0] } }\n",
             3,
             "{ a:",
             "corners a, b and c lie on one line",
             {"y=0"}},
            {"a param that lays a hull's points on a line is reported at the hull",
             "params: { y: 1 }\nbodies:\n  h: { mass: 1, hull: { points: [[0, 0, 0], [1, 0, 0], [2, $y, 0]] } }\n",
             3,
             "{ points",
             "its points lie on one line",
             {"y=0"}},
    };
    CHECK(check_mistakes(cases) == 8);
    // The same shapes with a size pass: a short capsule, a thin triangle, a flat hull.
    CHECK(problems("bodies:\n  b: { capsule: { a: [0, 0, 0], b: [0, 1e-3, 0], radius: 0.5 } }\n").empty());
    CHECK(problems("bodies:\n  t: { mass: 1, triangle: { a: [0, 0, 0], b: [1, 0, 0], c: [2, 1e-3, 0] } }\n").empty());
    CHECK(problems("bodies:\n  h: { mass: 1, hull: { points: [[0, 0, 0], [1, 0, 0], [0, 1, 0]] } }\n").empty());
    CHECK(problems("params: { l: 1 }\nbodies:\n  b: { capsule: { a: [0, 0, 0], b: [0, $l, 0], radius: 0.5 } }\n")
                  .empty());
}

TEST_CASE("a hull with 33 points is an error", "[scenario][errors]") {
    std::string points;
    for (int i = 0; i < 33; ++i) points += (i ? ", " : "") + std::string("[") + std::to_string(i) + ", 0, 0]";
    expect_one("bodies:\n  h: { hull: { points: [" + points + "] } }\n", 2, "[[", "got 33");
}

// ---- rotations ---------------------------------------------------------------------------

TEST_CASE("each mistake in rotations is one located error, at the token to blame", "[scenario][errors]") {
    const Mistake cases[] = {
            {"a quaternion with three numbers is an error",
             "bodies: { b: { sphere: { radius: 1 }, rotation: { quaternion: [1, 0, 0] } } }\n", 1, "[1, 0, 0]",
             "expected 4 numbers [w, x, y, z], got 3"},
            {"a zero quaternion is an error",
             "bodies: { b: { sphere: { radius: 1 }, rotation: { quaternion: [0, 0, 0, 0] } } }\n", 1, "[0, 0",
             "must not be the zero quaternion"},
            {"a zero rotation axis is an error",
             "bodies: { b: { sphere: { radius: 1 }, rotation: { axis: [0, 0, 0], degrees: 5 } } }\n", 1, "[0, 0",
             "axis must not be the zero vector"},
            {"an axis without degrees names the missing key",
             "bodies: { b: { sphere: { radius: 1 }, rotation: { axis: [0, 1, 0] } } }\n", 1, "{ axis",
             "missing required key 'degrees'"},
            {"two rotation forms at once are an error",
             "bodies: { b: { sphere: { radius: 1 }, rotation: { euler: [0, 0, 0], quaternion: [1, 0, 0, 0] } } }\n", 1,
             "{ euler", "not several"},
            {"an empty rotation says how to write one", "bodies: { b: { sphere: { radius: 1 }, rotation: {} } }\n", 1,
             "{}", "write a rotation as"},
            {"an axis that a param turns to zero is an error after substitution",
             "params: { a: 1 }\n"
             "bodies: { b: { sphere: { radius: 1 }, rotation: { axis: [0, $a, 0], degrees: 5 } } }\n",
             2,
             "[0, $a",
             "axis must not be the zero vector",
             {"a=0"}},
            {"a box that a param turns inside out is an error after substitution",
             "params: { top: 1 }\nbodies: { b: { box: { min: [0, 0, 0], max: [1, $top, 1] } } }\n",
             2,
             "[1, $top",
             "max.y (-1) is below min.y (0)",
             {"top=-1"}},
    };
    CHECK(check_mistakes(cases) == 8);
}

// ---- log ---------------------------------------------------------------------------------

TEST_CASE("each mistake in log is one located error, at the token to blame", "[scenario][errors]") {
    const Mistake cases[] = {
            {"an unknown body in a log entry is an error naming the bodies",
             std::string(kTwoBodies) + "log:\n  - first_contact: { body: a, with: c }\n", 5, "c }",
             "no body named 'c' (bodies: a, b)"},
            {"an unknown raycast target is an error at that target",
             std::string(kTwoBodies) +
                     "log:\n  - raycast: { from: [0, 0, 0], direction: [1, 0, 0], targets: [a, x] }\n",
             5, "x]", "targets[1]: no body named 'x'"},
            {"a raycast with a zero direction is an error",
             std::string(kTwoBodies) + "log:\n  - raycast: { from: [0, 0, 0], direction: [0, 0, 0], targets: [a] }\n",
             5, "[0, 0, 0], t", "direction must not be the zero vector"},
            {"an unknown log kind is one error at its key", "log:\n  - fist_contact: { body: a, with: b }\n", 2, "fist",
             "unknown key 'fist_contact'"},
            {"a log entry with two kinds is an error at the second",
             std::string(kTwoBodies) + "log:\n  - final: { body: a }\n    at_rest: { body: a }\n", 6, "at_rest",
             "one kind per log entry, but it has final and at_rest"},
            {"a log entry with only options names no kind", "log:\n  - label: hello\n", 2, "label", "no log kind"},
            {"a log that is a mapping is an error", "log: { final: { body: a } }\n", 1, "{",
             "log: expected a list of entries"},
            {"a log entry that is a word is an error", "log:\n  - final\n", 2, "final", "log[0]: expected a mapping"},
            {"a log entry's missing body names the key at the kind", "log:\n  - final:\n", 2, "final",
             "missing required key 'body'"},
            {"two log entries with the same explicit id are an error at the second",
             std::string(kTwoBodies) +
                     "log:\n  - final: { body: a }\n    id: end\n  - final: { body: b }\n    id: end\n",
             8, "end", "id 'end' is already the id of the entry at line 6"},
            {"an id that is not a name is an error",
             std::string(kTwoBodies) + "log:\n  - final: { body: a }\n    id: a.b\n", 6, "a.b", "is not a name"},
            {"split with both normal and surface_degrees is an error",
             "log:\n  - split: { velocity: [1, 0, 0], normal: [0, 1, 0], surface_degrees: 30 }\n", 2, "surface_degrees",
             "give normal or surface_degrees, not both"},
            {"respond without a normal names what is missing", "log:\n  - respond: { velocity: [1, 0, 0] }\n", 2, "{",
             "missing required key 'normal' (or 'surface_degrees')"},
            {"apex with zero bounces is an error",
             std::string(kTwoBodies) + "log:\n  - apex: { body: a, bounces: 0 }\n", 5, "0 }",
             "bounces must be in [1, 100]"},
            {"an unknown key in a log kind is an error naming the keys allowed",
             std::string(kTwoBodies) + "log:\n  - final: { body: a, frame: 3 }\n", 5, "frame",
             "unknown key 'frame' (expected one of: body)"},
            {"a log kind that takes no keys refuses any key",
             std::string(kTwoBodies) + "log:\n  - max_overlap: { anything: 1 }\n", 5, "anything",
             "log[0].max_overlap: unknown key 'anything' (expected no keys)"},
    };
    CHECK(check_mistakes(cases) == 16);
}

TEST_CASE("a log kind that takes no keys accepts an empty mapping or nothing", "[scenario][errors]") {
    for (const char* entry : {"{}", "", "~"}) {
        const std::string yaml = std::string(kTwoBodies) + "log:\n  - max_overlap: " + entry + "\n";
        INFO(yaml);
        CHECK(problems(yaml).empty());
    }
}

// ---- expect ------------------------------------------------------------------------------

TEST_CASE("each mistake in expect is one located error, at the token to blame", "[scenario][errors]") {
    const Mistake cases[] = {
            {"an expectation on an unknown value is an error listing the log ids",
             std::string(kLogged) + "expect:\n  - { value: final.w, equals: 0 }\n", 6, "final.w",
             "no logged value 'final.w' (log ids: final)"},
            {"an expectation comparing with an unknown value is an error at that value",
             std::string(kLogged) + "expect:\n  - { value: final.x, equals: final.q }\n", 6, "final.q",
             "no logged value 'final.q'"},
            {"an expectation with two comparisons is an error at the second",
             std::string(kLogged) + "expect:\n  - { value: final.x, at_most: 1, at_least: 0 }\n", 6, "at_least",
             "not both at_most and at_least"},
            {"an expectation without a comparison is an error at the condition",
             std::string(kLogged) + "expect:\n  - { value: final.x }\n", 6, "{", "missing the comparison"},
            {"a negative expectation tolerance is an error",
             std::string(kLogged) + "expect:\n  - { value: final.x, equals: 1, tolerance: -1 }\n", 6, "-1",
             "tolerance must be >= 0"},
            {"an expectation referring to an unknown body's log entry is not blamed twice",
             "log:\n  - final: { body: z }\n    id: end\nexpect:\n  - { value: end.x, equals: 0 }\n", 2, "z",
             "no body named 'z'"},
            {"a per-field tolerance on an unknown value is an error listing the log ids",
             std::string(kLogged) + "tolerance: { fields: { final.w: { absolute: 1e-6 } } }\n", 5, "final.w",
             "tolerance.fields: no logged value 'final.w' (log ids: final)"},
            {"plus with a number to compare with is an error at plus: write the sum",
             std::string(kLogged) + "expect:\n  - { value: final.x, equals: 1, plus: 2 }\n", 6, "plus",
             "plus: adds to another logged value"},
            {"plus that is not a number is an error at its value",
             std::string(kLogged) + "expect:\n  - { value: final.x, equals: final.y, plus: far }\n", 6, "far", "plus"},
    };
    CHECK(check_mistakes(cases) == 9);
}

TEST_CASE("an expectation with an unknown key is an error", "[scenario][errors]") {
    const std::string yaml = std::string(kLogged) + "expect:\n  - { value: final.x, equal: 1 }\n";
    const auto ds = problems(yaml);
    INFO(all(ds));
    REQUIRE(ds.size() == 2); // the misspelt key, and so no comparison
    CHECK(ds[0].column == column_of(yaml, 6, "{"));
    CHECK(ds[1].column == column_of(yaml, 6, "equal"));
    CHECK_THAT(ds[1].message, Catch::Contains("unknown key 'equal'"));
}

TEST_CASE("a per-field tolerance must be a mapping of absolute and relative, each >= 0", "[scenario][errors]") {
    const std::string base = std::string(kLogged) + "tolerance:\n  fields:\n";
    expect_one(base + "    final.x: 1e-6\n", 7, "1e-6", "tolerance.fields.final.x");
    expect_one(base + "    final.x: { absolut: 1 }\n", 7, "absolut", "unknown key 'absolut'");
    expect_one(base + "    final.x: { absolute: -1 }\n", 7, "-1", "must be >= 0");
    expect_one(base + "    final.x: {}\n", 7, "{}", "expected { absolute: NUMBER, relative: NUMBER }");
    expect_one(base + "    final.x: { absolute: 1 }\n    x: { relative: 1 }\n", 8,
               "x:", "the same logged value has a tolerance already");
}

// ---- many problems at once ---------------------------------------------------------------

TEST_CASE("each mistake in a document's end or a trigger entry is one located error, at the token to blame",
          "[scenario][errors]") {
    const Mistake cases[] = {
            {"content after a '...' end marker is a second document", "name: a\n...\nabout: b\n", 3, "about",
             "one YAML document"},
            {"a document that reads as null is not a scenario, at its first content", "# comment\n~\n", 2, "~",
             "must be a mapping"},
            {"a trigger entry naming two static bodies is an error: nothing can enter or leave",
             "bodies:\n  a: { sphere: { radius: 1 }, static: true }\n"
             "  b: { box: { half: [1, 1, 1] }, static: true, trigger: true }\n"
             "log:\n  - trigger: { body: a, volume: b }\n",
             5, "{ body", "'a' and 'b' are both static"},
    };
    CHECK(check_mistakes(cases) == 3);
}

TEST_CASE("every problem in a file is reported, in file order", "[scenario][errors]") {
    const std::string path = std::string(COLLIDE_SOURCE_DIR) + "/tests/scenario/fixtures/broken.yaml";
    try {
        load_scenario_template(path);
        FAIL("loaded a broken scenario");
    } catch (const InputError& e) {
        INFO(e.formatted());
        REQUIRE(e.diagnostics.size() == 3);
        CHECK(format_diagnostic(e.diagnostics[0]) == path + ":4:9: error: world.rate must be > 0, got 0");
        CHECK(e.diagnostics[1].line == 6);
        CHECK_THAT(e.diagnostics[1].message, Catch::Contains("radius must be > 0"));
        CHECK(e.diagnostics[2].line == 8);
        CHECK_THAT(e.diagnostics[2].message, Catch::Contains("no body named 'bal'"));
        CHECK(std::string(e.what()) == format_diagnostic(e.diagnostics[0]));
    }
}

TEST_CASE("instantiate with the wrong number of params is an error", "[scenario][errors]") {
    const ScenarioTemplate t = parse_scenario_template("params: { a: 1, b: 2 }\n", "p.yaml");
    auto ev = t.make_evaluator();
    Scenario s;
    const double one[] = {1};
    CHECK_THROWS_AS(t.instantiate(one, ev, s), InputError);
}

TEST_CASE("standard input is named <stdin> in diagnostics", "[scenario][errors]") {
    try {
        parse_scenario_template("world: { rate: 0 }\n", "-");
        FAIL("accepted rate 0");
    } catch (const InputError& e) {
        CHECK(std::string(e.what()).rfind("<stdin>:1:", 0) == 0);
    }
}

TEST_CASE("more than 200,000 bodies are refused at the bodies mapping", "[scenario][errors]") {
    std::string yaml = "bodies:\n";
    for (int i = 0; i <= 200000; ++i) yaml += "  b" + std::to_string(i) + ": {}\n";
    expect_one(yaml, 2, "b0", "200001 items; a scenario may have at most 200000");
}

TEST_CASE("a long list of names in a message stops after 12 with how many more", "[scenario][errors]") {
    std::string yaml = "bodies:\n";
    for (int i = 0; i < 20; ++i) yaml += "  b" + std::to_string(i) + ": { sphere: { radius: 1 } }\n";
    yaml += "log:\n  - final: { body: nobody }\n";
    expect_one(yaml, 23, "nobody", "b10, b11, ... (8 more))");
}

TEST_CASE("a leading directive and '---' start the one document without complaint", "[scenario][errors]") {
    CHECK(problems("%YAML 1.2\n---\nname: a\n").empty());
}

// Found by the fuzzer (fuzz/scenario_fuzz.cpp): yaml-cpp 0.7's LoadAll loops forever on this
// input, so the loader reads one document and scans the text for another.
TEST_CASE("regression: a broken flow line that hung YAML::LoadAll is reported promptly", "[scenario][errors]") {
    const std::string yaml = "# Three mistakes at once: every one is reporthullname  ball: { sphere: {  0], c: [\n"
                             ", 1, 0] } }\n  rock:\n   body: bal }\n";
    // Promptly: within 10 s (it takes milliseconds), in a process that is killed past that, so
    // a hang fails here instead of stalling the suite; only then in this process, for the line.
    const auto r = collide::test::run_collide("validate -", yaml, 10);
    REQUIRE(r.exit_code == 2); // 124: killed at the time limit
    CHECK_THAT(r.err, Catch::StartsWith("<stdin>:2:1: error:"));
    expect_one(yaml, 2, ",", "must be a mapping");
}

TEST_CASE("a trigger entry names two known, different bodies", "[scenario][errors]") {
    expect_one(std::string(kTwoBodies) + "log:\n  - trigger: { body: a, volume: c }\n", 5, "c }",
               "log[0].trigger.volume: no body named 'c' (bodies: a, b)");
    expect_one(std::string(kTwoBodies) + "log:\n  - trigger: { body: a }\n", 5, "{ body",
               "missing required key 'volume'");
    expect_one(std::string(kTwoBodies) + "log:\n  - trigger: { body: a, volume: a }\n", 5, "{ body",
               "body and volume are the same body");
}

TEST_CASE("trigger is true or false, nothing else", "[scenario][errors]") {
    expect_one("bodies:\n  z: { box: { half: [1, 1, 1] }, trigger: 1 }\n", 2, "1 }",
               "bodies.z.trigger: expected true or false");
    expect_one("bodies:\n  z: { box: { half: [1, 1, 1] }, trigger: yes please }\n", 2, "yes",
               "bodies.z.trigger: expected true or false");
}

TEST_CASE("a misspelt key names the likely key and lists every valid one, however many") {
    const std::vector<Diagnostic> ds = problems("bodies:\n  b: { sphere: { radius: 1 }, posiiton: [0, 0, 0] }\n");
    REQUIRE(ds.size() == 1);
    CHECK(ds[0].line == 2);
    CHECK(ds[0].column == 31);
    CHECK_THAT(ds[0].message, Catch::StartsWith("bodies.b: unknown key 'posiiton'; did you mean 'position'? "
                                                "(expected one of: sphere, box, capsule,"));
    CHECK_THAT(ds[0].message, Catch::EndsWith(", density, fixed_rotation)")); // all 25, none cut
    CHECK_THAT(ds[0].message, !Catch::Contains("more)"));
    // A word no key is close to gets the list alone.
    const std::vector<Diagnostic> far = problems("bodies:\n  b: { sphere: { radius: 1, colour: red } }\n");
    REQUIRE(far.size() == 1);
    CHECK(far[0].message == "bodies.b.sphere: unknown key 'colour' (expected one of: radius, centre)");
}
