#pragma once
/// \file
/// Generic reading of raw text before any parser sees it: lines one at a time, positions of
/// bytes, whether it is text at all (no NUL bytes, valid UTF-8), how deeply YAML-like text nests
/// (yaml-cpp recurses once per level and gives up, or worse, deep inside a pathological file),
/// and where documents and content start. Everything is reported as 1-based line and column;
/// callers turn a position into a diagnostic (model/diagnostic.h) with their own message.

#include <cstddef>
#include <optional>
#include <string_view>

namespace collide {

/// A place in a text: 1-based line and column (a column counts bytes).
struct TextPosition {
    int line = 1;   ///< 1-based line
    int column = 1; ///< 1-based column, in bytes
};

/// The lines of a text one at a time, without their line break (nor a CR before it).
struct LineReader {
    std::string_view text; ///< what is read
    std::size_t pos = 0;   ///< byte offset where the next line starts
    int number = 0;        ///< 1-based number of the line last read

    /// The next line into `line`; false once the text is used up.
    bool next(std::string_view& line);
};

/// The line and column of byte `offset` of `text`.
TextPosition position_of(std::string_view text, std::size_t offset);

/// Where the first NUL byte is, or nothing.
std::optional<TextPosition> find_nul_byte(std::string_view text);

/// Where the first byte that breaks UTF-8 is (overlongs, surrogates and code points above
/// U+10FFFF included), or nothing.
std::optional<TextPosition> find_invalid_utf8(std::string_view text);

/// Where YAML-like `text` first nests deeper than `max_depth` levels (block indentation plus
/// `[` / `{`), or nothing. Quoted scalars, comments and block scalars (`|`, `>`) are skipped,
/// so brackets inside them do not count.
std::optional<TextPosition> find_nesting_deeper_than(std::string_view text, int max_depth);

/// Where the innermost flow collection (`[` or `{`) still open at byte `end` of YAML-like `text`
/// was opened (its bracket), or nothing when none is open there. Read as
/// find_nesting_deeper_than reads: brackets in quoted scalars, comments and block scalars do not
/// count. yaml-cpp reports a flow collection never closed where it gave up (the next token,
/// lines below); this finds the bracket the writer forgot to close.
std::optional<TextPosition> find_unclosed_flow(std::string_view text, std::size_t end);

/// The 1-based line where a second YAML document starts (a `---` line after content, or content
/// after a `...` line), or nothing. yaml-cpp 0.7's LoadAll can loop forever on some broken
/// input, so the loader parses one document and asks this scan whether there is another.
std::optional<int> second_document_line(std::string_view text);

/// Where the first character that is not blank, a comment, a directive or a document marker is,
/// or nothing when the text holds no content at all.
std::optional<TextPosition> first_content(std::string_view text);

} // namespace collide
