#pragma once
// Running a scenario written as YAML, for the probe tests: its log's values by `ID.FIELD`. The
// probes are reached the way `collide sim` reaches them (loader → simulate), so these tests
// hold whatever the world's observer interface becomes.
#include <catch2/catch.hpp>

#include <string>
#include <string_view>
#include <vector>

#include "model/log.h"
#include "probes/record.h"
#include "probes/simulate.h"
#include "scenario/load.h"

namespace collide::test {

/// A scenario and the values its log measured.
struct ProbeRun {
    Scenario scenario;
    std::vector<double> values;
    /// The value of `ID.FIELD` (fails the test when the log has no such field).
    double operator[](std::string_view dotted) const {
        const int i = layout_of(scenario).find(scenario, dotted);
        INFO("field " << dotted);
        REQUIRE(i >= 0);
        return values[static_cast<std::size_t>(i)];
    }
};

/// The scenario in `yaml`, with its params at their defaults.
inline Scenario scenario_from(const std::string& yaml) {
    const ScenarioTemplate t = parse_scenario_template(yaml, "probe.yaml");
    auto evaluator = t.make_evaluator();
    Scenario s;
    t.instantiate(t.default_params(), evaluator, s);
    return s;
}

/// Loads `yaml` and simulates it as `collide sim` does.
inline ProbeRun run_probes(const std::string& yaml) {
    ProbeRun r{scenario_from(yaml), {}};
    r.values = simulate(r.scenario);
    return r;
}

} // namespace collide::test
