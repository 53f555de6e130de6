// The streamed CSV trace (probes/trace_csv.h): the same bytes as the trace of a recorded run on
// every shipped scenario, written through the one output writer as frames happen.
#include <catch2/catch.hpp>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "io/atomic_file.h"
#include "probes/record.h"
#include "probes/trace_csv.h"
#include "scenario/load.h"
#include "support/project_dir.h"

using namespace collide;
namespace fs = std::filesystem;

namespace {} // namespace

TEST_CASE("the streamed trace is byte for byte the trace of the recorded run, on every shipped scenario", "[heavy]") {
    const collide::test::ScratchDir scratch("collide_trace_stream");
    const fs::path& dir = scratch.path;
    int scenarios = 0;
    for (const auto& entry : fs::directory_iterator(fs::path(COLLIDE_SOURCE_DIR) / "scenarios")) {
        if (entry.path().extension() != ".yaml") continue;
        INFO(entry.path().string());
        const Scenario s = load_scenario(entry.path().string());
        std::vector<double> recorded_values(layout_of(s).fields.size());
        const Recording rec = simulate_recorded(s, recorded_values);
        const std::string in_memory = trace_csv(s, rec);

        const fs::path file = dir / (entry.path().stem().string() + ".csv");
        std::vector<double> streamed_values(recorded_values.size());
        {
            OutputFile out(file.string());
            TraceCsvSink sink(s, out);
            Workspace ws;
            simulate(s, streamed_values, ws, &sink);
            out.commit();
        }
        CHECK(collide::test::read_text(file) == in_memory);
        CHECK(in_memory.rfind(std::string(trace_csv_header()), 0) == 0);
        // Tracing changes nothing measured (NaN is "not measured": compare the bits).
        CHECK(std::memcmp(streamed_values.data(), recorded_values.data(), recorded_values.size() * sizeof(double)) ==
              0);
        ++scenarios;
    }
    CHECK(scenarios >= 10);
}
