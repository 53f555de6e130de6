// Diff rendering: names the scenario and the golden line, shows expected and actual lines and
// each value that moved (full precision, difference, tolerance, printed digits), trims unchanged
// context, colours only when asked.
#include <catch2/catch.hpp>

#include <limits>

#include "report/diff.h"

using namespace collide;

TEST_CASE("a diff names the scenario, the line, both lines and the value that moved") {
    auto r = compare_logs("a → 1.000 m\nb → 0.500 m\nc → 3.000 m\n", "a → 1.000 m\nb → 0.512 m\nc → 3.000 m\n");
    ValueDiff d;
    d.key = "b.y";
    d.expected = 0.5;
    d.actual = 0.51234;
    d.diff = 0.01234;
    d.allowed = 1e-9;
    d.printed = "0.500 → 0.512 (digits from the 2nd decimal change)";
    r.changes[0].values.push_back(d);
    const std::string text = render_diff("drop", "scenarios/drop.yaml", "expected/drop.log", r);
    CHECK(text == "scenario drop (scenarios/drop.yaml vs expected/drop.log)\n"
                  "@@ line 2 @@\n"
                  "  a → 1.000 m\n"
                  "- b → 0.500 m\n"
                  "+ b → 0.512 m\n"
                  "  b.y: expected 0.5, actual 0.51234 (diff 0.0123 > 1e-09: absolute 1e-09, relative 1e-09); "
                  "0.500 → 0.512 (digits from the 2nd decimal change)\n"
                  "  c → 3.000 m\n");
}

TEST_CASE("unchanged context is trimmed to two lines around each change") {
    std::string golden, actual;
    for (int i = 1; i <= 20; ++i) {
        golden += "e" + std::to_string(i) + " → " + std::to_string(i) + "\n";
        actual += "e" + std::to_string(i) + " → " + std::to_string(i == 10 ? 100 : i) + "\n";
    }
    const std::string text = render_diff("n", "s.yaml", "n.log", compare_logs(golden, actual));
    CHECK(text == "scenario n (s.yaml vs n.log)\n"
                  "@@ line 10 @@\n"
                  "  e8 → 8\n"
                  "  e9 → 9\n"
                  "- e10 → 10\n"
                  "+ e10 → 100\n"
                  "  e11 → 11\n"
                  "  e12 → 12\n");
}

TEST_CASE("added and removed lines show with + and - only, at the golden's line number") {
    const auto r = compare_logs("a → 1\nb → 2\nc → 3\n", "a → 1\nc → 3\nd → 4\n");
    const std::string text = render_diff("x", "x.yaml", "x.log", r, DiffStyle{false, 1});
    CHECK(text == "scenario x (x.yaml vs x.log)\n"
                  "@@ lines 2-3 @@\n"
                  "  a → 1\n"
                  "- b → 2\n"
                  "  c → 3\n"
                  "+ d → 4\n");
}

TEST_CASE("colour appears only when asked for") {
    const auto r = compare_logs("a → 1\n", "a → 2\n");
    CHECK(render_diff("x", "x.yaml", "x.log", r).find('\x1b') == std::string::npos);
    const std::string coloured = render_diff("x", "x.yaml", "x.log", r, DiffStyle{true, 2});
    CHECK(coloured.find("\x1b[31m- a → 1\x1b[0m") != std::string::npos);
    CHECK(coloured.find("\x1b[32m+ a → 2\x1b[0m") != std::string::npos);
}

TEST_CASE("values that no line prints are listed under @@ values @@; review shows values without a tolerance") {
    GoldenComparison r;
    ValueDiff gone;
    gone.kind = ValueDiff::removed;
    gone.key = "old.x";
    gone.expected = 2;
    ValueDiff moved;
    moved.key = "a.t";
    moved.expected = 0.25;
    moved.actual = std::numeric_limits<double>::quiet_NaN();
    moved.diff = std::numeric_limits<double>::infinity();
    moved.has_tolerance = false;
    r.values = r.unplaced = {gone, moved};
    CHECK(render_diff("x", "x.yaml", "x.log", r) == "scenario x (x.yaml vs x.log)\n"
                                                    "@@ values @@\n"
                                                    "  old.x: no longer logged (the golden has 2)\n"
                                                    "  a.t: 0.25 → none (diff inf)\n");
}

TEST_CASE("a golden line with an escape or bidi control is shown escaped; only the diff's own colours are sent") {
    const auto r = compare_logs("a → 1.000 m\x1b[2J\nb \u202e→ 0.500 m\n", "a → 1.000 m\nb → 0.500 m\n");
    const std::string plain = render_diff("x", "s/x.yaml", "e/x.log", r);
    CHECK(plain.find('\x1b') == std::string::npos);
    CHECK(plain.find("- a → 1.000 m\\x1b[2J\n") != std::string::npos);
    CHECK(plain.find("- b \\u202e→ 0.500 m\n") != std::string::npos);
    DiffStyle color;
    color.color = true;
    const std::string painted = render_diff("x", "s/x.yaml", "e/x.log", r, color);
    CHECK(painted.find("\x1b[2J") == std::string::npos);
    CHECK(painted.find("\x1b[31m- a → 1.000 m\\x1b[2J\x1b[0m\n") != std::string::npos);
}
