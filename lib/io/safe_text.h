#pragma once
/// \file
/// Text that comes from an input and ends up on a terminal, in CSV, XML or HTML: which
/// characters may not pass, and how to show them when they must be printed anyway.
///
/// Unsafe: invalid UTF-8 (overlongs, surrogates, above U+10FFFF, truncated sequences), the C0
/// controls but tab (U+0000–U+0008, U+000A–U+001F: line breaks and ESC included), DEL (U+007F),
/// the C1 controls (U+0080–U+009F), the bidirectional controls (U+061C, U+200E, U+200F,
/// U+202A–U+202E, U+2066–U+2069) and the line and paragraph separators (U+2028, U+2029). Such a
/// character can move the cursor, recolour or clear a terminal, start a new CSV row, or show
/// text in another order than it is stored.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace collide {

/// The first unsafe character of a text.
struct UnsafeChar {
    std::size_t offset = 0; ///< byte offset of its first byte
    std::size_t index = 0;  ///< 0-based index among the text's characters (code points)
    std::string shown;      ///< as escape_unsafe shows it: `\x1b`, `\u202e`, `\xff` (a stray byte)
    std::string what;       ///< what it is: "a control character", "a bidirectional control", …
};

/// Decodes the UTF-8 character at byte `i` of `s` into the code point `cp` and its length
/// `len` in bytes. False when the bytes there are not UTF-8 — a stray or truncated sequence, an
/// overlong form, a surrogate or past U+10FFFF — and then `len` is 1 (the offending byte).
bool decode_utf8(std::string_view s, std::size_t i, std::uint32_t& cp, std::size_t& len);

/// The first unsafe character of `text` (see the file comment), or nothing.
std::optional<UnsafeChar> find_unsafe_char(std::string_view text);

/// `text` with every unsafe character replaced by a visible escape: `\n`, `\r`, `\x1b` for the
/// other C0 controls and DEL, `\u0085` for C1 and the bidirectional and separator characters,
/// `\xff` for each byte that is not UTF-8. Safe text is returned unchanged.
std::string escape_unsafe(std::string_view text);

/// A one-line description of why `text` (a field named `what`) is refused, e.g. "label: the
/// escape `\x1b` (a control character) at character 3 is not allowed", or "" when it is safe.
std::string unsafe_text_problem(std::string_view text, std::string_view what);

} // namespace collide
