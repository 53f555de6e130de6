// Sweep throughput: the documents' tunnel over a 1000 × 1000 grid (speed 10…1000 m/s in 1000
// values × offset 0…0.999 step 0.001), one mode per run, on 1 and 2 threads. Each iteration runs
// the whole grid through the real pipeline (template → instantiate → simulate on every thread)
// in blocks of `block` rows (4096: what `collide sweep --format csv` streams; 10^6: the whole
// grid in one parallel loop), without formatting. Items are cells; counters report
// cells/s, the frame-steps actually simulated per second (a run stops once its first contact is
// settled, so fewer than 40 per cell) and the nominal 40 frame-steps per cell per second.
//
//   ./build/collide_bench --benchmark_filter=tunnel_grid --benchmark_min_time=0.2
//
// Reference (Bullet, same grid on this machine): ~35,000 cells/s discrete, ~21,000 swept.
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <span>
#include <string>
#include <vector>

#include "scenario/load.h"
#include "sweep/scenario_model.h"
#include "sweep/sweep.h"

using namespace collide;

namespace {

constexpr int kFrames = 40;

/// The tunnel of SPEC.md / scenarios/tunnel.yaml.
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

void tunnel_grid(benchmark::State& state) {
    const Detection mode = state.range(0) == 0 ? Detection::discrete : Detection::swept;
    const int jobs = static_cast<int>(state.range(1));
    const SweepModel model = scenario_sweep_model(parse_scenario_template(kTunnel, "tunnel.yaml"));
    Axis speed{"speed", 0, {}};
    for (int i = 0; i < 1000; ++i) speed.values.push_back(10 + i * (990.0 / 999.0));
    SweepPlan plan;
    plan.grid = Grid({speed, parse_vary("offset=0:0.999:0.001", model.param_names)});
    plan.modes = {mode};
    const std::uint64_t rows = plan.rows();
    SweepRunner runner(model, plan, jobs);
    const std::uint64_t block_rows = state.range(2);
    const std::size_t width = model.fields.size();
    std::vector<double> values(rows * width);
    for (auto _ : state) {
        for (std::uint64_t first = 0; first < rows; first += block_rows) {
            const std::uint64_t count = std::min(block_rows, rows - first);
            runner.run(first, count, std::span<double>(values).subspan(first * width, count * width));
        }
        benchmark::DoNotOptimize(values.data());
    }
    const double frames = static_cast<double>(runner.frames_simulated()); // every frame the world stepped, all iterations
    const double cells = static_cast<double>(rows) * static_cast<double>(state.iterations());
    state.SetItemsProcessed(static_cast<std::int64_t>(cells));
    state.counters["cells/s"] = benchmark::Counter(cells, benchmark::Counter::kIsRate);
    state.counters["frames/s"] = benchmark::Counter(frames, benchmark::Counter::kIsRate);
    state.counters["nominal_frames/s"] = benchmark::Counter(cells * kFrames, benchmark::Counter::kIsRate);
    state.counters["frames/cell"] = frames / cells;
    state.counters["threads"] = static_cast<double>(runner.threads_used());
    state.SetLabel(mode == Detection::discrete ? "discrete" : "swept");
}

} // namespace

BENCHMARK(tunnel_grid)
    ->ArgNames({"swept", "jobs", "block"})
    ->Args({0, 1, kSweepBlockRows})
    ->Args({0, 2, kSweepBlockRows})
    ->Args({1, 1, kSweepBlockRows})
    ->Args({1, 2, kSweepBlockRows})
    ->Args({0, 2, 1'000'000})
    ->Args({1, 2, 1'000'000})
    ->Unit(benchmark::kMillisecond)
    ->UseRealTime();
