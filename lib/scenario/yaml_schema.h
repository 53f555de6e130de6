#pragma once
/// \file
/// The YAML side of the scenario reader: mappings checked against their allowed keys (unknown
/// and duplicate keys are errors), scalars read as text or booleans, and located diagnostics
/// collected rather than thrown, so that one run reports every problem. Internal to the scenario
/// loader (the reader's files: reader.cpp, read_*.cpp).

#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include <yaml-cpp/mark.h>

#include "model/diagnostic.h"
#include "scenario/yaml_tree.h"

namespace collide::reader {

/// The most bodies (counting an array's), params, log entries or expectations a scenario may
/// have (keeps name lookups and the run itself bounded whatever the file holds).
inline constexpr std::size_t kMaxItems = 200'000;

/// The path of a field in messages ("bodies.ball.position[2]"), kept as pieces and written out
/// only when a message (or an expression kept for later) needs it: reading a body builds no
/// text for the dozens of fields it checks. A What views its pieces and may refer to the What
/// it extends, so it lives no longer than they do: pass it down as an argument, or keep it in a
/// local made from lvalues (`const What path("bodies.", name);`, `const What p = path + key;`).
class What {
public:
    /// A path of one piece.
    What(const char* text) : pieces_{Piece(text)}, count_(1) {}        // NOLINT: implicit, as a string
    What(const std::string& text) : pieces_{Piece(text)}, count_(1) {} // NOLINT: implicit, as a string
    /// A path of two pieces, e.g. ("bodies.", name).
    What(std::string_view a, std::string_view b) : pieces_{Piece(a), Piece(b)}, count_(2) {}
    What(const What&) = delete; // own_ is not copied: a path is moved or built anew
    What(What&&) noexcept = default;
    What& operator=(const What&) = delete;
    What& operator=(What&&) = delete;
    ~What() = default;
    /// The path as text.
    std::string str() const {
        std::string out = parent_ ? parent_->str() : std::string();
        if (own_) out += *own_;
        for (int i = 0; i < count_; ++i) {
            const Piece& p = pieces_[static_cast<std::size_t>(i)];
            if (p.index < 0)
                out.append(p.data, p.size);
            else
                out += "[" + std::to_string(p.index) + "]";
        }
        return out;
    }
    /// The path as text, where a string is expected (messages).
    operator std::string() const { return str(); } // NOLINT: implicit
    /// This path followed by `[index]` (it refers to this path, which must outlive it).
    What at(std::size_t index) const { return What(*this, Piece(static_cast<long>(index))); }
    /// This path followed by `piece` (it refers to `w`, which must outlive it).
    friend What operator+(const What& w, std::string_view piece) { return What(w, Piece(piece)); }
    /// A temporary path followed by `piece`: extended in place, so the result does not refer to it.
    friend What operator+(What&& w, std::string_view piece) {
        if (w.count_ < kPieces) {
            w.pieces_[static_cast<std::size_t>(w.count_++)] = Piece(piece);
            return std::move(w);
        }
        What out{Piece(piece)}; // rare (a long message): the chain so far is written out once
        out.own_ = std::make_unique<std::string>(w.str());
        return out;
    }
    friend What operator+(const What& w, const std::string& piece) { return w + std::string_view(piece); }
    friend What operator+(What&& w, const std::string& piece) { return std::move(w) + std::string_view(piece); }
    template <std::size_t N> friend What operator+(const What& w, const char (&piece)[N]) {
        return w + std::string_view(piece, N - 1);
    }
    template <std::size_t N> friend What operator+(What&& w, const char (&piece)[N]) {
        return std::move(w) + std::string_view(piece, N - 1);
    }
    /// A `const char*` that is not a literal (a literal takes the overload above: no strlen).
    template <class P, std::enable_if_t<std::is_same_v<P, const char*> || std::is_same_v<P, char*>, int> = 0>
    friend What operator+(const What& w, P piece) {
        return w + std::string_view(piece);
    }
    template <class P, std::enable_if_t<std::is_same_v<P, const char*> || std::is_same_v<P, char*>, int> = 0>
    friend What operator+(What&& w, P piece) {
        return std::move(w) + std::string_view(piece);
    }
    friend What operator+(const What& w, const char& c) { return w + std::string_view(&c, 1); }
    friend What operator+(What&& w, const char& c) { return std::move(w) + std::string_view(&c, 1); }

private:
    /// A piece of text, or `[index]`.
    struct Piece {
        Piece() = default;
        explicit Piece(std::string_view text) : data(text.data()), size(static_cast<std::uint32_t>(text.size())) {}
        explicit Piece(long i) : index(i) {}
        const char* data = nullptr;
        std::uint32_t size = 0;
        long index = -1; ///< ≥ 0: the piece is "[index]"
    };
    static constexpr int kPieces = 4;
    What(const What& parent, Piece piece) : parent_(&parent), pieces_{piece}, count_(1) {}
    explicit What(Piece piece) : pieces_{piece}, count_(1) {}
    const What* parent_ = nullptr;
    std::array<Piece, kPieces> pieces_{};
    int count_ = 0;
    std::unique_ptr<std::string> own_; ///< the written-out start of an over-long chain (before the pieces)
};

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
    Node value;          ///< its value
};

