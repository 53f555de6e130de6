#include <cmath>

#include <nlohmann/json.hpp>

#include "plot/script_json.h"
#include "sweep/format.h"

namespace collide {

namespace {

using Json = nlohmann::ordered_json; // keys in the order written: the same sweep, the same bytes

const char* type_name(FieldType type) {
    switch (type) {
    case FieldType::number: return "number";
    case FieldType::integer: return "integer";
    case FieldType::boolean: return "boolean";
    case FieldType::body: return "body";
    }
    return "number";
}

/// A cell's value as its field's type reads: true/false, a whole number, a body's name, a
/// number (plot/script_json.h's json_number: whole numbers without a fraction); null when not
/// measured (NaN) or not finite.
Json value_json(const SweepModel& model, FieldType type, double v) {
    if (std::isnan(v)) return nullptr;
    switch (type) {
    case FieldType::boolean: return v != 0;
    case FieldType::integer: return static_cast<long long>(v);
    case FieldType::body: {
        const auto index = static_cast<long long>(v);
        if (index >= 0 && index < static_cast<long long>(model.body_names.size()))
            return model.body_names[static_cast<std::size_t>(index)];
        return nullptr;
    }
    case FieldType::number: break;
    }
    return json_number(v);
}

} // namespace

std::string render_sweep_json(const SweepModel& model, const SweepPlan& plan, std::span<const double> values) {
    Json doc;
    doc["scenario"] = model.name;
    doc["file"] = model.file;
    Json params = Json::object();
    for (std::size_t i = 0; i < model.param_names.size(); ++i)
        params[model.param_names[i]] = json_number(model.default_params[i]);
    doc["params"] = std::move(params);
    const auto& axes = plan.grid.axes();
    Json axes_json = Json::array();
    for (const auto& axis : axes) {
        Json axis_values = Json::array();
        for (const double v : axis.values) axis_values.push_back(json_number(v));
        axes_json.push_back(Json{{"name", axis.name}, {"values", std::move(axis_values)}});
    }
    doc["axes"] = std::move(axes_json);
    doc["grid_cells"] = plan.grid.cells();
    if (plan.engines.size() > 1) doc["engines"] = plan.engines;
    Json modes = Json::array();
    for (const Detection m : plan.modes) modes.push_back(detection_name(m));
    doc["detection"] = std::move(modes);
    doc["shard"] = Json{{"index", plan.shard.index + 1}, {"count", plan.shard.count}};
    Json fields = Json::array();
    for (std::size_t f = 0; f < model.columns.size(); ++f)
        fields.push_back(Json{
                {"name", model.columns[f]}, {"type", type_name(model.fields[f].type)}, {"unit", model.fields[f].unit}});
    doc["fields"] = std::move(fields);
    Json cells = Json::array();
    const std::size_t width = model.fields.size();
    for (std::uint64_t row = 0; row < plan.rows(); ++row) {
        const std::uint64_t cell = plan.cell_of_row(row);
        Json cell_params = Json::object();
        for (std::size_t a = 0; a < axes.size(); ++a)
            cell_params[axes[a].name] = json_number(axes[a].values[plan.grid.coordinate(cell, a)]);
        Json c{{"cell", cell}, {"params", std::move(cell_params)}};
        if (plan.engines.size() > 1) c["engine"] = plan.engines[plan.engine_of_row(row)];
        c["detection"] = detection_name(plan.mode_of_row(row));
        Json cell_values = Json::object();
        for (std::size_t f = 0; f < width; ++f)
            cell_values[model.columns[f]] = value_json(model, model.fields[f].type, values[row * width + f]);
        c["values"] = std::move(cell_values);
        cells.push_back(std::move(c));
    }
    doc["cells"] = std::move(cells);
    // Two-space indents as `sim --format json` writes a log; names that are not UTF-8 as U+FFFD.
    return doc.dump(2, ' ', false, Json::error_handler_t::replace) + "\n";
}

} // namespace collide
