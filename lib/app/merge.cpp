#include "app/merge.h"

#include <fmt/format.h>

#include "app/errors.h"
#include "engine/registry.h"
#include "io/atomic_file.h"
#include "scenario/load.h"
#include "sweep/format.h"
#include "sweep/merge_shards.h"
#include "sweep/scenario_model.h"

namespace collide {

int merge_command(const std::vector<std::string>& files, const std::string& output, std::ostream& err) {
    return exit_code_for_errors(err, "merge", [&] { merge_sweep_files(files, output); });
}

int merge_command(const MergeRequest& request, std::ostream& err) {
    return exit_code_for_errors(err, "merge", [&] {
        const SweepFormat format = parse_sweep_format(request.format);
        if (format == SweepFormat::csv) {
            if (!request.measure.empty())
                throw command_error("--measure picks what a map shows: give --format table, "
                                    "svg or html");
            merge_sweep_files(request.files, request.output);
            return;
        }
        if (request.scenario.empty())
            throw command_error(fmt::format("--format {} draws the map by the scenario's fields and bodies: give "
                                            "--scenario FILE, the scenario the shards swept",
                                            request.format));
        std::vector<std::string> inputs = request.files;
        inputs.push_back(request.scenario);
        refuse_output_onto_inputs(request.output, "-o", inputs);
        std::vector<ShardText> shards;
        for (const std::string& f : request.files) shards.push_back({f, read_file(f)});
        const std::string csv = merge_sweep_csv(shards);
        const ScenarioTemplate scenario =
                parse_scenario_template(read_scenario_text(request.scenario), request.scenario);
        const MergedSweep merged = read_merged_sweep(csv, scenario_sweep_model(scenario));
        for (const std::string& engine : merged.plan.engines)
            require_engine(engine).refuse_unsupported(scenario.base());
        const SweepModel model = scenario_sweep_model(scenario, merged.plan.engines);
        const int measure = find_measure(model, request.measure);
        std::string text;
        switch (format) {
        case SweepFormat::json: text = render_sweep_json(model, merged.plan, merged.values); break;
        case SweepFormat::table: text = render_sweep_table(model, merged.plan, merged.values, measure); break;
        case SweepFormat::svg: text = render_sweep_svg(model, merged.plan, merged.values, measure); break;
        case SweepFormat::html: text = render_sweep_html(model, merged.plan, merged.values, measure); break;
        case SweepFormat::csv: break;
        }
        write_file_atomically(request.output.empty() ? "-" : request.output, text);
    });
}

} // namespace collide
