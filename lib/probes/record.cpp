#include "probes/record.h"

namespace collide {

void RecordingSink::frame(int frame, double time, std::span<const BodyState> bodies) {
    recording_.body_count = static_cast<int>(bodies.size());
    recording_.frames.push_back(frame);
    recording_.times.push_back(time);
    recording_.states.insert(recording_.states.end(), bodies.begin(), bodies.end());
}

Recording simulate_recorded(const Scenario& scenario, std::span<double> values, std::string_view engine) {
    RecordingSink sink;
    Workspace workspace;
    workspace.use_engine(engine);
    simulate(scenario, values, workspace, &sink);
    Recording r = sink.take();
    r.body_count = static_cast<int>(scenario.bodies.size());
    return r;
}

} // namespace collide
