#pragma once
/// \file
/// A YAML document as the scenario reader sees it: one flat array of small nodes (16 bytes
/// each: kind, 1-based line and column, and either a scalar's place in the text or a
/// collection's children), scalars as views into the scenario text itself. No node, string or
/// map is allocated per scalar, which is what made loading yaml-cpp node trees slow and big.
///
/// parse_yaml() reads the grammar scenarios are written in — block mappings and sequences,
/// flow `{ }` and `[ ]` collections, plain and quoted one-line scalars, comments — in one pass
/// over the text. Anything else YAML allows (anchors and aliases, tags, block scalars,
/// multi-line plain or quoted scalars, escapes, tabs, directives, document markers, complex
/// keys) and every syntax error is handed whole to yaml-cpp's event parser (YAML::Parser with
/// an EventHandler), which builds the same tree, or throws the YAML::Exception that names the
/// error. So the tree, its marks and every error are exactly yaml-cpp's (the test
/// tests/scenario/yaml_tree_test.cpp compares the two on every scenario, fixture and fuzzed
/// variant). Internal to the scenario loader.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "model/diagnostic.h"

namespace collide::reader {

/// What a node is.
enum class NodeKind : std::uint8_t {
    undefined, ///< no node (an item past the end of a sequence)
    null,      ///< empty, `~` or `null`
    scalar,    ///< text
    sequence,  ///< a list
    map,       ///< a mapping; its children are key, value, key, value, …
};

class YamlTree;

/// A node of a YamlTree: a handle (the tree and an index), cheap to copy. The tree must
/// outlive it, and the text the tree was parsed from too.
class Node {
public:
    /// An undefined node.
    Node() = default;
    /// What the node is.
    NodeKind kind() const;
    /// False for the undefined node.
    bool is_defined() const { return kind() != NodeKind::undefined; }
    /// Empty, `~`, `null`, `Null` or `NULL` (unquoted).
    bool is_null() const { return kind() == NodeKind::null; }
    /// Text (quoted or not).
    bool is_scalar() const { return kind() == NodeKind::scalar; }
    /// A list.
    bool is_sequence() const { return kind() == NodeKind::sequence; }
    /// A mapping.
    bool is_map() const { return kind() == NodeKind::map; }
    /// A scalar's text (after unquoting); empty for any other node.
    std::string_view scalar() const;
    /// True for a scalar written without quotes and without a tag (yaml-cpp's tag "?"), which
    /// alone may be read as a number, a boolean or null.
    bool is_plain() const;
    /// Where the node was written (1-based; a mapping: its first key, or its `{`).
    SourceMark mark() const;
    /// Items of a sequence, pairs of a mapping; 0 for anything else.
    std::size_t size() const;
    /// Item `i` of a sequence; undefined past its end or for anything else.
    Node operator[](std::size_t i) const;
    /// The key of pair `i` of a mapping (i < size()).
    Node key(std::size_t i) const;
    /// The value of pair `i` of a mapping (i < size()).
    Node value(std::size_t i) const;

private:
    friend class YamlTree;
    Node(const YamlTree* tree, std::uint32_t index) : tree_(tree), index_(index) {}
    const YamlTree* tree_ = nullptr;
    std::uint32_t index_ = 0;
};

/// A parsed document: its nodes and the texts of scalars that are not plain slices of the
/// source (unquoted '' in single quotes, scalars from yaml-cpp). Movable, not copyable.
class YamlTree {
public:
    /// One node, 16 bytes.
    struct Item {
        std::uint32_t line = 0;   ///< 1-based
        std::uint32_t column = 0; ///< 1-based, in bytes; the top 4 bits hold the kind and plainness
        std::uint32_t first = 0;  ///< scalar: byte offset of its text (in the source or the side text);
                                  ///< collection: index of its first child in `children`
        std::uint32_t count = 0;  ///< scalar: length; sequence: items; map: pairs
    };
    YamlTree() = default;
    YamlTree(YamlTree&&) noexcept = default;
    YamlTree& operator=(YamlTree&&) noexcept = default;
    YamlTree(const YamlTree&) = delete;
    YamlTree& operator=(const YamlTree&) = delete;

