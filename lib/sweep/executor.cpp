#include "sweep/executor.h"

#include <cmath>
#include <fmt/format.h>

#include <algorithm>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

namespace collide {

namespace {
/// One thread's state: its worker, its param vector, and the frames it simulated. Each thread
/// allocates its own (see Impl::context), on cache lines of its own, so that two threads' hot
/// data never share a line. (Memory that one thread frees and another reuses can still end up
/// interleaved: keep one executor for a whole grid, as `collide sweep` does.)
struct alignas(128) ThreadContext {
    std::unique_ptr<CellWorker> worker;
    std::vector<double> params;
    std::uint64_t frames = 0;
};
} // namespace

struct GridExecutor::Impl {
    const SweepModel& model;
    const SweepPlan& plan;
    tbb::task_arena arena;
    tbb::enumerable_thread_specific<std::unique_ptr<ThreadContext>> contexts;

    Impl(const SweepModel& m, const SweepPlan& p, int jobs)
            : model(m), plan(p), arena(jobs > 0 ? jobs : tbb::info::default_concurrency()) {}

    /// The calling thread's context, made (by that thread, in its own memory) on first use.
    ThreadContext& context() {
        std::unique_ptr<ThreadContext>& mine = contexts.local();
        if (!mine) mine.reset(new ThreadContext{model.make_worker(), model.default_params, 0});
        return *mine;
    }
};

GridExecutor::GridExecutor(const SweepModel& model, const SweepPlan& plan, int jobs)
        : impl_(std::make_unique<Impl>(model, plan, jobs)) {}

GridExecutor::~GridExecutor() = default;

void GridExecutor::compute_rows(std::uint64_t first_row, std::uint64_t count, std::span<double> out) {
    Impl& s = *impl_;
    const std::size_t width = s.model.fields.size();
    // Grain: enough rows per task that scheduling costs nothing next to the cells.
    constexpr std::uint64_t kGrain = 1024;
    s.arena.execute([&] {
        tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, count, kGrain),
                          [&](const tbb::blocked_range<std::uint64_t>& range) {
                              ThreadContext& context = s.context();
                              std::uint64_t applied = ~std::uint64_t{0};
                              std::uint64_t frames = 0;
                              for (std::uint64_t r = range.begin(); r != range.end(); ++r) {
                                  const std::uint64_t row = first_row + r;
                                  const std::uint64_t cell = s.plan.cell_of_row(row);
                                  if (cell != applied) {
                                      s.plan.grid.apply(cell, context.params);
                                      applied = cell;
                                  }
                                  context.worker->compute(context.params, s.plan.engine_of_row(row),
                                                          s.plan.mode_of_row(row), out.subspan(r * width, width));
                                  frames += context.worker->frames_simulated();
                              }
                              context.frames += frames;
                          });
    });
    // Nothing non-finite is ever printed: a value that overflowed stops the sweep, naming it.
    for (std::uint64_t r = 0; r < count; ++r)
        for (std::size_t f = 0; f < width; ++f) {
            const double v = out[r * width + f];
            if (!std::isinf(v)) continue;
            const std::uint64_t row = first_row + r;
            throw command_error(fmt::format("cell {} ({}): {} overflows to {}; its inputs are too large to compute it",
                                            s.plan.cell_of_row(row), s.plan.variant_name(s.plan.variant_of_row(row)),
                                            f < s.model.columns.size() ? s.model.columns[f] : s.model.fields[f].name,
                                            v > 0 ? "+inf" : "-inf"));
        }
}

void GridExecutor::for_each_piece(std::uint64_t count, std::uint64_t piece,
                                  const std::function<void(std::uint64_t, std::uint64_t)>& fn) {
    const std::uint64_t pieces = piece == 0 ? 0 : (count + piece - 1) / piece;
    impl_->arena.execute([&] {
        tbb::parallel_for(std::uint64_t{0}, pieces,
                          [&](std::uint64_t k) { fn(k * piece, std::min(count, (k + 1) * piece)); });
    });
}

std::uint64_t GridExecutor::frames_simulated() const {
    std::uint64_t total = 0;
    for (const auto& c : impl_->contexts)
        if (c) total += c->frames;
    return total;
}

} // namespace collide

namespace collide {
std::size_t GridExecutor::threads_used() const { return impl_->contexts.size(); }
} // namespace collide
