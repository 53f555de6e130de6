// advise_huge_pages is a hint: whatever the system does with it, the memory it names keeps what
// is written to it, and ranges too small or unaligned for a huge page are left alone.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "io/memory.h"

TEST_CASE("advising huge pages never changes what an array holds", "[io]") {
    for (const std::size_t bytes : {std::size_t{0}, std::size_t{100}, std::size_t{3} << 20, std::size_t{9} << 20}) {
        INFO(bytes << " bytes");
        std::vector<std::uint64_t> a(bytes / sizeof(std::uint64_t) + 1);
        collide::advise_huge_pages(a.data(), bytes);
        for (std::size_t i = 0; i < a.size(); ++i) a[i] = i * 2654435761u;
        std::size_t wrong = 0;
        for (std::size_t i = 0; i < a.size(); ++i) wrong += a[i] != i * 2654435761u ? 1 : 0;
        CHECK(wrong == 0);
    }
    collide::advise_huge_pages(nullptr, 0); // nothing to advise
    SUCCEED();
}
