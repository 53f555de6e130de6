// The one error path: what each kind of failure prints and which exit code it gives.
#include <catch2/catch.hpp>

#include <sstream>
#include <stdexcept>

#include "app/errors.h"

using namespace collide;

TEST_CASE("a diagnostic reads FILE:LINE:COLUMN, FILE without a line, or the command without a file") {
    CHECK(format_problem({"a.yaml", 3, 7, "unknown key 'radiuss'"}, "sim") ==
          "a.yaml:3:7: error: unknown key 'radiuss'");
    CHECK(format_problem({"expected/x.log", 0, 0, "cannot read the golden file"}, "check") ==
          "expected/x.log: error: cannot read the golden file");
    CHECK(format_problem({"", 0, 0, "--shard 0/2: K must be between 1 and N (N ≥ 1)"}, "sweep") ==
          "collide sweep: error: --shard 0/2: K must be between 1 and N (N ≥ 1)");
}

TEST_CASE("exit_code_for_errors passes the body's code through and turns failures into 2") {
    std::ostringstream err;
    CHECK(exit_code_for_errors(err, "sim", [] {}) == kExitOk);
    CHECK(exit_code_for_errors(err, "sim", [] { return kExitFailed; }) == kExitFailed);
    CHECK(err.str().empty());

    CHECK(exit_code_for_errors(err, "validate", [] {
              throw InputError({{"a.yaml", 2, 3, "first"}, {"a.yaml", 5, 1, "second"}});
          }) == kExitBadInput);
    CHECK(err.str() == "a.yaml:2:3: error: first\na.yaml:5:1: error: second\n");

    err.str("");
    CHECK(exit_code_for_errors(err, "merge", [] { throw std::runtime_error("out.csv: cannot write: No space"); }) ==
          kExitBadInput);
    CHECK(err.str() == "collide merge: error: out.csv: cannot write: No space\n");

    err.str("");
    const Diagnostic here{"b.yaml", 1, 1, ""};
    CHECK(exit_code_for_errors(
                  err, "sim", [] { throw std::runtime_error("trace.csv: cannot write"); }, here) == kExitBadInput);
    CHECK(err.str() == "b.yaml:1:1: error: trace.csv: cannot write\n");
}

TEST_CASE("problems_of_current_exception keeps an InputError's diagnostics and places anything else") {
    try {
        throw InputError("c.yaml", 4, 2, "bad");
    } catch (...) {
        const auto problems = problems_of_current_exception({"x", 0, 0, ""});
        REQUIRE(problems.size() == 1);
        CHECK(problems[0].file == "c.yaml");
        CHECK(problems[0].line == 4);
    }
    try {
        throw std::runtime_error("boom");
    } catch (...) {
        const auto problems = problems_of_current_exception({"x", 0, 0, ""});
        REQUIRE(problems.size() == 1);
        CHECK(problems[0].file == "x");
        CHECK(problems[0].message == "boom");
    }
}
