#include "scenario/yaml_schema.h"

#include <algorithm>
#include <cctype>
#include <unordered_map>

#include "io/safe_text.h"

namespace collide::reader {

const Entry* MapView::find(std::string_view key) const {
    for (const Entry& e : entries)
        if (e.key == key) return &e;
    return nullptr;
}

SourceMark to_mark(const YAML::Mark& m) {
    if (m.is_null()) return {};
    return {m.line + 1, m.column + 1};
}

SourceMark mark_of(const YAML::Node& n, SourceMark fallback) {
    if (fallback.line > 0 && (!n.IsDefined() || n.IsNull())) return fallback;
    const SourceMark m = n.IsDefined() ? to_mark(n.Mark()) : SourceMark{};
    return m.line > 0 ? m : fallback;
}

std::string join(const std::vector<std::string>& items) {
    constexpr std::size_t kShown = 12;
    std::string s;
    for (std::size_t i = 0; i < items.size() && i < kShown; ++i) s += (i == 0 ? "" : ", ") + items[i];
    if (items.size() > kShown) s += ", ... (" + std::to_string(items.size() - kShown) + " more)";
    return s;
}

std::string path_join(const std::string& path, const std::string& key) { return path.empty() ? key : path + "." + key; }

std::string describe(const YAML::Node& n) {
    if (!n.IsDefined() || n.IsNull()) return "nothing";
    if (n.IsMap()) return "a mapping";
    if (n.IsSequence()) return "a list";
    std::string s = n.Scalar();
    if (s.size() > 40) {
        s.resize(37); // in place: GCC 12 wrongly warns (-Warray-bounds) on substr(…) + "..."
        s += "...";
    }
    return "\"" + s + "\"";
}

bool is_identifier(std::string_view s) {
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
    return std::all_of(s.begin(), s.end(),
                       [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

bool not_too_many(Problems& problems, std::size_t count, const char* what, SourceMark m) {
    if (count <= kMaxItems) return true;
    problems.error(m, std::string(what) + ": " + std::to_string(count) + " items; a scenario may have at most " +
                              std::to_string(kMaxItems));
    return false;
}

namespace {

/// The mapping at `n`; `allowed` is ignored when `any_key`.
std::optional<MapView> map_with(Problems& problems, const YAML::Node& n, const std::string& path, SourceMark fallback,
                                std::span<const std::string_view> allowed, bool any_key) {
    MapView view;
    view.mark = mark_of(n, fallback);
    if (!n.IsDefined() || n.IsNull()) return view;
    if (!n.IsMap()) {
        problems.error(view.mark, path + ": expected a mapping of keys, got " + describe(n));
        return std::nullopt;
    }
    std::unordered_map<std::string, std::size_t> seen; // key → index in view.entries
    for (auto it = n.begin(); it != n.end(); ++it) {
        const SourceMark key_mark = mark_of(it->first, view.mark);
        if (!it->first.IsScalar()) {
            problems.error(key_mark, path + ": a key must be a plain name, got " + describe(it->first));
            continue;
        }
        const std::string key = it->first.Scalar();
        if (const auto first = seen.find(key); first != seen.end()) {
            problems.error(key_mark, path + ": duplicate key '" + key + "' (first given at line " +
                                             std::to_string(view.entries[first->second].key_mark.line) + ")");
            continue;
        }
        const bool known = any_key || std::find(allowed.begin(), allowed.end(), key) != allowed.end();
        if (!known) {
            const std::vector<std::string> names(allowed.begin(), allowed.end());
            problems.error(key_mark, path + ": unknown key '" + key + "' (" +
                                             (names.empty() ? std::string("expected no keys")
                                                            : "expected one of: " + join(names)) +
                                             ")");
            continue;
        }
        seen.emplace(key, view.entries.size());
        view.entries.push_back({key, key_mark, it->second});
    }
    return view;
}

} // namespace

std::optional<MapView> read_map(Problems& problems, const YAML::Node& n, const std::string& path, SourceMark fallback,
                                std::span<const std::string_view> allowed) {
    return map_with(problems, n, path, fallback, allowed, false);
}

std::optional<MapView> read_map(Problems& problems, const YAML::Node& n, const std::string& path, SourceMark fallback,
                                std::initializer_list<std::string_view> allowed) {
    return map_with(problems, n, path, fallback, std::span<const std::string_view>(allowed.begin(), allowed.size()),
                    false);
}

std::optional<MapView> read_open_map(Problems& problems, const YAML::Node& n, const std::string& path,
                                     SourceMark fallback) {
    return map_with(problems, n, path, fallback, {}, true);
}

const Entry* require(Problems& problems, const MapView& view, const char* key, const std::string& path) {
    const Entry* e = view.find(key);
    if (!e) problems.error(view.mark, path + ": missing required key '" + key + "'");
    return e;
}

bool read_bool(Problems& problems, const Entry* e, bool& field, const std::string& what) {
    if (!e) return false;
    const SourceMark m = mark_of(e->value, e->key_mark);
    if (e->value.IsScalar() && !e->value.IsNull()) {
        const std::string& s = e->value.Scalar();
        if (s == "true" || s == "True" || s == "TRUE") {
            field = true;
            return true;
        }
        if (s == "false" || s == "False" || s == "FALSE") {
            field = false;
            return true;
        }
    }
    problems.error(m, what + ": expected true or false, got " + describe(e->value));
    return false;
}

bool read_string(Problems& problems, const Entry* e, std::string& field, const std::string& what, bool null_is_empty) {
    if (!e) return false;
    const SourceMark m = mark_of(e->value, e->key_mark);
    if (e->value.IsNull()) {
        if (null_is_empty) {
            field.clear();
            return true;
        }
        problems.error(m, what + " is empty");
        return false;
    }
    if (!e->value.IsScalar()) {
        problems.error(m, what + ": expected text, got " + describe(e->value));
        return false;
    }
    field = e->value.Scalar();
    if (!null_is_empty && field.empty()) {
        problems.error(m, what + " is empty");
        return false;
    }
    if (field.find('\n') != std::string::npos) {
        problems.error(m, what + " must be one line");
        return false;
    }
    if (const std::string problem = unsafe_text_problem(field, what); !problem.empty()) {
        problems.error(m, problem);
        return false;
    }
    return true;
}

} // namespace collide::reader
