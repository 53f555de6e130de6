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
    /// in any order and at once: f must not write what another block reads or writes. (Each
    /// thread starts on its own run of the blocks, the same run for the same count: two calls
    /// over the same items mostly give a thread the same items, for its cache's sake.)
    void for_blocks(int count, int block, BlockFunction f) const;

private:
    struct Pool; // the workers (kept out of this header)
    int threads_ = 1;
    std::unique_ptr<Pool> pool_;
};

} // namespace collide
