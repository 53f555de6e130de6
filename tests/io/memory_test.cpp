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

TEST_CASE("a large vector keeps its elements as it grows and sits on whole huge pages once large", "[io]") {
    collide::LargeVector<std::uint64_t> v;
    bool aligned = true;
    std::size_t large_allocations = 0;
    const std::uint64_t* last = nullptr;
    // From one element (operator new) past 4 MiB (whole huge pages), through every growth.
    for (std::uint64_t i = 0; i < (std::uint64_t{5} << 20) / sizeof(std::uint64_t); ++i) {
        v.push_back(i * 2654435761u);
        if (v.data() != last) {
            last = v.data();
            if (v.capacity() * sizeof(std::uint64_t) >= collide::kLargeArray) {
                ++large_allocations;
                aligned = aligned && reinterpret_cast<std::uintptr_t>(v.data()) % collide::kHugePage == 0;
            }
        }
    }
    std::size_t wrong = 0;
    for (std::size_t i = 0; i < v.size(); ++i) wrong += v[i] != i * 2654435761u ? 1 : 0;
    CHECK(wrong == 0);
    CHECK(large_allocations >= 3); // 512 KiB, 1, 2, 4, 8 MiB capacities
    CHECK(aligned);
    // A copy and a small vector are ordinary.
    const collide::LargeVector<std::uint64_t> copy = v;
    CHECK(copy == v);
    collide::LargeVector<int> small(3, 7);
    CHECK(small[2] == 7);
}
