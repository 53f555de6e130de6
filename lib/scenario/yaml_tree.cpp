// The scenario reader's YAML tree (yaml_tree.h): a one-pass parser for the grammar scenarios
// are written in, and yaml-cpp's event parser for everything else, both building the same
// flat tree.
//
// The fast pass accepts a document only when it is sure yaml-cpp reads it the same way; at the
// first thing it is not sure of, it gives up (Unsupported) and the whole text goes to yaml-cpp,
// which then also reports any syntax error with its own message and mark. What it accepts:
// - block mappings (`key: value`, keys plain or quoted on one line) and block sequences
//   (`- item`, also a mapping started on the dash's line, and a sequence at its key's
//   indentation), nested by indentation with spaces;
// - flow mappings `{ k: v, … }` and sequences `[a, b, …]`, nested, over several lines;
// - plain scalars on one line (`~`, `null`, `Null`, `NULL` are null), single-quoted ('' for a
//   quote) and double-quoted scalars without a backslash, on one line;
// - comments after a space, blank lines, CRLF line ends.
// It gives up on tabs, control characters, a BOM, NEL/LS/PS, `---`/`...`/`%` lines, `&` `*` `!`
// `|` `>` `?` `@` `` ` `` starts, `<<` keys, keys over 1000 bytes, a plain scalar that may go on
// on the next line, a trailing comma, and anything that is not well formed.
#include "scenario/yaml_tree.h"

#include <cstring>
#include <map>
#include <sstream>

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/mark.h>
#include <yaml-cpp/parser.h>

#include "io/memory.h"

namespace collide::reader {

namespace {

using yaml_tree_detail::kColumnMask;
using yaml_tree_detail::kKindShift;
using yaml_tree_detail::kPlainBit;
using yaml_tree_detail::kSideBit;

/// The stored kind (undefined is never stored): 0 null, 1 scalar, 2 sequence, 3 map.
std::uint32_t stored_kind(NodeKind k) { return static_cast<std::uint32_t>(k) - 1; }

/// Deepest nesting the fast pass follows (the loader refuses more than 64 levels before).
constexpr int kMaxDepth = 100;
/// Longest key the fast pass reads (yaml-cpp's simple keys stop at 1024 characters).
constexpr std::size_t kMaxKeyBytes = 1000;

bool is_null_word(std::string_view s) { return s == "~" || s == "null" || s == "Null" || s == "NULL"; }

} // namespace

std::size_t YamlTree::bytes() const {
    return items_.capacity() * sizeof(Item) + children.capacity() * sizeof(std::uint32_t) + side_.capacity();
}

// ---- building ---------------------------------------------------------------------------------

/// Appends nodes to a tree and gathers each collection's children (the part both parsers share).
class TreeBuilder {
public:
    explicit TreeBuilder(YamlTree& tree) : t_(tree) {}

