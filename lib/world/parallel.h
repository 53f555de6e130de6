#pragma once
/// \file
/// The threads one world steps on (issue 30): a stage of a step hands fixed-size blocks of its
/// items to for_blocks(), which runs them on the world's own threads in any order. Items of
/// one call must be independent (no two write the same body or row), so what each block computes
/// is the same whichever thread runs it and whatever else runs beside it: a step's results are
/// the same bits for every thread count. With one thread (the default) the blocks run in order
/// on the calling thread.
///
/// The threads are the world's own, not TBB's: a step is a few dozen calls of tens to hundreds of
/// microseconds each, and TBB's workers, once asleep, joined such calls only after they had
/// ended (a virtual machine's sleeping core takes a millisecond or more to wake). The world's
/// workers spin between the calls of a step and sleep once it has stopped stepping.

#include <algorithm>
#include <cstddef>
#include <memory>
#include <type_traits>

namespace collide {

/// The threads this machine runs at once (TBB's default concurrency: its cores, or the CPUs
/// this process may use).
int machine_threads();

/// A callable's reference (no allocation, no ownership): what for_blocks() calls per block.
class BlockFunction {
public:
    /// Refers to `f`, which must outlive the call it is passed to (a lambda written in the call does).
    template <class F> BlockFunction(F&& f)
            : object_(const_cast<void*>(static_cast<const void*>(&f))),
              call_([](void* o, int begin, int end) { (*static_cast<std::remove_reference_t<F>*>(o))(begin, end); }) {}
    /// Runs the callable on items [begin, end).
    void operator()(int begin, int end) const { call_(object_, begin, end); }

private:
    void* object_;
    void (*call_)(void*, int, int);
};

/// A world's threads: one (serial) unless set_threads() gave it more.
class StepThreads {
public:
    StepThreads();
    ~StepThreads();
    StepThreads(StepThreads&&) noexcept;
    StepThreads& operator=(StepThreads&&) noexcept;

    /// Steps on `threads` threads (≥ 1; 1: on the caller's thread only). The calling thread
    /// takes part.
    void set_threads(int threads);
    /// The threads set.
    int threads() const { return threads_; }
    /// Runs f(begin, end) over items [0, count) in blocks of `block` items (the last may be
    /// shorter), each block once, on the world's threads; returns when all are done. Blocks run
    /// in any order and at once: f must not write what another block reads or writes.
    void for_blocks(int count, int block, BlockFunction f) const;

private:
    struct Pool; // the workers (kept out of this header)
    int threads_ = 1;
    std::unique_ptr<Pool> pool_;
};

/// Writes a zero byte at the start of every 4 KiB page of [data, data + bytes), pages in blocks
/// on `threads`: the first touch of fresh memory, where the system zeroes it (a 2 MiB huge page
/// at a time: io/memory.h), done on every thread at once instead of by whichever serial loop
/// would write there first. The memory must hold no object (storage reserved, not constructed, or
/// past a vector's size).
void touch_pages(void* data, std::size_t bytes, const StepThreads& threads);

/// Makes room in vector `v` for at least `n` elements, keeping its elements: when it must grow,
/// its new storage (twice the old, or `n`) has the pages its first `n` elements take touched first
/// on `threads` (touch_pages()), then the elements are copied in. A world's per-step arrays grow
/// as a scene's contacts do, and a serial resize would leave the zeroing of every fresh page to
/// one thread.
template <class V> void reserve_in_blocks(V& v, std::size_t n, const StepThreads& threads) {
    if (n <= v.capacity()) return;
    V fresh;
    fresh.reserve(std::max(n, 2 * v.capacity()));
    touch_pages(fresh.data(), n * sizeof(typename V::value_type), threads);
    fresh.assign(v.begin(), v.end());
    v.swap(fresh);
}

/// v.resize(n), the pages of the elements it adds touched first on `threads` (in fresh storage,
/// reserve_in_blocks(); within the storage it has, the pages past its size).
template <class V> void resize_in_blocks(V& v, std::size_t n, const StepThreads& threads) {
    if (n > v.capacity())
        reserve_in_blocks(v, n, threads);
    else if (n > v.size())
        touch_pages(v.data() + v.size(), (n - v.size()) * sizeof(typename V::value_type), threads);
    v.resize(n);
}

} // namespace collide
