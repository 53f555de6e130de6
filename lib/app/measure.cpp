#include "app/measure.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <fstream>
#include <iterator>
#include <limits>
#include <optional>
#include <time.h>

#include "engine/registry.h"
#include "io/atomic_file.h"
#include "probes/record.h"
#include "probes/record_file.h"
#include "probes/trace_csv.h"
#include "scenario/load.h"
#include "sweep/progress.h"
#include "world/parallel.h"

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

/// Counts the frames stepped into a progress line.
class FrameProgress final : public TraceSink {
public:
    explicit FrameProgress(Progress& progress) : progress_(progress) {}
    void frame(int frame, double, std::span<const BodyState>) override {
        progress_.update(static_cast<std::uint64_t>(frame) + 1);
    }

private:
    Progress& progress_;
};

/// True when the scenario's world runs every frame anyway (a log entry needs the whole run:
/// probes/simulate.h), so that watching its frames costs it nothing.
bool runs_every_frame(const Scenario& s) {
    return std::any_of(s.log.begin(), s.log.end(), [](const LogDef& d) {
        return std::holds_alternative<ApexLog>(d.request) || std::holds_alternative<AtRestLog>(d.request) ||
               std::holds_alternative<TriggerLog>(d.request) || std::holds_alternative<FinalLog>(d.request) ||
               std::holds_alternative<CharacterLog>(d.request) || std::holds_alternative<MaxOverlapLog>(d.request) ||
               std::holds_alternative<EnergyLog>(d.request);
    });
}

/// The scenario file's bytes, for its digest ("" for stdin, or a file that cannot be read again).
std::string scenario_bytes(const std::string& path) {
    if (path == "-") return {};
    std::ifstream in(path, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

} // namespace

double thread_cpu_seconds() {
    timespec t{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

MeasuredScenario measure_scenario(const std::string& path, const SimOptions& options) {
    MeasuredScenario out;
    std::optional<Progress> progress;
    if (options.progress) progress.emplace("sim", true, stderr);
    LoadProgress loading;
    if (progress)
        loading = [&, started = false](std::uint64_t done, std::uint64_t total) mutable {
            if (!started) progress->phase("loading", total / 2, "MB"); // the text's bytes, parsed then read
            started = true;
            progress->update(done / 2);
        };
    out.scenario = load_scenario(path, options.sets, loading);
    if (options.detection) {
        out.scenario.world.detection = *options.detection;
        out.scenario.detection_mark = {}; // the command line's, not the file's
    }
    const EngineSpec& engine = require_engine(options.engine);
    engine.refuse_unsupported(out.scenario);
    out.scenario.engine_header = engine.header(out.scenario);
    out.engine = engine.name;
    out.layout = layout_of(out.scenario);
    out.values.assign(out.layout.fields.size(), std::numeric_limits<double>::quiet_NaN());
    Workspace workspace;
    workspace.use_engine(engine.name);
    workspace.set_threads(options.jobs > 0 ? options.jobs : machine_threads());
    // Stepping shows its frames only where watching them changes nothing: a trace or a plot
    // watches every frame anyway, and so does a log that needs the whole run.
    std::optional<FrameProgress> frames;
    if (progress) {
        progress->phase("stepping", static_cast<std::uint64_t>(out.scenario.world.frames), "frames");
        frames.emplace(*progress);
    }
    TraceSink* watch = frames ? &*frames : nullptr;
    // What watches the run: a plot's recording in memory; the trace and the recording, streamed
    // to their outputs as frames happen (memory bounded by one frame; a regular file is replaced
    // only once the run is complete); the progress line.
    std::optional<RecordingSink> recording;
    std::optional<OutputFile> trace_out, record_out;
    std::optional<TraceCsvSink> rows;
    std::optional<RecordFileSink> record;
    std::optional<FrameHashSink> hashes;
    std::vector<TraceSink*> sinks;
    if (!options.plot_path.empty()) sinks.push_back(&recording.emplace());
    if (out.scenario.frame_hashes) sinks.push_back(&hashes.emplace());
    if (!options.trace_path.empty()) {
        trace_out.emplace(options.trace_path);
        sinks.push_back(&rows.emplace(out.scenario, *trace_out));
    }
    if (!options.record_path.empty()) {
        record_out.emplace(options.record_path);
        sinks.push_back(&record.emplace(run_info_of(out.scenario, engine.name, scenario_bytes(path)), *record_out));
    }
    if (watch && (!sinks.empty() || runs_every_frame(out.scenario))) sinks.push_back(watch);
    FanSink fan(sinks);
    const double cpu_before = thread_cpu_seconds();
    simulate(out.scenario, out.values, workspace,
             sinks.empty()       ? nullptr
             : sinks.size() == 1 ? sinks.front()
                                 : static_cast<TraceSink*>(&fan));
    out.cpu_seconds = thread_cpu_seconds() - cpu_before;
    if (recording) {
        out.recording = recording->take();
        out.recording->body_count = static_cast<int>(out.scenario.bodies.size());
    }
    if (hashes) out.frame_hashes = hashes->take();
    refuse_non_finite(out); // before the outputs are committed: a run that fails leaves no file
    if (trace_out || record_out) {
        if (progress) progress->phase("writing", 0, "");
        if (record) record->finish();
        if (trace_out) trace_out->commit();
        if (record_out) record_out->commit();
    }
    return out;
}

} // namespace collide
