#include "app/measure.h"

#include <cmath>
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

/// Throws a located InputError (at the log entry) when a measured value overflowed: collide
/// never prints inf. (NaN is "not measured".)
void refuse_non_finite(const MeasuredScenario& m) {
    for (std::size_t i = 0; i < m.values.size(); ++i) {
        if (!std::isinf(m.values[i])) continue;
        std::size_t entry = 0;
        while (entry + 1 < m.layout.offset.size() && static_cast<std::size_t>(m.layout.offset[entry + 1]) <= i) ++entry;
        const LogDef& def = m.scenario.log.at(entry);
        throw InputError(display_name(m.scenario.file), def.mark.line, def.mark.column,
                         fmt::format("log entry {}: {} overflows to {}; its inputs are too large to compute it", def.id,
                                     m.layout.fields[i].name, m.values[i] > 0 ? "+inf" : "-inf"));
    }
}

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
    refuse_non_finite(out);
    return out;
}

} // namespace collide
