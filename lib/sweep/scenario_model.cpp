#include "sweep/scenario_model.h"

#include <fmt/format.h>

#include "probes/record.h"

namespace collide {

namespace {

/// One thread's cells: its own evaluator, scenario and workspace, all reused across cells.
class ScenarioCellWorker : public CellWorker {
public:
    ScenarioCellWorker(const ScenarioTemplate& scenario, const std::vector<std::string>& engines)
            : template_(scenario), evaluator_(template_.make_evaluator()), scenario_(template_.base()) {
        for (const std::string& engine : engines) {
            workspaces_.push_back(std::make_unique<Workspace>());
            workspaces_.back()->use_engine(engine);
        }
    }

    void compute(std::span<const double> params, std::size_t engine, Detection mode,
                 std::span<double> values) override {
        try {
            template_.instantiate(params, evaluator_, scenario_);
        } catch (InputError& e) {
            // Say which cell: the error path may format, the cell path does not.
            std::string where;
            for (std::size_t i = 0; i < params.size(); ++i)
                where += fmt::format("{}{} = {}", i > 0 ? ", " : "", template_.param_names()[i], params[i]);
            for (Diagnostic& d : e.diagnostics) d.message += " (in the sweep cell with " + where + ")";
            throw InputError(std::move(e.diagnostics));
        }
        scenario_.world.detection = mode;
        last_ = workspaces_[engine].get();
        simulate(scenario_, values, *last_);
    }

    std::uint64_t frames_simulated() const override {
        return last_ ? static_cast<std::uint64_t>(last_->frames_stepped()) : 0;
    }

private:
    ScenarioTemplate template_;
    ScenarioTemplate::Evaluator evaluator_;
    Scenario scenario_;
    std::vector<std::unique_ptr<Workspace>> workspaces_; // one per engine of the model
    Workspace* last_ = nullptr;                          // the one the last cell ran
};

} // namespace

SweepModel scenario_sweep_model(const ScenarioTemplate& scenario, const std::vector<std::string>& engines) {
    const Scenario& base = scenario.base();
    const Layout layout = layout_of(base);
    SweepModel model;
    model.name = base.name;
    model.file = display_name(scenario.file());
    model.param_names = scenario.param_names();
    model.default_params = scenario.default_params();
    model.fields = layout.fields;
    for (std::size_t entry = 0; entry + 1 < layout.offset.size(); ++entry)
        for (int f = layout.offset[entry]; f < layout.offset[entry + 1]; ++f)
            model.columns.push_back(base.log.size() > 1 ? base.log[entry].id + "." + layout.fields[f].name
                                                        : layout.fields[f].name);
    for (const BodyDef& body : base.bodies) model.body_names.push_back(body.name);
    model.detection = base.world.detection;
    model.engines = engines;
    model.make_worker = [scenario, engines] { return std::make_unique<ScenarioCellWorker>(scenario, engines); };
    model.run_cell = [scenario, engines](std::span<const double> params, std::size_t engine, Detection mode) {
        ScenarioTemplate copy(scenario);
        ScenarioTemplate::Evaluator evaluator = copy.make_evaluator();
        CellRun run{copy.base(), {}};
        copy.instantiate(params, evaluator, run.scenario);
        run.scenario.world.detection = mode;
        std::vector<double> values(layout_of(run.scenario).fields.size());
        run.recording = simulate_recorded(run.scenario, values, engines.at(engine));
        return run;
    };
    return model;
}

} // namespace collide
