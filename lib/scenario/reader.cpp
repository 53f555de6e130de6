// The YAML reader: scenario text → ScenarioTemplate. It walks the document once, checks every
// key against the schema (unknown and duplicate keys are errors), and records each problem as a
// Diagnostic at the node that caused it, carrying on so that one run reports them all.
//
// Numbers may be written as YAML numbers, as `$param`, or as expressions of params. Constants
// are checked and written into the base Scenario; param-dependent numbers become Exprs and Ops
// (scenario/template_data.h) that `instantiate` replays for each set of param values.
//
// This file reads the top level and the params; the other sections are read by
// read_bodies.cpp (world, bodies), read_log.cpp (log) and read_expect.cpp (expect), on the
// shared state of reader_state.h, with yaml_schema.h (mappings, keys, diagnostics) and
// read_numbers.h (numbers, vectors, rotations).
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <optional>
#include <set>

#include <fmt/format.h>
#include <yaml-cpp/exceptions.h>

#include "io/safe_text.h"
#include "io/text_scan.h"
#include "model/log.h"
#include "scenario/expression.h"
#include "scenario/load.h"
#include "scenario/reader_state.h"
#include "scenario/template_data.h"

namespace collide {

namespace reader {

ReaderState::ReaderState(TemplateData& data)
        : t(data), problems(display_name(data.file)), numbers(data, problems), body_index(BodyName{&data}) {}

namespace {

/// `params:`: each param's name and default, in file order.
void read_params(ReaderState& r, const Entry* e) {
    if (!e) return;
    r.t.params_mark = mark_of(e->value, e->key_mark);
    const auto view = read_open_map(r.problems, e->value, "params", e->key_mark);
    if (!view || !not_too_many(r.problems, view->entries.size(), "params", view->mark)) return;
    for (const Entry& p : view->entries) {
        const std::string what = "params." + p.key;
        if (!is_identifier(p.key)) {
            r.problems.error(p.key_mark, what + ": a param name is a letter or '_' followed by letters, digits or '_'");
            continue;
        }
        const SourceMark m = mark_of(p.value, p.key_mark);
        double value = 0;
        if (!p.value.is_scalar() || p.value.is_null() || !p.value.is_plain()) {
            r.problems.error(m, what + ": a param's default must be a plain number, got " + describe(p.value));
            continue;
        }
        if (detail::is_yaml_nonfinite(p.value.scalar())) {
            r.problems.error(m, what + " must be a finite number, got " + std::string(p.value.scalar()));
            continue;
        }
        if (!detail::parse_plain_number(p.value.scalar(), value)) {
            r.problems.error(m, what + ": a param's default must be a plain number, got " + describe(p.value));
            continue;
        }
        if (!std::isfinite(value)) {
            r.problems.error(m, what + " must be a finite number, got " + std::string(p.value.scalar()));
            continue;
        }
        r.t.param_names.push_back(p.key);
        r.t.param_defaults.push_back(value);
        r.t.param_used.push_back(false);
        r.t.base.params.emplace_back(p.key, value);
    }
}

/// `tolerance.fields:`, a mapping of logged values (ID.FIELD, as in `expect:`) to
/// `{ absolute, relative }`, resolved against the log read before it.
void read_field_tolerances(ReaderState& r, const Entry& e) {
    const auto view = read_open_map(r.problems, e.value, "tolerance.fields", e.key_mark);
    if (!view) return;
    const Scenario& base = r.t.base;
    const Layout layout = layout_of(base);
    std::vector<std::string> ids;
    for (const LogDef& d : base.log) ids.push_back(d.id);
    std::set<int> seen;
    for (const Entry& f : view->entries) {
        const std::string path = "tolerance.fields." + f.key;
        const int index = layout.find(base, f.key);
        if (index < 0) {
            const auto dot = f.key.rfind('.');
            if (dot == std::string::npos || !r.dropped_ids.count(f.key.substr(0, dot)))
                r.problems.error(f.key_mark,
                                 "tolerance.fields: no logged value '" + f.key + "' (" +
                                         (ids.empty() ? std::string("the log is empty") : "log ids: " + join(ids)) +
                                         ")");
            continue;
        }
        if (!seen.insert(index).second) {
            r.problems.error(f.key_mark, path + ": the same logged value has a tolerance already");
            continue;
        }
        const auto tol = read_map(r.problems, f.value, path, f.key_mark, {"absolute", "relative"});
        if (!tol) continue;
        if (f.value.size() == 0) {
            r.problems.error(tol->mark, path + ": expected { absolute: NUMBER, relative: NUMBER } (either or both)");
            continue;
        }
        int entry = 0;
        while (layout.offset[static_cast<std::size_t>(entry) + 1] <= index) ++entry;
        FieldTolerance ft;
        ft.field = base.log[static_cast<std::size_t>(entry)].id + "." +
                   layout.fields[static_cast<std::size_t>(index)].name;
        ft.mark = f.key_mark;
        const int k = static_cast<int>(r.t.base.field_tolerances.size());
        r.t.base.field_tolerances.push_back(ft);
        r.numbers.read_into(tol->find("absolute"), {&FieldTolerance::abs, k}, path + ".absolute", kNonNegative);
        r.numbers.read_into(tol->find("relative"), {&FieldTolerance::rel, k}, path + ".relative", kNonNegative);
    }
}

/// The whole document, a mapping of sections.
void read(ReaderState& r, const Node& root) {
    if (!root.is_map()) {
        r.problems.error(mark_of(root, {1, 1}),
                         "a scenario must be a mapping (name:, world:, bodies:, log:, ...), got " + describe(root));
        return;
    }
    const auto top = read_map(
            r.problems, root, "scenario", {1, 1},
            {"name", "about", "decimals", "tolerance", "golden", "params", "world", "bodies", "log", "expect"});
    if (!top) return;
    Scenario& s = r.t.base;
    s.file = r.t.file;

    read_params(r, top->find("params"));

    if (const Entry* e = top->find("name")) {
        read_string(r.problems, e, s.name, "name", false);
    } else if (r.t.file == "-") {
        s.name = "stdin";
    } else {
        s.name = escape_unsafe(std::filesystem::path(r.t.file).stem().string()); // shown escaped, never sent
        if (s.name.empty()) s.name = "scenario";
    }
    read_string(r.problems, top->find("about"), s.about, "about", true);
    r.numbers.read_into(top->find("decimals"), {&Scenario::decimals}, "decimals", whole(0, 12));
    std::optional<Entry> field_tolerances;
    if (const Entry* e = top->find("tolerance")) {
        if (const auto view =
                    read_map(r.problems, e->value, "tolerance", e->key_mark, {"absolute", "relative", "fields"})) {
            r.numbers.read_into(view->find("absolute"), {&Scenario::tolerance_abs}, "tolerance.absolute", kNonNegative);
            r.numbers.read_into(view->find("relative"), {&Scenario::tolerance_rel}, "tolerance.relative", kNonNegative);
            if (const Entry* f = view->find("fields")) field_tolerances = *f;
        }
    }
    if (const Entry* e = top->find("golden"))
        if (const auto view = read_map(r.problems, e->value, "golden", e->key_mark, {"frame_hashes", "recording"})) {
            read_bool(r.problems, view->find("frame_hashes"), s.frame_hashes, "golden.frame_hashes");
            read_bool(r.problems, view->find("recording"), s.golden_recording, "golden.recording");
        }
    read_world(r, top->find("world"));
    read_bodies(r, top->find("bodies"));
    read_log(r, top->find("log"));
    read_expect(r, top->find("expect"));
    if (field_tolerances) read_field_tolerances(r, *field_tolerances);
}

/// Deepest nesting of block and flow collections a scenario may use.
constexpr int kMaxScenarioNesting = 64;

/// The first reason raw `text` cannot be a scenario's YAML, or nothing. Binary content (a NUL
/// byte, invalid UTF-8) is reported at 1:1 (the file as a whole is wrong) with the offending
/// position in the message; nesting too deep is reported where the limit is crossed.
std::optional<Diagnostic> check_scenario_text(std::string_view text, const std::string& shown) {
    const auto at = [](const TextPosition& p) {
        return "line " + std::to_string(p.line) + ", column " + std::to_string(p.column);
    };
    if (const auto nul = find_nul_byte(text))
        return Diagnostic{shown, 1, 1, "not a YAML text file: NUL byte at " + at(*nul)};
    if (const auto bad = find_invalid_utf8(text))
        return Diagnostic{shown, 1, 1, "not a YAML text file: invalid UTF-8 at " + at(*bad)};
    if (const auto deep = find_nesting_deeper_than(text, kMaxScenarioNesting))
        return Diagnostic{shown, deep->line, deep->column,
                          "nesting deeper than " + std::to_string(kMaxScenarioNesting) +
                                  " levels: a scenario is a shallow mapping (refusing to parse)"};
    return std::nullopt;
}

/// A YAML syntax error as a diagnostic at its cause: yaml-cpp's mark, except for a flow
/// collection never closed, which yaml-cpp reports where it gave up (the next token, often lines
/// below): that one is reported at its opening bracket.
Diagnostic syntax_error(std::string_view text, const std::string& shown, const YAML::Exception& e) {
    const SourceMark m = to_mark(e.mark);
    std::string message = e.msg;
    if (message.find("bad file") != std::string::npos) message = "the YAML nests too deeply to be read";
    const bool map = message == YAML::ErrorMsg::END_OF_MAP_FLOW, seq = message == YAML::ErrorMsg::END_OF_SEQ_FLOW;
    if ((map || seq) && !e.mark.is_null() && e.mark.pos >= 0)
        if (const auto open = find_unclosed_flow(text, static_cast<std::size_t>(e.mark.pos))) {
            LineReader lines{text};
            std::string_view line;
            while (lines.number < open->line && lines.next(line)) {}
            const char bracket = map ? '{' : '[';
            if (lines.number == open->line && static_cast<std::size_t>(open->column) <= line.size() &&
                line[static_cast<std::size_t>(open->column) - 1] == bracket)
                return {shown, open->line, open->column,
                        fmt::format("YAML: this '{}' is never closed: no '{}' before line {}, column {} ({})", bracket,
                                    map ? '}' : ']', m.line, m.column, message)};
        }
    return {shown, m.line > 0 ? m.line : 1, m.column > 0 ? m.column : 1, "YAML: " + message};
}

/// True when `a` was written before `b`.
bool mark_before(const Diagnostic& a, const Diagnostic& b) {
    return a.line != b.line ? a.line < b.line : a.column < b.column;
}

} // namespace

} // namespace reader

ScenarioTemplate parse_scenario_template(std::string_view text, const std::string& file, const LoadProgress& progress) {
    auto data = std::make_shared<detail::TemplateData>();
    data->file = file;
    const std::string shown = display_name(file);
    if (auto problem = reader::check_scenario_text(text, shown)) throw InputError({std::move(*problem)});

    reader::YamlTree tree;
    try {
        // The first document only: yaml-cpp 0.7's LoadAll can loop forever on broken input
        // (tests/scenario/scenario_errors_test.cpp). Progress: the parse is the first half.
        const std::uint64_t total = 2 * static_cast<std::uint64_t>(text.size());
        tree = reader::parse_yaml(text, progress ? [&](std::size_t offset) { progress(offset, total); }
                                                 : std::function<void(std::size_t)>());
    } catch (const YAML::Exception& e) {
        throw InputError({reader::syntax_error(text, shown, e)});
    } catch (const std::exception& e) {
        throw InputError({{shown, 1, 1, std::string("cannot parse YAML: ") + e.what()}});
    }
    const reader::Node root = tree.root();
    const std::optional<int> second = second_document_line(text);
    if (!root.is_defined() || (root.is_null() && !second)) {
        const auto content = first_content(text);
        if (!content) throw InputError({{shown, 1, 1, "empty scenario"}});
        throw InputError({{shown, content->line, content->column,
                           "a scenario must be a mapping (name:, world:, bodies:, ...), but this reads as nothing"}});
    }

    reader::ReaderState state(*data);
    if (progress)
        state.progress = [&, size = text.size()](std::size_t done_bodies, std::size_t bodies) {
            progress(size + size * done_bodies / std::max<std::size_t>(bodies, 1), 2 * size); // the second half
        };
    if (second) state.problems.error({*second, 1}, "a scenario file holds one YAML document; another one starts here");
    try {
        if (!root.is_null()) reader::read(state, root);
    } catch (const YAML::Exception& e) {
        state.problems.error(reader::to_mark(e.mark), std::string("YAML: ") + e.msg);
    } catch (const mu::ParserError& e) {
        state.problems.error({1, 1}, "expression: " + e.GetMsg());
    }
    if (!state.problems.diagnostics.empty()) {
        std::stable_sort(state.problems.diagnostics.begin(), state.problems.diagnostics.end(), reader::mark_before);
        throw InputError(std::move(state.problems.diagnostics));
    }
    // Dependent fields hold their default-param values in the base.
    detail::run_ops(*data, data->slot_init.data(), data->base, nullptr);
    ScenarioTemplate result;
    result.data_ = std::move(data);
    return result;
}

} // namespace collide
