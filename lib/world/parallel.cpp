#include "world/parallel.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include <tbb/info.h>

namespace collide {

int machine_threads() { return std::max(tbb::info::default_concurrency(), 1); }

namespace {

/// Set while this thread runs a block: a for_blocks() called from inside one runs its blocks on
/// this thread (the others are busy with the outer call's; the results are the same bits).
thread_local bool t_in_block = false;

/// A short wait in a spin loop (the core's pause hint, or a yield where there is none).
inline void pause_briefly() {
#if defined(__x86_64__) || defined(__i386__)
    __builtin_ia32_pause();
#else
    std::this_thread::yield();
#endif
}

/// How long an idle worker keeps looking for the next call before it sleeps. A step's stages
/// follow each other within microseconds, with serial work between them of up to a few hundred
/// microseconds on a large scene; a sleeping thread on a virtual machine takes a millisecond or
/// more to wake (measured here: TBB's workers, asleep, joined a call of 8 blocks of 60 µs after
/// it had ended, every time). So workers spin between the stages of a step and sleep only when
/// the world has stopped stepping (between frames of a slow observer, at the end of a run).
constexpr auto kSpinBeforeSleep = std::chrono::milliseconds(10);

} // namespace

/// The world's own workers (threads − 1 of them; the calling thread takes part in every call).
///
/// A call publishes its job (the function, the block count) and opens it by setting `epoch` to
/// an odd number; every thread takes blocks until none is left, and counts them done. The blocks
/// are cut into one run a thread, in order (the caller's first); each thread takes its own run's
/// blocks from the front, then those left in the others' runs (each run's `next` hands out each
/// block once). So a call over the bodies gives each thread the same bodies as the call before
/// it whenever no thread falls behind: what one stage's blocks wrote, the next stage's read on
/// the same core, from its own cache, instead of pulling every line across from the other core
/// (the rain's steps on two threads: 128.5 ms against 136.1 with one shared counter, every
/// stage a little faster; bench/RESULTS.md).
/// When all are done the caller closes the job (epoch even) and waits until no worker is still
/// inside it, so the next call can rewrite the job. A worker enters a job only after counting
/// itself in `inside` and seeing the job still open (both sequentially consistent: either the
/// caller's close is seen, or the caller sees the worker inside and waits for it).
struct StepThreads::Pool {
    explicit Pool(int threads) : oversubscribed(threads > machine_threads()) {
        runs = std::make_unique<Run[]>(static_cast<std::size_t>(threads));
        run_count = threads;
        workers.reserve(static_cast<std::size_t>(threads - 1));
        for (int t = 1; t < threads; ++t) workers.emplace_back([this, t] { work(t); });
    }
    ~Pool() {
        {
            const std::lock_guard<std::mutex> lock(sleep_mutex);
            stop.store(true, std::memory_order_seq_cst);
        }
        wake.notify_all();
        for (std::thread& t : workers) t.join();
    }
    Pool(const Pool&) = delete;
    Pool& operator=(const Pool&) = delete;

    /// Runs blocks [0, blocks) of `run` on every thread; returns when all are done.
    void run_blocks(int blocks, const BlockFunction& run) {
        job = &run;
        for (int t = 0; t < run_count; ++t) {
            Run& r = runs[static_cast<std::size_t>(t)];
            r.next.store(static_cast<int>(static_cast<std::int64_t>(blocks) * t / run_count),
                         std::memory_order_relaxed);
            r.end = static_cast<int>(static_cast<std::int64_t>(blocks) * (t + 1) / run_count);
        }
        done.store(0, std::memory_order_relaxed);
        failure = nullptr;
        const std::uint32_t open = epoch.load(std::memory_order_relaxed) + 1; // odd
        epoch.store(open, std::memory_order_seq_cst);
        if (sleepers.load(std::memory_order_seq_cst) > 0) {
            { const std::lock_guard<std::mutex> lock(sleep_mutex); }
            wake.notify_all();
        }
        take_blocks(0);
        while (done.load(std::memory_order_acquire) < blocks) wait_a_little();
        epoch.store(open + 1, std::memory_order_seq_cst); // closed
        while (inside.load(std::memory_order_seq_cst) > 0) wait_a_little();
        if (failure) std::rethrow_exception(failure);
    }

private:
    std::vector<std::thread> workers;
    const bool oversubscribed; ///< more threads than cores: waiting threads yield the core
    const BlockFunction* job = nullptr;
    /// One thread's run of a job's blocks: `next` (its first, when the job opens) to `end`.
    struct alignas(64) Run {
        std::atomic<int> next{0};
        int end = 0;
    };
    std::unique_ptr<Run[]> runs; ///< per thread (0: the caller)
    int run_count = 0;
    std::exception_ptr failure; ///< the first exception a block threw (guarded by failure_mutex)
    std::mutex failure_mutex;
    alignas(64) std::atomic<std::uint32_t> epoch{0}; ///< odd: a job is open
    alignas(64) std::atomic<int> done{0};            ///< blocks finished
    alignas(64) std::atomic<int> inside{0};          ///< workers inside the job
    alignas(64) std::atomic<int> sleepers{0};        ///< workers asleep (or going to sleep)
    std::atomic<bool> stop{false};
    std::mutex sleep_mutex;
    std::condition_variable wake;

