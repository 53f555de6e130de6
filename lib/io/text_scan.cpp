#include "io/text_scan.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

#include "io/safe_text.h"

namespace collide {

namespace {

/// Offset of the first byte that breaks UTF-8 (overlongs, surrogates and > U+10FFFF included), or npos.
std::size_t first_invalid_utf8(std::string_view s) {
    std::size_t i = 0;
    while (i < s.size()) {
        // Eight ASCII bytes at a time (no byte with its top bit set), the common case.
        while (i + 8 <= s.size()) {
            std::uint64_t word;
            std::memcpy(&word, s.data() + i, sizeof word);
            if (word & 0x8080808080808080ull) break;
            i += 8;
        }
        if (i >= s.size()) break;
        if (static_cast<unsigned char>(s[i]) < 0x80) {
            ++i;
            continue;
        }
        std::uint32_t cp = 0;
        std::size_t len = 1;
        if (!decode_utf8(s, i, cp, len)) return i;
        i += len;
    }
    return std::string_view::npos;
}

bool is_space(char c) { return c == ' ' || c == '\t'; }

/// The bytes find_nesting_deeper_than looks at outside quotes: quotes, brackets, '#'.
constexpr auto kNestingByte = [] {
    std::array<bool, 256> table{};
    for (const char c : {'"', '\'', '[', ']', '{', '}', '#'}) table[static_cast<unsigned char>(c)] = true;
    return table;
}();

/// A quote or bracket starts a token only after these (or at the start of a line).
bool starts_token_after(char prev) {
    return is_space(prev) || prev == '[' || prev == '{' || prev == ',' || prev == ':' || prev == '-' || prev == '?';
}

} // namespace

bool LineReader::next(std::string_view& line) {
    if (pos >= text.size()) return false;
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    line = text.substr(pos, end - pos);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    ++number;
    pos = end + 1;
    return true;
}

TextPosition position_of(std::string_view text, std::size_t offset) {
    TextPosition p;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++p.line;
            p.column = 1;
        } else {
            ++p.column;
        }
    }
    return p;
}

std::optional<TextPosition> find_nul_byte(std::string_view text) {
    const auto nul = text.find('\0');
    if (nul == std::string_view::npos) return std::nullopt;
    return position_of(text, nul);
}

std::optional<TextPosition> find_invalid_utf8(std::string_view text) {
    const auto bad = first_invalid_utf8(text);
    if (bad == std::string_view::npos) return std::nullopt;
    return position_of(text, bad);
}

namespace {

/// Walks YAML-like `text` line by line as a scanner of its structure must: quoted scalars (which
/// may span lines inside flow collections), comments and block scalars (`|`, `>`) are skipped,
/// and a bracket or quote counts only where a token may start. Calls `on_line(line_no, line,
/// indent)` for each line that starts outside flow collections and quotes (not blank, not in a
/// block scalar), then `on_bracket(line_no, line, k, c, flow)` for each `[`, `{`, `]`, `}` that
/// opens or closes a flow collection (k: its 0-based column, flow: the depth of open flow
/// collections after it). Either returns a position to stop the walk with it.
template <class OnLine, class OnBracket>
std::optional<TextPosition> walk_yaml(std::string_view text, OnLine on_line, OnBracket on_bracket) {
    int flow = 0;
    char quote = 0;               // '"' or '\'' while inside a quoted scalar
    int block_scalar_indent = -1; // ≥ 0: skipping the lines of a `|` or `>` scalar more indented than this
    int line_no = 0;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        std::string_view line = text.substr(pos, end - pos);
        if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
        ++line_no;
        pos = end + 1;

        std::size_t i = 0;
        while (i < line.size() && line[i] == ' ') ++i;
        const int indent = static_cast<int>(i);
        const bool blank = i == line.size() || line[i] == '#';
        if (block_scalar_indent >= 0) {
            if (blank || indent > block_scalar_indent) continue;
            block_scalar_indent = -1;
        }
        if (blank && quote == 0) continue;
        if (flow == 0 && quote == 0)
            if (const std::optional<TextPosition> stop = on_line(line_no, line, indent)) return stop;

        char prev = ' ';
        for (std::size_t k = 0; k < line.size(); ++k) {
            const char c = line[k];
            if (quote == 0 && !kNestingByte[static_cast<unsigned char>(c)]) {
                // A run of bytes that neither quote, bracket nor comment: only the last one matters.
                while (k + 1 < line.size() && !kNestingByte[static_cast<unsigned char>(line[k + 1])]) ++k;
                prev = line[k];
                continue;
            }
            if (quote != 0) {
                if (quote == '"' && c == '\\') {
                    ++k;
                    prev = 'x';
                    continue;
                }
                if (c == quote) {
                    if (quote == '\'' && k + 1 < line.size() && line[k + 1] == '\'') {
                        ++k;
                        continue;
                    }
                    quote = 0;
                    prev = c;
                }
                continue;
            }
            if (c == '#' && is_space(prev)) break;
            std::optional<TextPosition> stop;
            if ((c == '"' || c == '\'') && (k == 0 || starts_token_after(prev))) {
                quote = c;
            } else if ((c == '[' || c == '{') && (k == 0 || flow > 0 || starts_token_after(prev))) {
                stop = on_bracket(line_no, line, k, c, ++flow);
            } else if ((c == ']' || c == '}') && flow > 0) {
                stop = on_bracket(line_no, line, k, c, --flow);
            }
            if (stop) return stop;
            prev = c;
        }
        // A block scalar indicator ends the line: "key: |", "- >-", "key: |2+".
        if (flow == 0 && quote == 0) {
            std::size_t e = line.size();
            // trim a trailing comment and spaces
            for (std::size_t k = line.find('#'); k != std::string_view::npos; k = line.find('#', k + 1))
                if (k == 0 || is_space(line[k - 1])) {
                    e = k;
                    break;
                }
            while (e > 0 && is_space(line[e - 1])) --e;
            std::size_t b = e;
            while (b > 0 && (line[b - 1] == '-' || line[b - 1] == '+' || (line[b - 1] >= '0' && line[b - 1] <= '9')))
                --b;
            if (b > 0 && (line[b - 1] == '|' || line[b - 1] == '>') && (b == 1 || is_space(line[b - 2])))
                block_scalar_indent = indent;
        }
        if (end == text.size()) break;
    }
    return std::nullopt;
}

} // namespace