    /// A new node at line `line`, column `column` (1-based).
    std::uint32_t add(NodeKind kind, std::size_t line, std::size_t column, std::uint32_t first = 0,
                      std::uint32_t count = 0, std::uint32_t flags = 0) {
        YamlTree::Item it;
        it.line = static_cast<std::uint32_t>(line);
        it.column = static_cast<std::uint32_t>(std::min<std::size_t>(column, kColumnMask)) |
                    (stored_kind(kind) << kKindShift) | flags;
        it.first = first;
        it.count = count;
        t_.items_.push_back(it);
        return static_cast<std::uint32_t>(t_.items_.size() - 1);
    }
    /// A scalar whose text is `text` kept in the side text.
    std::uint32_t add_side_scalar(std::string_view text, std::size_t line, std::size_t column, bool plain) {
        const auto first = static_cast<std::uint32_t>(t_.side_.size());
        t_.side_ += text;
        return add(NodeKind::scalar, line, column, first, static_cast<std::uint32_t>(text.size()),
                   kSideBit | (plain ? kPlainBit : 0));
    }
    /// Where the children of a collection opened now start in the pending list.
    std::size_t open() const { return pending_.size(); }
    /// Closes collection `node`, whose children were pended since `base`.
    void close(std::uint32_t node, std::size_t base) {
        YamlTree::Item& it = t_.items_[node];
        it.first = static_cast<std::uint32_t>(t_.children.size());
        const std::size_t n = pending_.size() - base;
        it.count = static_cast<std::uint32_t>((it.column >> kKindShift & 3u) == stored_kind(NodeKind::map) ? n / 2 : n);
        t_.children.insert(t_.children.end(), pending_.begin() + static_cast<std::ptrdiff_t>(base), pending_.end());
        pending_.resize(base);
    }
    /// Adds `node` as the next child of the innermost open collection.
    void pend(std::uint32_t node) { pending_.push_back(node); }
    /// Makes `node` the document's root.
    void set_root(std::uint32_t node) {
        t_.root_ = node;
        t_.has_root_ = true;
    }

protected:
    YamlTree& t_;

private:
    std::vector<std::uint32_t> pending_;
};

// ---- the fast pass ----------------------------------------------------------------------------

/// The one-pass parser of the scenario grammar (see the file comment).
class FastYamlParser : TreeBuilder {
public:
    FastYamlParser(std::string_view text, YamlTree& tree, const std::function<void(std::size_t)>& progress)
            : TreeBuilder(tree), s_(text), progress_(progress) {}

    /// Builds the tree; false (the tree then is to be thrown away) when the text leaves the grammar.
    bool parse() {
        try {
            check_bytes();
            // Room for the nodes of a typical scenario (untouched capacity costs no memory).
            t_.items_.reserve(s_.size() / 5 + 16);
            t_.children.reserve(s_.size() / 5 + 16);
            advise_huge_pages(t_.items_.data(), t_.items_.capacity() * sizeof(YamlTree::Item));
            advise_huge_pages(t_.children.data(), t_.children.capacity() * sizeof(std::uint32_t));
            const int indent = next_content();
            if (indent < 0) return true; // no document: blank lines and comments only
            if (!at_key()) unsupported();
            set_root(block_map(indent));
            if (p_ < s_.size()) unsupported(); // content left over at a smaller indentation
            return true;
        } catch (const Unsupported&) {
            return false;
        }
    }

private:
    struct Unsupported {};
    [[noreturn]] static void unsupported() { throw Unsupported{}; }

    std::string_view s_;
    const std::function<void(std::size_t)>& progress_;
    std::size_t next_report_ = kReportBytes; // the offset at which progress_ is told next
    static constexpr std::size_t kReportBytes = 256 << 10;
    std::size_t p_ = 0;          // the next byte
    std::size_t line_ = 1;       // 1-based line of p_
    std::size_t line_start_ = 0; // offset of that line's first byte
    int depth_ = 0;

    /// Bytes the fast pass never reads: tabs, control characters but line feeds (and a CR
    /// before one), DEL, NEL (U+0085), LS and PS (U+2028, U+2029) and the BOM (U+FEFF).
    void check_bytes() const {
        const std::size_t n = s_.size();
        constexpr std::uint64_t kOnes = 0x0101010101010101ull, kHighs = 0x8080808080808080ull;
        for (std::size_t i = 0; i < n; ++i) {
            // Eight bytes at a time while none is below 0x20, DEL or above 0x7f.
            while (i + 8 <= n) {
                std::uint64_t w;
                std::memcpy(&w, s_.data() + i, sizeof w);
                const std::uint64_t del = w ^ (0x7f * kOnes);
                if (((w - 0x20 * kOnes) | w | (del - kOnes)) & kHighs) break;
                i += 8;
            }
            if (i >= n) break;
            const auto c = static_cast<unsigned char>(s_[i]);
            if (c >= 0x20 && c < 0x7f) continue;
            if (c == '\n') continue;
            if (c == '\r' && i + 1 < n && s_[i + 1] == '\n') continue;
            if (c < 0x80) unsupported(); // tab, CR alone, other controls, DEL
            if (c == 0xc2 && i + 1 < n && static_cast<unsigned char>(s_[i + 1]) == 0x85) unsupported();
            if (c == 0xe2 && i + 2 < n && static_cast<unsigned char>(s_[i + 1]) == 0x80 &&
                (static_cast<unsigned char>(s_[i + 2]) == 0xa8 || static_cast<unsigned char>(s_[i + 2]) == 0xa9))
                unsupported();
            if (c == 0xef && i + 2 < n && static_cast<unsigned char>(s_[i + 1]) == 0xbb &&
                static_cast<unsigned char>(s_[i + 2]) == 0xbf)
                unsupported();
        }
    }

