#include "report/golden.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <fmt/format.h>
#include <limits>
#include <map>
#include <optional>
#include <set>

#include "report/render.h"

namespace collide {

namespace {

// ---- values files -----------------------------------------------------------------------------

constexpr std::string_view kDigestPrefix = "# digest ";

/// A value in its shortest round-trip form; NaN is `none`.
std::string format_value(double v) {
    if (std::isnan(v)) return "none";
    return fmt::format("{}", v);
}

/// FNV-1a, 64 bits, over the golden log's lines and the values file's value lines.
std::string digest_of(const std::vector<std::string>& log_lines, const std::vector<std::string>& value_lines) {
    std::uint64_t h = 0xcbf29ce484222325ULL;
    const auto feed = [&](std::string_view s) {
        for (const char c : s) {
            h ^= static_cast<unsigned char>(c);
            h *= 0x100000001b3ULL;
        }
    };
    for (const std::string& l : log_lines) {
        feed(l);
        feed("\n");
    }
    feed("\x1f");
    for (const std::string& l : value_lines) {
        feed(l);
        feed("\n");
    }
    return fmt::format("{:016x}", h);
}

/// Parses `none` or a whole number as from_chars reads it; nullopt when it is neither.
std::optional<double> parse_value(std::string_view s) {
    if (s == "none") return std::numeric_limits<double>::quiet_NaN();
    double v = 0;
    const char* first = s.data();
    if (!s.empty() && s.front() == '+') return std::nullopt;
    const auto [end, ec] = std::from_chars(first, first + s.size(), v);
    if (ec != std::errc() || end != first + s.size()) return std::nullopt;
    return v;
}

// ---- printed numbers --------------------------------------------------------------------------

bool identifier_char(char c) {
    const auto u = static_cast<unsigned char>(c);
    return u < 128 && (std::isalnum(u) || c == '_');
}
bool digit(char c) { return c >= '0' && c <= '9'; }

/// The numbers printed on a line ([-]digits[.digits][e[+-]digits]), in order; a number glued to
/// a preceding identifier ("apex_1", "x2") is not one.
std::vector<std::string_view> numbers_in(std::string_view s) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < s.size()) {
        const bool starts = (digit(s[i]) || (s[i] == '-' && i + 1 < s.size() && digit(s[i + 1]))) &&
                            !(i > 0 && (identifier_char(s[i - 1]) || s[i - 1] == '.'));
        if (!starts) {
            ++i;
            continue;
        }
        std::size_t j = i + 1;
        while (j < s.size() && digit(s[j])) ++j;
        if (j + 1 < s.size() && s[j] == '.' && digit(s[j + 1])) {
            ++j;
            while (j < s.size() && digit(s[j])) ++j;
        }
        if (j + 1 < s.size() && (s[j] == 'e' || s[j] == 'E')) {
            std::size_t k = j + 1;
            if (k < s.size() && (s[k] == '-' || s[k] == '+')) ++k;
            if (k < s.size() && digit(s[k])) {
                while (k < s.size() && digit(s[k])) ++k;
                j = k;
            }
        }
        out.push_back(s.substr(i, j - i));
        i = j;
    }
    return out;
}

std::string ordinal(int n) {
    const int mod100 = n % 100;
    const char* suffix = "th";
    if (mod100 < 11 || mod100 > 13) {
        if (n % 10 == 1) suffix = "st";
        if (n % 10 == 2) suffix = "nd";
        if (n % 10 == 3) suffix = "rd";
    }
    return std::to_string(n) + suffix;
}

/// Which printed digits change from `e` to `a` (one number as printed in the golden and now).
std::string printed_change(std::string_view e, std::string_view a) {
    if (e == a) return fmt::format("prints {} either way (the change is below the printed precision)", e);
    std::size_t p = 0;
    while (p < e.size() && p < a.size() && e[p] == a[p]) ++p;
    const std::size_t point = a.find('.');
    const std::size_t epoint = e.find('.');
    std::string where;
    if (point != std::string_view::npos && point == epoint && p > point)
        where = fmt::format("digits from the {} decimal change", ordinal(static_cast<int>(p - point)));
    else
        where = "the whole part changes";
    return fmt::format("{} → {} ({})", e, a, where);
}

