// The loader's name table against a std::map doing the same inserts, finds and erases: names are
// read back through the callable, never stored, and every answer agrees.
#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <string>
#include <vector>

#include "scenario/name_table.h"

using namespace collide::reader;

TEST_CASE("the name table finds, refuses duplicates and erases as a map does", "[scenario]") {
    std::vector<std::string> names;
    for (int i = 0; i < 3000; ++i) names.push_back("s" + std::to_string(i));
    const auto name_of = [&](std::uint32_t i) -> std::string_view { return names[i]; };
    NameTable<decltype(name_of)> table(name_of);
    std::map<std::string, long> model;
    std::mt19937 random(7);
    int checked = 0;
    for (int step = 0; step < 20000; ++step) {
        const std::uint32_t i = random() % names.size();
        switch (random() % 3) {
        case 0: {
            const bool fresh = model.emplace(names[i], i).second;
            CHECK(table.insert(names[i], i) == fresh);
            break;
        }
        case 1:
            model.erase(names[i]);
            table.erase(names[i]);
            break;
        default: {
            const auto at = model.find(names[i]);
            CHECK(table.find(names[i]) == (at == model.end() ? -1 : at->second));
            ++checked;
        }
        }
        REQUIRE(table.size() == model.size());
    }
    CHECK(checked > 6000);
    CHECK_FALSE(table.contains("not a body"));
}

TEST_CASE("a reserved name table holds what it was reserved for without losing a name", "[scenario]") {
    std::vector<std::string> names{"floor", "crate", "ball", ""};
    const auto name_of = [&](std::uint32_t i) -> std::string_view { return names[i]; };
    NameTable<decltype(name_of)> table(name_of);
    table.reserve(1000);
    for (std::uint32_t i = 0; i < names.size(); ++i) CHECK(table.insert(names[i], i));
    for (std::uint32_t i = 0; i < names.size(); ++i) CHECK(table.find(names[i]) == i);
    CHECK(table.size() == 4);
}