    char at(std::size_t i) const { return i < s_.size() ? s_[i] : '\n'; } // past the end reads as a break
    char peek() const { return at(p_); }
    bool at_end() const { return p_ >= s_.size(); }
    /// A line break (LF, or the CR of CRLF) or the end of the text at offset i.
    bool is_break(std::size_t i) const { return i >= s_.size() || s_[i] == '\n' || s_[i] == '\r'; }
    bool is_blank(std::size_t i) const { return is_break(i) || s_[i] == ' '; }
    std::size_t column() const { return p_ - line_start_ + 1; }
    /// 0-based column of p_ (its indentation when it is a line's first content).
    int indent() const { return static_cast<int>(p_ - line_start_); }

    /// Moves past a line break at p_ (nothing at the end of the text).
    void eat_break() {
        if (p_ < s_.size() && s_[p_] == '\r') ++p_;
        if (p_ < s_.size() && s_[p_] == '\n') {
            ++p_;
            ++line_;
            line_start_ = p_;
        }
    }
    void skip_spaces() {
        while (p_ < s_.size() && s_[p_] == ' ') ++p_;
    }
    /// Moves to the end of the line (before its break).
    void skip_comment() {
        while (p_ < s_.size() && s_[p_] != '\n' && s_[p_] != '\r') ++p_;
    }
    /// After a value: spaces, a comment after at least one space, the line break.
    void end_line() {
        skip_spaces();
        if (!at_end() && peek() == '#' && p_ > 0 && s_[p_ - 1] == ' ') skip_comment();
        if (!is_break(p_)) unsupported();
        eat_break();
    }

    /// From the start of a line: skips blank and comment lines; returns the indentation of the
    /// next line with content (p_ at its first byte), or −1 at the end of the text.
    int next_content() {
        if (p_ >= next_report_ && progress_) {
            progress_(p_);
            next_report_ = p_ + kReportBytes;
        }
        while (p_ < s_.size()) {
            skip_spaces();
            if (is_break(p_)) {
                if (at_end()) break;
                eat_break();
                continue;
            }
            if (peek() == '#') {
                skip_comment();
                eat_break();
                continue;
            }
            if (p_ == line_start_) {
                // `---`, `...` (document markers) and `%` (directives) start lines only yaml-cpp reads.
                const char c = peek();
                if (c == '%') unsupported();
                if ((c == '-' || c == '.') && at(p_ + 1) == c && at(p_ + 2) == c && is_blank(p_ + 3)) unsupported();
            }
            return indent();
        }
        return -1;
    }
    /// Indentation of the content at p_ (after next_content), or −1 at the end.
    int content_indent() const { return at_end() ? -1 : indent(); }

    /// `-` followed by a blank: a block sequence's entry.
    bool at_dash() const { return peek() == '-' && is_blank(p_ + 1); }

    // -- scalars --

    enum class Stop : std::uint8_t { colon, comment, line_end, flow_end };

