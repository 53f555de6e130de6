#include "scenario/yaml_schema.h"

#include <algorithm>
#include <cctype>

#include "io/closest_word.h"
#include "io/safe_text.h"
#include "scenario/name_table.h"

namespace collide::reader {

const Entry* MapView::find(std::string_view key) const {
    if (!(key_bits & key_bit(key))) return nullptr;
    for (const Entry& e : entries)
        if (e.key == key) return &e;
    return nullptr;
}

SourceMark to_mark(const YAML::Mark& m) {
    if (m.is_null()) return {};
    return {m.line + 1, m.column + 1};
}

SourceMark mark_of(const Node& n, SourceMark fallback) {
    if (fallback.line > 0 && (!n.is_defined() || n.is_null())) return fallback;
    const SourceMark m = n.mark();
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

std::string describe(const Node& n) {
    if (!n.is_defined() || n.is_null()) return "nothing";
    if (n.is_map()) return "a mapping";
    if (n.is_sequence()) return "a list";
    std::string s(n.scalar());
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
std::optional<MapView> map_with(Problems& problems, const Node& n, const What& path, SourceMark fallback,
                                std::span<const std::string_view> allowed, bool any_key) {
    MapView view;
    view.mark = mark_of(n, fallback);
    if (!n.is_defined() || n.is_null()) return view;
    if (!n.is_map()) {
        problems.error(view.mark, path + ": expected a mapping of keys, got " + describe(n));
        return std::nullopt;
    }
    // The accepted keys so far, by name: a scan of the few of a small mapping, a table for a
    // large one (bodies, params).
    const std::size_t count = n.size();
    view.entries.reserve(count);
    const auto entry_key = [&view](std::uint32_t i) { return std::string_view(view.entries[i].key); };
    NameTable<decltype(entry_key)> seen(entry_key);
    constexpr std::size_t kScanned = 16;
    if (count > kScanned) seen.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
        const Node key_node = n.key(i);
        const SourceMark key_mark = mark_of(key_node, view.mark);
        if (!key_node.is_scalar()) {
            problems.error(key_mark, path + ": a key must be a plain name, got " + describe(key_node));
            continue;
        }
        const std::string_view key = key_node.scalar();
        long first = -1;
        if (count > kScanned) {
            first = seen.find(key);
        } else {
            for (std::size_t k = 0; k < view.entries.size() && first < 0; ++k)
                if (view.entries[k].key == key) first = static_cast<long>(k);
        }
        if (first >= 0) {
            problems.error(key_mark,
                           path + ": duplicate key '" + std::string(key) + "' (first given at line " +
                                   std::to_string(view.entries[static_cast<std::size_t>(first)].key_mark.line) + ")");
            continue;
        }
        const bool known = any_key || std::find(allowed.begin(), allowed.end(), key) != allowed.end();
        if (!known) {
            // Every valid key (a mapping has few), and the likely one behind a typo.
            const std::vector<std::string> names(allowed.begin(), allowed.end());
            const std::string match = closest_match(std::string(key), names);
            std::string list;
            for (std::size_t k = 0; k < names.size(); ++k) list += (k == 0 ? "" : ", ") + names[k];
            problems.error(key_mark,
                           path + ": unknown key '" + std::string(key) + "'" +
                                   (match.empty() ? "" : "; did you mean '" + match + "'?") + " (" +
                                   (names.empty() ? std::string("expected no keys") : "expected one of: " + list) +
                                   ")");
            continue;
        }
        view.entries.push_back({std::string(key), key_mark, n.value(i)});
        view.key_bits |= key_bit(key);
        if (count > kScanned) seen.insert(key, static_cast<std::uint32_t>(view.entries.size() - 1));
    }
    return view;
}

} // namespace

std::optional<MapView> read_map(Problems& problems, const Node& n, const What& path, SourceMark fallback,
                                std::span<const std::string_view> allowed) {
    return map_with(problems, n, path, fallback, allowed, false);
}

std::optional<MapView> read_map(Problems& problems, const Node& n, const What& path, SourceMark fallback,
                                std::initializer_list<std::string_view> allowed) {
    return map_with(problems, n, path, fallback, std::span<const std::string_view>(allowed.begin(), allowed.size()),
                    false);
}

std::optional<MapView> read_open_map(Problems& problems, const Node& n, const What& path, SourceMark fallback) {
    return map_with(problems, n, path, fallback, {}, true);
}

const Entry* require(Problems& problems, const MapView& view, const char* key, const What& path) {
    const Entry* e = view.find(key);
    if (!e) problems.error(view.mark, path + ": missing required key '" + key + "'");
    return e;
}

bool read_bool(Problems& problems, const Entry* e, bool& field, const What& what) {
    if (!e) return false;
    const SourceMark m = mark_of(e->value, e->key_mark);
    if (e->value.is_scalar() && !e->value.is_null()) {
        const std::string_view s = e->value.scalar();
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

bool read_string(Problems& problems, const Entry* e, std::string& field, const What& what, bool null_is_empty) {
    if (!e) return false;
    const SourceMark m = mark_of(e->value, e->key_mark);
    if (e->value.is_null()) {
        if (null_is_empty) {
            field.clear();
            return true;
        }
        problems.error(m, what + " is empty");
        return false;
    }
    if (!e->value.is_scalar()) {
        problems.error(m, what + ": expected text, got " + describe(e->value));
        return false;
    }
    field = std::string(e->value.scalar());
    if (!null_is_empty && field.empty()) {
        problems.error(m, what + " is empty");
        return false;
    }
    if (field.find('\n') != std::string::npos) {
        problems.error(m, what + " must be one line");
        return false;
    }
    if (const std::string problem = unsafe_text_problem(field, std::string(what)); !problem.empty()) {
        problems.error(m, problem);
        return false;
    }
    return true;
}

} // namespace collide::reader
