// Golden comparison: every logged value against the golden's full-precision value within its
// tolerance (no last-digit allowance), the text exactly apart from values; the values file round
// trips, and a hand edit of either file is found.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "report/golden.h"
#include "report/render.h"

using namespace collide;

namespace {

/// A run of a scenario with two slope entries, `a` and `b`, measuring the angles given.
struct Run {
    Scenario scenario;
    Layout layout;
    std::vector<double> values;
    std::string text;
    Run(double a, double b, double limit = 46) {
        scenario.name = "ramps";
        scenario.log.push_back(LogDef{"a", "", "", -1, {}, SlopeLog{{0, 1, 0}, limit}});
        scenario.log.push_back(LogDef{"b", "", "", -1, {}, SlopeLog{{0, 1, 0}, limit}});
        layout = layout_of(scenario);
        values = {a, a <= limit ? 1.0 : 0.0, b, b <= limit ? 1.0 : 0.0};
        render();
    }
    void render() { text = render_text(scenario, layout, values); }
    std::string values_file() const { return render_values(scenario, layout, values, text, "ramps.log"); }
    GoldenValues golden_values() const {
        auto [v, problems] =
                read_values(values_file(), "ramps.values", text, "ramps.log", "collide check --update ramps");
        REQUIRE(problems.empty());
        return v;
    }
};

/// Compares `now` with `golden` as check does.
GoldenComparison compare(const Run& golden, const Run& now) {
    return compare_golden(now.scenario, now.layout, now.values, now.text, golden.text, golden.golden_values());
}

} // namespace

TEST_CASE("a run identical to its golden matches") {
    const Run r(30, 10);
    CHECK(compare(r, r).same());
}

TEST_CASE("one unit in the last printed digit is a change: no last-digit allowance") {
    const Run golden(30, 10), now(30.001, 10);
    REQUIRE(golden.text != now.text);
    const auto c = compare(golden, now);
    REQUIRE_FALSE(c.same());
    REQUIRE(c.values.size() == 1);
    CHECK(c.values[0].key == "a.angle");
    CHECK(c.values[0].expected == 30);
    CHECK(c.values[0].actual == 30.001);
    CHECK(c.values[0].diff == Approx(0.001));
    CHECK(c.values[0].allowed == Approx(3e-8));
    REQUIRE(c.changes.size() == 1);
    CHECK(c.changes[0].expected_line == 1);
    REQUIRE(c.changes[0].values.size() == 1);
    CHECK(c.changes[0].values[0].printed == "30.000 → 30.001 (digits from the 3rd decimal change)");
}

TEST_CASE("a change that prints identically fails under the default tolerance and passes when loosened") {
    const Run golden(30, 10);
    Run now(30.0001, 10);
    REQUIRE(golden.text == now.text);
    const auto c = compare(golden, now);
    REQUIRE(c.values.size() == 1);
    REQUIRE(c.changes.size() == 1);
    CHECK(c.changes[0].expected == c.changes[0].actual);
    CHECK(c.changes[0].values[0].printed == "prints 30.000 either way (the change is below the printed precision)");
    now.scenario.tolerance_abs = 0.001;
    CHECK(compare(golden, now).same());
    now.scenario.tolerance_abs = -1;
    now.scenario.tolerance_rel = 1e-5; // 3e-4 of 30
    CHECK(compare(golden, now).same());
}

TEST_CASE("a per-field tolerance applies to that field only") {
    const Run golden(30, 10);
    Run now(30.0001, 10.0001);
    now.scenario.field_tolerances.push_back({"a.angle", 0.001, -1, {}});
    const auto c = compare(golden, now);
    REQUIRE(c.values.size() == 1);
    CHECK(c.values[0].key == "b.angle");
    CHECK(tolerance_of(now.scenario, "a.angle").abs == 0.001);
    CHECK(tolerance_of(now.scenario, "a.angle").rel == 1e-9);
    CHECK(tolerance_of(now.scenario, "b.angle").abs == 1e-9);
}

TEST_CASE("text the values do not print is compared exactly, even when every value matches") {
    const Run golden(30, 10);
    const Run limit(30, 10, 45); // "46° limit" → "45° limit": a number, but not a logged value
    const auto c = compare(golden, limit);
    CHECK(c.values.empty());
    REQUIRE(c.changes.size() == 2);
    CHECK(c.changes[0].values.empty());
    Run label(30, 10);
    label.scenario.log[1].note = "a note";
    label.render();
    const auto l = compare(golden, label);
    REQUIRE(l.changes.size() == 1);
    CHECK(l.changes[0].expected_line == 2);
    CHECK(l.changes[0].actual.find("// a note") != std::string::npos);
}

