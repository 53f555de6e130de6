// libFuzzer harness for the scenario loader, the world and the renderer: any bytes must give a
// template or an InputError, never a crash, a hang or another exception; a template must
// instantiate (or throw InputError) with its defaults and with perturbed params; a scenario
// that loads is simulated (at most kMaxFuzzFrames frames of at most kMaxFuzzBodies bodies, so
// that one input stays fast) and rendered as text, JSON and CSV.
//
// Built by CMake with clang: cmake -B build-fuzz -DCMAKE_CXX_COMPILER=clang++ -DCOLLIDE_FUZZ=ON
// (scripts/fuzz.sh builds it and runs it for 60 s on fuzz/corpus/, as .ci/run does).
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string_view>

#include "model/log.h"
#include "probes/simulate.h"
#include "report/render.h"
#include "scenario/load.h"

namespace {
constexpr int kMaxFuzzFrames = 2000;
constexpr std::size_t kMaxFuzzBodies = 16;

/// Simulates and renders a loaded scenario; a located InputError (an overflow) is fine.
void run(collide::Scenario& s) {
    if (s.bodies.size() > kMaxFuzzBodies) return;
    if (s.world.frames > kMaxFuzzFrames) s.world.frames = kMaxFuzzFrames;
    const collide::Layout layout = collide::layout_of(s);
    std::vector<double> values(layout.fields.size(), std::numeric_limits<double>::quiet_NaN());
    collide::Workspace workspace;
    collide::simulate(s, values, workspace);
    (void)collide::render_text(s, layout, values);
    (void)collide::render_json(s, layout, values);
    (void)collide::render_csv(s, layout, values);
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const collide::ScenarioTemplate t = collide::parse_scenario_template(text, "fuzz.yaml");
        auto ev = t.make_evaluator();
        collide::Scenario s;
        std::vector<double> params = t.default_params();
        try {
            t.instantiate(params, ev, s);
            run(s);
        } catch (const collide::InputError&) {}
        for (double& p : params) p = -p * 3 + 0.5;
        try {
            t.instantiate(params, ev, s);
            run(s);
        } catch (const collide::InputError&) {}
    } catch (const collide::InputError& e) {
        if (e.diagnostics.empty()) __builtin_trap();
        for (const auto& d : e.diagnostics)
            if (d.line < 1 || d.column < 1) __builtin_trap();
    }
    return 0;
}
