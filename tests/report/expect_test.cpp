// Expectations: equals / at_most / at_least against a number or another logged value, within a
// tolerance; booleans; NaN never passes; messages name the file position and the values.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "report/expect.h"

using namespace collide;

namespace {
/// A scenario logging an apex entry (3 bounces) and a first_contact entry.
Scenario scenario_with(std::vector<ExpectDef> expect) {
    Scenario s;
    s.file = "scenarios/drop.yaml";
    s.bodies.resize(2);
    s.bodies[0].name = "ball";
    s.bodies[1].name = "floor";
    s.log.push_back(LogDef{"apex", "", "", -1, {}, ApexLog{0, 3, 2.0, 1}});
    s.log.push_back(LogDef{"first_contact", "", "", -1, {}, FirstContactLog{0, 1}});
    s.expect = std::move(expect);
    return s;
}

ExpectDef def(std::string value, ExpectOp op, double number, double tolerance, std::string text = "",
              std::string other = "") {
    ExpectDef d;
    d.value = std::move(value);
    d.op = op;
    d.number = number;
    d.other = std::move(other);
    d.tolerance = tolerance;
    d.text = std::move(text);
    d.mark = {24, 5};
    return d;
}

const double kNaN = std::numeric_limits<double>::quiet_NaN();
// apex_1..3, analytic_1..3, bounces, hit, frame, time, x, y, z
const std::vector<double> kValues = {0.499, 0.125, 0.03125, 0.5, 0.125, 0.03125, 3, 0, kNaN, kNaN, kNaN, kNaN, kNaN};
} // namespace

TEST_CASE("equals passes within its tolerance and fails beyond it") {
    const Scenario s = scenario_with(
            {def("apex.apex_2", ExpectOp::equals, 0.1251, 1e-3), def("apex.apex_2", ExpectOp::equals, 0.1251, 1e-6)});
    const auto out = check_expectations(s, layout_of(s), kValues);
    REQUIRE(out.size() == 2);
    CHECK(out[0].passed);
    CHECK_FALSE(out[1].passed);
    CHECK(out[1].message == "scenarios/drop.yaml:24:5: expectation failed: apex.apex_2 equals 0.1251 "
                            "(got 0.125, diff 1.0e-04 > tolerance 1e-06)");
}

TEST_CASE("equals against another logged value shows both values") {
    const Scenario s = scenario_with(
            {def("apex.apex_1", ExpectOp::equals, 0, 1e-6, "apex.apex_1 equals apex.analytic_1", "apex.analytic_1"),
             def("apex.apex_2", ExpectOp::equals, 0, 1e-6, "", "apex.analytic_2")});
    const auto out = check_expectations(s, layout_of(s), kValues);
    REQUIRE(out.size() == 2);
    CHECK_FALSE(out[0].passed);
    CHECK(out[0].message == "scenarios/drop.yaml:24:5: expectation failed: apex.apex_1 equals apex.analytic_1 "
                            "(apex.apex_1 = 0.499 vs apex.analytic_1 = 0.5, diff 1.0e-03 > tolerance 1e-06)");
    CHECK(out[1].passed);
}

TEST_CASE("at_most and at_least allow their tolerance as slack") {
    const Scenario s = scenario_with(
            {def("apex.apex_1", ExpectOp::at_most, 0.5, 0), def("apex.apex_1", ExpectOp::at_most, 0.4985, 1e-3),
             def("apex.apex_1", ExpectOp::at_most, 0.498, 1e-4), def("apex.apex_1", ExpectOp::at_least, 0.499, 0),
             def("apex.apex_1", ExpectOp::at_least, 0.4995, 1e-3), def("apex.apex_1", ExpectOp::at_least, 0.5, 1e-4)});
    const auto out = check_expectations(s, layout_of(s), kValues);
    REQUIRE(out.size() == 6);
    CHECK(out[0].passed);
    CHECK(out[1].passed);
    CHECK_FALSE(out[2].passed);
    CHECK(out[2].message.find("over by 0.001, tolerance 0.0001") != std::string::npos);
    CHECK(out[3].passed);
    CHECK(out[4].passed);
    CHECK_FALSE(out[5].passed);
    CHECK(out[5].message.find("under by 0.001, tolerance 0.0001") != std::string::npos);
}

