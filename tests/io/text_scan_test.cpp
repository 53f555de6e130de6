// Raw text reading: lines, positions, binary content, nesting depth, documents and content.
#include <catch2/catch.hpp>

#include <string>
#include <string_view>

#include "io/text_scan.h"

using namespace collide;

TEST_CASE("LineReader gives every line without its break, CRLF included") {
    LineReader lines{"a\r\nbb\n\nc"};
    std::string_view line;
    REQUIRE(lines.next(line));
    CHECK(line == "a");
    REQUIRE(lines.next(line));
    CHECK(line == "bb");
    REQUIRE(lines.next(line));
    CHECK(line.empty());
    REQUIRE(lines.next(line));
    CHECK(line == "c");
    CHECK(lines.number == 4);
    CHECK_FALSE(lines.next(line));
}

TEST_CASE("binary content is found at its line and column") {
    using namespace std::string_literals;
    const auto nul = find_nul_byte("name: x\nab\0c"s);
    REQUIRE(nul);
    CHECK(nul->line == 2);
    CHECK(nul->column == 3);
    CHECK_FALSE(find_nul_byte("name: x\n"));
    const auto bad = find_invalid_utf8("ok: \"é\"\nx: \xC0\xAF\n");
    REQUIRE(bad);
    CHECK(bad->line == 2);
    CHECK(bad->column == 4);
    CHECK_FALSE(find_invalid_utf8("ok: \"é → ✓\"\n"));
}

TEST_CASE("nesting is measured across block indentation and flow brackets, not inside quotes") {
    CHECK_FALSE(find_nesting_deeper_than("a:\n  b: [1, [2]]\n", 4));
    const auto deep = find_nesting_deeper_than("a:\n  b: [1, [2, [3]]]\n", 3);
    REQUIRE(deep);
    CHECK(deep->line == 2);
    CHECK(deep->column == 10);
    CHECK_FALSE(find_nesting_deeper_than("a: \"[[[[[[\"\nb: |\n  {{{{{{\n", 2));
}

TEST_CASE("documents and first content are located past comments, directives and markers") {
    CHECK(second_document_line("a: 1\n---\nb: 2\n") == 2);
    CHECK(second_document_line("%YAML 1.2\n---\na: 1\n...\nb: 2\n") == 5);
    CHECK_FALSE(second_document_line("---\na: 1\n"));
    const auto content = first_content("# hello\n---\n  - x\n");
    REQUIRE(content);
    CHECK(content->line == 3);
    CHECK(content->column == 3);
    CHECK_FALSE(first_content("# only a comment\n---\n"));
}
