// The reader's YAML tree (scenario/yaml_tree.h): the one-pass parser builds, node for node, the
// tree yaml-cpp builds (kinds, texts, plain or quoted, marks), hands anything outside its
// grammar to yaml-cpp's event parser, and never accepts what yaml-cpp refuses. The oracle is
// YAML::Load itself.
#include <catch2/catch.hpp>

#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include <yaml-cpp/yaml.h>

#include "scenario/yaml_tree.h"
#include "support/project_dir.h"

using namespace collide::reader;

namespace {

/// "" when `fast` is the tree yaml-cpp built, else where they first differ. Null nodes' marks
/// are not compared (the reader never reads them: mark_of gives a null node its key's mark).
std::string difference(const YAML::Node& y, Node n, int depth = 0) {
    const auto where = [&](const std::string& what) {
        return what + " at " + std::to_string(y.Mark().line + 1) + ":" + std::to_string(y.Mark().column + 1);
    };
    if (depth > 80) return {}; // an alias cycle: enough compared
    if (y.IsNull()) return n.is_null() ? std::string() : where("a null node that is not null");
    if (y.Mark().line + 1 != n.mark().line || y.Mark().column + 1 != n.mark().column)
        return where("a node marked " + std::to_string(n.mark().line) + ":" + std::to_string(n.mark().column));
    if (y.IsScalar()) {
        if (!n.is_scalar()) return where("a scalar that is not one");
        if (y.Scalar() != n.scalar()) return where("scalar '" + std::string(n.scalar()) + "' for '" + y.Scalar() + "'");
        if ((y.Tag() == "?") != n.is_plain()) return where("a scalar of the wrong plainness");
        return {};
    }
    if (y.IsSequence()) {
        if (!n.is_sequence() || n.size() != y.size()) return where("a sequence that differs");
        for (std::size_t i = 0; i < y.size(); ++i)
            if (std::string d = difference(y[i], n[i], depth + 1); !d.empty()) return d;
        return {};
    }
    if (!y.IsMap() || !n.is_map() || n.size() != y.size()) return where("a mapping that differs");
    std::size_t i = 0;
    for (auto it = y.begin(); it != y.end(); ++it, ++i) {
        if (std::string d = difference(it->first, n.key(i), depth + 1); !d.empty()) return d;
        if (std::string d = difference(it->second, n.value(i), depth + 1); !d.empty()) return d;
    }
    return {};
}

/// What parsing `text` both ways gave, compared: "" when they agree (both the same tree, or
/// both the same syntax error).
std::string compare(const std::string& text) {
    YAML::Node expected;
    std::string expected_error;
    try {
        expected = YAML::Load(text);
    } catch (const YAML::Exception& e) {
        expected_error = e.what();
    }
    try {
        const YamlTree tree = parse_yaml(text);
        if (!expected_error.empty()) return "accepted what yaml-cpp refuses: " + expected_error;
        const Node root = tree.root();
        if (!root.is_defined()) return expected.IsNull() ? std::string() : "no document, but yaml-cpp has one";
        return difference(expected, root);
    } catch (const YAML::Exception& e) {
        return expected_error == e.what() ? std::string() : "refused with '" + std::string(e.what()) + "'";
    }
}

std::vector<std::string> files_in(const std::string& folder) {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(std::string(COLLIDE_SOURCE_DIR) + "/" + folder))
        if (e.path().extension() == ".yaml") out.push_back(e.path().string());
    std::sort(out.begin(), out.end());
    return out;
}

} // namespace

TEST_CASE("the tree of a small document: kinds, texts, quoting and marks", "[scenario][yaml]") {
    const std::string text = "a: [1, 'x y', \"z\"]\n"
                             "b:\n"
                             "  - ~\n"
                             "  - { c: d,  e: }\n"
                             "f: it''s # a comment\n"
                             "'g': 'it''s'\n";
    const YamlTree tree = parse_yaml(text);
    CHECK_FALSE(tree.from_yaml_cpp());
    const Node root = tree.root();
    REQUIRE(root.is_map());
    REQUIRE(root.size() == 4);
    CHECK(root.mark().line == 1);
    CHECK(root.mark().column == 1);
    const Node a = root.value(0);
    REQUIRE(a.is_sequence());
    CHECK(a.size() == 3);
    CHECK(a.mark().column == 4);
    CHECK(a[0].scalar() == "1");
    CHECK(a[0].is_plain());
    CHECK(a[0].mark().column == 5);
    CHECK(a[1].scalar() == "x y");
    CHECK_FALSE(a[1].is_plain());
    CHECK(a[1].mark().column == 8);
    CHECK(a[2].scalar() == "z");
    CHECK(a[2].mark().column == 15);
    CHECK_FALSE(a[3].is_defined());
    const Node b = root.value(1);
    REQUIRE(b.is_sequence());
    CHECK(b.mark().line == 3);
    CHECK(b.mark().column == 3);
    CHECK(b[0].is_null());
    const Node m = b[1];
    REQUIRE(m.is_map());
    CHECK(m.mark().line == 4);
    CHECK(m.mark().column == 5);
    CHECK(m.key(0).scalar() == "c");
    CHECK(m.value(0).scalar() == "d");
    CHECK(m.value(0).mark().column == 10);
    CHECK(m.key(1).scalar() == "e");
    CHECK(m.value(1).is_null());
    CHECK(root.value(2).scalar() == "it''s"); // plain: '' is two quotes
    CHECK(root.key(3).scalar() == "g");
    CHECK_FALSE(root.key(3).is_plain());
    CHECK(root.value(3).scalar() == "it's"); // single-quoted: '' is one
    CHECK(compare(text).empty());
}