/// A mapping whose keys were checked against the schema.
struct MapView {
    SourceMark mark;            ///< the mapping (or its key, when the value is empty)
    std::vector<Entry> entries; ///< the accepted keys, in file order
    std::uint64_t key_bits = 0; ///< a bit per key (key_bit), so that most absent keys are told at once
    /// The entry for `key`, or null.
    const Entry* find(std::string_view key) const;
};

/// The bit of MapView::key_bits that `key` sets (from its length and first byte).
inline std::uint64_t key_bit(std::string_view key) {
    return key.empty() ? 1 : std::uint64_t{1} << ((key.size() * 7 + static_cast<unsigned char>(key[0])) & 63);
}

/// A yaml-cpp mark (of a syntax error) as a 1-based SourceMark; a null mark gives line 0.
SourceMark to_mark(const YAML::Mark& m);

/// Where a node was written; a missing or empty (null) value points at `fallback`, its key.
SourceMark mark_of(const Node& n, SourceMark fallback);

/// "a, b, c"; long lists stop after 12 items with how many more there are.
std::string join(const std::vector<std::string>& items);

/// "path.key", or "key" when `path` is empty.
std::string path_join(const std::string& path, const std::string& key);

/// A short description of what a node is, for "expected X, got Y": "nothing", "a mapping",
/// "a list" or the scalar in quotes (cut to 40 characters).
std::string describe(const Node& n);

/// True for a letter or '_' followed by letters, digits or '_'.
bool is_identifier(std::string_view s);

/// False (after an error at `m`) when a collection has more than kMaxItems items.
bool not_too_many(Problems& problems, std::size_t count, const char* what, SourceMark m);

/// The mapping at `n` with only `allowed` keys (an empty list allows none); null counts as an
/// empty mapping. Empty (after an error) when `n` is not a mapping; unknown, duplicate and
/// non-scalar keys are reported and left out.
std::optional<MapView> read_map(Problems& problems, const Node& n, const What& path, SourceMark fallback,
                                std::span<const std::string_view> allowed);
/// read_map with a literal key list.
std::optional<MapView> read_map(Problems& problems, const Node& n, const What& path, SourceMark fallback,
                                std::initializer_list<std::string_view> allowed);
/// A mapping whose keys are names chosen by the author (params, bodies): any key is accepted;
/// duplicate and non-scalar keys are still reported.
std::optional<MapView> read_open_map(Problems& problems, const Node& n, const What& path, SourceMark fallback);

/// The entry for `key`, or null after "missing required key" at the mapping.
const Entry* require(Problems& problems, const MapView& view, const char* key, const What& path);

/// Reads true or false (also True, TRUE, False, FALSE) into `field`; true when it was read.
bool read_bool(Problems& problems, const Entry* e, bool& field, const What& what);

/// Reads one line of text into `field`; true when it was read. Null gives an empty text when
/// `null_is_empty`, else an error, as does empty text; so does text with a control or
/// bidirectional character or invalid UTF-8 (io/safe_text.h), which would reach a terminal.
bool read_string(Problems& problems, const Entry* e, std::string& field, const What& what, bool null_is_empty);

} // namespace collide::reader
