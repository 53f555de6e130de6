// libFuzzer harness for the scenario loader: any bytes must give a template or a InputError,
// never a crash, a hang or another exception; a template must instantiate (or throw
// InputError) with its defaults and with perturbed params.
//
// Build and run (not part of the CMake build; needs clang and libclang-rt-14-dev):
//   clang++ -std=c++20 -g -O1 -fsanitize=fuzzer,address,undefined -Ilib fuzz/scenario_fuzz.cpp \
//       lib/scenario/*.cpp lib/model/*.cpp lib/response/response.cpp lib/shapes/shapes.cpp \
//       -lyaml-cpp -lmuparser -lfmt -o build/scenario_fuzz
//   build/scenario_fuzz -max_len=4096 -timeout=5 -max_total_time=60 tests/scenario/fixtures
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "scenario/load.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    try {
        const collide::ScenarioTemplate t = collide::parse_scenario_template(text, "fuzz.yaml");
        auto ev = t.make_evaluator();
        collide::Scenario s;
        std::vector<double> params = t.default_params();
        try {
            t.instantiate(params, ev, s);
        } catch (const collide::InputError&) {}
        for (double& p : params) p = -p * 3 + 0.5;
        try {
            t.instantiate(params, ev, s);
        } catch (const collide::InputError&) {}
    } catch (const collide::InputError& e) {
        if (e.diagnostics.empty()) __builtin_trap();
        for (const auto& d : e.diagnostics)
            if (d.line < 1 || d.column < 1) __builtin_trap();
    }
    return 0;
}
