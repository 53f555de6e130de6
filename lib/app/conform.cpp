#include "app/conform.h"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <nlohmann/json.hpp>

#include <fmt/format.h>

#include "app/conform_html.h"
#include "app/errors.h"
#include "app/measure.h"
#include "engine/registry.h"
#include "io/atomic_file.h"
#include "io/safe_text.h"
#include "scenario/load.h"
#include "sweep/grid.h"
#include "sweep/progress.h"

namespace collide {

namespace fs = std::filesystem;

namespace {

/// How far an outcome is from holding, for ordering: failed ones first, then error / tolerance.
double badness(const ExpectOutcome& o) {
    const double inf = std::numeric_limits<double>::infinity();
    if (std::isnan(o.error)) return inf;
    const double ratio = o.tolerance > 0 ? o.error / o.tolerance : (o.error > 0 ? inf : 0.0);
    return (o.passed ? 0.0 : 1e300) + std::min(ratio, 1e299);
}

bool is_scenario_file(const fs::path& p) {
    const std::string ext = p.extension().string();
    return ext == ".yaml" || ext == ".yml";
}

/// The scenario files `paths` name (a directory: its *.yaml and *.yml, sorted), in order; throws
/// InputError naming every path that is none.
std::vector<std::string> scenario_files_of(std::vector<std::string> paths) {
    if (paths.empty()) paths.push_back("scenarios");
    std::vector<std::string> files;
    std::vector<Diagnostic> problems;
    for (const std::string& arg : paths) {
        std::error_code ec;
        const fs::path p(arg);
        if (arg == "-") {
            problems.push_back({"", 0, 0, "conform reads scenario files, not stdin ('-'): each engine loads the file"});
        } else if (fs::is_directory(p, ec)) {
            std::vector<std::string> found;
            for (const fs::directory_entry& d : fs::directory_iterator(p, ec))
                if (d.is_regular_file(ec) && is_scenario_file(d.path())) found.push_back(d.path().generic_string());
            std::sort(found.begin(), found.end());
            if (ec)
                problems.push_back({arg, 0, 0, "cannot list the directory: " + ec.message()});
            else if (found.empty())
                problems.push_back({arg, 0, 0, "no scenario files (*.yaml, *.yml) in this directory"});
            files.insert(files.end(), found.begin(), found.end());
        } else if (fs::is_regular_file(p, ec)) {
            files.push_back(arg);
        } else {
            problems.push_back(
                    {arg, 0, 0, fs::exists(p, ec) ? "not a scenario file" : "no such scenario file or directory"});
        }
    }
    if (!problems.empty()) throw InputError(std::move(problems));
    return files;
}

/// The engines asked for: `--engine A,B`, or every engine this program has; throws InputError
/// for one it does not have.
std::vector<std::string> engines_of(const std::string& list) {
    std::vector<std::string> names;
    if (list.empty()) {
        for (const EngineSpec* e : engines()) names.push_back(e->name);
    } else {
        names = parse_engine_list(list);
    }
    for (const std::string& n : names) require_engine(n);
    return names;
}

/// A diagnostic as a reason: `FILE:LINE:COL: message`.
std::string reason_of(const Diagnostic& d) {
    if (d.file.empty()) return d.message;
    if (d.line <= 0) return fmt::format("{}: {}", d.file, d.message);
    return fmt::format("{}:{}:{}: {}", d.file, d.line, d.column, d.message);
}

/// A cell as the text table shows it.
std::string cell_text(const ConformCell& c) {
    switch (c.status) {
    case CellStatus::none: return "no expectations";
    case CellStatus::refused: return "refused";
    case CellStatus::ran: break;
    }
    const ExpectOutcome* w = c.worst();
    return fmt::format("{}/{}  {}  {:.3f} s", c.held(), c.outcomes.size(), w ? error_text(*w) : "-", c.cpu_seconds);
}

/// How many code points `s` has (UTF-8): its width in a terminal's columns, for these texts.
std::size_t width_of(const std::string& s) {
    return static_cast<std::size_t>(
            std::count_if(s.begin(), s.end(), [](char ch) { return (static_cast<unsigned char>(ch) & 0xC0) != 0x80; }));
}

/// `s` padded with spaces to `width` columns.
std::string pad(const std::string& s, std::size_t width) {
    const std::size_t w = width_of(s);
    return w >= width ? s : s + std::string(width - w, ' ');
}

/// "1 scenario", "3 scenarios".
std::string count_of(int n, const char* word) { return fmt::format("{} {}{}", n, word, n == 1 ? "" : "s"); }

nlohmann::json number_or_null(double v) { return std::isfinite(v) ? nlohmann::json(v) : nlohmann::json(nullptr); }

const char* status_name(CellStatus s) {
    switch (s) {
    case CellStatus::ran: return "ran";
    case CellStatus::refused: return "refused";
    case CellStatus::none: return "no expectations";
    }
    return "?";
}

} // namespace

std::string error_text(const ExpectOutcome& o) {
    if (std::isnan(o.error)) return "not measured";
    const std::string number = o.error == 0 ? "0" : fmt::format("{:.2g}", o.error);
    return o.unit.empty() ? number : number + " " + o.unit;
}

int ConformCell::held() const {
    return static_cast<int>(
            std::count_if(outcomes.begin(), outcomes.end(), [](const ExpectOutcome& o) { return o.passed; }));
}

const ExpectOutcome* ConformCell::worst() const {
    const ExpectOutcome* w = nullptr;
    for (const ExpectOutcome& o : outcomes)
        if (!w || badness(o) > badness(*w)) w = &o;
    return w;
}

EngineSummary summarize_engine(const ConformReport& report, std::size_t engine) {
    EngineSummary s;
    for (const ConformRow& row : report.rows) {
        const ConformCell& c = row.cells.at(engine);
        if (c.status == CellStatus::ran) {
            s.held += c.held();
            s.ran += static_cast<int>(c.outcomes.size());
            s.cpu_seconds += c.cpu_seconds;
            ++s.scenarios;
        } else if (c.status == CellStatus::refused) {
            ++s.refused;
            s.unchecked += static_cast<int>(row.lines.size());
        }
    }
    return s;
}

ConformReport run_conformance(const std::vector<std::string>& files, const std::vector<std::string>& engine_names,
                              const std::function<void(std::size_t)>& done) {
    ConformReport report;
    for (const std::string& name : engine_names) {
        const EngineSpec& spec = require_engine(name);
        report.engines.push_back({spec.name, spec.version});
    }
    std::vector<Diagnostic> problems;
    std::size_t runs = 0;
    for (const std::string& file : files) {
        ConformRow row;
        row.path = file;
        bool bad = false;
        for (const ConformEngine& engine : report.engines) {
            ConformCell cell;
            cell.engine = engine.name;
            if (!bad) {
                try {
                    if (!row.scenario) {
                        // Loaded once to see whether it states anything to check at all.
                        row.scenario = load_scenario(file);
                        row.name = row.scenario->name;
                        for (const ExpectDef& e : row.scenario->expect) row.lines.push_back(e.mark.line);
                    }
                    if (!row.scenario->expect.empty()) {
                        SimOptions options;
                        options.engine = engine.name;
                        const MeasuredScenario measured = measure_scenario(file, options);
                        cell.outcomes = check_expectations(measured.scenario, measured.layout, measured.values);
                        cell.cpu_seconds = measured.cpu_seconds;
                        cell.status = CellStatus::ran;
                    }
                } catch (const UnsupportedError& e) {
                    cell.status = CellStatus::refused;
                    cell.reason = e.diagnostics.empty() ? e.what() : reason_of(e.diagnostics.front());
                } catch (const InputError& e) {
                    problems.insert(problems.end(), e.diagnostics.begin(), e.diagnostics.end());
                    bad = true;
                }
            }
            row.cells.push_back(std::move(cell));
            if (done) done(++runs);
        }
        if (!bad) report.rows.push_back(std::move(row));
    }
    if (!problems.empty()) throw InputError(std::move(problems));
    return report;
}

std::string render_conformance_text(const ConformReport& report) {
    std::vector<std::vector<std::string>> table;
    table.push_back({"scenario"});
    for (const ConformEngine& e : report.engines) table.front().push_back(e.name);
    for (const ConformRow& row : report.rows) {
        std::vector<std::string> line{escape_unsafe(row.name)};
        for (const ConformCell& c : row.cells) line.push_back(cell_text(c));
        table.push_back(std::move(line));
    }
    std::vector<std::size_t> width(table.front().size(), 0);
    for (const auto& line : table)
        for (std::size_t k = 0; k < line.size(); ++k) width[k] = std::max(width[k], width_of(line[k]));
    std::string out = fmt::format(
            "conform: {} × {}; each cell: expectations held / checked, the worst error (the one furthest outside "
            "its tolerance), CPU seconds of the run on one thread\n\n",
            count_of(static_cast<int>(report.rows.size()), "scenario"),
            count_of(static_cast<int>(report.engines.size()), "engine"));
    for (const auto& line : table) {
        std::string text;
        for (std::size_t k = 0; k < line.size(); ++k)
            text += k + 1 < line.size() ? pad(line[k], width[k] + 2) : line[k];
        out += text + "\n";
    }
    std::string refused;
    for (const ConformRow& row : report.rows)
        for (const ConformCell& c : row.cells)
            if (c.status == CellStatus::refused)
                refused += fmt::format("  {} by {}: {}\n", escape_unsafe(row.name), c.engine, escape_unsafe(c.reason));
    if (!refused.empty()) out += "\nrefused:\n" + refused;
    out += "\nengine summary (speed and accuracy):\n";
    std::size_t name_width = 6;
    for (const ConformEngine& e : report.engines) name_width = std::max(name_width, e.name.size());
    for (std::size_t k = 0; k < report.engines.size(); ++k) {
        const EngineSummary s = summarize_engine(report, k);
        out += fmt::format("  {} held {} of {} in {}, {:.3f} CPU s", pad(report.engines[k].name, name_width + 1),
                           s.held, count_of(s.ran, "expectation"), count_of(s.scenarios, "scenario"), s.cpu_seconds);
        if (s.refused > 0)
            out += fmt::format("; refused {} ({})", count_of(s.refused, "scenario"),
                               count_of(s.unchecked, "expectation"));
        out += fmt::format("  [{}]\n", report.engines[k].version);
    }
    return out;
}

std::string render_conformance_json(const ConformReport& report) {
    nlohmann::ordered_json doc;
    doc["command"] = "conform";
    doc["time"] = "cpu_seconds: CPU seconds of a run (the engine and the probes, one thread, not loading); "
                  "not deterministic";
    doc["engines"] = nlohmann::ordered_json::array();
    for (std::size_t k = 0; k < report.engines.size(); ++k) {
        const EngineSummary s = summarize_engine(report, k);
        doc["engines"].push_back({{"name", report.engines[k].name},
                                  {"version", report.engines[k].version},
                                  {"held", s.held},
                                  {"checked", s.ran},
                                  {"scenarios", s.scenarios},
                                  {"refused", s.refused},
                                  {"unchecked", s.unchecked},
                                  {"cpu_seconds", s.cpu_seconds}});
    }
    doc["scenarios"] = nlohmann::ordered_json::array();
    for (const ConformRow& row : report.rows) {
        nlohmann::ordered_json r;
        r["name"] = row.name;
        r["file"] = row.path;
        r["expectations"] = row.lines.size();
        r["cells"] = nlohmann::ordered_json::array();
        for (const ConformCell& c : row.cells) {
            nlohmann::ordered_json cell;
            cell["engine"] = c.engine;
            cell["status"] = status_name(c.status);
            if (c.status == CellStatus::refused) cell["reason"] = c.reason;
            if (c.status == CellStatus::ran) {
                cell["held"] = c.held();
                cell["checked"] = c.outcomes.size();
                cell["cpu_seconds"] = c.cpu_seconds;
                cell["expectations"] = nlohmann::ordered_json::array();
                for (std::size_t i = 0; i < c.outcomes.size(); ++i) {
                    const ExpectOutcome& o = c.outcomes[i];
                    const bool known = row.scenario && i < row.scenario->expect.size();
                    cell["expectations"].push_back({{"line", i < row.lines.size() ? row.lines[i] : 0},
                                                    {"field", known ? row.scenario->expect[i].value : ""},
                                                    {"condition", o.condition},
                                                    {"held", o.passed},
                                                    {"value", number_or_null(o.value)},
                                                    {"expected", number_or_null(o.target)},
                                                    {"error", number_or_null(o.error)},
                                                    {"tolerance", o.tolerance},
                                                    {"unit", o.unit}});
                }
            }
            r["cells"].push_back(std::move(cell));
        }
        doc["scenarios"].push_back(std::move(r));
    }
    return doc.dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

int conform_command(const ConformRequest& request, std::ostream& out, std::ostream& err) {
    return exit_code_for_errors(err, "conform", [&] {
        const std::vector<std::string> files = scenario_files_of(request.paths);
        const std::vector<std::string> engines = engines_of(request.engines);
        refuse_output_onto_inputs(request.output, "-o", files);
        std::optional<Progress> progress;
        if (request.progress) {
            progress.emplace("conform", true, stderr);
            progress->phase("running", files.size() * engines.size(), "runs");
        }
        const ConformReport report = run_conformance(files, engines, [&](std::size_t k) {
            if (progress) progress->update(k);
        });
        if (progress) progress->finish();
        std::string text;
        switch (request.format) {
        case ConformFormat::text: text = render_conformance_text(report); break;
        case ConformFormat::json: text = render_conformance_json(report); break;
        case ConformFormat::html: text = render_conformance_html(report); break;
        }
        if (request.output.empty())
            out << text;
        else
            write_file_atomically(request.output, text);
        if (!request.strict) return kExitOk;
        for (const ConformRow& row : report.rows)
            for (const ConformCell& c : row.cells)
                if (c.status == CellStatus::ran && c.held() < static_cast<int>(c.outcomes.size())) return kExitFailed;
        return kExitOk;
    });
}

} // namespace collide
