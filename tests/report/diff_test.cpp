// Diff rendering: names the scenario and the golden line, shows expected and actual lines and
// each number that moved, trims unchanged context, colours only when asked.
#include <catch2/catch.hpp>

#include "report/diff.h"

using namespace collide;

TEST_CASE("a diff names the scenario, the line, both lines and the number that moved") {
    const auto r = compare_logs("a → 1.000 m\nb → 0.500 m\nc → 3.000 m\n", "a → 1.000 m\nb → 0.512 m\nc → 3.000 m\n",
                                Tolerance{});
    const std::string text = render_diff("drop", "scenarios/drop.yaml", "expected/drop.log", r);
    CHECK(text == "scenario drop (scenarios/drop.yaml vs expected/drop.log)\n"
                  "@@ line 2 @@\n"
                  "  a → 1.000 m\n"
                  "- b → 0.500 m\n"
                  "+ b → 0.512 m\n"
                  "  number 1: expected 0.500, actual 0.512 (diff 0.012 > tolerance 0.001)\n"
                  "  c → 3.000 m\n");
}

TEST_CASE("unchanged context is trimmed to two lines around each change") {
    std::string golden, actual;
    for (int i = 1; i <= 20; ++i) {
        golden += "e" + std::to_string(i) + " → " + std::to_string(i) + "\n";
        actual += "e" + std::to_string(i) + " → " + std::to_string(i == 10 ? 100 : i) + "\n";
    }
    const std::string text = render_diff("n", "s.yaml", "n.log", compare_logs(golden, actual, Tolerance{}));
    CHECK(text == "scenario n (s.yaml vs n.log)\n"
                  "@@ line 10 @@\n"
                  "  e8 → 8\n"
                  "  e9 → 9\n"
                  "- e10 → 10\n"
                  "+ e10 → 100\n"
                  "  number 1: expected 10, actual 100 (diff 90 > tolerance 1e-08)\n"
                  "  e11 → 11\n"
                  "  e12 → 12\n");
}

TEST_CASE("added and removed lines show with + and - only, at the golden's line number") {
    const auto r = compare_logs("a → 1\nb → 2\nc → 3\n", "a → 1\nc → 3\nd → 4\n", Tolerance{});
    const std::string text = render_diff("x", "x.yaml", "x.log", r, DiffStyle{false, 1});
    CHECK(text == "scenario x (x.yaml vs x.log)\n"
                  "@@ lines 2-3 @@\n"
                  "  a → 1\n"
                  "- b → 2\n"
                  "  c → 3\n"
                  "+ d → 4\n");
}

TEST_CASE("colour appears only when asked for") {
    const auto r = compare_logs("a → 1\n", "a → 2\n", Tolerance{});
    CHECK(render_diff("x", "x.yaml", "x.log", r).find('\x1b') == std::string::npos);
    const std::string coloured = render_diff("x", "x.yaml", "x.log", r, DiffStyle{true, 2});
    CHECK(coloured.find("\x1b[31m- a → 1\x1b[0m") != std::string::npos);
    CHECK(coloured.find("\x1b[32m+ a → 2\x1b[0m") != std::string::npos);
}
