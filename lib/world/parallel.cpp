#include "world/parallel.h"

#include <algorithm>

#include <tbb/global_control.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

// Under ThreadSanitizer (scripts/tsan.sh) the blocks run on plain std::threads instead of TBB's
// arena: libtbb is not instrumented, so ThreadSanitizer cannot see TBB's own joins and reports
// its internals; with threads it sees every fork and join, and what it reports is a race between
// blocks of one stage — the property for_blocks() asks of its callers, whoever runs the blocks.
#if defined(__SANITIZE_THREAD__)
#define COLLIDE_TSAN 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define COLLIDE_TSAN 1
#endif
#endif
#ifdef COLLIDE_TSAN
#include <atomic>
#include <thread>
#include <vector>
#endif

namespace collide {

int machine_threads() { return std::max(tbb::info::default_concurrency(), 1); }

struct StepThreads::Arena {
    // More threads than the machine runs at once (a test of 8 on 2 cores): TBB keeps as many
    // workers only while a control allows them.
    std::unique_ptr<tbb::global_control> allow;
    tbb::task_arena arena;
    explicit Arena(int threads)
            : allow(threads > machine_threads()
                            ? std::make_unique<tbb::global_control>(tbb::global_control::max_allowed_parallelism,
                                                                    static_cast<std::size_t>(threads))
                            : nullptr),
              arena(threads) {}
};

StepThreads::StepThreads() = default;
StepThreads::~StepThreads() = default;
StepThreads::StepThreads(StepThreads&&) noexcept = default;
StepThreads& StepThreads::operator=(StepThreads&&) noexcept = default;

void StepThreads::set_threads(int threads) {
    threads = std::max(threads, 1);
    if (threads == threads_) return;
    threads_ = threads;
    arena_ = threads > 1 ? std::make_unique<Arena>(threads) : nullptr;
}

void StepThreads::for_blocks(int count, int block, BlockFunction f) const {
    if (count <= 0) return;
    block = std::max(block, 1);
    const int blocks = (count - 1) / block + 1;
    const auto run = [&](int k) { f(k * block, std::min(count, (k + 1) * block)); };
    if (!arena_ || blocks == 1) {
        for (int k = 0; k < blocks; ++k) run(k);
        return;
    }
    // One task per block (simple_partitioner, grain 1): a block is already as large as a task
    // should be. A call from inside the arena (a large island within the islands' loop) runs
    // its blocks there too.
#ifdef COLLIDE_TSAN
    // (Every block once, taken in turn by this thread and threads_ − 1 others.)
    std::atomic<int> next{0};
    const auto take = [&] {
        for (int k; (k = next.fetch_add(1)) < blocks;) run(k);
    };
    std::vector<std::thread> others;
    for (int t = 1; t < threads_; ++t) others.emplace_back(take);
    take();
    for (std::thread& t : others) t.join();
#else
    arena_->arena.execute([&] {
        tbb::parallel_for(
                tbb::blocked_range<int>(0, blocks, 1),
                [&](const tbb::blocked_range<int>& r) {
                    for (int k = r.begin(); k < r.end(); ++k) run(k);
                },
                tbb::simple_partitioner());
    });
#endif
}

} // namespace collide
