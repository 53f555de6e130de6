#include "scenario/expression.h"

#include <cctype>
#include <charconv>
#include <cstdint>
#include <cstdlib>
#include <cstring>

namespace collide::detail {

namespace {
bool name_start(char c) { return std::isalpha(static_cast<unsigned char>(c)) || c == '_'; }
bool name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

std::string_view trim(std::string_view s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
    return s;
}
} // namespace

std::vector<ParamReference> param_references(std::string_view text) {
    std::vector<ParamReference> refs;
    for (std::size_t i = 0; i < text.size(); ++i) {
        if (text[i] != '$' || i + 1 >= text.size() || !name_start(text[i + 1])) continue;
        std::size_t j = i + 1;
        while (j < text.size() && name_char(text[j])) ++j;
        refs.push_back({std::string(text.substr(i + 1, j - i - 1)), i});
        i = j - 1;
    }
    return refs;
}

int bare_param(std::string_view text, const std::vector<std::string>& names) {
    text = trim(text);
    if (text.size() < 2 || text[0] != '$') return -1;
    const std::string_view name = text.substr(1);
    if (!name_start(name[0])) return -1;
    for (char c : name)
        if (!name_char(c)) return -1;
    for (std::size_t i = 0; i < names.size(); ++i)
        if (names[i] == name) return static_cast<int>(i);
    return -1;
}

std::unique_ptr<mu::Parser> compile_expression(const std::string& text, const std::vector<std::string>& names,
                                               double* values) {
    auto parser = std::make_unique<mu::Parser>();
    parser->DefineNameChars("0123456789_abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ$");
    for (std::size_t i = 0; i < names.size(); ++i) parser->DefineVar("$" + names[i], values + i);
    parser->SetExpr(text);
    parser->Eval(); // parses now: syntax errors surface here, not in a sweep's hot loop
    return parser;
}

std::string expression_problem(std::string_view text) {
    std::vector<bool> calls; // per open parenthesis: does it hold a function's arguments?
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (name_char(c) || c == '$' || c == '.' || std::isspace(static_cast<unsigned char>(c)) ||
            std::strchr("+-*/^", c) != nullptr)
            continue;
        if (c == '(') {
            std::size_t j = i;
            while (j > 0 && std::isspace(static_cast<unsigned char>(text[j - 1]))) --j;
            calls.push_back(j > 0 && name_char(text[j - 1]));
            continue;
        }
        if (c == ')') {
            if (!calls.empty()) calls.pop_back();
            continue;
        }
        if (c == ',') {
            if (!calls.empty() && calls.back()) continue;
            const auto digit = [&](std::size_t k) { return std::isdigit(static_cast<unsigned char>(text[k])) != 0; };
            if (i > 0 && i + 1 < text.size() && digit(i - 1) && digit(i + 1)) {
                std::size_t from = i, to = i + 1;
                while (from > 0 && digit(from - 1)) --from;
                while (to < text.size() && digit(to)) ++to;
                return "\"" + shortened(text) + "\" is not a number (a comma is no decimal point): did you mean " +
                       std::string(text.substr(from, i - from)) + "." + std::string(text.substr(i + 1, to - i - 1)) +
                       "?";
            }
            return "\"" + shortened(text) + "\": a comma separates a function's arguments only";
        }
        return "\"" + shortened(text) + "\": '" + std::string(1, c) +
               "' is not allowed; an expression has numbers, $params, functions, + - * / ^ and parentheses only";
    }
    return {};
}

std::string shortened(std::string_view text) {
    constexpr std::size_t kMax = 60;
    if (text.size() <= kMax) return std::string(text);
    std::size_t cut = kMax;
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut; // not inside a UTF-8 character
    return std::string(text.substr(0, cut)) + "… (" + std::to_string(text.size()) + " characters)";
}

bool parse_plain_number(std::string_view text, double& value) {
    // [-+]? ( digits [. digits?] | . digits ) ( [eE] [-+]? digits )?
    std::size_t i = 0;
    const std::size_t n = text.size();
    const bool negative = i < n && text[i] == '-';
    if (i < n && (text[i] == '-' || text[i] == '+')) ++i;
    std::size_t digits = 0, decimals = 0;
    std::uint64_t mantissa = 0; // the digits as a whole number, while they fit in 15 digits
    while (i < n && std::isdigit(static_cast<unsigned char>(text[i]))) {
        mantissa = mantissa * 10 + static_cast<std::uint64_t>(text[i] - '0');
        ++i;
        ++digits;
    }
    if (i < n && text[i] == '.') {
        ++i;
        while (i < n && std::isdigit(static_cast<unsigned char>(text[i]))) {
            mantissa = mantissa * 10 + static_cast<std::uint64_t>(text[i] - '0');
            ++i;
            ++digits;
            ++decimals;
        }
    }
    if (digits == 0) return false;
    if (i == n && digits <= 15 && decimals <= 22) {
        // Clinger's fast path: the mantissa (< 10^15 < 2^53) and 10^decimals (≤ 10^22) are exact
        // doubles, so their one correctly rounded quotient is the nearest double to the text.
        constexpr double kPow10[] = {1e0,  1e1,  1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8,  1e9,  1e10, 1e11,
                                     1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22};
        const double v = static_cast<double>(mantissa) / kPow10[decimals];
        value = negative ? -v : v;
        return true;
    }
    if (i < n && (text[i] == 'e' || text[i] == 'E')) {
        ++i;
        if (i < n && (text[i] == '-' || text[i] == '+')) ++i;
        std::size_t exp_digits = 0;
        while (i < n && std::isdigit(static_cast<unsigned char>(text[i]))) {
            ++i;
            ++exp_digits;
        }
        if (exp_digits == 0) return false;
    }
    if (i != n) return false;
    // from_chars reads the same grammar (less a leading '+') and rounds as strtod does; out of
    // range (overflow to ±inf, underflow to 0 or a subnormal) strtod says what it gives.
    const std::string_view digits_text = text[0] == '+' ? text.substr(1) : text;
    const auto [end, ec] = std::from_chars(digits_text.data(), digits_text.data() + digits_text.size(), value);
    if (ec == std::errc{} && end == digits_text.data() + digits_text.size()) return true;
    const std::string copy(text);
    value = std::strtod(copy.c_str(), nullptr);
    return true;
}

bool is_yaml_nonfinite(std::string_view text) {
    for (std::string_view s :
         {".nan", ".NaN", ".NAN", ".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF", "-.inf", "-.Inf", "-.INF"})
        if (text == s) return true;
    return false;
}

} // namespace collide::detail
