// Loading scenes written one body per line (as a level exporter writes them): the whole reader
// (parse_scenario_template: YAML to the model), and its YAML pass alone, the one-pass parser
// against yaml-cpp's event parser (the fallback) on the same text. MB/s is bytes of scenario
// text per second of this thread. bench/load.sh measures whole processes and their memory.
#include <benchmark/benchmark.h>

#include <cmath>
#include <string>

#include <fmt/format.h>

#include "scenario/load.h"
#include "scenario/yaml_tree.h"

namespace {

using namespace collide;

/// `n` spheres one per line on a grid over a floor box (bench/load.sh writes the same scene); with
/// the floor, 199,999 of them make the 200,000-body cap.
std::string lines(int n) {
    const int side = static_cast<int>(std::lround(std::cbrt(static_cast<double>(n)) + 0.5));
    std::string y = "name: rain-lines\nworld: { rate: 60, frames: 60, gravity: [0, -9.81, 0] }\nbodies:\n"
                    "  floor: { static: true, box: { min: [-500, -2, -500], max: [500, 0, 500] }, restitution: 0.2, "
                    "friction: 0.3 }\n";
    for (int k = 0; k < n; ++k) {
        const int x = k % side, z = (k / side) % side, up = k / (side * side);
        y += fmt::format(
                "  s{}: {{ sphere: {{ radius: 0.2 }}, position: [{:.2f}, {:.2f}, {:.2f}], velocity: [0, 0, 0], "
                "restitution: 0.2, friction: 0.3 }}\n",
                k, -side * 0.25 + x * 0.5, 1 + up * 0.5, -side * 0.25 + z * 0.5);
    }
    return y + "log:\n  - final: { body: s0 }\n  - max_overlap: {}\n";
}

void BM_LoadLines(benchmark::State& state) {
    const std::string text = lines(static_cast<int>(state.range(0)));
    for (auto _ : state) {
        const ScenarioTemplate t = parse_scenario_template(text, "lines.yaml");
        benchmark::DoNotOptimize(t.base().bodies.data());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}

void BM_YamlTreeFast(benchmark::State& state) {
    const std::string text = lines(static_cast<int>(state.range(0)));
    for (auto _ : state) {
        const reader::YamlTree tree = reader::parse_yaml(text);
        benchmark::DoNotOptimize(tree.node_count());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}

void BM_YamlTreeYamlCpp(benchmark::State& state) {
    const std::string text = lines(static_cast<int>(state.range(0)));
    for (auto _ : state) {
        const reader::YamlTree tree = reader::parse_yaml_with_yaml_cpp(text);
        benchmark::DoNotOptimize(tree.node_count());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * text.size()));
}

BENCHMARK(BM_LoadLines)->Arg(10000)->Arg(199999)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_YamlTreeFast)->Arg(10000)->Arg(199999)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_YamlTreeYamlCpp)->Arg(10000)->Unit(benchmark::kMillisecond);

} // namespace
