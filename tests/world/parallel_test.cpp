// A world's threads: every item of every block is run exactly once, for every thread count and
// block size, nested calls included (a large island's colours inside the islands' loop); an
// exception in a block reaches the caller; sleeping workers wake; growing arrays keep their
// elements.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

#include "io/memory.h"
#include "world/parallel.h"

using namespace collide;

TEST_CASE("for_blocks runs every item once, in blocks of the size asked, on any number of threads",
          "[world][threads]") {
    for (const int threads : {1, 2, 3, 8}) {
        StepThreads pool;
        pool.set_threads(threads);
        CHECK(pool.threads() == threads);
        for (const int count : {0, 1, 7, 100, 1000}) {
            for (const int block : {1, 3, 64}) {
                std::vector<std::atomic<int>> hits(static_cast<std::size_t>(count));
                std::atomic<int> bad_blocks{0};
                pool.for_blocks(count, block, [&](int begin, int end) {
                    // Blocks start at multiples of the block size and hold it (the last: the rest).
                    if (begin % block != 0 || end - begin > block || (end - begin < block && end != count))
                        ++bad_blocks;
                    for (int k = begin; k < end; ++k) ++hits[static_cast<std::size_t>(k)];
                });
                INFO(threads << " threads, " << count << " items, blocks of " << block);
                CHECK(bad_blocks == 0);
                for (const std::atomic<int>& h : hits) CHECK(h == 1);
            }
        }
    }
}

TEST_CASE("for_blocks called inside a block runs its own blocks to the end before returning", "[world][threads]") {
    StepThreads pool;
    pool.set_threads(3);
    std::vector<int> sums(40, 0);
    pool.for_blocks(40, 1, [&](int begin, int end) {
        for (int k = begin; k < end; ++k) {
            std::atomic<int> inner{0};
            pool.for_blocks(500, 16, [&](int b, int e) { inner += e - b; });
            sums[static_cast<std::size_t>(k)] = inner; // every inner item was run when it returned
        }
    });
    for (const int s : sums) CHECK(s == 500);
}

TEST_CASE("a world's threads can be set back to one and moved", "[world][threads]") {
    StepThreads pool;
    pool.set_threads(4);
    pool.set_threads(1);
    CHECK(pool.threads() == 1);
    StepThreads moved = std::move(pool);
    int n = 0;
    moved.for_blocks(10, 4, [&](int b, int e) { n += e - b; }); // one thread: no race on n
    CHECK(n == 10);
    CHECK(machine_threads() >= 1);
}

TEST_CASE("an exception thrown in a block reaches the caller, and the threads go on working", "[world][threads]") {
    StepThreads pool;
    pool.set_threads(2);
    CHECK_THROWS_WITH(pool.for_blocks(64, 1,
                                      [&](int begin, int) {
                                          if (begin == 37) throw std::runtime_error("block 37");
                                      }),
                      "block 37");
    std::atomic<int> items{0};
    pool.for_blocks(1000, 10, [&](int b, int e) { items += e - b; });
    CHECK(items == 1000);
}

TEST_CASE("workers that fell asleep between calls wake for the next one", "[world][threads]") {
    StepThreads pool;
    pool.set_threads(2);
    for (int round = 0; round < 3; ++round) {
        // Longer than the workers spin before they sleep (world/parallel.cpp: 10 ms).
        std::this_thread::sleep_for(std::chrono::milliseconds(25));
        std::vector<std::atomic<int>> hits(300);
        pool.for_blocks(300, 7, [&](int b, int e) {
            for (int k = b; k < e; ++k) ++hits[static_cast<std::size_t>(k)];
        });
        for (const std::atomic<int>& h : hits) CHECK(h == 1);
    }
}

TEST_CASE("resize_in_blocks keeps a vector's elements as it grows, its new pages touched on the threads",
          "[world][threads]") {
    for (const int threads : {1, 2, 3}) {
        StepThreads pool;
        pool.set_threads(threads);
        LargeVector<double> v;
        std::vector<double> expected;
        // From a few elements to 3 MB (whole huge pages: io/memory.h) and a size that is not.
        for (const std::size_t n : {std::size_t{5}, std::size_t{4000}, std::size_t{393216}, std::size_t{400001}}) {
            const std::size_t had = v.size();
            resize_in_blocks(v, n, pool);
            REQUIRE(v.size() == n);
            CHECK(v.capacity() >= n);
            std::size_t lost = 0, unset = 0;
            for (std::size_t k = 0; k < had; ++k) lost += v[k] == expected[k] ? 0 : 1; // kept
            for (std::size_t k = had; k < n; ++k) unset += v[k] == 0.0 ? 0 : 1;        // value-initialised
            CHECK(lost == 0);
            CHECK(unset == 0);
            expected.resize(n);
            for (std::size_t k = 0; k < n; ++k) v[k] = expected[k] = static_cast<double>(k) * 0.5 + threads;
        }
        // Shrinking keeps the storage and the first elements.
        const double* storage = v.data();
        resize_in_blocks(v, 10, pool);
        CHECK(v.data() == storage);
        CHECK(v[9] == expected[9]);
    }
}

TEST_CASE("touch_pages writes only within its range", "[world][threads]") {
    StepThreads pool;
    pool.set_threads(2);
    // A range that starts and ends inside pages: the bytes around it are left as they were.
    std::vector<unsigned char> bytes(5 * 4096 + 100, 0xab);
    touch_pages(bytes.data() + 10, bytes.size() - 20, pool);
    for (std::size_t k = 0; k < 10; ++k) CHECK(bytes[k] == 0xab);
    for (std::size_t k = bytes.size() - 10; k < bytes.size(); ++k) CHECK(bytes[k] == 0xab);
    std::size_t zeroed = 0;
    for (const unsigned char b : bytes) zeroed += b == 0 ? 1 : 0;
    CHECK(zeroed >= 4); // one byte of each whole page inside the range
    CHECK(zeroed <= 6);
}
