#include "app/measure.h"

#include <cmath>
#include <fmt/format.h>
#include <iterator>
#include <limits>

#include "io/atomic_file.h"
#include "probes/record.h"
#include "scenario/load.h"

namespace collide {

namespace {

/// Shortest round-trip text of a number.
std::string num(double v) { return fmt::format("{}", v); }

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

std::string trace_csv(const Scenario& scenario, const Recording& rec) {
    std::string text = "frame,time,kind,body,with,x,y,z,vx,vy,vz,qw,qx,qy,qz,nx,ny,nz,depth\n";
    const auto name = [&](int i) -> const std::string& { return scenario.bodies[static_cast<std::size_t>(i)].name; };
    std::size_t c = 0;
    for (std::size_t k = 0; k < rec.frame_count(); ++k) {
        const int frame = rec.frames[k];
        for (; c < rec.contacts.size() && rec.contacts[c].frame <= frame; ++c) {
            const TraceContact& t = rec.contacts[c];
            text += fmt::format("{},{},contact,{},{},{},{},{},,,,,,,,{},{},{},{}\n", t.frame, num(t.time), name(t.a),
                                name(t.b), num(t.point.x), num(t.point.y), num(t.point.z), num(t.normal.x),
                                num(t.normal.y), num(t.normal.z), num(t.depth));
        }
        const auto states = rec.at(k);
        for (std::size_t i = 0; i < states.size(); ++i) {
            const BodyState& b = states[i];
            const Quat& q = b.rotation; // the world's: a turning kinematic body's changes
            text += fmt::format("{},{},state,{},,{},{},{},{},{},{},{},{},{},{},,,,\n", frame, num(rec.times[k]),
                                scenario.bodies[i].name, num(b.position.x), num(b.position.y), num(b.position.z),
                                num(b.velocity.x), num(b.velocity.y), num(b.velocity.z), num(q.w), num(q.x), num(q.y),
                                num(q.z));
        }
    }
    return text;
}

MeasuredScenario measure_scenario(const std::string& path, const SimOptions& options) {
    MeasuredScenario out;
    out.scenario = load_scenario(path, options.sets);
    if (options.detection) out.scenario.world.detection = *options.detection;
    out.layout = layout_of(out.scenario);
    out.values.assign(out.layout.fields.size(), std::numeric_limits<double>::quiet_NaN());
    if (options.trace_path.empty() && options.plot_path.empty()) {
        Workspace workspace;
        simulate(out.scenario, out.values, workspace);
    } else {
        out.recording = simulate_recorded(out.scenario, out.values);
        if (!options.trace_path.empty())
            write_file_atomically(options.trace_path, trace_csv(out.scenario, *out.recording));
    }
    refuse_non_finite(out);
    return out;
}

} // namespace collide
