// The located diagnostic (model/diagnostic.h): FILE:LINE:COLUMN: error: message, with control
// and bidirectional characters from the input shown escaped, and an InputError's lines.
#include <catch2/catch.hpp>

#include "model/diagnostic.h"

using namespace collide;

TEST_CASE("a diagnostic reads FILE:LINE:COLUMN: error: message, input text escaped", "[model]") {
    CHECK(format_diagnostic({"scenarios/a.yaml", 3, 7, "unknown key 'bodys'"}) ==
          "scenarios/a.yaml:3:7: error: unknown key 'bodys'");
    CHECK(format_diagnostic({"a\x1b[2J.yaml", 1, 1, "no body named 'b\u202e'"}) ==
          "a\\x1b[2J.yaml:1:1: error: no body named 'b\\u202e'");
}

TEST_CASE("an InputError carries every diagnostic and says the first one", "[model]") {
    const InputError one("f.yaml", 2, 5, "bad");
    CHECK(std::string(one.what()) == "f.yaml:2:5: error: bad");
    const InputError two(std::vector<Diagnostic>{{"f.yaml", 1, 1, "first"}, {"f.yaml", 4, 2, "second"}});
    REQUIRE(two.diagnostics.size() == 2);
    CHECK(two.formatted() == "f.yaml:1:1: error: first\nf.yaml:4:2: error: second\n");
    CHECK(std::string(InputError(std::vector<Diagnostic>{}).what()) == "input error");
}
