// A world's threads: every item of every block is run exactly once, for every thread count and
// block size, nested calls included (a large island's colours inside the islands' loop); an
// exception in a block reaches the caller; sleeping workers wake; a thread held up in its run
// leaves the rest of it to the others.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <stdexcept>
#include <thread>
#include <vector>

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

TEST_CASE("a thread held up in its run's first block leaves the rest of its run to the others", "[world][threads]") {
    // Two threads: the caller's run is blocks 0 … 9, the worker's 10 … 19. Whichever thread takes
    // block 0 (the caller, unless the worker gets there first) stays in it until the other 19 have
    // run: the other thread must take its own run and then the rest of the held-up one.
    StepThreads pool;
    pool.set_threads(2);
    std::atomic<int> others{0};
    std::vector<std::thread::id> by(20);
    pool.for_blocks(20, 1, [&](int begin, int) {
        by[static_cast<std::size_t>(begin)] = std::this_thread::get_id();
        if (begin == 0) {
            while (others.load() < 19) std::this_thread::yield();
        } else {
            ++others;
        }
    });
    CHECK(others.load() == 19);
    for (int k = 1; k < 20; ++k) CHECK(by[static_cast<std::size_t>(k)] != by[0]);
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