    /// The plain scalar at p_ (whose first byte is known to start one): its text, trimmed, and
    /// what ended it; p_ is left at what ended it. Gives up where yaml-cpp might read on.
    std::string_view scan_plain(bool flow, Stop& stop) {
        const std::size_t start = p_;
        std::size_t last = p_; // one past the last byte that is not a space
        std::size_t q = p_;
        const std::size_t n = s_.size();
        stop = Stop::line_end;
        for (; q < n; ++q) {
            const char c = s_[q];
            if (c == '\n' || c == '\r') break;
            if (c == ':') {
                const char d = at(q + 1);
                if (d == ' ' || d == '\n' || d == '\r') {
                    stop = Stop::colon;
                    break;
                }
                if (flow) unsupported(); // `a:b`, `a:,` in flow: leave it to yaml-cpp
            } else if (c == '#') {
                if (s_[q - 1] == ' ') {
                    stop = Stop::comment;
                    break;
                }
            } else if (flow) {
                if (c == ',' || c == ']' || c == '}') {
                    stop = Stop::flow_end;
                    break;
                }
                if (c == '[' || c == '{' || c == '?') unsupported();
            }
            if (c != ' ') last = q + 1;
        }
        p_ = q;
        return s_.substr(start, last - start);
    }

    /// True when the byte at p_ may start a plain scalar here (see YAML 1.2, ns-plain-first).
    bool plain_start(bool flow) const {
        const char c = peek();
        switch (c) {
        case ' ':
        case '\n':
        case '\r':
        case ',':
        case '[':
        case ']':
        case '{':
        case '}':
        case '#':
        case '&':
        case '*':
        case '!':
        case '|':
        case '>':
        case '\'':
        case '"':
        case '%':
        case '@':
        case '`':
        case '?':
        case ':': return false;
        case '-': {
            const char d = at(p_ + 1);
            if (d == ' ' || d == '\n' || d == '\r') return false;
            return !flow || (d != ',' && d != ']' && d != '}' && d != '[' && d != '{' && d != '#');
        }
        default: return true;
        }
    }

    /// The quoted scalar at p_ (on one line, no backslash); p_ moves past its closing quote.
    std::uint32_t quoted() {
        const std::size_t line = line_, col = column();
        const char quote = peek();
        const std::size_t start = p_ + 1;
        bool doubled = false; // '' inside single quotes
        std::size_t q = start;
        for (;; ++q) {
            if (q >= s_.size()) unsupported();
            const char c = s_[q];
            if (c == '\n' || c == '\r' || (quote == '"' && c == '\\')) unsupported();
            if (c != quote) continue;
            if (quote == '\'' && at(q + 1) == '\'') {
                doubled = true;
                ++q;
                continue;
            }
            break;
        }
        p_ = q + 1;
        const std::string_view text = s_.substr(start, q - start);
        if (!doubled)
            return add(NodeKind::scalar, line, col, static_cast<std::uint32_t>(start),
                       static_cast<std::uint32_t>(text.size()));
        std::string unquoted;
        for (std::size_t i = 0; i < text.size(); ++i) {
            unquoted += text[i];
            if (text[i] == '\'') ++i;
        }
        return add_side_scalar(unquoted, line, col, false);
    }

    /// A node for the plain scalar `text` that starts at line, col.
    std::uint32_t plain_node(std::string_view text, std::size_t line, std::size_t col) {
        if (is_null_word(text)) return add(NodeKind::null, line, col);
        return add(NodeKind::scalar, line, col, static_cast<std::uint32_t>(text.data() - s_.data()),
                   static_cast<std::uint32_t>(text.size()), kPlainBit);
    }

    /// Gives up when a plain scalar that ended with its line could go on on the next one: the
    /// next line that is not blank is indented more than `top` (the innermost block
    /// collection's indentation).
    void refuse_continuation(int top) const {
        std::size_t q = p_;
        const std::size_t n = s_.size();
        while (q < n) {
            if (s_[q] == '\r') ++q;
            if (q < n && s_[q] == '\n') ++q;
            const std::size_t start = q;
            while (q < n && s_[q] == ' ') ++q;
            if (q >= n) return;
            if (s_[q] == '\n' || s_[q] == '\r') continue; // a blank line
            if (static_cast<int>(q - start) > top) unsupported();
            return;
        }
    }

    // -- keys --