std::optional<TextPosition> find_nesting_deeper_than(std::string_view text, int max_depth) {
    // Nesting: block depth is the number of open indentation levels (a compact "- - x" opens one
    // per dash); flow depth counts open '[' and '{'.
    std::vector<int> indents;
    int block_depth = 0;
    const auto on_line = [&](int line_no, std::string_view line, int indent) -> std::optional<TextPosition> {
        while (!indents.empty() && indents.back() > indent) indents.pop_back();
        if (indents.empty() || indents.back() < indent) indents.push_back(indent);
        // compact nested sequences: "- - - x"
        std::size_t j = static_cast<std::size_t>(indent);
        while (j < line.size() && line[j] == '-' && (j + 1 == line.size() || is_space(line[j + 1]))) {
            ++j;
            while (j < line.size() && is_space(line[j])) ++j;
            if (j < line.size()) indents.push_back(static_cast<int>(j));
            if (static_cast<int>(indents.size()) > max_depth) return TextPosition{line_no, static_cast<int>(j) + 1};
        }
        block_depth = static_cast<int>(indents.size());
        if (block_depth > max_depth) return TextPosition{line_no, indent + 1};
        return std::nullopt;
    };
    const auto on_bracket = [&](int line_no, std::string_view, std::size_t k, char c,
                                int flow) -> std::optional<TextPosition> {
        if ((c == '[' || c == '{') && block_depth + flow > max_depth)
            return TextPosition{line_no, static_cast<int>(k) + 1};
        return std::nullopt;
    };
    return walk_yaml(text, on_line, on_bracket);
}

std::optional<TextPosition> find_unclosed_flow(std::string_view text, std::size_t end) {
    std::vector<TextPosition> open; // each '[' or '{' not yet closed
    const auto on_line = [](int, std::string_view, int) { return std::optional<TextPosition>(); };
    const auto on_bracket = [&](int line_no, std::string_view, std::size_t k, char c, int) {
        if (c == '[' || c == '{')
            open.push_back({line_no, static_cast<int>(k) + 1});
        else if (!open.empty())
            open.pop_back();
        return std::optional<TextPosition>();
    };
    walk_yaml(text.substr(0, std::min(end, text.size())), on_line, on_bracket);
    if (open.empty()) return std::nullopt;
    return open.back();
}

std::optional<int> second_document_line(std::string_view text) {
    bool content = false; // the first document has begun
    bool ended = false;   // a `...` closed it
    LineReader lines{text};
    std::string_view line;
    while (lines.next(line)) {
        const int line_no = lines.number;
        const auto marker = [&](std::string_view m) {
            return line.substr(0, 3) == m && (line.size() == 3 || is_space(line[3]));
        };
        if (marker("---")) {
            if (content) return line_no;
            std::size_t k = 3;
            while (k < line.size() && is_space(line[k])) ++k;
            if (k < line.size() && line[k] != '#') content = true; // "--- { a: 1 }"
            continue;
        }
        if (marker("...")) {
            ended = content;
            continue;
        }
        std::size_t k = 0;
        while (k < line.size() && is_space(line[k])) ++k;
        if (k == line.size() || line[k] == '#') continue;
        if (!content && k == 0 && line[0] == '%') continue; // a directive before the document
        if (ended) return line_no;
        content = true;
    }
    return std::nullopt;
}

std::optional<TextPosition> first_content(std::string_view text) {
    LineReader lines{text};
    std::string_view line;
    while (lines.next(line)) {
        const int line_no = lines.number;
        std::size_t k = 0;
        if (line.substr(0, 3) == "---" || line.substr(0, 3) == "...")
            k = 3;
        else if (!line.empty() && line[0] == '%')
            continue;
        while (k < line.size() && is_space(line[k])) ++k;
        if (k == line.size() || line[k] == '#') continue;
        return TextPosition{line_no, static_cast<int>(k) + 1};
    }
    return std::nullopt;
}

} // namespace collide
