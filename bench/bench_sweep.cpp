// Sweep throughput: the tunnel (scenarios/tunnel.yaml) over a 1000 × 1000 grid (speed 10…1000 m/s
// in 1000 values × offset 0…0.999 step 0.001), one mode per run, on 1 and 2 threads. Each iteration
// runs the whole grid through the real pipeline (template → instantiate → simulate on every thread)
// in blocks of `block` rows (4096: what `collide sweep --format csv` streams; 10^6: the whole grid
// in one parallel loop), without formatting. Items are cells; counters report cells/s, the
// frame-steps actually simulated per second (a run stops once its first contact is settled, so
// fewer than 40 per cell) and the nominal 40 frame-steps per cell per second.
//
//   ./build/collide_bench --benchmark_filter=tunnel_grid --benchmark_min_time=0.2
//
// Reference (Bullet, same grid on this machine): ~35,000 cells/s discrete, ~21,000 swept.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "scenario/load.h"
#include "sweep/scenario_model.h"
#include "sweep/sweep_grid.h"

using namespace collide;

namespace {

constexpr int kFrames = 40;

/// The tunnel of scenarios/tunnel.yaml, logging its first contact alone (the shipped file also logs
/// a tunnel entry; bench/RESULTS.md's figures are of this one).
constexpr const char* kTunnel = R"(name: tunnel
params: { speed: 60, offset: 0 }
world: { rate: 60, frames: 40, gravity: [0, 0, 0], detection: discrete, phase: $offset }
bodies:
  wall:   { static: true, box: { min: [-0.05, -2, -2], max: [0.05, 2, 2] } }
  bullet: { sphere: { radius: 0.3 }, position: [-3, 0, 0], velocity: [$speed, 0, 0],
            restitution: 0, friction: 0 }
log:
  - first_contact: { body: bullet, with: wall }
)";

/// One sweep's state: the model, the grid, the executor and the results, made once per
/// (mode, jobs) and kept for the whole program, as `collide sweep` keeps one executor for its whole
/// grid. Building an executor per benchmark call measured badly on two threads: the previous
/// executor's thread state, freed on the main thread, went to that thread's allocator cache, the
/// next executor's two threads were then given neighbouring memory and contended for cache lines.
struct GridSetup {
    SweepModel model;
    SweepPlan plan;
    std::unique_ptr<GridExecutor> executor;
    std::vector<double> values;
};

GridSetup& grid_setup(Detection mode, int jobs) {
    static std::map<std::pair<int, int>, std::unique_ptr<GridSetup>> setups;
    std::unique_ptr<GridSetup>& setup = setups[{static_cast<int>(mode), jobs}];
    if (!setup) {
        setup = std::make_unique<GridSetup>();
        setup->model = scenario_sweep_model(parse_scenario_template(kTunnel, "tunnel.yaml"));
        Axis speed{"speed", 0, {}};
        for (int i = 0; i < 1000; ++i) speed.values.push_back(10 + i * (990.0 / 999.0));
        setup->plan.grid = Grid({speed, parse_vary("offset=0:0.999:0.001", setup->model.param_names)});
        setup->plan.modes = {mode};
        setup->executor = std::make_unique<GridExecutor>(setup->model, setup->plan, jobs);
        setup->values.resize(setup->plan.rows() * setup->model.fields.size());
    }
    return *setup;
}

void tunnel_grid(benchmark::State& state) {
    // Mode 0 discrete, 1 swept, 2 speculative.
    const Detection mode = state.range(0) == 0   ? Detection::discrete
                           : state.range(0) == 1 ? Detection::swept
                                                 : Detection::speculative;
    const int jobs = static_cast<int>(state.range(1));
    GridSetup& setup = grid_setup(mode, jobs);
    GridExecutor& executor = *setup.executor;
    std::vector<double>& values = setup.values;
    const std::uint64_t rows = setup.plan.rows();
    const std::uint64_t block_rows = state.range(2);
    const std::size_t width = setup.model.fields.size();
    const std::uint64_t frames_before = executor.frames_simulated();
    for (auto _ : state) {
        for (std::uint64_t first = 0; first < rows; first += block_rows) {
            const std::uint64_t count = std::min(block_rows, rows - first);
            executor.compute_rows(first, count, std::span<double>(values).subspan(first * width, count * width));
        }
        benchmark::DoNotOptimize(values.data());
    }
    // frames stepped in this run
    const double frames = static_cast<double>(executor.frames_simulated() - frames_before);
    const double cells = static_cast<double>(rows) * static_cast<double>(state.iterations());
    state.SetItemsProcessed(static_cast<std::int64_t>(cells));
    state.counters["cells/s"] = benchmark::Counter(cells, benchmark::Counter::kIsRate);
    state.counters["frames/s"] = benchmark::Counter(frames, benchmark::Counter::kIsRate);
    state.counters["nominal_frames/s"] = benchmark::Counter(cells * kFrames, benchmark::Counter::kIsRate);
    state.counters["frames/cell"] = frames / cells;
    state.counters["threads"] = static_cast<double>(executor.threads_used());
    state.SetLabel(detection_name(mode));
}

} // namespace

BENCHMARK(tunnel_grid)
        ->ArgNames({"swept", "jobs", "block"})
        ->Args({0, 1, kSweepBlockRows})
        ->Args({0, 2, kSweepBlockRows})
        ->Args({1, 1, kSweepBlockRows})
        ->Args({1, 2, kSweepBlockRows})
        ->Args({2, 1, kSweepBlockRows})
        ->Args({2, 2, kSweepBlockRows})
        ->Args({0, 2, 1'000'000})
        ->Args({1, 2, 1'000'000})
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