    /// True when the line at p_ holds `key:` (a plain or quoted one-line key, then a colon
    /// and a blank). Moves nothing.
    bool at_key() {
        const std::size_t save_p = p_;
        bool key = false;
        if (peek() == '"' || peek() == '\'') {
            const char quote = peek();
            std::size_t q = p_ + 1;
            while (q < s_.size() && s_[q] != quote && s_[q] != '\n' && s_[q] != '\r') {
                if (quote == '\'' && s_[q] == '\'' && at(q + 1) == '\'') ++q;
                ++q;
            }
            key = q < s_.size() && s_[q] == quote && at(q + 1) == ':' && is_blank(q + 2);
        } else if (plain_start(false)) {
            Stop stop;
            scan_plain(false, stop);
            key = stop == Stop::colon;
        }
        p_ = save_p;
        return key;
    }

    /// The key at p_ (at_key() is true); p_ moves past its colon.
    std::uint32_t key() {
        if (peek() == '"' || peek() == '\'') {
            const std::uint32_t k = quoted();
            ++p_; // the colon
            return k;
        }
        const std::size_t line = line_, col = column();
        Stop stop;
        const std::string_view text = scan_plain(false, stop);
        // "a : b" (a space before the colon), "<<" (a merge key) and long keys: yaml-cpp's.
        if (text.data() + text.size() != s_.data() + p_ || text == "<<" || text.size() > kMaxKeyBytes) unsupported();
        ++p_; // the colon
        return plain_node(text, line, col);
    }

    // -- block collections --

    struct Depth {
        explicit Depth(int& d) : depth(d) {
            if (++depth > kMaxDepth) unsupported();
        }
        ~Depth() { --depth; }
        int& depth;
    };

    /// The block mapping whose first key is at p_, indented `m`. Returns with p_ at the next
    /// content line indented less (or at the end).
    std::uint32_t block_map(int m) {
        const Depth depth(depth_);
        const std::uint32_t node = add(NodeKind::map, line_, column());
        const std::size_t base = open();
        for (;;) {
            pend(key());
            skip_spaces();
            if (is_break(p_) || peek() == '#') {
                end_line();
                pend(block_value(m, true));
            } else {
                pend(inline_value(m));
                end_line();
                next_content();
            }
            const int next = content_indent();
            if (next < m) break;
            if (next > m || !at_key()) unsupported();
        }
        close(node, base);
        return node;
    }

    /// The block sequence whose first `-` is at p_, indented `m`; `indentless` when it stands
    /// at its key's indentation (it ends at a line there that is not an entry).
    std::uint32_t block_sequence(int m, bool indentless) {
        const Depth depth(depth_);
        const std::uint32_t node = add(NodeKind::sequence, line_, column());
        const std::size_t base = open();
        for (;;) {
            ++p_; // the dash
            skip_spaces();
            if (is_break(p_) || peek() == '#') {
                end_line();
                pend(block_value(m, false));
            } else if (at_dash()) {
                unsupported(); // `- - a`: yaml-cpp's
            } else if (at_key()) {
                pend(block_map(indent()));
            } else {
                pend(inline_value(m));
                end_line();
                next_content();
            }
            const int next = content_indent();
            if (next < m) break;
            if (next > m) unsupported();
            if (!at_dash()) {
                if (indentless) break;
                unsupported();
            }
        }
        close(node, base);
        return node;
    }

    /// The value of a key or entry at indentation `m` written on the lines after it (p_ at the
    /// start of the next line): a nested block collection, a scalar or flow node on its own
    /// line, or null. `indentless`: a sequence at indentation m belongs to it (a key's value).
    std::uint32_t block_value(int m, bool indentless) {
        const std::size_t line = line_, col = column();
        const int next = next_content();
        if (next < 0 || next < m || (next == m && !(indentless && at_dash()))) return add(NodeKind::null, line, col);
        if (next == m) return block_sequence(m, true);
        if (at_dash()) return block_sequence(next, false);
        if (at_key()) return block_map(next);
        const std::uint32_t v = inline_value(m);
        end_line();
        next_content();
        return v;
    }

