// World benchmarks: the tunnel of scenarios/tunnel.yaml (a 0.3 m sphere at 60 m/s towards a 10 cm
// wall, 60 Hz, 40 frames, first_contact only), the frame offset cycling over 1000 values so neither
// the outcome nor the frame of the hit repeats in a pattern the branch predictor could learn. items
// = runs; `frames` = the 40 frames each run represents (runs may stop early once the answer is
// settled). The `_every_frame` variants pass a trace, which forces all 40 frames. The `_trigger`
// variants add a trigger zone x ∈ [−1.5, −1] the bullet passes through and log it (probes/trigger.h:
// sampled, or followed exactly when swept), which also runs all 40 frames: against
// `_every_frame`, the cost of watching a trigger.
#include <benchmark/benchmark.h>

#include <vector>

#include "model/log.h"
#include "probes/simulate.h"

namespace {

using namespace collide;

constexpr int kOffsets = 1000;

Scenario tunnel(double phase, Detection detection) {
    Scenario s;
    s.name = "tunnel";
    s.world.dt = 1.0 / 60.0;
    s.world.frames = 40;
    s.world.phase = phase;
    s.world.detection = detection;
    BodyDef wall;
    wall.name = "wall";
    wall.shape = Aabb{{-0.05, -2, -2}, {0.05, 2, 2}};
    wall.is_static = true;
    BodyDef bullet;
    bullet.name = "bullet";
    bullet.shape = Sphere{{}, 0.3};
    bullet.position = {-3, 0, 0};
    bullet.velocity = {60, 0, 0};
    s.bodies = {wall, bullet};
    LogDef log;
    log.request = FirstContactLog{1, 0};
    s.log = {log};
    return s;
}

struct NullTrace : TraceSink {
    void frame(int, double, std::span<const BodyState>) override {}
};

void run_tunnel(benchmark::State& state, Detection detection, bool every_frame, bool trigger = false) {
    std::vector<Scenario> scenes;
    scenes.reserve(kOffsets);
    // Offsets i·0.618… mod 1: spread over [0, 1) in an order with no short period.
    for (int i = 0; i < kOffsets; ++i) {
        const double golden = 0.6180339887498949 * i;
        scenes.push_back(tunnel(golden - static_cast<int>(golden), detection));
        if (!trigger) continue;
        BodyDef zone;
        zone.name = "zone";
        zone.shape = Aabb{{-1.5, -2, -2}, {-1, 2, 2}};
        zone.is_static = true;
        zone.trigger = true;
        scenes.back().bodies.push_back(zone);
        LogDef log;
        log.request = TriggerLog{1, 2};
        scenes.back().log.push_back(log);
    }
    std::vector<double> values(static_cast<std::size_t>(layout_of(scenes[0]).offset.back()));
    Workspace workspace;
    NullTrace trace;
    int next = 0;
    double hits = 0;
    for (auto _ : state) {
        simulate(scenes[static_cast<std::size_t>(next)], values, workspace, every_frame ? &trace : nullptr);
        hits += values[0];
        benchmark::DoNotOptimize(values.data());
        if (++next == kOffsets) next = 0;
    }
    state.SetItemsProcessed(state.iterations());
    state.counters["frames"] =
            benchmark::Counter(40.0 * static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
    state.counters["hit_share"] = hits / static_cast<double>(state.iterations());
}

void world_tunnel_discrete(benchmark::State& state) { run_tunnel(state, Detection::discrete, false); }
void world_tunnel_swept(benchmark::State& state) { run_tunnel(state, Detection::swept, false); }
void world_tunnel_discrete_every_frame(benchmark::State& state) { run_tunnel(state, Detection::discrete, true); }
void world_tunnel_swept_every_frame(benchmark::State& state) { run_tunnel(state, Detection::swept, true); }
void world_tunnel_discrete_trigger(benchmark::State& state) { run_tunnel(state, Detection::discrete, false, true); }
void world_tunnel_swept_trigger(benchmark::State& state) { run_tunnel(state, Detection::swept, false, true); }

BENCHMARK(world_tunnel_discrete);
BENCHMARK(world_tunnel_swept);
BENCHMARK(world_tunnel_discrete_every_frame);
BENCHMARK(world_tunnel_swept_every_frame);
BENCHMARK(world_tunnel_discrete_trigger);
BENCHMARK(world_tunnel_swept_trigger);

} // namespace
