#include "scenario/load.h"

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <iterator>
#include <stdexcept>

#include <fmt/format.h>
#include <sys/stat.h>

#include "io/memory.h"
#include "response/response.h"
#include "scenario/expression.h"
#include "scenario/template_data.h"

namespace collide {

namespace detail {

struct EvaluatorData {
    const TemplateData* owner = nullptr;              // the template it was made for
    std::unique_ptr<double[]> params;                 // the values the parsers' variables point at
    std::vector<double> slots;                        // Expr results and constant Op inputs
    std::vector<std::unique_ptr<mu::Parser>> parsers; // one per Expr; null when the Expr is a bare $name
    const Scenario* filled = nullptr;                 // the Scenario the last successful instantiate filled
    const BodyDef* filled_bodies = nullptr;           // … and its bodies' storage then (a new Scenario at
                                                      // the same address has other storage, or none)
};

std::string number_text(double value) { return fmt::format("{}", value); }

std::string check_problem(double value, const Check& check) {
    if (!std::isfinite(value)) return "must be a finite number";
    if (check.integer && value != std::floor(value)) return "must be a whole number";
    const bool low = check.lo_open ? !(value > check.lo) : !(value >= check.lo);
    const bool high = check.hi_open ? !(value < check.hi) : !(value <= check.hi);
    if (!low && !high) return {};
    const bool has_lo = std::isfinite(check.lo), has_hi = std::isfinite(check.hi);
    if (has_lo && has_hi)
        return "must be in " + std::string(check.lo_open ? "(" : "[") + number_text(check.lo) + ", " +
               number_text(check.hi) + (check.hi_open ? ")" : "]");
    if (has_lo) return std::string(check.lo_open ? "must be > " : "must be >= ") + number_text(check.lo);
    return std::string(check.hi_open ? "must be < " : "must be <= ") + number_text(check.hi);
}

namespace {

Vec3 vec_in(const double* slots, const Op& op, int first) {
    return {slots[op.in[static_cast<std::size_t>(first)]], slots[op.in[static_cast<std::size_t>(first) + 1]],
            slots[op.in[static_cast<std::size_t>(first) + 2]]};
}

void write_rotation(Scenario& out, const Op& op, const Quat& q) {
    if (op.as_mat3)
        field<Mat3>(out, op.dest) = to_mat3(q);
    else
        field<Quat>(out, op.dest) = q;
}

} // namespace

namespace {

/// True when `u` and `v` (from one corner) are parallel or either is zero: |u × v| ≤ 1e-12·|u|·|v|.
bool on_one_line(const Vec3& u, const Vec3& v) { return length(cross(u, v)) <= 1e-12 * length(u) * length(v); }

} // namespace

std::string shape_without_size(const Shape& shape) {
    if (const auto* c = std::get_if<Capsule>(&shape)) {
        if (c->a == c->b) return "a and b are the same point: a capsule needs a length (a ball is a sphere)";
    } else if (const auto* t = std::get_if<Triangle>(&shape)) {
        if (on_one_line(t->b - t->a, t->c - t->a))
            return "corners a, b and c lie on one line: a triangle needs an area";
    } else if (const auto* h = std::get_if<Hull>(&shape)) {
        const int n = h->count();
        if (n < 1) return "";
        // The farthest point from the first, then any point off the line through both.
        const Vec3 p0 = h->point(0);
        Vec3 far = p0;
        for (int k = 1; k < n; ++k)
            if (length_squared(h->point(k) - p0) > length_squared(far - p0)) far = h->point(k);
        for (int k = 1; k < n; ++k)
            if (!on_one_line(far - p0, h->point(k) - p0)) return "";
        return far == p0 ? "every point is the same: a hull needs an area"
                         : "its points lie on one line: a hull needs an area";
    }
    return "";
}

double frames_of_duration(double duration, double dt, double phase) {
    const double steps = std::round(duration / dt);
    return std::max(1.0, phase == 0 ? steps + 1 : steps);
}

void run_ops(const TemplateData& data, const double* slots, Scenario& out, std::vector<Diagnostic>* errors) {
    const auto fail = [&](const Op& op, std::string message) {
        if (errors) errors->push_back({display_name(data.file), op.mark.line, op.mark.column, op.what + " " + message});
    };
    for (const Op& op : data.ops) {
        const double a = slots[op.in[0]];
        switch (op.kind) {
        case OpKind::set_double: field<double>(out, op.dest) = a; break;
        case OpKind::set_int: field<int>(out, op.dest) = static_cast<int>(a); break;
        case OpKind::set_bool: field<bool>(out, op.dest) = a != 0; break;
        case OpKind::dt_from_rate: field<double>(out, op.dest) = 1.0 / a; break;
        case OpKind::frames_from_duration: {
            const double frames = frames_of_duration(a, out.world.dt, out.world.phase);
            if (!(frames <= kMaxFrames)) {
                fail(op, "gives " + number_text(frames) + " frames; at most " + std::to_string(kMaxFrames));
                break;
            }
            out.world.frames = static_cast<int>(frames);
            break;
        }
        case OpKind::unit_vector: {
            const Vec3 v = vec_in(slots, op, 0);
            if (is_zero(v)) fail(op, "must not be the zero vector");
            field<Vec3>(out, op.dest) = normalize(v);
            break;
        }
        case OpKind::surface_normal: field<Vec3>(out, op.dest) = surface_normal_tilted(a); break;
        case OpKind::quat_axis: {
            const Vec3 axis = vec_in(slots, op, 0);
            if (is_zero(axis)) fail(op, "axis must not be the zero vector");
            write_rotation(out, op, quat_from_axis_degrees(axis, slots[op.in[3]]));
            break;
        }
        case OpKind::quat_euler: write_rotation(out, op, quat_from_euler_degrees(vec_in(slots, op, 0))); break;
        case OpKind::quat_raw: {
            const Quat q{slots[op.in[0]], slots[op.in[1]], slots[op.in[2]], slots[op.in[3]]};
            if (q.w == 0 && q.x == 0 && q.y == 0 && q.z == 0) fail(op, "must not be the zero quaternion");
            write_rotation(out, op, normalize(q));
            break;
        }
        case OpKind::aabb_centre_half: {
            const Vec3 c = vec_in(slots, op, 0), h = vec_in(slots, op, 3);
            field<Aabb>(out, op.dest) = Aabb{c - h, c + h};
            break;
        }
        case OpKind::check_min_max: {
            const Aabb& box = field<Aabb>(out, op.dest);
            for (std::size_t k = 0; k < 3; ++k)
                if (!(box.min[k] < box.max[k])) {
                    const char axis = "xyz"[k];
                    fail(op, std::string("max.") + axis + " (" + number_text(box.max[k]) +
                                     (box.min[k] == box.max[k] ? ") is min." : ") is below min.") + axis + " (" +
                                     number_text(box.min[k]) + "): a box needs a size on every axis");
                    break;
                }
            break;
        }
        case OpKind::check_shape_size: {
            const std::string problem = shape_without_size(out.bodies[static_cast<std::size_t>(op.dest.index)].shape);
            if (!problem.empty()) fail(op, problem);
            break;
        }
        case OpKind::copy_world_skin: field<double>(out, op.dest) = out.world.skin; break;
        }
    }
}

} // namespace detail

using detail::EvaluatorData;
using detail::TemplateData;

// ---- Evaluator -------------------------------------------------------------------------------

ScenarioTemplate::Evaluator::Evaluator() = default;
ScenarioTemplate::Evaluator::~Evaluator() = default;
ScenarioTemplate::Evaluator::Evaluator(Evaluator&&) noexcept = default;
ScenarioTemplate::Evaluator& ScenarioTemplate::Evaluator::operator=(Evaluator&&) noexcept = default;

// ---- ScenarioTemplate ------------------------------------------------------------------------

const std::string& ScenarioTemplate::file() const { return data_->file; }
const std::vector<std::string>& ScenarioTemplate::param_names() const { return data_->param_names; }
const std::vector<double>& ScenarioTemplate::default_params() const { return data_->param_defaults; }
const Scenario& ScenarioTemplate::base() const { return data_->base; }

int ScenarioTemplate::param_index(std::string_view name) const {
    for (std::size_t i = 0; i < data_->param_names.size(); ++i)
        if (data_->param_names[i] == name) return static_cast<int>(i);
    return -1;
}

bool ScenarioTemplate::depends_on(int param) const {
    return param >= 0 && param < static_cast<int>(data_->param_used.size()) &&
           data_->param_used[static_cast<std::size_t>(param)];
}

ScenarioTemplate::Evaluator ScenarioTemplate::make_evaluator() const {
    Evaluator ev;
    ev.data_ = std::make_unique<EvaluatorData>();
    EvaluatorData& d = *ev.data_;
    d.owner = data_.get();
    const std::size_t n = data_->param_names.size();
    d.params = std::make_unique<double[]>(n == 0 ? 1 : n);
    for (std::size_t i = 0; i < n; ++i) d.params[i] = data_->param_defaults[i];
    d.slots = data_->slot_init;
    d.parsers.reserve(data_->exprs.size());
    for (const detail::Expr& e : data_->exprs)
        d.parsers.push_back(
                e.direct_param >= 0 ? nullptr : detail::compile_expression(e.text, data_->param_names, d.params.get()));
    return ev;
}

namespace {

/// Writes `params` into `out` (which holds the template's base, or what this evaluator last
/// filled from it) and replays the template's expressions and ops; throws InputError with every
/// value that is invalid after substitution.
void fill(const TemplateData& t, std::span<const double> params, EvaluatorData& ev, Scenario& out) {
    for (std::size_t i = 0; i < params.size(); ++i) {
        ev.params[i] = params[i];
        out.params[i].second = params[i];
    }
    std::vector<Diagnostic> errors;
    for (std::size_t k = 0; k < t.exprs.size(); ++k) {
        const detail::Expr& e = t.exprs[k];
        double value = 0;
        if (e.direct_param >= 0) {
            value = params[static_cast<std::size_t>(e.direct_param)];
        } else {
            try {
                value = ev.parsers[k]->Eval();
            } catch (const mu::ParserError& err) {
                errors.push_back({display_name(t.file), e.mark.line, e.mark.column,
                                  e.what + ": \"" + e.text + "\" cannot be evaluated: " + err.GetMsg()});
                continue;
            }
        }
        ev.slots[static_cast<std::size_t>(e.slot)] = value;
        if (std::string problem = detail::check_problem(value, e.check); !problem.empty())
            errors.push_back({display_name(t.file), e.mark.line, e.mark.column,
                              e.what + " " + problem + ", but \"" + e.text + "\" gives " + detail::number_text(value)});
    }
    if (!errors.empty()) throw InputError(std::move(errors));
    detail::run_ops(t, ev.slots.data(), out, &errors);
    if (!errors.empty()) throw InputError(std::move(errors));
}

/// Throws InputError unless there is one value per param.
void check_param_count(const TemplateData& t, std::span<const double> params) {
    if (params.size() != t.param_names.size())
        throw InputError({{display_name(t.file), t.params_mark.line, t.params_mark.column,
                           "expected " + std::to_string(t.param_names.size()) + " param values, got " +
                                   std::to_string(params.size())}});
}

} // namespace

void ScenarioTemplate::instantiate(std::span<const double> params, Evaluator& evaluator, Scenario& out) const {
    const TemplateData& t = *data_;
    if (!evaluator.data_ || evaluator.data_->owner != &t)
        throw std::logic_error("ScenarioTemplate::instantiate: the evaluator was made by another template");
    check_param_count(t, params);
    EvaluatorData& ev = *evaluator.data_;
    // Everything a param can change is written by the ops below; the rest is the base's. So a
    // Scenario this evaluator filled last time needs no copy of the base (its bodies' shapes,
    // names and log entries are what made a sweep cell slow), only the ops replayed.
    if (ev.filled != &out || ev.filled_bodies != out.bodies.data() || out.bodies.empty()) out = t.base;
    ev.filled = nullptr; // until this call succeeds
    fill(t, params, ev, out);
    ev.filled = &out;
    ev.filled_bodies = out.bodies.data();
}

Scenario ScenarioTemplate::take(std::span<const double> params) && {
    Evaluator evaluator = make_evaluator();
    Scenario out;
    if (data_.use_count() != 1) {
        instantiate(params, evaluator, out);
    } else {
        TemplateData& t = const_cast<TemplateData&>(*data_); // made non-const by the reader; ours alone
        check_param_count(t, params);
        out = std::move(t.base);
        fill(t, params, *evaluator.data_, out);
    }
    data_.reset();
    return out;
}

// ---- loading ---------------------------------------------------------------------------------

namespace {

/// Room for kMaxItems bodies or log entries written out one a line (about 1 KiB each);
/// anything bigger is a mistake (or /dev/zero) and must not hang us.
constexpr std::size_t kMaxScenarioBytes = 256u << 20;

std::string read_all(std::FILE* f, const std::string& path) {
    std::string text;
    struct stat st {};
    if (::fstat(::fileno(f), &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0)
        text.reserve(std::min<std::size_t>(static_cast<std::size_t>(st.st_size), kMaxScenarioBytes) + 1); // no regrowth
    advise_huge_pages(text.data(), text.capacity());
    char buffer[65536];
    for (;;) {
        const std::size_t got = std::fread(buffer, 1, sizeof buffer, f);
        text.append(buffer, got);
        if (text.size() > kMaxScenarioBytes)
            throw InputError(
                    {{display_name(path), 1, 1,
                      "cannot read: larger than 256 MiB; a scenario is a text file of at most 200,000 bodies"}});
        if (got < sizeof buffer) {
            if (std::ferror(f)) {
                const int err = errno;
                throw InputError({{display_name(path), 1, 1, std::string("cannot read: ") + std::strerror(err)}});
            }
            return text;
        }
    }
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

} // namespace

ScenarioTemplate load_scenario_template(const std::string& path) {
    const std::string text = read_scenario_text(path);
    return parse_scenario_template(text, path);
}

std::string read_scenario_text(const std::string& path) {
    std::string text;
    if (path == "-") {
        text = read_all(stdin, path);
    } else {
        std::error_code ec;
        if (std::filesystem::is_directory(path, ec))
            throw InputError({{display_name(path), 0, 0,
                               "a folder, not a scenario file: `collide check " + display_name(path) +
                                       "` runs every scenario in it"}});
        errno = 0;
        std::FILE* f = std::fopen(path.c_str(), "rb");
        if (!f) {
            const int err = errno;
            throw InputError({{path, 1, 1, std::string("cannot read: ") + std::strerror(err)}});
        }
        try {
            text = read_all(f, path);
        } catch (...) {
            std::fclose(f);
            throw;
        }
        std::fclose(f);
    }
    return text;
}

std::vector<double> apply_sets(const ScenarioTemplate& scenario, const std::vector<std::string>& sets) {
    std::vector<double> values = scenario.default_params();
    std::vector<Diagnostic> errors;
    const TemplateData& t = *scenario.data_;
    const auto fail = [&](std::string message) {
        errors.push_back({display_name(t.file), t.params_mark.line, t.params_mark.column, std::move(message)});
    };
    std::string available;
    for (const std::string& n : t.param_names) available += (available.empty() ? "" : ", ") + n;
    available = available.empty() ? "this scenario has no params" : "params: " + available;
    for (const std::string& set : sets) {
        const std::string shown = "--set " + detail::shortened(set);
        const auto eq = set.find('=');
        if (eq == std::string::npos) {
            fail(shown + ": expected NAME=VALUE");
            continue;
        }
        std::string_view name = trim(std::string_view(set).substr(0, eq));
        if (!name.empty() && name.front() == '$') name.remove_prefix(1);
        const std::string value_text(trim(std::string_view(set).substr(eq + 1)));
        const int index = scenario.param_index(name);
        if (index < 0) {
            fail(shown + ": no param named '" + detail::shortened(name) + "' (" + available + ")");
            continue;
        }
        // The value is read as strictly as a number in the scenario: arithmetic only (no comma
        // operator, assignment or comparison), no params, and finite.
        double value = 0;
        if (!detail::parse_plain_number(value_text, value)) {
            if (const std::string problem = detail::expression_problem(value_text); !problem.empty()) {
                fail(shown + ": " + problem);
                continue;
            }
            try {
                value = detail::compile_expression(value_text, {}, nullptr)->Eval();
            } catch (const mu::ParserError& err) {
                fail(shown + ": the value is not a number (" + detail::shortened(err.GetMsg()) + ")");
                continue;
            }
        }
        if (!std::isfinite(value)) {
            fail(shown + ": the value must be a finite number, got " + detail::number_text(value));
            continue;
        }
        values[static_cast<std::size_t>(index)] = value;
    }
    if (!errors.empty()) throw InputError(std::move(errors));
    return values;
}

Scenario load_scenario(const std::string& path, const std::vector<std::string>& sets, const LoadProgress& progress) {
    const std::string text = read_scenario_text(path);
    ScenarioTemplate scenario = parse_scenario_template(text, path, progress);
    const std::vector<double> params = apply_sets(scenario, sets);
    return std::move(scenario).take(params);
}

} // namespace collide