    /// A scalar or flow collection at p_ in block context, inside a block collection indented
    /// `top`; the rest of its line is left to the caller.
    std::uint32_t inline_value(int top) {
        const char c = peek();
        if (c == '{') return flow_map(top);
        if (c == '[') return flow_sequence(top);
        if (c == '"' || c == '\'') {
            const std::uint32_t q = quoted();
            std::size_t after = p_;
            while (after < s_.size() && s_[after] == ' ') ++after;
            if (at(after) == ':') unsupported(); // a key where a value should be
            return q;
        }
        if (!plain_start(false)) unsupported();
        const std::size_t line = line_, col = column();
        Stop stop;
        const std::string_view text = scan_plain(false, stop);
        if (stop == Stop::colon) unsupported(); // `a: b: c` and the like
        if (stop == Stop::line_end) refuse_continuation(top);
        return plain_node(text, line, col);
    }

    // -- flow collections --

    /// Skips spaces, line breaks and comments inside a flow collection; gives up on a line
    /// that is not indented more than `top`.
    void skip_flow_space(int top) {
        for (;;) {
            skip_spaces();
            if (p_ < s_.size() && s_[p_] == '#' && (p_ == 0 || s_[p_ - 1] == ' ' || s_[p_ - 1] == '\n')) skip_comment();
            if (at_end()) return;
            if (s_[p_] != '\n' && s_[p_] != '\r') return;
            eat_break();
            const std::size_t start = p_;
            skip_spaces();
            if (!is_break(p_) && peek() != '#' && static_cast<int>(p_ - start) <= top) unsupported();
            p_ = start;
        }
    }

    /// A node inside a flow collection.
    std::uint32_t flow_node(int top) {
        const char c = peek();
        if (c == '{') return flow_map(top);
        if (c == '[') return flow_sequence(top);
        if (c == '"' || c == '\'') return quoted();
        if (!plain_start(true)) unsupported();
        const std::size_t line = line_, col = column();
        Stop stop;
        const std::string_view text = scan_plain(true, stop);
        if (stop == Stop::line_end) {
            // Ends with its line: only when what follows closes it (`,`, `]`, `}`).
            std::size_t q = p_;
            while (q < s_.size() && (s_[q] == ' ' || s_[q] == '\n' || s_[q] == '\r')) ++q;
            if (q >= s_.size() || (s_[q] != ',' && s_[q] != ']' && s_[q] != '}')) unsupported();
        }
        return plain_node(text, line, col);
    }

    std::uint32_t flow_map(int top) {
        const Depth depth(depth_);
        const std::uint32_t node = add(NodeKind::map, line_, column());
        const std::size_t base = open();
        ++p_; // {
        skip_flow_space(top);
        if (peek() == '}' && !at_end()) {
            ++p_;
            close(node, base);
            return node;
        }
        for (;;) {
            const char c = peek();
            if (at_end() || c == '{' || c == '[') unsupported();
            std::uint32_t k = 0;
            if (c == '"' || c == '\'') {
                k = quoted();
                if (peek() != ':' || !is_blank(p_ + 1)) unsupported();
            } else {
                if (!plain_start(true)) unsupported();
                const std::size_t line = line_, col = column();
                Stop stop;
                const std::string_view text = scan_plain(true, stop);
                if (stop != Stop::colon || text.data() + text.size() != s_.data() + p_ || text == "<<" ||
                    text.size() > kMaxKeyBytes)
                    unsupported();
                k = plain_node(text, line, col);
            }
            ++p_; // the colon
            pend(k);
            skip_flow_space(top);
            if (at_end()) unsupported();
            if (peek() == ',' || peek() == '}')
                pend(add(NodeKind::null, line_, column()));
            else
                pend(flow_node(top));
            skip_flow_space(top);
            if (at_end()) unsupported();
            if (peek() == '}') {
                ++p_;
                break;
            }
            if (peek() != ',') unsupported();
            ++p_;
            skip_flow_space(top);
            if (at_end() || peek() == '}' || peek() == ',') unsupported(); // a trailing or doubled comma
        }
        close(node, base);
        return node;
    }