TEST_CASE("every shipped scenario and fixture is read in the fast pass, as yaml-cpp reads it", "[scenario][yaml]") {
    std::vector<std::string> files = files_in("scenarios");
    for (const std::string& f : files_in("tests/scenario/fixtures")) files.push_back(f);
    for (const std::string& f : files_in("fuzz/corpus")) files.push_back(f);
    REQUIRE(files.size() > 30);
    for (const std::string& file : files) {
        INFO(file);
        const std::string text = collide::test::read_text(file);
        CHECK(compare(text).empty());
        if (file.find("fixtures/broken") == std::string::npos) CHECK_FALSE(parse_yaml(text).from_yaml_cpp());
    }
}

TEST_CASE("YAML outside the fast grammar goes to yaml-cpp and gives its tree", "[scenario][yaml]") {
    const std::vector<std::string> texts = {
            "a: &x [1, 2]\nb: *x\n",      // anchor and alias
            "a: !!str 5\n",               // a tag
            "about: |\n  two\n  lines\n", // a block scalar
            "about: one\n  and more\n",   // a plain scalar over two lines
            "a:\t1\n",                    // a tab
            "---\na: 1\n",                // a document marker
            "a: \"x\\ty\"\n",             // an escape
            "a: \"over\n  two lines\"\n", // a quoted scalar over two lines
            "? a\n: 1\n",                 // a complex key
            "a: { b: 1, }\n",             // a trailing comma
            "a: [b: 1]\n",                // a pair in a flow sequence
            "<<: { a: 1 }\n",             // a merge key
            "\xef\xbb\xbf"
            "a: 1\n",                 // a BOM
            "a: {b: 1\n}\n",          // a flow line not indented
            "%YAML 1.2\n---\na: 1\n", // a directive
    };
    for (const std::string& text : texts) {
        INFO(text);
        CHECK(parse_yaml(text).from_yaml_cpp());
        CHECK(compare(text).empty());
    }
}

TEST_CASE("syntax errors are yaml-cpp's, with its message and mark", "[scenario][yaml]") {
    for (const std::string text : {"a: [1, 2\n", "a: b: c\n", "a: 1\n b: 2\n", "{a: 1}}\n", "a: {b\n"}) {
        INFO(text);
        CHECK_THROWS_AS(parse_yaml(text), YAML::Exception);
        CHECK(compare(text).empty());
    }
}

TEST_CASE("CRLF line ends, comments and blank lines read as yaml-cpp reads them", "[scenario][yaml]") {
    const std::string text = "# head\r\nname: x\r\n\r\nworld: { rate: 60,  # rate\r\n         frames: 2 }\r\nlog:\r\n"
                             "- final: { body: b }\r\n  label: a b  \r\n";
    CHECK_FALSE(parse_yaml(text).from_yaml_cpp());
    CHECK(compare(text).empty());
}

TEST_CASE("fuzzed variants of the shipped scenarios: the fast pass never disagrees with yaml-cpp", "[scenario][yaml]") {
    // Deterministic mutations (characters and pieces of YAML inserted, removed or replaced,
    // lines duplicated or re-indented); whenever the fast pass accepts one, yaml-cpp must read
    // the same tree, and when yaml-cpp refuses it the error must be yaml-cpp's.
    std::vector<std::string> seeds;
    for (const std::string& f : files_in("scenarios")) seeds.push_back(collide::test::read_text(f));
    const std::string alphabet = " \n:,-[]{}#'\"~a1.$x?&*!|>%@`<";
    const std::vector<std::string> pieces = {": ",  ", ",   "- ",  "\n  ", "\n",   "{ ", " }",    "[",    "]",
                                             "'",   "\"",   "# c", "~",    "null", "''", "a: b",  "\n- ", ":",
                                             " #x", "\r\n", "é",   "x:y",  "- - ", "? ", "---\n", "-1"};
    std::mt19937_64 rng(20);
    int fast = 0;
    for (int iteration = 0; iteration < 4000; ++iteration) {
        std::string s = seeds[rng() % seeds.size()];
        for (int k = 1 + static_cast<int>(rng() % 3); k > 0; --k) {
            const std::size_t at = rng() % (s.size() + 1);
            switch (rng() % 5) {
            case 0: s.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
            case 1: s.erase(at, 1 + rng() % 3); break;
            case 2: s.insert(at, pieces[rng() % pieces.size()]); break;
            case 3: {
                const std::size_t start = s.rfind('\n', at) == std::string::npos ? 0 : s.rfind('\n', at) + 1;
                s.insert(start, std::string(1 + rng() % 3, ' '));
                break;
            }
            default: {
                const std::size_t start = s.rfind('\n', at) == std::string::npos ? 0 : s.rfind('\n', at) + 1;
                std::size_t end = s.find('\n', at);
                end = end == std::string::npos ? s.size() : end + 1;
                s.insert(end, s.substr(start, end - start));
            }
            }
        }
        const std::string d = compare(s);
        if (!d.empty()) {
            INFO(s);
            FAIL(d);
        }
        try {
            if (!parse_yaml(s).from_yaml_cpp()) ++fast;
        } catch (const YAML::Exception&) {}
    }
    CHECK(fast > 500); // the fast pass took a good share of them
}
