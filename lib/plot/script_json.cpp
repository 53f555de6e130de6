#include "plot/script_json.h"

#include <charconv>
#include <cmath>
#include <cstdint>
#include <stdexcept>

namespace collide {

std::string script_json(const PageJson& value) {
    const std::string text = value.dump(-1, ' ', false, PageJson::error_handler_t::replace);
    std::string out;
    out.reserve(text.size());
    for (const char c : text) {
        switch (c) {
        case '<': out += "\\u003c"; break;
        case '>': out += "\\u003e"; break;
        case '&': out += "\\u0026"; break;
        default: out += c;
        }
    }
    return out;
}

PageJson json_number(double v) {
    if (!std::isfinite(v)) return nullptr;
    constexpr double kExact = 9007199254740992.0; // 2^53: every whole number below it is a double
    if (v == std::trunc(v) && std::fabs(v) < kExact) return static_cast<std::int64_t>(v);
    return v;
}

PageJson json_number(double v, int digits) {
    if (digits < 1 || digits > 17) throw std::invalid_argument("json_number: digits must be 1 to 17");
    if (!std::isfinite(v)) return nullptr;
    char text[40];
    const auto [end, error] = std::to_chars(text, text + sizeof text, v, std::chars_format::scientific, digits - 1);
    if (error != std::errc()) return json_number(v);
    double rounded = v;
    std::from_chars(text, end, rounded);
    return json_number(rounded);
}

} // namespace collide