    std::uint32_t flow_sequence(int top) {
        const Depth depth(depth_);
        const std::uint32_t node = add(NodeKind::sequence, line_, column());
        const std::size_t base = open();
        ++p_; // [
        skip_flow_space(top);
        if (peek() == ']' && !at_end()) {
            ++p_;
            close(node, base);
            return node;
        }
        for (;;) {
            if (at_end()) unsupported();
            pend(flow_node(top));
            skip_flow_space(top);
            if (at_end()) unsupported();
            if (peek() == ']') {
                ++p_;
                break;
            }
            if (peek() != ',') unsupported(); // `[a: b]` (a pair) and anything else
            ++p_;
            skip_flow_space(top);
            if (at_end() || peek() == ']' || peek() == ',') unsupported();
        }
        close(node, base);
        return node;
    }
};

// ---- yaml-cpp's event parser ------------------------------------------------------------------

namespace {

/// Builds the tree from yaml-cpp's events, as YAML::Load's NodeBuilder builds its nodes: an
/// alias is the anchored node itself.
class EventTreeBuilder : public YAML::EventHandler, TreeBuilder {
public:
    explicit EventTreeBuilder(YamlTree& tree) : TreeBuilder(tree) {}

    void OnDocumentStart(const YAML::Mark&) override {}
    void OnDocumentEnd() override {}
    void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
        place(add(NodeKind::null, line(mark), column(mark)), anchor);
    }
    void OnAlias(const YAML::Mark&, YAML::anchor_t anchor) override {
        const auto it = anchors_.find(anchor);
        if (it != anchors_.end()) place(it->second, 0);
    }
    void OnScalar(const YAML::Mark& mark, const std::string& tag, YAML::anchor_t anchor,
                  const std::string& value) override {
        place(add_side_scalar(value, line(mark), column(mark), tag == "?"), anchor);
    }
    void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                         YAML::EmitterStyle::value) override {
        start(NodeKind::sequence, mark, anchor);
    }
    void OnSequenceEnd() override { finish(); }
    void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                    YAML::EmitterStyle::value) override {
        start(NodeKind::map, mark, anchor);
    }
    void OnMapEnd() override { finish(); }

private:
    struct Open {
        std::uint32_t node;
        std::size_t base;
    };
    std::vector<Open> open_;
    std::map<YAML::anchor_t, std::uint32_t> anchors_;

    static std::size_t line(const YAML::Mark& m) { return m.is_null() ? 0 : static_cast<std::size_t>(m.line) + 1; }
    static std::size_t column(const YAML::Mark& m) { return m.is_null() ? 0 : static_cast<std::size_t>(m.column) + 1; }
    void remember(std::uint32_t node, YAML::anchor_t anchor) {
        if (anchor != 0) anchors_[anchor] = node;
    }
    /// A finished node: the root, or the next child of the open collection.
    void place(std::uint32_t node, YAML::anchor_t anchor) {
        remember(node, anchor);
        if (open_.empty())
            set_root(node);
        else
            pend(node);
    }
    void start(NodeKind kind, const YAML::Mark& mark, YAML::anchor_t anchor) {
        const std::uint32_t node = add(kind, line(mark), column(mark));
        remember(node, anchor);
        open_.push_back({node, open()});
    }
    void finish() {
        const Open o = open_.back();
        open_.pop_back();
        close(o.node, o.base);
        if (open_.empty())
            set_root(o.node);
        else
            pend(o.node);
    }
};

} // namespace

YamlTree parse_yaml_with_yaml_cpp(std::string_view text) {
    YamlTree tree;
    tree.source_ = text;
    tree.from_yaml_cpp_ = true;
    std::stringstream stream{std::string(text)}; // as YAML::Load(std::string) reads it
    YAML::Parser parser(stream);
    EventTreeBuilder builder(tree);
    parser.HandleNextDocument(builder);
    return tree;
}

YamlTree parse_yaml(std::string_view text, const std::function<void(std::size_t)>& progress) {
    {
        YamlTree tree;
        tree.source_ = text;
        if (FastYamlParser(text, tree, progress).parse()) return tree;
    }
    YamlTree tree = parse_yaml_with_yaml_cpp(text);
    if (progress) progress(text.size());
    return tree;
}

} // namespace collide::reader
