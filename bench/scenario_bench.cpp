// Scenario instantiation per sweep cell: the tunnel (bare $params only) and a scenario whose
// params feed muparser expressions, a rotation and a box. Baseline: copying the base Scenario,
// which every instantiation does first. Params vary per call (no repeated input).
#include <benchmark/benchmark.h>

#include "scenario/load.h"

namespace {

using namespace collide;

const char* const kTunnel = R"(
params: { speed: 60, offset: 0 }
world: { rate: 60, frames: 40, phase: $offset }
bodies:
  wall:   { static: true, box: { min: [-0.05, -2, -2], max: [0.05, 2, 2] } }
  bullet: { sphere: { radius: 0.3 }, position: [-3, 0, 0], velocity: [$speed, 0, 0] }
log:
  - first_contact: { body: bullet, with: wall }
)";

const char* const kExpressions = R"yaml(
params: { speed: 60, offset: 0, tilt: 10 }
world: { rate: 60, frames: 40, phase: $offset }
bodies:
  wall:   { static: true, box: { centre: [0, 0, 0], half: [0.05, 2, 2], rotation: { axis: [0, 0, 1], degrees: $tilt } } }
  bullet: { sphere: { radius: 0.3 }, position: ["-3 + $offset * $speed / 60", 0, 0], velocity: ["$speed * cos($tilt * _pi / 180)", 0, 0] }
log:
  - first_contact: { body: bullet, with: wall }
)yaml";

void run(benchmark::State& state, const char* text) {
    const ScenarioTemplate t = parse_scenario_template(text, "bench.yaml");
    auto ev = t.make_evaluator();
    Scenario out;
    std::vector<double> params = t.default_params();
    t.instantiate(params, ev, out);
    std::size_t i = 0;
    for (auto _ : state) {
        params[0] = 30.0 + static_cast<double>(i % 271);
        params[1] = 0.05 * static_cast<double>(i % 19);
        ++i;
        t.instantiate(params, ev, out);
        benchmark::DoNotOptimize(out.bodies[1].position.x);
    }
}

void BM_CopyBaseScenario(benchmark::State& state) {
    const ScenarioTemplate t = parse_scenario_template(kTunnel, "bench.yaml");
    Scenario out = t.base();
    for (auto _ : state) {
        out = t.base();
        benchmark::DoNotOptimize(out.bodies[1].position.x);
    }
}
void BM_InstantiateTunnel(benchmark::State& state) { run(state, kTunnel); }
void BM_InstantiateExpressions(benchmark::State& state) { run(state, kExpressions); }

BENCHMARK(BM_CopyBaseScenario);
BENCHMARK(BM_InstantiateTunnel);
BENCHMARK(BM_InstantiateExpressions);

} // namespace
