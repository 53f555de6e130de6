// Golden comparison: numbers match within a tolerance or a flip of the last printed digit,
// everything else exactly; added and removed lines are found with their golden line numbers.
#include <catch2/catch.hpp>

#include "report/golden.h"

using namespace collide;

namespace {
const Tolerance kDefault{};
}

TEST_CASE("identical logs match") {
    const std::string log = "push out along y → 0.30 m  // the shallowest, so this is the way out\n";
    CHECK(compare_logs(log, log, kDefault).same());
}

TEST_CASE("a changed number fails and is reported with its values and difference") {
    const auto r = compare_logs("apex → 0.500 m, 0.125 m\n", "apex → 0.512 m, 0.125 m\n", kDefault);
    REQUIRE(r.changes.size() == 1);
    const LineChange& c = r.changes[0];
    CHECK(c.kind == LineChangeKind::changed);
    CHECK(c.expected_line == 1);
    CHECK(c.expected == "apex → 0.500 m, 0.125 m");
    CHECK(c.actual == "apex → 0.512 m, 0.125 m");
    REQUIRE(c.numbers.size() == 1);
    CHECK(c.numbers[0].index == 1);
    CHECK(c.numbers[0].expected == 0.5);
    CHECK(c.numbers[0].actual == 0.512);
    CHECK(c.numbers[0].diff == Approx(0.012));
    CHECK(c.numbers[0].allowed == Approx(0.001));
}

TEST_CASE("a number that rounds differently at the last printed digit is not a change") {
    CHECK(lines_match("x → 0.031 m", "x → 0.032 m", kDefault));
    CHECK(lines_match("x → 0.032 m", "x → 0.031 m", kDefault));
    CHECK(lines_match("x → -0.350 m", "x → -0.349 m", kDefault));
    // the more precise of the two decides: a trimmed "1" beside "0.999"
    CHECK(lines_match("normal → (0, 1, 0)", "normal → (0, 0.999, 0)", kDefault));
    CHECK(lines_match("d → 1.0e-03", "d → 1.1e-03", kDefault));
}

TEST_CASE("a change of two units in the last printed digit fails") {
    std::vector<NumberDiff> moved;
    CHECK_FALSE(lines_match("x → 0.031 m", "x → 0.033 m", kDefault, &moved));
    REQUIRE(moved.size() == 1);
    CHECK(moved[0].expected_text == "0.031");
    CHECK(moved[0].actual_text == "0.033");
    CHECK_FALSE(lines_match("normal → (0, 1, 0)", "normal → (0, 0.998, 0)", kDefault));
    CHECK_FALSE(lines_match("d → 1.0e-03", "d → 1.2e-03", kDefault));
}

TEST_CASE("integers printed without a point are exact: frames and counts get no last-digit slack") {
    CHECK_FALSE(
            lines_match("first contact → frame 3 at t = 0.050 s", "first contact → frame 4 at t = 0.050 s", kDefault));
    CHECK_FALSE(lines_match("axis → the 8th of 15 axes", "axis → the 9th of 15 axes", kDefault));
}

TEST_CASE("a unit change fails even when the numbers are equal") {
    std::vector<NumberDiff> moved;
    CHECK_FALSE(lines_match("x → 0.500 m", "x → 0.500 s", kDefault, &moved));
    CHECK(moved.empty());
    CHECK_FALSE(lines_match("x → 0.500 m", "x → 0.500 m/s", kDefault));
    CHECK_FALSE(lines_match("x → 0.500 m", "x → none", kDefault));
}

TEST_CASE("a label change fails, including a number inside the label") {
    CHECK_FALSE(lines_match("push out along y → 0.30 m", "push out along z → 0.30 m", kDefault));
    CHECK_FALSE(lines_match("dropped from 2 m with restitution 0.5 → 0.500 m",
                            "dropped from 2 m with restitution 0.6 → 0.500 m", kDefault));
    CHECK_FALSE(lines_match("x → 0.500 m  // a note", "x → 0.500 m  // another note", kDefault));
}

TEST_CASE("a number glued to a name is text, not a number") {
    CHECK_FALSE(lines_match("v → apex_1 0.5", "v → apex_2 0.5", kDefault));
}