TEST_CASE("a value that moved within tolerance but prints differently is not a change") {
    const Run golden(30.0004999999, 10);
    Run now(30.0005000001, 10);
    REQUIRE(golden.text != now.text);
    now.scenario.tolerance_abs = 1e-6;
    CHECK(compare(golden, now).same());
}

TEST_CASE("values added to or removed from the log are reported by ID.FIELD") {
    const Run golden(30, 10);
    Run now(30, 10);
    now.scenario.log[1].id = "c";
    now.render();
    const auto c = compare(golden, now);
    REQUIRE(c.values.size() == 4);
    CHECK(c.values[0].kind == ValueDiff::added);
    CHECK(c.values[0].key == "c.angle");
    CHECK(c.values[2].kind == ValueDiff::removed);
    CHECK(c.values[2].key == "b.angle");
}

TEST_CASE("the values file holds every value at full precision, none for NaN, and round trips") {
    Run r(0.1 + 0.2, 10);
    r.values[2] = std::numeric_limits<double>::quiet_NaN();
    r.render();
    const std::string file = r.values_file();
    CHECK(file.find("\na.angle = 0.30000000000000004\n") != std::string::npos);
    CHECK(file.find("\na.walkable = 1\n") != std::string::npos);
    CHECK(file.find("\nb.angle = none\n") != std::string::npos);
    CHECK(file.rfind("# collide golden values of ramps.log", 0) == 0);
    const GoldenValues v = r.golden_values();
    REQUIRE(v.values.size() == 4);
    CHECK(v.values[0].second == 0.1 + 0.2);
    CHECK(std::isnan(v.values[2].second));
    CHECK(r.values_file() == file); // same inputs, same bytes
}

TEST_CASE("a hand edit of the golden log or of its values is found, naming the file and the fix") {
    const Run r(30, 10);
    const std::string values = r.values_file();
    std::string log = r.text;
    log.replace(log.find("30.000"), 6, "30.001");
    auto [v, problems] = read_values(values, "e/ramps.values", log, "e/ramps.log", "collide check --update ramps");
    REQUIRE(problems.size() == 1);
    CHECK(problems[0].file == "e/ramps.values");
    CHECK(problems[0].message.find("do not match the golden log e/ramps.log") != std::string::npos);
    CHECK(problems[0].message.find("`collide check --update ramps`") != std::string::npos);

    std::string edited = values;
    edited.replace(edited.find("a.angle = 30"), 12, "a.angle = 31");
    CHECK(read_values(edited, "e/ramps.values", r.text, "e/ramps.log", "collide check --update ramps").second.size() ==
          1);

    std::string broken = values + "b.angle 10\n";
    const auto bad =
            read_values(broken, "e/ramps.values", r.text, "e/ramps.log", "collide check --update ramps").second;
    REQUIRE(bad.size() == 1);
    CHECK(bad[0].line == 7);
    CHECK(bad[0].message.find("expected `ID.FIELD = VALUE`") != std::string::npos);

    const auto twice = read_values(values + "a.angle = 30\n", "v", r.text, "l", "collide check --update ramps").second;
    REQUIRE(twice.size() == 1);
    CHECK(twice[0].message.find("'a.angle' is written twice") != std::string::npos);

    const std::string no_digest = values.substr(values.find("\na.angle") + 1);
    const auto nd = read_values(no_digest, "v", r.text, "l", "collide check --update ramps").second;
    REQUIRE(nd.size() == 1);
    CHECK(nd[0].message.find("no `# digest` line") != std::string::npos);
}

TEST_CASE("the values file sits beside the golden log") {
    CHECK(values_path_of("expected/mtv.log") == "expected/mtv.values");
    CHECK(values_path_of("odd") == "odd.values");
}

TEST_CASE("compare_logs aligns lines exactly: removed and added lines keep their golden line numbers") {
    const auto r = compare_logs("a → 1\nb → 2\nc → 3\n", "a → 1\nc → 3\nd → 4\n");
    REQUIRE(r.changes.size() == 2);
    CHECK(r.changes[0].kind == LineChangeKind::removed);
    CHECK(r.changes[0].expected_line == 2);
    CHECK(r.changes[1].kind == LineChangeKind::added);
    CHECK(r.changes[1].expected_line == 4);
    CHECK(compare_logs("a → 1\r\nb → 2", "a → 1\nb → 2\n").same());
}
