#include "report/golden.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>

namespace collide {

namespace {

/// The separator between a log line's label and its value (UTF-8 "→" with a space each side).
constexpr std::string_view kArrow = " \xE2\x86\x92 ";

/// A piece of a line's value part: a run of text, or one number as printed.
struct Token {
    bool is_number = false;
    std::string_view text;
    double value = 0;
    /// One unit in the last printed place (0.001 for "0.500"); 0 for an integer with no point.
    double last_place = 0;
};

bool identifier_char(char c) {
    const auto u = static_cast<unsigned char>(c);
    return u < 128 && (std::isalnum(u) || c == '_');
}
bool digit(char c) { return c >= '0' && c <= '9'; }

/// The length of a number starting at `i` ([+-]?digits[.digits][e[+-]digits]), or 0 when none
/// starts there. A number glued to a preceding identifier ("apex_1", "x2") is text.
std::size_t number_length(std::string_view s, std::size_t i, int& decimals, int& exponent, bool& has_point) {
    if (i > 0 && (identifier_char(s[i - 1]) || s[i - 1] == '.')) return 0;
    std::size_t j = i;
    if (s[j] == '-' || s[j] == '+') ++j;
    if (j >= s.size() || !digit(s[j])) return 0;
    while (j < s.size() && digit(s[j])) ++j;
    decimals = 0;
    exponent = 0;
    has_point = false;
    if (j + 1 < s.size() && s[j] == '.' && digit(s[j + 1])) {
        has_point = true;
        ++j;
        while (j < s.size() && digit(s[j])) {
            ++j;
            ++decimals;
        }
    }
    if (j + 1 < s.size() && (s[j] == 'e' || s[j] == 'E')) {
        std::size_t k = j + 1;
        bool negative = false;
        if (s[k] == '-' || s[k] == '+') {
            negative = s[k] == '-';
            ++k;
        }
        if (k < s.size() && digit(s[k])) {
            int e = 0;
            while (k < s.size() && digit(s[k])) {
                e = std::min(e * 10 + (s[k] - '0'), 999);
                ++k;
            }
            exponent = negative ? -e : e;
            has_point = true; // scientific notation always states its precision
            j = k;
        }
    }
    return j - i;
}

std::vector<Token> tokenize(std::string_view s) {
    std::vector<Token> tokens;
    std::size_t text_start = 0;
    std::size_t i = 0;
    while (i < s.size()) {
        int decimals = 0, exponent = 0;
        bool has_point = false;
        const std::size_t n = number_length(s, i, decimals, exponent, has_point);
        if (n == 0) {
            ++i;
            continue;
        }
        if (i > text_start) tokens.push_back({false, s.substr(text_start, i - text_start), 0, 0});
        Token t{true, s.substr(i, n), 0, 0};
        std::string_view digits = t.text;
        if (digits.front() == '+') digits.remove_prefix(1);
        std::from_chars(digits.data(), digits.data() + digits.size(), t.value);
        t.last_place = has_point ? std::pow(10.0, exponent - decimals) : 0;
        tokens.push_back(t);
        i += n;
        text_start = i;
    }
    if (text_start < s.size()) tokens.push_back({false, s.substr(text_start), 0, 0});
    return tokens;
}

/// Whether two printed numbers match; `allowed` receives the largest difference that would.
bool numbers_match(const Token& e, const Token& a, const Tolerance& tolerance, double& allowed) {
    allowed = std::max(tolerance.abs, tolerance.rel * std::fabs(e.value));
    const double diff = std::fabs(a.value - e.value);
    if (diff <= allowed) return true;
    // The last-digit rule: one unit in the last place of the more precise of the two. An
    // integer printed without a point is exact, but counts as a unit of 1 beside a decimal.
    if (e.last_place == 0 && a.last_place == 0) return false;
    const double place_e = e.last_place > 0 ? e.last_place : 1.0;
    const double place_a = a.last_place > 0 ? a.last_place : 1.0;
    const double place = std::min(place_e, place_a);
    allowed = std::max(allowed, place);
    // A hair of slack: 0.032 − 0.031 is 0.0010000000000000009 in binary.
    return diff <= place * (1 + 1e-6);
}

} // namespace

Tolerance tolerance_of(const Scenario& scenario) {
    Tolerance t;
    if (scenario.tolerance_abs >= 0) t.abs = scenario.tolerance_abs;
    if (scenario.tolerance_rel >= 0) t.rel = scenario.tolerance_rel;
    return t;
}

std::vector<std::string> split_lines(std::string_view text) {
    std::vector<std::string> lines;
    std::size_t start = 0;
    while (start < text.size()) {
        std::size_t end = text.find('\n', start);
        const bool last = end == std::string_view::npos;
        if (last) end = text.size();
        std::string_view line = text.substr(start, end - start);
        if (!last && !line.empty() && line.back() == '\r') line.remove_suffix(1);
        lines.emplace_back(line);
        start = end + 1;
    }
    return lines;
}

bool lines_match(std::string_view expected, std::string_view actual, const Tolerance& tolerance,
                 std::vector<NumberDiff>* numbers) {
    if (numbers) numbers->clear();
    if (expected == actual) return true;
    // The label (up to and including the arrow) echoes what the scenario asked for: exact.
    const std::size_t ae = expected.find(kArrow);
    const std::size_t aa = actual.find(kArrow);
    if (ae != aa) return false;
    if (ae != std::string_view::npos) {
        if (expected.substr(0, ae) != actual.substr(0, aa)) return false;
        expected.remove_prefix(ae + kArrow.size());
        actual.remove_prefix(aa + kArrow.size());
    }
    const std::vector<Token> te = tokenize(expected);
    const std::vector<Token> ta = tokenize(actual);
    if (te.size() != ta.size()) return false;
    std::vector<NumberDiff> moved;
    int index = 0;
    for (std::size_t k = 0; k < te.size(); ++k) {
        const Token& e = te[k];
        const Token& a = ta[k];
        if (e.is_number != a.is_number) return false;
        if (!e.is_number) {
            if (e.text != a.text) return false;
            continue;
        }
        ++index;
        double allowed = 0;
        if (!numbers_match(e, a, tolerance, allowed))
            moved.push_back({index, std::string(e.text), std::string(a.text), e.value, a.value,
                             std::fabs(a.value - e.value), allowed});
    }
    if (moved.empty()) return true;
    if (numbers) *numbers = std::move(moved);
    return false;
}

GoldenComparison compare_logs(std::string_view expected, std::string_view actual, const Tolerance& tolerance) {
    GoldenComparison result;
    result.expected_lines = split_lines(expected);
    result.actual_lines = split_lines(actual);
    const auto& e = result.expected_lines;
    const auto& a = result.actual_lines;
    auto same = [&](std::size_t i, std::size_t j) { return lines_match(e[i], a[j], tolerance); };

    // Common head and tail first: the usual case (one number moved) never reaches the table.
    std::size_t head = 0;
    while (head < e.size() && head < a.size() && same(head, head)) ++head;
    std::size_t tail = 0;
    while (tail < e.size() - head && tail < a.size() - head && same(e.size() - 1 - tail, a.size() - 1 - tail)) ++tail;
    const std::size_t n = e.size() - head - tail;
    const std::size_t m = a.size() - head - tail;

    // Longest common subsequence of the middles (the classic dynamic-programming table, O(n·m)):
    // lcs[i][j] = length of the LCS of e[head+i ..] and a[head+j ..]; walk it forwards.
    enum class Op : std::uint8_t { keep, remove, add };
    std::vector<Op> ops;
    constexpr std::size_t kTableLimit = 20'000'000; // beyond this, pair lines by position
    if (n > 0 && m > 0 && (n + 1) * (m + 1) <= kTableLimit) {
        std::vector<std::uint32_t> lcs((n + 1) * (m + 1), 0);
        auto at = [&](std::size_t i, std::size_t j) -> std::uint32_t& { return lcs[i * (m + 1) + j]; };
        for (std::size_t i = n; i-- > 0;)
            for (std::size_t j = m; j-- > 0;)
                at(i, j) = same(head + i, head + j) ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
        std::size_t i = 0, j = 0;
        while (i < n || j < m) {
            if (i < n && j < m && same(head + i, head + j) && at(i, j) == at(i + 1, j + 1) + 1) {
                ops.push_back(Op::keep);
                ++i;
                ++j;
            } else if (i < n && (j == m || at(i + 1, j) >= at(i, j + 1))) {
                ops.push_back(Op::remove);
                ++i;
            } else {
                ops.push_back(Op::add);
                ++j;
            }
        }
    } else {
        for (std::size_t k = 0; k < std::max(n, m); ++k) {
            if (k < n) ops.push_back(Op::remove);
            if (k < m) ops.push_back(Op::add);
        }
    }

    // Each run of removals and additions between kept lines: pair them up as changed lines in
    // order, the rest are removed or added.
    std::size_t i = head, j = head; // next golden line, next actual line (0-based)
    std::size_t k = 0;
    while (k < ops.size()) {
        if (ops[k] == Op::keep) {
            ++i;
            ++j;
            ++k;
            continue;
        }
        std::vector<std::size_t> removed, added;
        while (k < ops.size() && ops[k] != Op::keep) {
            if (ops[k] == Op::remove)
                removed.push_back(i++);
            else
                added.push_back(j++);
            ++k;
        }
        const std::size_t pairs = std::min(removed.size(), added.size());
        for (std::size_t p = 0; p < pairs; ++p) {
            LineChange c;
            c.kind = LineChangeKind::changed;
            c.expected_line = static_cast<int>(removed[p] + 1);
            c.actual_line = static_cast<int>(added[p] + 1);
            c.expected = e[removed[p]];
            c.actual = a[added[p]];
            lines_match(c.expected, c.actual, tolerance, &c.numbers);
            result.changes.push_back(std::move(c));
        }
        for (std::size_t p = pairs; p < removed.size(); ++p) {
            LineChange c;
            c.kind = LineChangeKind::removed;
            c.expected_line = static_cast<int>(removed[p] + 1);
            c.actual_line = static_cast<int>(j + 1);
            c.expected = e[removed[p]];
            result.changes.push_back(std::move(c));
        }
        for (std::size_t p = pairs; p < added.size(); ++p) {
            LineChange c;
            c.kind = LineChangeKind::added;
            c.expected_line = static_cast<int>(i + 1);
            c.actual_line = static_cast<int>(added[p] + 1);
            c.actual = a[added[p]];
            result.changes.push_back(std::move(c));
        }
    }
    return result;
}

} // namespace collide
