#pragma once
/// \file
/// The YAML side of the scenario reader: mappings checked against their allowed keys (unknown
/// and duplicate keys are errors), scalars read as text or booleans, and located diagnostics
/// collected rather than thrown, so that one run reports every problem. Internal to the scenario
/// loader (the reader's files: reader.cpp, read_*.cpp).

#include <cstddef>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "model/diagnostic.h"

namespace collide::reader {

/// The most bodies (counting an array's), params, log entries or expectations a scenario may
/// have (keeps name lookups and the run itself bounded whatever the file holds).
inline constexpr std::size_t kMaxItems = 200'000;

/// The diagnostics found so far, all for one file.
class Problems {
public:
    /// Collects diagnostics for `shown`, the file's name as printed.
    explicit Problems(std::string shown) : shown_(std::move(shown)) {}
    /// Records `message` at `m` (an unknown line or column counts as 1).
    void error(SourceMark m, std::string message) {
        diagnostics.push_back({shown_, m.line > 0 ? m.line : 1, m.column > 0 ? m.column : 1, std::move(message)});
    }
    /// Every diagnostic, in the order found.
    std::vector<Diagnostic> diagnostics;

private:
    std::string shown_;
};

/// One key of a mapping, as read (first occurrence).
struct Entry {
    std::string key;     ///< the key as written
    SourceMark key_mark; ///< where the key was written
    YAML::Node value;    ///< its value
};

/// A mapping whose keys were checked against the schema.
struct MapView {
    SourceMark mark;            ///< the mapping (or its key, when the value is empty)
    std::vector<Entry> entries; ///< the accepted keys, in file order
    /// The entry for `key`, or null.
    const Entry* find(std::string_view key) const;
};

/// A yaml-cpp mark as a 1-based SourceMark; a null mark gives line 0.
SourceMark to_mark(const YAML::Mark& m);

/// Where a node was written; a missing or empty (null) value points at `fallback`, its key.
SourceMark mark_of(const YAML::Node& n, SourceMark fallback);

/// "a, b, c"; long lists stop after 12 items with how many more there are.
std::string join(const std::vector<std::string>& items);

/// "path.key", or "key" when `path` is empty.
std::string path_join(const std::string& path, const std::string& key);

/// A short description of what a node is, for "expected X, got Y": "nothing", "a mapping",
/// "a list" or the scalar in quotes (cut to 40 characters).
std::string describe(const YAML::Node& n);

/// True for a letter or '_' followed by letters, digits or '_'.
bool is_identifier(std::string_view s);

/// False (after an error at `m`) when a collection has more than kMaxItems items.
bool not_too_many(Problems& problems, std::size_t count, const char* what, SourceMark m);

/// The mapping at `n` with only `allowed` keys (an empty list allows none); null counts as an
/// empty mapping. Empty (after an error) when `n` is not a mapping; unknown, duplicate and
/// non-scalar keys are reported and left out.
std::optional<MapView> read_map(Problems& problems, const YAML::Node& n, const std::string& path, SourceMark fallback,
                                std::span<const std::string_view> allowed);
/// read_map with a literal key list.
std::optional<MapView> read_map(Problems& problems, const YAML::Node& n, const std::string& path, SourceMark fallback,
                                std::initializer_list<std::string_view> allowed);
/// A mapping whose keys are names chosen by the author (params, bodies): any key is accepted;
/// duplicate and non-scalar keys are still reported.
std::optional<MapView> read_open_map(Problems& problems, const YAML::Node& n, const std::string& path,
                                     SourceMark fallback);

/// The entry for `key`, or null after "missing required key" at the mapping.
const Entry* require(Problems& problems, const MapView& view, const char* key, const std::string& path);

/// Reads true or false (also True, TRUE, False, FALSE) into `field`; true when it was read.
bool read_bool(Problems& problems, const Entry* e, bool& field, const std::string& what);

/// Reads one line of text into `field`; true when it was read. Null gives an empty text when
/// `null_is_empty`, else an error, as does empty text; so does text with a control or
/// bidirectional character or invalid UTF-8 (io/safe_text.h), which would reach a terminal.
bool read_string(Problems& problems, const Entry* e, std::string& field, const std::string& what, bool null_is_empty);

} // namespace collide::reader