    void wait_a_little() const {
        if (oversubscribed)
            std::this_thread::yield();
        else
            pause_briefly();
    }

    /// Takes blocks until none is left (the caller and the workers alike): thread `self`'s own
    /// run first, then the others' from the next one on.
    void take_blocks(int self) {
        t_in_block = true;
        int finished = 0; // (counted once at the end: one write of the shared line, not one a block)
        for (int t = 0; t < run_count; ++t) {
            Run& r = runs[static_cast<std::size_t>((self + t) % run_count)];
            for (int k; (k = r.next.fetch_add(1, std::memory_order_relaxed)) < r.end;) {
                try {
                    (*job)(k, k + 1);
                } catch (...) {
                    const std::lock_guard<std::mutex> lock(failure_mutex);
                    if (!failure) failure = std::current_exception();
                }
                ++finished;
            }
        }
        if (finished > 0) done.fetch_add(finished, std::memory_order_release);
        t_in_block = false;
    }

    /// Worker `self` (1 …): waits for a job to open (spinning a while, then asleep), takes its blocks.
    void work(int self) {
        std::uint32_t seen = 0;
        for (;;) {
            std::uint32_t now = epoch.load(std::memory_order_seq_cst);
            auto idle_since = std::chrono::steady_clock::now();
            for (int spins = 0; now == seen || (now & 1) == 0; ++spins) {
                if (stop.load(std::memory_order_relaxed)) return;
                wait_a_little();
                if ((spins & 255) == 255 && std::chrono::steady_clock::now() - idle_since > kSpinBeforeSleep) {
                    std::unique_lock<std::mutex> lock(sleep_mutex);
                    sleepers.fetch_add(1, std::memory_order_seq_cst);
                    wake.wait(lock, [&] {
                        const std::uint32_t e = epoch.load(std::memory_order_seq_cst);
                        return stop.load(std::memory_order_relaxed) || (e != seen && (e & 1) == 1);
                    });
                    sleepers.fetch_sub(1, std::memory_order_seq_cst);
                    idle_since = std::chrono::steady_clock::now();
                }
                now = epoch.load(std::memory_order_seq_cst);
            }
            seen = now;
            inside.fetch_add(1, std::memory_order_seq_cst);
            if (epoch.load(std::memory_order_seq_cst) == now) take_blocks(self); // still open
            inside.fetch_sub(1, std::memory_order_seq_cst);
        }
    }
};

StepThreads::StepThreads() = default;
StepThreads::~StepThreads() = default;
StepThreads::StepThreads(StepThreads&&) noexcept = default;
StepThreads& StepThreads::operator=(StepThreads&&) noexcept = default;

void StepThreads::set_threads(int threads) {
    threads = std::max(threads, 1);
    if (threads == threads_) return;
    threads_ = threads;
    pool_.reset(); // (its workers stopped first)
    if (threads > 1) pool_ = std::make_unique<Pool>(threads);
}

void StepThreads::for_blocks(int count, int block, BlockFunction f) const {
    if (count <= 0) return;
    block = std::max(block, 1);
    const int blocks = (count - 1) / block + 1;
    const auto run = [&](int k) { f(k * block, std::min(count, (k + 1) * block)); };
    // One block, one thread, or a call from inside a block (a large island's parts within the
    // islands' loop, when other islands keep the threads busy): the blocks in order, here.
    if (!pool_ || blocks == 1 || t_in_block) {
        for (int k = 0; k < blocks; ++k) run(k);
        return;
    }
    const auto one = [&](int begin, int end) {
        for (int k = begin; k < end; ++k) run(k);
    };
    pool_->run_blocks(blocks, BlockFunction(one));
}

} // namespace collide