TEST_CASE("a boolean expectation prints true and false") {
    const Scenario s = scenario_with(
            {def("first_contact.hit", ExpectOp::equals, 1, 1e-9), def("first_contact.hit", ExpectOp::equals, 0, 1e-9)});
    const auto out = check_expectations(s, layout_of(s), kValues);
    REQUIRE(out.size() == 2);
    CHECK_FALSE(out[0].passed);
    CHECK(out[0].message == "scenarios/drop.yaml:24:5: expectation failed: first_contact.hit equals true (got false)");
    CHECK(out[1].passed);
}

TEST_CASE("a value that was not measured (NaN) never passes, whatever the bound") {
    const Scenario s = scenario_with({def("first_contact.time", ExpectOp::at_most, 1e9, 1e9),
                                      def("first_contact.time", ExpectOp::at_least, -1e9, 1e9),
                                      def("apex.apex_1", ExpectOp::equals, 0, 1e9, "", "first_contact.x")});
    const auto out = check_expectations(s, layout_of(s), kValues);
    REQUIRE(out.size() == 3);
    for (const auto& o : out) CHECK_FALSE(o.passed);
    CHECK(out[0].message.find("got none") != std::string::npos);
}

TEST_CASE("a name the log does not have fails with a message naming it") {
    const Scenario s = scenario_with({def("apex.apex_9", ExpectOp::equals, 0, 1)});
    const auto out = check_expectations(s, layout_of(s), kValues);
    REQUIRE(out.size() == 1);
    CHECK_FALSE(out[0].passed);
    CHECK(out[0].message.find("no logged value apex.apex_9") != std::string::npos);
}

TEST_CASE("each outcome carries the value, its target, the error against it, the tolerance and the unit") {
    // apex_1 = 0.499 m against 0.5 (equals), 0.498 (at_most: 0.001 above it), 0.4 (at_most:
    // within it, error 0), 0.6 (at_least: 0.101 below it).
    const Scenario s = scenario_with(
            {def("apex.apex_1", ExpectOp::equals, 0.5, 1e-6), def("apex.apex_1", ExpectOp::at_most, 0.498, 1e-4),
             def("apex.apex_1", ExpectOp::at_most, 0.6, 0), def("apex.apex_1", ExpectOp::at_least, 0.6, 0.2),
             def("first_contact.time", ExpectOp::equals, 0, 1)});
    const auto out = check_expectations(s, layout_of(s), kValues);
    REQUIRE(out.size() == 5);
    CHECK(out[0].value == 0.499);
    CHECK(out[0].target == 0.5);
    CHECK(out[0].error == Approx(0.001).margin(1e-15));
    CHECK(out[0].tolerance == 1e-6);
    CHECK(out[0].unit == "m");
    CHECK(out[0].condition == "apex.apex_1 equals 0.5");
    CHECK(out[1].error == Approx(0.001).margin(1e-15));
    CHECK_FALSE(out[1].passed);
    CHECK(out[2].error == 0);
    CHECK(out[2].passed);
    CHECK(out[3].error == Approx(0.101).margin(1e-15));
    CHECK(out[3].passed); // within its 0.2 of slack
    CHECK(std::isnan(out[4].value));
    CHECK(std::isnan(out[4].error));
    CHECK(out[4].unit == "s");
    // Held exactly when the error is within the tolerance.
    for (const auto& o : out)
        if (!std::isnan(o.error)) CHECK(o.passed == (o.error <= o.tolerance));
}

TEST_CASE("plus adds a number to the other logged value: far.x equals near.x + 10000") {
    ExpectDef near_far = def("apex.apex_1", ExpectOp::equals, 0, 1e-9, "", "apex.analytic_1");
    near_far.plus = -0.001; // analytic_1 0.5 − 0.001 = 0.499: apex_1
    ExpectDef off = near_far;
    off.plus = 0.001; // 0.501: 0.002 away
    const Scenario s = scenario_with({near_far, off});
    const auto out = check_expectations(s, layout_of(s), kValues);
    REQUIRE(out.size() == 2);
    CHECK(out[0].passed);
    CHECK(out[0].target == 0.5 - 0.001);
    CHECK(out[0].condition == "apex.apex_1 equals apex.analytic_1 - 0.001");
    CHECK_FALSE(out[1].passed);
    CHECK(out[1].error == Approx(0.002).margin(1e-12));
    CHECK(out[1].message.find("apex.apex_1 = 0.499 vs apex.analytic_1 = 0.5") != std::string::npos);
}
