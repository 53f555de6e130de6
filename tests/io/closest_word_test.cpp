// The likely word behind a typo (io/closest_word.cpp): an edit distance that counts a swap of
// neighbours as one edit, and a match only when few letters changed or the word is a prefix.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "io/closest_word.h"

using namespace collide;

TEST_CASE("edit distance: insertions, deletions, substitutions and swaps of neighbours count one each",
          "[io][closest_word]") {
    CHECK(edit_distance("radius", "radius") == 0);
    CHECK(edit_distance("radius", "radiuss") == 1); // an insertion
    CHECK(edit_distance("radius", "radus") == 1);   // a deletion
    CHECK(edit_distance("radius", "radios") == 1);  // a substitution
    CHECK(edit_distance("radius", "raidus") == 1);  // a swap of neighbours
    CHECK(edit_distance("", "abc") == 3);
    CHECK(edit_distance("sphere", "box") == 6);
}

TEST_CASE("closest match: a likely typo names its word, an unrelated word nothing", "[io][closest_word]") {
    const std::vector<std::string> keys = {"radius", "centre"};
    CHECK(closest_match("radiuss", keys) == "radius");
    CHECK(closest_match("center", keys) == "centre");
    CHECK(closest_match("rad", keys) == "radius"); // a prefix
    CHECK(closest_match("velocity", keys).empty());
    CHECK(closest_match("x", {}).empty());
}
