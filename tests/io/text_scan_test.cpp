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

TEST_CASE("the flow collection still open at a place is found at its bracket, past quotes and comments") {
    const std::string text = "a: { b: [1, 2], c: \"{[\"  # {[\n  d: [3, {e: 4}\nf: |\n  {[\ng: 5\n";
    const auto at = [&](std::string_view token) { return text.find(token); };
    // At "d": only the '{' of line 1 is open (the '[' after b closed, the quoted and commented ones do not count).
    const auto first = find_unclosed_flow(text, at("d:"));
    REQUIRE(first);
    CHECK(first->line == 1);
    CHECK(first->column == 4);
    // At "f": the '[' after d (its {e: 4} closed) is the innermost open one.
    const auto inner = find_unclosed_flow(text, at("f:"));
    REQUIRE(inner);
    CHECK(inner->line == 2);
    CHECK(inner->column == 6);
    CHECK(find_unclosed_flow(text, at("b:")).has_value());
    CHECK_FALSE(find_unclosed_flow(text, 0));
    CHECK_FALSE(find_unclosed_flow("a: [1]\nb: |\n  {[\nc: 2\n", 100)); // a block scalar's brackets are text
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
