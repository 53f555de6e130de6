#include <cmath>
#include <iterator>

#include <fmt/format.h>

#include "sweep/format.h"

namespace collide {

namespace {

/// Appends a CSV field, quoted (RFC 4180) when it holds a comma, a quote or a line break.
void append_field(std::string_view text, std::string& out) {
    if (text.find_first_of(",\"\r\n") == std::string_view::npos) {
        out += text;
        return;
    }
    out += '"';
    for (char c : text) {
        if (c == '"') out += '"';
        out += c;
    }
    out += '"';
}

void append_value(const SweepModel& model, FieldType type, double v, std::string& out) {
    if (std::isnan(v)) return;
    switch (type) {
    case FieldType::boolean: out += v != 0 ? "true" : "false"; return;
    case FieldType::integer: fmt::format_to(std::back_inserter(out), "{}", static_cast<long long>(v)); return;
    case FieldType::body: {
        const auto index = static_cast<long long>(v);
        if (index >= 0 && index < static_cast<long long>(model.body_names.size()))
            append_field(model.body_names[index], out);
        return;
    }
    case FieldType::number: fmt::format_to(std::back_inserter(out), "{}", v); return;
    }
}

} // namespace

std::pair<const char*, const char*> boolean_words(const FieldSpec& field) {
    if (field.name == "tunneled") return {"tunneled", "held"};
    return {"caught", "missed"};
}

SweepFormat parse_sweep_format(std::string_view text) {
    if (text == "table") return SweepFormat::table;
    if (text == "csv") return SweepFormat::csv;
    if (text == "json") return SweepFormat::json;
    if (text == "svg") return SweepFormat::svg;
    if (text == "html") return SweepFormat::html;
    throw command_error(fmt::format("--format {}: expected table, csv, json, svg or html", text));
}

int find_measure(const SweepModel& model, std::string_view name) {
    const int n = static_cast<int>(model.columns.size());
    if (n == 0)
        throw command_error(fmt::format("{}: the scenario logs nothing, so there is no measure to map", model.file));
    if (name.empty()) {
        // The question a map most likely asks: did it go through (a tunnel entry), else did it touch.
        for (const char* field : {"tunneled", "hit"})
            for (int i = 0; i < n; ++i)
                if (model.fields[i].name == field) return i;
        return 0;
    }
    for (int i = 0; i < n; ++i)
        if (model.columns[i] == name) return i;
    int found = -1;
    for (int i = 0; i < n; ++i) {
        if (model.fields[i].name != name) continue;
        if (found >= 0) {
            found = -2;
            break;
        }
        found = i;
    }
    if (found >= 0) return found;
    std::string list;
    for (int i = 0; i < n; ++i) list += (i > 0 ? ", " : "") + model.columns[i];
    const char* why = found == -2 ? "several log entries have it, name one as ID.FIELD" : "no such field";
    throw command_error(fmt::format("--measure {}: {}; the fields are {}", name, why, list));
}

void GridLineBuilder::mix(std::string_view text, char end) {
    for (const char c : text) digest_ = (digest_ ^ static_cast<unsigned char>(c)) * 1099511628211ull;
    digest_ = (digest_ ^ static_cast<unsigned char>(end)) * 1099511628211ull;
}

void GridLineBuilder::close_axis() {
    if (!open_) return;
    mix("", ';');
    line_ += fmt::format(" ({} value{})", values_, values_ == 1 ? "" : "s");
    open_ = false;
}

void GridLineBuilder::axis(std::string_view name) {
    close_axis();
    mix(name, '=');
    line_ += fmt::format("{}{}", axes_ > 0 ? ", " : "", name);
    ++axes_;
    values_ = 0;
    open_ = true;
}

void GridLineBuilder::value(std::string_view text) {
    mix(text, ',');
    ++values_;
}

std::string GridLineBuilder::finish(const std::vector<std::string>& modes, const std::vector<std::string>& engines) {
    close_axis();
    if (axes_ == 0) line_ += "no axes";
    if (engines.size() > 1) {
        line_ += "; engine ";
        for (std::size_t e = 0; e < engines.size(); ++e) line_ += (e > 0 ? ", " : "") + engines[e];
    }
    line_ += "; detection ";
    for (std::size_t m = 0; m < modes.size(); ++m) line_ += (m > 0 ? ", " : "") + modes[m];
    return line_ + fmt::format("; digest {:016x}", digest_);
}

std::string sweep_grid_line(const std::vector<std::pair<std::string, std::vector<std::string>>>& axes,
                            const std::vector<std::string>& modes, const std::vector<std::string>& engines) {
    GridLineBuilder line;
    for (const auto& [name, values] : axes) {
        line.axis(name);
        for (const std::string& v : values) line.value(v);
    }
    return line.finish(modes, engines);
}

void append_csv_header(const SweepModel& model, const SweepPlan& plan, std::string& out) {
    std::vector<std::pair<std::string, std::vector<std::string>>> axes;
    for (const Axis& axis : plan.grid.axes()) {
        std::vector<std::string> values;
        values.reserve(axis.values.size());
        for (const double v : axis.values) values.push_back(fmt::format("{}", v));
        axes.emplace_back(axis.name, std::move(values));
    }
    std::vector<std::string> modes;
    for (const Detection m : plan.modes) modes.emplace_back(detection_name(m));
    out += sweep_grid_line(axes, modes, plan.engines);
    out += '\n';
    out += "cell";
    for (const Axis& axis : plan.grid.axes()) {
        out += ',';
        append_field(axis.name, out);
    }
    if (plan.engines.size() > 1) out += ",engine";
    out += ",detection";
    for (const std::string& column : model.columns) {
        out += ',';
        append_field(column, out);
    }
    out += '\n';
}

void append_csv_rows(const SweepModel& model, const SweepPlan& plan, std::uint64_t first_row, std::uint64_t count,
                     std::span<const double> values, std::string& out) {
    const std::size_t width = model.fields.size();
    const auto& axes = plan.grid.axes();
    for (std::uint64_t r = 0; r < count; ++r) {
        const std::uint64_t row = first_row + r;
        const std::uint64_t cell = plan.cell_of_row(row);
        fmt::format_to(std::back_inserter(out), "{}", cell);
        for (std::size_t a = 0; a < axes.size(); ++a)
            fmt::format_to(std::back_inserter(out), ",{}", axes[a].values[plan.grid.coordinate(cell, a)]);
        if (plan.engines.size() > 1) {
            out += ',';
            out += plan.engines[plan.engine_of_row(row)];
        }
        out += ',';
        out += detection_name(plan.mode_of_row(row));
        for (std::size_t f = 0; f < width; ++f) {
            out += ',';
            append_value(model, model.fields[f].type, values[r * width + f], out);
        }
        out += '\n';
    }
}

} // namespace collide
