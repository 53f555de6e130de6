// Which characters of input text may reach a terminal, CSV, XML or HTML (io/safe_text.h), and
// how the others are shown.
#include <catch2/catch.hpp>

#include "io/safe_text.h"

using namespace collide;

TEST_CASE("printable text, tab and any printable Unicode are safe and left unchanged") {
    for (const char* text : {"", "plain", "a\tb", "café → 0.5 m · e²", "日本語", "emoji 🎯"}) {
        INFO(text);
        CHECK_FALSE(find_unsafe_char(text).has_value());
        CHECK(escape_unsafe(text) == text);
        CHECK(unsafe_text_problem(text, "label").empty());
    }
}

TEST_CASE("each unsafe character is found at its place and escaped visibly") {
    struct Case {
        std::string text;
        std::size_t offset, index;
        const char* shown;
        const char* escaped;
    };
    const Case cases[] = {
            {"a\x1b[31m", 1, 1, "\\x1b", "a\\x1b[31m"},
            {"line\nnext", 4, 4, "\\n", "line\\nnext"},
            {"cr\r", 2, 2, "\\r", "cr\\r"},
            {std::string("nul\0x", 5), 3, 3, "\\x00", "nul\\x00x"},
            {"del\x7f", 3, 3, "\\x7f", "del\\x7f"},
            {"é\u0085", 2, 1, "\\u0085", "é\\u0085"},              // C1 (NEL)
            {"ab\u202Ecd", 2, 2, "\\u202e", "ab\\u202ecd"},        // right-to-left override
            {"\u2066x\u2069", 0, 0, "\\u2066", "\\u2066x\\u2069"}, // isolates
            {"x\u200Ey", 1, 1, "\\u200e", "x\\u200ey"},
            {"x\u200Fy", 1, 1, "\\u200f", "x\\u200fy"},
            {"x\u061Cy", 1, 1, "\\u061c", "x\\u061cy"},
            {"x\u2028y", 1, 1, "\\u2028", "x\\u2028y"},
            {"bad\xff", 3, 3, "\\xff", "bad\\xff"},                   // not UTF-8
            {"over\xc0\xaf", 4, 4, "\\xc0", "over\\xc0\\xaf"},        // overlong '/'
            {"sur\xed\xa0\x80", 3, 3, "\\xed", "sur\\xed\\xa0\\x80"}, // a surrogate
            {"cut\xe2\x80", 3, 3, "\\xe2", "cut\\xe2\\x80"},          // truncated
    };
    for (const Case& c : cases) {
        INFO(c.escaped);
        const auto bad = find_unsafe_char(c.text);
        REQUIRE(bad.has_value());
        CHECK(bad->offset == c.offset);
        CHECK(bad->index == c.index);
        CHECK(bad->shown == c.shown);
        CHECK(escape_unsafe(c.text) == c.escaped);
        CHECK_FALSE(find_unsafe_char(escape_unsafe(c.text)).has_value()); // escaping makes it safe
    }
}

TEST_CASE("the refusal names the field, the character and its 1-based place") {
    CHECK(unsafe_text_problem("red\x1b[0m", "log[0].label") ==
          "log[0].label: \\x1b (an escape (a terminal control sequence)) at character 4 is not allowed: text is "
          "printed to terminals, CSV, XML and HTML");
    CHECK_THAT(unsafe_text_problem("é\u202E", "note"),
               Catch::StartsWith("note: \\u202e (a bidirectional control) at character 2"));
}
