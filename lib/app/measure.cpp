#include "app/measure.h"

#include <fmt/format.h>
#include <iterator>
#include <limits>

#include "io/atomic_file.h"
#include "probes/simulate.h"
#include "scenario/load.h"

namespace collide {

namespace {

/// Streams every body's state per sampled frame as CSV rows to the trace file (buffered by
/// OutputFile: memory stays bounded whatever the number of frames).
class CsvTrace final : public TraceSink {
public:
    CsvTrace(const Scenario& scenario, OutputFile& out) : scenario_(scenario), out_(out) {
        out_.write("frame,time,body,x,y,z,vx,vy,vz\n");
    }
    void frame(int frame, double time, std::span<const BodyState> bodies) override {
        for (std::size_t i = 0; i < bodies.size(); ++i) {
            const BodyState& b = bodies[i];
            line_.clear();
            fmt::format_to(std::back_inserter(line_), "{},{},{},{},{},{},{},{},{}\n", frame, time,
                           scenario_.bodies[i].name, b.position.x, b.position.y, b.position.z, b.velocity.x,
                           b.velocity.y, b.velocity.z);
            out_.write(line_);
        }
    }

private:
    const Scenario& scenario_;
    OutputFile& out_;
    std::string line_;
};

} // namespace

MeasuredScenario measure_scenario(const std::string& path, const SimOptions& options) {
    MeasuredScenario out;
    out.scenario = load_scenario(path, options.sets);
    if (options.detection) out.scenario.world.detection = *options.detection;
    out.layout = layout_of(out.scenario);
    out.values.assign(out.layout.fields.size(), std::numeric_limits<double>::quiet_NaN());
    Workspace workspace;
    if (options.trace_path.empty()) {
        simulate(out.scenario, out.values, workspace);
    } else {
        OutputFile file(options.trace_path);
        CsvTrace trace(out.scenario, file);
        simulate(out.scenario, out.values, workspace, &trace);
        file.commit();
    }
    return out;
}

} // namespace collide