TEST_CASE("the scenario's tolerance override loosens or tightens the comparison") {
    Scenario s;
    CHECK(tolerance_of(s).abs == 1e-9);
    CHECK(tolerance_of(s).rel == 1e-9);
    s.tolerance_abs = 0.01;
    const Tolerance loose = tolerance_of(s);
    CHECK(loose.abs == 0.01);
    CHECK(loose.rel == 1e-9);
    CHECK_FALSE(lines_match("x → 0.500 m", "x → 0.512 m", kDefault));
    CHECK_FALSE(lines_match("x → 0.500 m", "x → 0.512 m", loose));
    CHECK(lines_match("x → 0.500 m", "x → 0.509 m", loose));
    s.tolerance_abs = -1;
    s.tolerance_rel = 0.05;
    CHECK(lines_match("x → 10.0 m", "x → 10.4 m", tolerance_of(s)));
    CHECK_FALSE(lines_match("x → 10.0 m", "x → 10.6 m", tolerance_of(s)));
}

TEST_CASE("a removed line is reported at its golden line number") {
    const auto r = compare_logs("a → 1\nb → 2\nc → 3\nd → 4\n", "a → 1\nb → 2\nd → 4\n", kDefault);
    REQUIRE(r.changes.size() == 1);
    CHECK(r.changes[0].kind == LineChangeKind::removed);
    CHECK(r.changes[0].expected_line == 3);
    CHECK(r.changes[0].expected == "c → 3");
}

TEST_CASE("an added line is reported before the golden line it precedes") {
    const auto r = compare_logs("a → 1\nb → 2\nd → 4\n", "a → 1\nb → 2\nc → 3\nd → 4\ne → 5\n", kDefault);
    REQUIRE(r.changes.size() == 2);
    CHECK(r.changes[0].kind == LineChangeKind::added);
    CHECK(r.changes[0].expected_line == 3);
    CHECK(r.changes[0].actual_line == 3);
    CHECK(r.changes[0].actual == "c → 3");
    CHECK(r.changes[1].kind == LineChangeKind::added);
    CHECK(r.changes[1].expected_line == 4);
    CHECK(r.changes[1].actual_line == 5);
}

TEST_CASE("lines align under tolerance-equality: a moved-by-rounding line is not an add and a remove") {
    const auto r =
            compare_logs("a → 0.031\nb → 2.000\nc → 3.000\n", "a → 0.032\nnew → 1\nb → 2.001\nc → 3.000\n", kDefault);
    REQUIRE(r.changes.size() == 1);
    CHECK(r.changes[0].kind == LineChangeKind::added);
    CHECK(r.changes[0].expected_line == 2);
}

TEST_CASE("a line changed in the middle of a long log keeps its own line number") {
    std::string golden, actual;
    for (int i = 1; i <= 50; ++i) {
        golden += "entry " + std::to_string(i) + " → " + std::to_string(i) + ".000 m\n";
        actual += "entry " + std::to_string(i) + " → " +
                  (i == 37 ? std::string("99.000") : std::to_string(i) + ".000") + " m\n";
    }
    const auto r = compare_logs(golden, actual, kDefault);
    REQUIRE(r.changes.size() == 1);
    CHECK(r.changes[0].kind == LineChangeKind::changed);
    CHECK(r.changes[0].expected_line == 37);
    REQUIRE(r.changes[0].numbers.size() == 1);
    CHECK(r.changes[0].numbers[0].diff == Approx(62));
}

TEST_CASE("Windows line ends and a missing final newline are not changes") {
    CHECK(compare_logs("a → 1\r\nb → 2\r\n", "a → 1\nb → 2", kDefault).same());
    CHECK(split_lines("a\nb\n") == std::vector<std::string>{"a", "b"});
    CHECK(split_lines("").empty());
}

TEST_CASE("an empty golden against a log reports every line as added") {
    const auto r = compare_logs("", "a → 1\nb → 2\n", kDefault);
    REQUIRE(r.changes.size() == 2);
    CHECK(r.changes[0].kind == LineChangeKind::added);
    CHECK(r.changes[1].actual_line == 2);
}
