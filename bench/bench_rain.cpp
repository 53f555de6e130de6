// The rain of bench/rain.h (the scene of /work/shared/peers/bullet_rain): N spheres dropped in a
// grid onto a floor box, 60 frames at 60 Hz, on one thread. Each iteration loads the scenario
// from its YAML text (arrays), instantiates it and simulates it, final and max_overlap included.
// items = body-steps (N × 60). `rain_all_pairs` steps the same world with the broadphase giving
// every pair (the all-pairs loop it replaced), for the ratio. `rain_steps` times the 60 frames
// of a world built outside the timing, which is what bullet_rain's clock measures;
// `rain_steps_threads` the same frames on 1 and 2 threads (issue 30).
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <vector>

#include "probes/simulate.h"
#include "rain.h"
#include "scenario/load.h"
#include "world/world.h"

namespace {

using namespace collide;

constexpr int kFrames = 60;

Scenario load(int n, const std::string& mesh_obj = {}) {
    const std::string yaml = collide::bench::rain_yaml(n, kFrames, mesh_obj);
    const ScenarioTemplate t = parse_scenario_template(yaml, "rain.yaml");
    auto ev = t.make_evaluator();
    Scenario s;
    t.instantiate(apply_sets(t, {}), ev, s);
    return s;
}

void rain(benchmark::State& state) {
    const int n = static_cast<int>(state.range(0));
    std::vector<double> values;
    for (auto _ : state) {
        const Scenario s = load(n);
        values = simulate(s);
        benchmark::DoNotOptimize(values.data());
    }
    state.counters["lowest_y"] = values.at(1);    // final.y of the first sphere
    state.counters["max_overlap"] = values.at(6); // max_overlap.depth
    state.SetItemsProcessed(state.iterations() * n * kFrames);
}
BENCHMARK(rain)->Arg(1000)->Arg(3000)->Arg(10000)->Unit(benchmark::kMillisecond)->UseRealTime();

/// bullet_rain's mesh floor written once to a temporary file (outside the timing); its path.
const std::string& floor_obj() {
    static const std::string path = [] {
        const std::filesystem::path p = std::filesystem::temp_directory_path() / "collide_bench_rain_floor.obj";
        std::ofstream(p) << collide::bench::rain_floor_obj();
        return p.string();
    }();
    return path;
}

/// The same rain onto the 20,000-triangle mesh floor, its OBJ read at every load.
void rain_mesh(benchmark::State& state) {
    const int n = static_cast<int>(state.range(0));
    const std::string& obj = floor_obj();
    std::vector<double> values;
    for (auto _ : state) {
        const Scenario s = load(n, obj);
        values = simulate(s);
        benchmark::DoNotOptimize(values.data());
    }
    state.counters["lowest_y"] = values.at(1);
    state.counters["max_overlap"] = values.at(6);
    state.SetItemsProcessed(state.iterations() * n * kFrames);
}
BENCHMARK(rain_mesh)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond)->UseRealTime();

/// The 60 frames alone, as bullet_rain times them: each iteration builds a fresh world (outside
/// the timing, as bullet_rain builds its world before its clock starts) and times its steps.
void rain_steps(benchmark::State& state) {
    const int n = static_cast<int>(state.range(0));
    const Scenario s = state.range(1) ? load(n, floor_obj()) : load(n);
    double lowest = 0;
    for (auto _ : state) {
        state.PauseTiming();
        auto world = std::make_unique<World>();
        world->reset(s.world, s.bodies);
        state.ResumeTiming();
        while (world->frames_stepped() < kFrames) world->step_frame();
        state.PauseTiming();
        lowest = world->state(1).position.y;
        world.reset();
        state.ResumeTiming();
    }
    state.counters["lowest_y"] = lowest; // the first sphere's centre height (m)
    state.SetItemsProcessed(state.iterations() * n * kFrames);
}
BENCHMARK(rain_steps)
        ->ArgNames({"n", "mesh"})
        ->Args({10000, 0})
        ->Args({10000, 1})
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();

/// The 60 frames alone on 1 or 2 threads (`threads`, issue 30): one world kept across the
/// iterations (its threads and storage too), reset outside the timing, so what is timed is what
/// Box3D's harness times on as many workers (box3d_rigid rain 10000 60 --workers N).
void rain_steps_threads(benchmark::State& state) {
    const Scenario s = load(static_cast<int>(state.range(0)));
    World world;
    world.set_threads(static_cast<int>(state.range(1)));
    for (auto _ : state) {
        state.PauseTiming();
        world.reset(s.world, s.bodies);
        state.ResumeTiming();
        while (world.frames_stepped() < kFrames) world.step_frame();
    }
    state.counters["lowest_y"] = world.state(1).position.y; // the same on every thread count
    state.SetItemsProcessed(state.iterations() * state.range(0) * kFrames);
}
BENCHMARK(rain_steps_threads)
        ->ArgNames({"n", "threads"})
        ->Args({10000, 1})
        ->Args({10000, 2})
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();

void rain_all_pairs(benchmark::State& state) {
    const int n = static_cast<int>(state.range(0));
    const Scenario s = load(n);
    World world;
    world.use_all_pairs(true);
    for (auto _ : state) {
        world.reset(s.world, s.bodies);
        while (world.frames_stepped() < kFrames) world.step_frame();
        benchmark::DoNotOptimize(world.state(1));
    }
    state.SetItemsProcessed(state.iterations() * n * kFrames);
}
BENCHMARK(rain_all_pairs)->Arg(1000)->Unit(benchmark::kMillisecond)->UseRealTime();

} // namespace
