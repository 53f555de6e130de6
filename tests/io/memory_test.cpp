// advise_huge_pages is a hint: whatever the system does with it, the memory it names keeps what
// is written to it, and ranges too small or unaligned for a huge page are left alone. A large vector grows as a
// std::vector does, and resize_for_overwrite() leaves its new elements unwritten.
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

TEST_CASE("resize_for_overwrite keeps the old elements, leaves the new ones unwritten and grows by doubling", "[io]") {
    collide::LargeVector<std::uint64_t> v;
    for (std::uint64_t i = 0; i < 10; ++i) v.push_back(100 + i);
    v.resize(3); // (elements 3 … 9 stay in the storage: nothing overwrites them)
    const std::uint64_t* storage = v.data();
    collide::resize_for_overwrite(v, 10);
    REQUIRE(v.data() == storage);                                  // within its capacity: the same storage
    for (std::uint64_t i = 0; i < 10; ++i) CHECK(v[i] == 100 + i); // kept, and not written
    // Out of the scope, a plain resize value-initialises, as std::allocator's does.
    v.resize(3);
    v.resize(10);
    for (std::size_t i = 3; i < 10; ++i) CHECK(v[i] == 0);
    // Cleared and grown step by step, it moves a logarithmic number of times, not at every step
    // (a resize after clear() alone would reserve exactly the size asked for).
    collide::LargeVector<std::uint64_t> grown;
    int moves = 0;
    for (std::size_t n = 1; n <= 100000; n += 7) {
        const std::uint64_t* before = grown.data();
        grown.clear();
        collide::resize_for_overwrite(grown, n);
        CHECK(grown.size() == n);
        moves += grown.data() != before ? 1 : 0;
    }
    CHECK(moves <= 20);
    // It keeps the elements it has when it moves them.
    collide::LargeVector<std::uint64_t> kept{1, 2, 3};
    collide::resize_for_overwrite(kept, 1000);
    CHECK((kept[0] == 1 && kept[1] == 2 && kept[2] == 3));
}
