#include "io/safe_text.h"

#include <cstdint>
#include <fmt/format.h>

namespace collide {

bool decode_utf8(std::string_view s, std::size_t i, std::uint32_t& cp, std::size_t& len) {
    len = 1;
    const auto c = static_cast<std::uint8_t>(s[i]);
    if (c < 0x80) {
        cp = c;
        return true;
    }
    std::size_t extra = 0;
    std::uint32_t min_cp = 0;
    if ((c & 0xE0) == 0xC0) {
        extra = 1;
        cp = c & 0x1F;
        min_cp = 0x80;
    } else if ((c & 0xF0) == 0xE0) {
        extra = 2;
        cp = c & 0x0F;
        min_cp = 0x800;
    } else if ((c & 0xF8) == 0xF0) {
        extra = 3;
        cp = c & 0x07;
        min_cp = 0x10000;
    } else {
        return false;
    }
    if (i + extra >= s.size()) return false;
    for (std::size_t k = 1; k <= extra; ++k) {
        const auto cc = static_cast<std::uint8_t>(s[i + k]);
        if ((cc & 0xC0) != 0x80) return false;
        cp = (cp << 6) | (cc & 0x3F);
    }
    if (cp < min_cp || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
    len = extra + 1;
    return true;
}

namespace {

/// What code point `cp` is when it is unsafe, or nullptr.
const char* unsafe_kind(std::uint32_t cp) {
    if (cp == '\t') return nullptr;
    if (cp == '\n' || cp == '\r') return "a line break";
    if (cp == 0x1B) return "an escape (a terminal control sequence)";
    if (cp < 0x20 || cp == 0x7F || (cp >= 0x80 && cp <= 0x9F)) return "a control character";
    if (cp == 0x061C || cp == 0x200E || cp == 0x200F || (cp >= 0x202A && cp <= 0x202E) ||
        (cp >= 0x2066 && cp <= 0x2069))
        return "a bidirectional control";
    if (cp == 0x2028 || cp == 0x2029) return "a line separator";
    return nullptr;
}

std::string shown_code(std::uint32_t cp) {
    if (cp == '\n') return "\\n";
    if (cp == '\r') return "\\r";
    if (cp < 0x80) return fmt::format("\\x{:02x}", cp);
    return fmt::format("\\u{:04x}", cp);
}

} // namespace

std::optional<UnsafeChar> find_unsafe_char(std::string_view text) {
    std::size_t index = 0;
    for (std::size_t i = 0; i < text.size(); ++index) {
        std::uint32_t cp = 0;
        std::size_t len = 1;
        if (!decode_utf8(text, i, cp, len))
            return UnsafeChar{i, index, fmt::format("\\x{:02x}", static_cast<std::uint8_t>(text[i])),
                              "a byte that is not UTF-8"};
        if (const char* kind = unsafe_kind(cp)) return UnsafeChar{i, index, shown_code(cp), kind};
        i += len;
    }
    return std::nullopt;
}

std::string escape_unsafe(std::string_view text) {
    if (!find_unsafe_char(text)) return std::string(text);
    std::string out;
    out.reserve(text.size() + 16);
    for (std::size_t i = 0; i < text.size();) {
        std::uint32_t cp = 0;
        std::size_t len = 1;
        if (!decode_utf8(text, i, cp, len)) {
            out += fmt::format("\\x{:02x}", static_cast<std::uint8_t>(text[i]));
        } else if (unsafe_kind(cp)) {
            out += shown_code(cp);
        } else {
            out.append(text.substr(i, len));
        }
        i += len;
    }
    return out;
}

std::string unsafe_text_problem(std::string_view text, std::string_view what) {
    const auto bad = find_unsafe_char(text);
    if (!bad) return {};
    return fmt::format("{}: {} ({}) at character {} is not allowed: text is printed to terminals, CSV, XML and HTML",
                       what, bad->shown, bad->what, bad->index + 1);
}

} // namespace collide
