#include "app/measure.h"

#include <fmt/format.h>
#include <limits>

#include "io/atomic_file.h"
#include "probes/simulate.h"
#include "scenario/load.h"

namespace collide {

namespace {

/// Collects every body's state per sampled frame as CSV rows.
class CsvTrace final : public TraceSink {
public:
    explicit CsvTrace(const Scenario& scenario) : scenario_(scenario) { text_ = "frame,time,body,x,y,z,vx,vy,vz\n"; }
    void frame(int frame, double time, std::span<const BodyState> bodies) override {
        for (std::size_t i = 0; i < bodies.size(); ++i) {
            const BodyState& b = bodies[i];
            text_ += fmt::format("{},{},{},{},{},{},{},{},{}\n", frame, time, scenario_.bodies[i].name, b.position.x,
                                 b.position.y, b.position.z, b.velocity.x, b.velocity.y, b.velocity.z);
        }
    }
    const std::string& text() const { return text_; }

private:
    const Scenario& scenario_;
    std::string text_;
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
        CsvTrace trace(out.scenario);
        simulate(out.scenario, out.values, workspace, &trace);
        write_file_atomically(options.trace_path, trace.text());
    }
    return out;
}

} // namespace collide
