#include "app/measure.h"

#include <cmath>
#include <fmt/format.h>
#include <limits>

#include "io/atomic_file.h"
#include "probes/record.h"
#include "probes/trace_csv.h"
#include "scenario/load.h"

namespace collide {

namespace {

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
    if (options.trace_path.empty() && options.plot_path.empty()) {
        simulate(out.scenario, out.values, workspace);
    } else if (options.trace_path.empty()) {
        out.recording = simulate_recorded(out.scenario, out.values);
    } else {
        // The trace streams to its output as frames happen (memory bounded by one frame); a
        // regular file is replaced only once the run is complete.
        OutputFile trace(options.trace_path);
        TraceCsvSink rows(out.scenario, trace);
        if (options.plot_path.empty()) {
            simulate(out.scenario, out.values, workspace, &rows);
        } else {
            RecordingSink recording;
            TeeSink both(recording, rows);
            simulate(out.scenario, out.values, workspace, &both);
            out.recording = recording.take();
            out.recording->body_count = static_cast<int>(out.scenario.bodies.size());
        }
        refuse_non_finite(out); // before the trace is committed: a run that fails leaves no trace file
        trace.commit();
        return out;
    }
    refuse_non_finite(out);
    return out;
}

} // namespace collide