    /// The document's root: undefined when the text holds no document.
    Node root() const { return has_root_ ? Node(this, root_) : Node(); }
    /// True when yaml-cpp built the tree (the text was outside the fast grammar).
    bool from_yaml_cpp() const { return from_yaml_cpp_; }
    /// Nodes in the tree.
    std::size_t node_count() const { return items_.size(); }
    /// Bytes the tree holds (nodes, children, side text), for measurements.
    std::size_t bytes() const;

private:
    friend class Node;
    friend class FastYamlParser;
    friend class TreeBuilder;
    friend YamlTree parse_yaml(std::string_view text, const std::function<void(std::size_t offset)>& progress);
    friend YamlTree parse_yaml_with_yaml_cpp(std::string_view text);
    std::string_view source_;
    std::string side_;                   // texts of scalars that are not slices of source_
    std::vector<Item> items_;            // every node
    std::vector<std::uint32_t> children; // each collection's children, contiguous
    std::uint32_t root_ = 0;
    bool has_root_ = false;
    bool from_yaml_cpp_ = false;
};

// ---- Node, inline ------------------------------------------------------------------------------

namespace yaml_tree_detail {
inline constexpr std::uint32_t kColumnMask = (1u << 28) - 1; // bits 0–27: the column
inline constexpr int kKindShift = 28;                        // bits 28–29: the kind (null, scalar, sequence, map)
inline constexpr std::uint32_t kSideBit = 1u << 30;          // the scalar's text is in the side text
inline constexpr std::uint32_t kPlainBit = 1u << 31;         // the scalar was written plain
} // namespace yaml_tree_detail

inline NodeKind Node::kind() const {
    if (!tree_) return NodeKind::undefined;
    return static_cast<NodeKind>(((tree_->items_[index_].column >> yaml_tree_detail::kKindShift) & 3u) + 1);
}

inline std::string_view Node::scalar() const {
    if (kind() != NodeKind::scalar) return {};
    const YamlTree::Item& it = tree_->items_[index_];
    const std::string_view base =
            (it.column & yaml_tree_detail::kSideBit) ? std::string_view(tree_->side_) : tree_->source_;
    return base.substr(it.first, it.count);
}

inline bool Node::is_plain() const {
    return kind() == NodeKind::scalar && (tree_->items_[index_].column & yaml_tree_detail::kPlainBit);
}

inline SourceMark Node::mark() const {
    if (!tree_) return {};
    const YamlTree::Item& it = tree_->items_[index_];
    return {static_cast<int>(it.line), static_cast<int>(it.column & yaml_tree_detail::kColumnMask)};
}

inline std::size_t Node::size() const {
    const NodeKind k = kind();
    return k == NodeKind::sequence || k == NodeKind::map ? tree_->items_[index_].count : 0;
}

inline Node Node::operator[](std::size_t i) const {
    if (kind() != NodeKind::sequence || i >= size()) return {};
    return {tree_, tree_->children[tree_->items_[index_].first + i]};
}

inline Node Node::key(std::size_t i) const {
    if (kind() != NodeKind::map || i >= size()) return {};
    return {tree_, tree_->children[tree_->items_[index_].first + 2 * i]};
}

inline Node Node::value(std::size_t i) const {
    if (kind() != NodeKind::map || i >= size()) return {};
    return {tree_, tree_->children[tree_->items_[index_].first + 2 * i + 1]};
}

/// Parses the first document of `text` (which must outlive the tree): in one fast pass when
/// it keeps to the grammar above, else with yaml-cpp's event parser. Throws YAML::Exception
/// (with its mark) for a syntax error, as YAML::Load does. `progress`, when given, is told
/// the offset reached every 256 KiB of the fast pass.
YamlTree parse_yaml(std::string_view text, const std::function<void(std::size_t offset)>& progress = {});

/// parse_yaml() without the fast pass: always yaml-cpp's event parser (for tests and the
/// benchmark's baseline).
YamlTree parse_yaml_with_yaml_cpp(std::string_view text);

} // namespace collide::reader