// ---- aligning lines ---------------------------------------------------------------------------

/// The line changes between `e` and `a` (exact equality), and for each actual line kept as is,
/// its golden line (−1 when it is not kept).
std::vector<LineChange> align(const std::vector<std::string>& e, const std::vector<std::string>& a,
                              std::vector<int>& kept) {
    kept.assign(a.size(), -1);
    std::size_t head = 0;
    while (head < e.size() && head < a.size() && e[head] == a[head]) ++head;
    std::size_t tail = 0;
    while (tail < e.size() - head && tail < a.size() - head && e[e.size() - 1 - tail] == a[a.size() - 1 - tail]) ++tail;
    const std::size_t n = e.size() - head - tail;
    const std::size_t m = a.size() - head - tail;

    enum class Op : std::uint8_t { keep, remove, add };
    std::vector<Op> ops(head, Op::keep);
    constexpr std::size_t kTableLimit = 20'000'000; // beyond this, pair lines by position
    if (n > 0 && m > 0 && (n + 1) * (m + 1) <= kTableLimit) {
        // lcs(i, j): length of the longest common subsequence of e[head+i ..] and a[head+j ..].
        std::vector<std::uint32_t> lcs((n + 1) * (m + 1), 0);
        auto at = [&](std::size_t i, std::size_t j) -> std::uint32_t& { return lcs[i * (m + 1) + j]; };
        for (std::size_t i = n; i-- > 0;)
            for (std::size_t j = m; j-- > 0;)
                at(i, j) = e[head + i] == a[head + j] ? at(i + 1, j + 1) + 1 : std::max(at(i + 1, j), at(i, j + 1));
        std::size_t i = 0, j = 0;
        while (i < n || j < m) {
            if (i < n && j < m && e[head + i] == a[head + j] && at(i, j) == at(i + 1, j + 1) + 1) {
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
    ops.insert(ops.end(), tail, Op::keep);

    // Each run of removals and additions between kept lines: pair them up as changed lines in
    // order, the rest are removed or added.
    std::vector<LineChange> changes;
    std::size_t i = 0, j = 0; // next golden line, next actual line (0-based)
    std::size_t k = 0;
    while (k < ops.size()) {
        if (ops[k] == Op::keep) {
            kept[j] = static_cast<int>(i);
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
        for (std::size_t p = 0; p < pairs; ++p)
            changes.push_back({LineChangeKind::changed,
                               static_cast<int>(removed[p] + 1),
                               static_cast<int>(added[p] + 1),
                               e[removed[p]],
                               a[added[p]],
                               {}});
        for (std::size_t p = pairs; p < removed.size(); ++p)
            changes.push_back({LineChangeKind::removed,
                               static_cast<int>(removed[p] + 1),
                               static_cast<int>(j + 1),
                               e[removed[p]],
                               "",
                               {}});
        for (std::size_t p = pairs; p < added.size(); ++p)
            changes.push_back({LineChangeKind::added,
                               static_cast<int>(i + 1),
                               static_cast<int>(added[p] + 1),
                               "",
                               a[added[p]],
                               {}});
    }
    return changes;
}

/// Compares one value with its golden value; true when it moved beyond `tolerance`.
bool value_moved(double expected, double actual, const Tolerance& tolerance, ValueDiff& d) {
    d.expected = expected;
    d.actual = actual;
    d.tolerance = tolerance;
    d.allowed = tolerance.allowed(expected);
    if (expected == actual || (std::isnan(expected) && std::isnan(actual))) return false;
    d.diff = std::isnan(expected) || std::isnan(actual) ? std::numeric_limits<double>::infinity()
                                                        : std::fabs(actual - expected);
    return !(d.diff <= d.allowed);
}

/// Where field `index` is printed in `lines` (the log of `values`): the 0-based line, or −1, and
/// the 0-based position among that line's numbers, or −1. Found by printing the log with that
/// one value changed and seeing what moves.
std::pair<int, int> where_printed(const Scenario& scenario, const Layout& layout, std::span<const double> values,
                                  const std::vector<std::string>& lines, int index) {
    std::vector<double> v(values.begin(), values.end());
    const double was = v[static_cast<std::size_t>(index)];
    const double nudged = std::isnan(was) ? 1.2345678 : was * 1.5 + 1.2345678;
    int line = -1, number = -1;
    for (const double other : {nudged, std::numeric_limits<double>::quiet_NaN(), 0.0, 1.0}) {
        if (other == was || (std::isnan(other) && std::isnan(was))) continue;
        v[static_cast<std::size_t>(index)] = other;
        const std::vector<std::string> moved = split_lines(render_text(scenario, layout, v));
        if (moved.size() != lines.size()) continue;
        for (std::size_t l = 0; l < lines.size() && line < 0; ++l)
            if (moved[l] != lines[l]) line = static_cast<int>(l);
        if (line < 0) continue;
        const auto before = numbers_in(lines[static_cast<std::size_t>(line)]);
        const auto after = numbers_in(moved[static_cast<std::size_t>(line)]);
        if (before.size() == after.size())
            for (std::size_t k = 0; k < before.size(); ++k)
                if (before[k] != after[k]) {
                    number = static_cast<int>(k);
                    break;
                }
        break;
    }
    return {line, number};
}

/// Sorts changes into golden order: lines added before golden line N come before line N's change.
void sort_changes(std::vector<LineChange>& changes) {
    std::stable_sort(changes.begin(), changes.end(), [](const LineChange& x, const LineChange& y) {
        if (x.expected_line != y.expected_line) return x.expected_line < y.expected_line;
        return x.kind == LineChangeKind::added && y.kind != LineChangeKind::added;
    });
}

} // namespace

double Tolerance::allowed(double expected) const {
    return std::isfinite(expected) ? std::max(abs, rel * std::fabs(expected)) : abs;
}

Tolerance tolerance_of(const Scenario& scenario) {
    Tolerance t;
    if (scenario.tolerance_abs >= 0) t.abs = scenario.tolerance_abs;
    if (scenario.tolerance_rel >= 0) t.rel = scenario.tolerance_rel;
    return t;
}

Tolerance tolerance_of(const Scenario& scenario, std::string_view key) {
    Tolerance t = tolerance_of(scenario);
    for (const FieldTolerance& f : scenario.field_tolerances)
        if (f.field == key) {
            if (f.abs >= 0) t.abs = f.abs;
            if (f.rel >= 0) t.rel = f.rel;
        }
    return t;
}

std::string value_key(const Scenario& scenario, const Layout& layout, int index) {
    std::size_t entry = 0;
    while (entry + 1 < layout.offset.size() && layout.offset[entry + 1] <= index) ++entry;
    const std::string id = entry < scenario.log.size() ? scenario.log[entry].id : std::string("?");
    return id + "." + layout.fields[static_cast<std::size_t>(index)].name;
}

std::string values_path_of(const std::string& golden_log_path) {
    constexpr std::string_view kLog = ".log";
    if (golden_log_path.size() >= kLog.size() &&
        golden_log_path.compare(golden_log_path.size() - kLog.size(), kLog.size(), kLog) == 0)
        return golden_log_path.substr(0, golden_log_path.size() - kLog.size()) + ".values";
    return golden_log_path + ".values";
}

std::string frames_path_of(const std::string& golden_log_path) {
    const std::string values = values_path_of(golden_log_path);
    return values.substr(0, values.size() - std::string_view(".values").size()) + ".frames";
}

std::string recording_path_of(const std::string& golden_log_path) {
    const std::string values = values_path_of(golden_log_path);
    return values.substr(0, values.size() - std::string_view(".values").size()) + ".rec";
}

std::string render_values(const Scenario& scenario, const Layout& layout, std::span<const double> values,
                          std::string_view log_text, const std::string& log_name) {
    std::vector<std::string> lines;
    for (std::size_t i = 0; i < layout.fields.size() && i < values.size(); ++i)
        lines.push_back(value_key(scenario, layout, static_cast<int>(i)) + " = " + format_value(values[i]));
    std::string out = fmt::format("# collide golden values of {}: full precision, written by `collide check "
                                  "--update` or `collide review`\n",
                                  log_name);
    out += std::string(kDigestPrefix) + digest_of(split_lines(log_text), lines) + "\n";
    for (const std::string& l : lines) out += l + "\n";
    return out;
}

std::pair<GoldenValues, std::vector<Diagnostic>> read_values(std::string_view text, const std::string& shown,
                                                             std::string_view log_text, const std::string& log_shown,
                                                             const std::string& update) {
    GoldenValues result;
    std::vector<Diagnostic> problems;
    const std::string fix = fmt::format("; `{}` rewrites it from a run", update);
    std::vector<std::string> value_lines;
    std::set<std::string> keys;
    const std::vector<std::string> lines = split_lines(text);
    for (std::size_t n = 0; n < lines.size(); ++n) {
        const std::string& line = lines[n];
        const int at = static_cast<int>(n + 1);
        if (line.rfind(kDigestPrefix, 0) == 0) {
            result.digest = line.substr(kDigestPrefix.size());
            continue;
        }
        if (line.empty() || line.front() == '#') continue;
        const std::size_t eq = line.find(" = ");
        const std::string key = eq == std::string::npos ? "" : line.substr(0, eq);
        const auto value = eq == std::string::npos ? std::nullopt : parse_value(std::string_view(line).substr(eq + 3));
        if (key.empty() || key.find_first_of(" \t") != std::string::npos || !value) {
            problems.push_back(
                    {shown, at, 1, "expected `ID.FIELD = VALUE` (a number or none), got '" + line + "'" + fix});
            continue;
        }
        if (!keys.insert(key).second) {
            problems.push_back({shown, at, 1, "'" + key + "' is written twice" + fix});
            continue;
        }
        value_lines.push_back(line);
        result.values.emplace_back(key, *value);
    }
    if (problems.empty()) {
        if (result.digest.empty())
            problems.push_back({shown, 0, 0, "no `# digest` line: not written by collide" + fix});
        else if (result.digest != digest_of(split_lines(log_text), value_lines))
            problems.push_back({shown, 0, 0,
                                fmt::format("the values do not match the golden log {} (edited by hand?); `{}` "
                                            "rewrites both from a run",
                                            log_shown, update)});
    }
    return {std::move(result), std::move(problems)};
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

GoldenComparison compare_logs(std::string_view expected, std::string_view actual) {
    GoldenComparison result;
    result.expected_lines = split_lines(expected);
    result.actual_lines = split_lines(actual);
    std::vector<int> kept;
    result.changes = align(result.expected_lines, result.actual_lines, kept);
    return result;
}

GoldenComparison compare_golden(const Scenario& scenario, const Layout& layout, std::span<const double> values,
                                std::string_view actual_text, std::string_view golden_text,
                                const GoldenValues& golden_values) {
    GoldenComparison result;
    result.expected_lines = split_lines(golden_text);
    result.actual_lines = split_lines(actual_text);
    const auto& g = result.expected_lines;
    const auto& a = result.actual_lines;

    // Values, field by field, in log order; then golden values the log no longer has.
    std::map<std::string, double> golden;
    for (const auto& [key, v] : golden_values.values) golden.emplace(key, v);
    std::vector<double> golden_in_layout(layout.fields.size(), 0.0);
    std::set<std::string> keys;
    std::vector<int> moved_index; // field index of each entry of result.values (−1: removed)
    bool same_fields = golden.size() == layout.fields.size();
    for (std::size_t i = 0; i < layout.fields.size() && i < values.size(); ++i) {
        ValueDiff d;
        d.key = value_key(scenario, layout, static_cast<int>(i));
        keys.insert(d.key);
        const auto it = golden.find(d.key);
        if (it == golden.end()) {
            same_fields = false;
            d.kind = ValueDiff::added;
            d.actual = values[i];
            d.tolerance = tolerance_of(scenario, d.key);
            result.values.push_back(d);
            moved_index.push_back(static_cast<int>(i));
            continue;
        }
        golden_in_layout[i] = it->second;
        if (value_moved(it->second, values[i], tolerance_of(scenario, d.key), d)) {
            result.values.push_back(d);
            moved_index.push_back(static_cast<int>(i));
        }
    }
    for (const auto& [key, v] : golden_values.values)
        if (!keys.count(key)) {
            ValueDiff d;
            d.kind = ValueDiff::removed;
            d.key = key;
            d.expected = v;
            result.values.push_back(d);
            moved_index.push_back(-1);
        }

    // Text: the golden's values printed by the scenario as it is now must give the golden's text;
    // each such line stands for the actual line at the same place.
    std::vector<int> kept;
    std::vector<std::string> reprinted;
    if (same_fields) reprinted = split_lines(render_text(scenario, layout, golden_in_layout));
    if (same_fields && reprinted.size() == a.size()) {
        result.changes = align(g, reprinted, kept);
        for (LineChange& c : result.changes)
            if (c.kind != LineChangeKind::removed) c.actual = a[static_cast<std::size_t>(c.actual_line - 1)];
    } else {
        result.changes = align(g, a, kept);
    }

    // Each value that moved, on the line that prints it.
    for (std::size_t k = 0; k < result.values.size(); ++k) {
        ValueDiff& d = result.values[k];
        if (moved_index[k] < 0) {
            result.unplaced.push_back(d);
            continue;
        }
        const auto [line, number] = where_printed(scenario, layout, values, a, moved_index[k]);
        if (line < 0) {
            result.unplaced.push_back(d);
            continue;
        }
        d.actual_line = line + 1;
        const int actual_line = line + 1; // clang 14 cannot capture a structured binding
        auto c = std::find_if(result.changes.begin(), result.changes.end(), [&](const LineChange& x) {
            return x.kind != LineChangeKind::removed && x.actual_line == actual_line;
        });
        if (c == result.changes.end()) {
            const int gl = kept[static_cast<std::size_t>(line)];
            if (gl < 0) {
                result.unplaced.push_back(d);
                continue;
            }
            result.changes.push_back({LineChangeKind::changed,
                                      gl + 1,
                                      line + 1,
                                      g[static_cast<std::size_t>(gl)],
                                      a[static_cast<std::size_t>(line)],
                                      {}});
            c = result.changes.end() - 1;
        }
        if (c->kind == LineChangeKind::changed) {
            d.expected_line = c->expected_line;
            const auto en = numbers_in(c->expected);
            const auto an = numbers_in(c->actual);
            if (number >= 0 && en.size() == an.size() && static_cast<std::size_t>(number) < en.size())
                d.printed = printed_change(en[static_cast<std::size_t>(number)], an[static_cast<std::size_t>(number)]);
        }
        c->values.push_back(d);
    }
    sort_changes(result.changes);
    return result;
}

GoldenComparison compare_goldens(std::string_view expected_text, const GoldenValues& expected_values,
                                 std::string_view actual_text, const GoldenValues& actual_values) {
    GoldenComparison result = compare_logs(expected_text, actual_text);
    std::map<std::string, double> before(expected_values.values.begin(), expected_values.values.end());
    std::set<std::string> keys;
    for (const auto& [key, v] : actual_values.values) {
        keys.insert(key);
        ValueDiff d;
        d.key = key;
        d.has_tolerance = false;
        const auto it = before.find(key);
        if (it == before.end()) {
            d.kind = ValueDiff::added;
            d.actual = v;
        } else if (!value_moved(it->second, v, Tolerance{0, 0}, d)) {
            continue;
        }
        result.values.push_back(d);
    }
    for (const auto& [key, v] : expected_values.values)
        if (!keys.count(key)) {
            ValueDiff d;
            d.kind = ValueDiff::removed;
            d.key = key;
            d.expected = v;
            d.has_tolerance = false;
            result.values.push_back(d);
        }
    result.unplaced = result.values;
    return result;
}

} // namespace collide
