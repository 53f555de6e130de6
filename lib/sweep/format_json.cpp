#include <cmath>
#include <iterator>

#include <fmt/format.h>

#include "sweep/format.h"

namespace collide {

namespace {

void append_string(std::string_view text, std::string& out) {
    out += '"';
    for (unsigned char c : text) {
        switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default:
            if (c < 0x20)
                fmt::format_to(std::back_inserter(out), "\\u{:04x}", c);
            else
                out += static_cast<char>(c);
        }
    }
    out += '"';
}

void append_number(double v, std::string& out) {
    if (!std::isfinite(v))
        out += "null";
    else
        fmt::format_to(std::back_inserter(out), "{}", v);
}

const char* type_name(FieldType type) {
    switch (type) {
    case FieldType::number: return "number";
    case FieldType::integer: return "integer";
    case FieldType::boolean: return "boolean";
    case FieldType::body: return "body";
    }
    return "number";
}

void append_value(const SweepModel& model, FieldType type, double v, std::string& out) {
    if (std::isnan(v)) {
        out += "null";
        return;
    }
    switch (type) {
    case FieldType::boolean: out += v != 0 ? "true" : "false"; return;
    case FieldType::integer: fmt::format_to(std::back_inserter(out), "{}", static_cast<long long>(v)); return;
    case FieldType::body: {
        const auto index = static_cast<long long>(v);
        if (index >= 0 && index < static_cast<long long>(model.body_names.size()))
            append_string(model.body_names[index], out);
        else
            out += "null";
        return;
    }
    case FieldType::number: append_number(v, out); return;
    }
}

} // namespace

std::string render_sweep_json(const SweepModel& model, const SweepPlan& plan, std::span<const double> values) {
    std::string out = "{\n  \"scenario\": ";
    append_string(model.name, out);
    out += ",\n  \"file\": ";
    append_string(model.file, out);
    out += ",\n  \"params\": {";
    for (std::size_t i = 0; i < model.param_names.size(); ++i) {
        out += i > 0 ? ", " : "";
        append_string(model.param_names[i], out);
        out += ": ";
        append_number(model.default_params[i], out);
    }
    out += "},\n  \"axes\": [";
    const auto& axes = plan.grid.axes();
    for (std::size_t a = 0; a < axes.size(); ++a) {
        out += a > 0 ? ",\n    " : "\n    ";
        out += "{\"name\": ";
        append_string(axes[a].name, out);
        out += ", \"values\": [";
        for (std::size_t i = 0; i < axes[a].values.size(); ++i) {
            out += i > 0 ? ", " : "";
            append_number(axes[a].values[i], out);
        }
        out += "]}";
    }
    out += axes.empty() ? "],\n" : "\n  ],\n";
    fmt::format_to(std::back_inserter(out), "  \"grid_cells\": {},\n", plan.grid.cells());
    if (plan.engines.size() > 1) {
        out += "  \"engines\": [";
        for (std::size_t e = 0; e < plan.engines.size(); ++e) {
            out += e > 0 ? ", " : "";
            append_string(plan.engines[e], out);
        }
        out += "],\n";
    }
    out += "  \"detection\": [";
    for (std::size_t m = 0; m < plan.modes.size(); ++m) {
        out += m > 0 ? ", " : "";
        append_string(detection_name(plan.modes[m]), out);
    }
    fmt::format_to(std::back_inserter(out), "],\n  \"shard\": {{\"index\": {}, \"count\": {}}},\n  \"fields\": [",
                   plan.shard.index + 1, plan.shard.count);
    for (std::size_t f = 0; f < model.columns.size(); ++f) {
        out += f > 0 ? ", " : "";
        out += "{\"name\": ";
        append_string(model.columns[f], out);
        out += ", \"type\": ";
        append_string(type_name(model.fields[f].type), out);
        out += ", \"unit\": ";
        append_string(model.fields[f].unit, out);
        out += '}';
    }
    out += "],\n  \"cells\": [";
    const std::size_t width = model.fields.size();
    const std::uint64_t rows = plan.rows();
    for (std::uint64_t row = 0; row < rows; ++row) {
        const std::uint64_t cell = plan.cell_of_row(row);
        out += row > 0 ? ",\n    " : "\n    ";
        fmt::format_to(std::back_inserter(out), "{{\"cell\": {}, \"params\": {{", cell);
        for (std::size_t a = 0; a < axes.size(); ++a) {
            out += a > 0 ? ", " : "";
            append_string(axes[a].name, out);
            out += ": ";
            append_number(axes[a].values[plan.grid.coordinate(cell, a)], out);
        }
        out += "}, ";
        if (plan.engines.size() > 1) {
            out += "\"engine\": ";
            append_string(plan.engines[plan.engine_of_row(row)], out);
            out += ", ";
        }
        out += "\"detection\": ";
        append_string(detection_name(plan.mode_of_row(row)), out);
        out += ", \"values\": {";
        for (std::size_t f = 0; f < width; ++f) {
            out += f > 0 ? ", " : "";
            append_string(model.columns[f], out);
            out += ": ";
            append_value(model, model.fields[f].type, values[row * width + f], out);
        }
        out += "}}";
    }
    out += rows > 0 ? "\n  ]\n}\n" : "]\n}\n";
    return out;
}

} // namespace collide
