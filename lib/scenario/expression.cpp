#include "scenario/expression.h"

#include <cctype>
#include <cstdlib>

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

bool parse_plain_number(std::string_view text, double& value) {
    // [-+]? ( digits [. digits?] | . digits ) ( [eE] [-+]? digits )?
    std::size_t i = 0;
    const std::size_t n = text.size();
    if (i < n && (text[i] == '-' || text[i] == '+')) ++i;
    std::size_t digits = 0;
    while (i < n && std::isdigit(static_cast<unsigned char>(text[i]))) {
        ++i;
        ++digits;
    }
    if (i < n && text[i] == '.') {
        ++i;
        while (i < n && std::isdigit(static_cast<unsigned char>(text[i]))) {
            ++i;
            ++digits;
        }
    }
    if (digits == 0) return false;
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
