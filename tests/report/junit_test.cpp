// CI reports: JUnit XML escapes what it carries and is byte-identical for the same cases;
// GitHub annotations escape newlines so a multi-line diff stays one annotation.
#include <catch2/catch.hpp>

#include "report/junit.h"

using namespace collide;

namespace {
std::vector<JunitCase> cases() {
    JunitCase pass{"drop", "scenarios/drop.yaml", 0.0134, false, false, "", ""};
    JunitCase fail{"mtv",
                   "scenarios/mtv.yaml",
                   0.5,
                   true,
                   false,
                   "log differs from expected/mtv.log",
                   "- a → 1 <m> & \"q\"\n+ a → 2\x1b[0m\n"};
    JunitCase bad{"bad", "scenarios/bad.yaml", 0, false, true, "bad input", "scenarios/bad.yaml:3:1: error: x"};
    return {pass, fail, bad};
}
} // namespace

TEST_CASE("junit output has one testcase per scenario with failures and errors counted") {
    const std::string xml = render_junit(cases());
    CHECK(xml.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n", 0) == 0);
    CHECK(xml.find("<testsuite name=\"collide check\" tests=\"3\" failures=\"1\" errors=\"1\" skipped=\"0\" "
                   "time=\"0.513\">") != std::string::npos);
    CHECK(xml.find("<testcase name=\"drop\" classname=\"scenarios/drop.yaml\" time=\"0.013\"/>") != std::string::npos);
    CHECK(xml.find("<error message=\"bad input\" type=\"bad input\">scenarios/bad.yaml:3:1: error: x</error>") !=
          std::string::npos);
}

TEST_CASE("junit escapes XML special characters and drops control characters") {
    const std::string xml = render_junit(cases());
    CHECK(xml.find("- a → 1 &lt;m&gt; &amp; &quot;q&quot;\n+ a → 2[0m\n</failure>") != std::string::npos);
    CHECK(xml.find('\x1b') == std::string::npos);
    CHECK(xml_escape("a<b>&'\"") == "a&lt;b&gt;&amp;&apos;&quot;");
    JunitCase c{"n", "c", 0, true, false, "line 1\nline 2", ""};
    CHECK(render_junit({c}).find("message=\"line 1&#10;line 2\"") != std::string::npos);
}

TEST_CASE("junit output is the same bytes for the same cases") {
    CHECK(render_junit(cases()) == render_junit(cases()));
}

TEST_CASE("a github annotation is one line with the file, line and escaped message") {
    CHECK(github_annotation("scenarios/a,b.yaml", 24, 5, "expectation failed: 50% off\nsecond line\n") ==
          "::error file=scenarios/a%2Cb.yaml,line=24,col=5::expectation failed: 50%25 off%0Asecond line");
    CHECK(github_annotation("expected/x.log", 0, 0, "stale") == "::error file=expected/x.log::stale");
}

TEST_CASE("junit XML stays well-formed UTF-8 for a file name that is not UTF-8") {
    CHECK(xml_escape("caf\xc3\xa9") == "caf\xc3\xa9");
    CHECK(xml_escape("bad\xff\xfe name\x01.yaml") == "bad\xEF\xBF\xBD\xEF\xBF\xBD name.yaml");
    CHECK(xml_escape("cut\xe2\x82") == "cut\xEF\xBF\xBD\xEF\xBF\xBD");
    const std::string xml = render_junit({{"x\xff", "dir/x\xff.yaml", 0.1, true, false, "differs",
                                           "a\xc0\xaf"
                                           "b"}});
    CHECK(xml.find('\xff') == std::string::npos);
    CHECK(xml.find("\xc0\xaf") == std::string::npos);
}
