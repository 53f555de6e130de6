#pragma once
/// \file
/// Checks run on a scenario's raw text before any YAML parser sees it: that it is text at all
/// (no NUL bytes, valid UTF-8) and that its nesting stays shallow (yaml-cpp recurses once per
/// level and gives up, or worse, deep inside a pathological file).

#include <optional>
#include <string>
#include <string_view>
#include <utility>

namespace collide {

/// Deepest nesting of block and flow collections a scenario may use.
inline constexpr int kMaxScenarioNesting = 64;

/// A problem with the raw text, at a 1-based line and column.
struct TextProblem {
    int line = 1;        ///< 1-based line
    int column = 1;      ///< 1-based column
    std::string message; ///< what is wrong
};

/// The first reason `text` cannot be a scenario's YAML, or nothing. Binary content (a NUL byte,
/// invalid UTF-8) is reported at line 1, column 1 (the file as a whole is wrong) with the
/// offending position in the message; nesting deeper than `max_depth` levels (block indentation
/// plus `[` / `{`) is reported where the limit is crossed. Quoted scalars, comments and block
/// scalars (`|`, `>`) are skipped, so brackets inside them do not count.
std::optional<TextProblem> scan_scenario_text(std::string_view text, int max_depth = kMaxScenarioNesting);

/// The 1-based line where a second YAML document starts (a `---` line after content, or content
/// after a `...` line), or nothing. yaml-cpp 0.7's LoadAll can loop forever on some broken
/// input, so the loader parses one document and asks this scan whether there is another.
std::optional<int> second_document_line(std::string_view text);

/// The 1-based line and column of the first character that is not blank, a comment, a
/// directive or a document marker, or nothing when the text holds no content at all.
std::optional<std::pair<int, int>> first_content(std::string_view text);

} // namespace collide
