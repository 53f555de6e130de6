#include "sweep/grid.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>

#include <fmt/format.h>

#include "engine/registry.h"
#include "scenario/expression.h"

namespace collide {

namespace {

std::string_view trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
    return s;
}

/// A number as written in a `--vary`, with how many decimals it was written with (−1 when it
/// used an exponent, so no rounding applies).
struct Written {
    double value = 0;
    int decimals = 0;
};

Written parse_number(std::string_view text, std::string_view argument, std::string_view what) {
    const std::string_view t = trim(text);
    std::string_view digits = t;
    if (!digits.empty() && digits.front() == '+') digits.remove_prefix(1);
    double value = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), value);
    if (digits.empty() || ec != std::errc{} || end != digits.data() + digits.size())
        throw command_error(fmt::format("--vary {}: {} '{}' is not a number", argument, what, detail::shortened(t)));
    if (!std::isfinite(value))
        throw command_error(
                fmt::format("--vary {}: {} '{}' is not a finite number", argument, what, detail::shortened(t)));
    Written w{value, 0};
    if (digits.find_first_of("eE") != std::string_view::npos) {
        w.decimals = -1;
    } else if (const auto dot = digits.find('.'); dot != std::string_view::npos) {
        w.decimals = static_cast<int>(digits.size() - dot - 1);
    }
    return w;
}

/// Rounds `v` to `decimals` decimal places (the nearest double to the decimal), so that
/// 0 + 3·0.05 reads 0.15 and not 0.15000000000000002.
double round_to_decimals(double v, int decimals) {
    if (decimals < 0 || decimals > 15) return v;
    const std::string text = fmt::format("{:.{}f}", v, decimals);
    const double rounded = std::strtod(text.c_str(), nullptr);
    return rounded == 0 ? 0.0 : rounded; // no −0
}

std::string list_params(std::span<const std::string> params) {
    if (params.empty()) return "the scenario has no params";
    std::string out = "the scenario's params are ";
    for (std::size_t i = 0; i < params.size(); ++i) {
        if (i > 0) out += ", ";
        out += params[i];
    }
    return out;
}

} // namespace

InputError command_error(std::string message) { return InputError("", 0, 0, std::move(message)); }

Axis parse_vary(std::string_view text, std::span<const std::string> params) {
    const std::string argument = detail::shortened(text); // as messages quote it: a long one is cut
    const auto eq = text.find('=');
    if (eq == std::string_view::npos)
        throw command_error(fmt::format("--vary {}: expected NAME=FROM:TO:STEP or NAME=A,B,C", argument));
    Axis axis;
    axis.name = std::string(trim(text.substr(0, eq)));
    if (axis.name.empty()) throw command_error(fmt::format("--vary {}: the param name is missing", argument));
    for (std::size_t i = 0; i < params.size(); ++i)
        if (params[i] == axis.name) axis.param = static_cast<int>(i);
    if (axis.param < 0)
        throw command_error(fmt::format("--vary {}: unknown param '{}'; {}", argument, detail::shortened(axis.name),
                                        list_params(params)));

    const std::string_view spec = text.substr(eq + 1);
    if (trim(spec).empty()) throw command_error(fmt::format("--vary {}: no values after '='", argument));

    if (spec.find(':') != std::string_view::npos) {
        const auto c1 = spec.find(':');
        const auto c2 = spec.find(':', c1 + 1);
        if (c2 == std::string_view::npos || spec.find(':', c2 + 1) != std::string_view::npos)
            throw command_error(fmt::format("--vary {}: a range is FROM:TO:STEP (three numbers)", argument));
        const Written from = parse_number(spec.substr(0, c1), argument, "FROM");
        const Written to = parse_number(spec.substr(c1 + 1, c2 - c1 - 1), argument, "TO");
        const Written step = parse_number(spec.substr(c2 + 1), argument, "STEP");
        if (step.value == 0) throw command_error(fmt::format("--vary {}: the step is 0", argument));
        const double ratio = (to.value - from.value) / step.value;
        if (ratio < 0)
            throw command_error(fmt::format("--vary {}: the step {} moves away from TO ({} to {})", argument,
                                            step.value, from.value, to.value));
        const double count = std::floor(ratio + 1e-9) + 1;
        if (!std::isfinite(count) || count > static_cast<double>(kMaxAxisValues))
            throw command_error(fmt::format("--vary {}: {} values is more than the limit of {} per param", argument,
                                            count, kMaxAxisValues));
        const int decimals = (from.decimals < 0 || step.decimals < 0) ? -1 : std::max(from.decimals, step.decimals);
        const auto n = static_cast<std::size_t>(count);
        axis.values.reserve(n);
        for (std::size_t i = 0; i < n; ++i)
            axis.values.push_back(round_to_decimals(from.value + static_cast<double>(i) * step.value, decimals));
        return axis;
    }

    std::size_t start = 0;
    while (true) {
        const auto comma = spec.find(',', start);
        const std::string_view item = spec.substr(start, comma == std::string_view::npos ? spec.npos : comma - start);
        if (trim(item).empty()) throw command_error(fmt::format("--vary {}: an empty value in the list", argument));
        axis.values.push_back(parse_number(item, argument, "value").value);
        if (axis.values.size() > kMaxAxisValues)
            throw command_error(fmt::format("--vary {}: more than the limit of {} values per param",
                                            detail::shortened(text.substr(0, eq)), kMaxAxisValues));
        if (comma == std::string_view::npos) break;
        start = comma + 1;
    }
    return axis;
}

Grid::Grid(std::vector<Axis> axes, std::uint64_t max_cells) : axes_(std::move(axes)) {
    for (std::size_t a = 0; a < axes_.size(); ++a) {
        for (std::size_t b = 0; b < a; ++b)
            if (axes_[a].name == axes_[b].name)
                throw command_error(
                        fmt::format("--vary {}=…: the param '{}' is varied twice", axes_[a].name, axes_[a].name));
        if (axes_[a].values.empty()) throw command_error(fmt::format("--vary {}=…: no values", axes_[a].name));
    }
    stride_.assign(axes_.size(), 1);
    cells_ = 1;
    for (std::size_t a = axes_.size(); a-- > 0;) {
        stride_[a] = cells_;
        const std::uint64_t n = axes_[a].values.size();
        if (cells_ > max_cells / n)
            throw command_error(
                    fmt::format("the grid has more than {} cells; split it or use fewer values", max_cells));
        cells_ *= n;
    }
}

void Grid::apply(std::uint64_t cell, std::span<double> params) const {
    for (std::size_t a = 0; a < axes_.size(); ++a) params[axes_[a].param] = axes_[a].values[coordinate(cell, a)];
}

Grid make_grid(std::span<const std::string> varies, std::span<const std::string> params, std::uint64_t max_cells) {
    std::vector<Axis> axes;
    axes.reserve(varies.size());
    for (const std::string& v : varies) axes.push_back(parse_vary(v, params));
    return Grid(std::move(axes), max_cells);
}

DetectionChoice parse_detection_choice(std::string_view text) {
    if (text == "discrete") return DetectionChoice::discrete;
    if (text == "swept") return DetectionChoice::swept;
    if (text == "speculative") return DetectionChoice::speculative;
    if (text == "both") return DetectionChoice::both;
    if (text == "all") return DetectionChoice::all;
    throw command_error(fmt::format("--detection {}: expected discrete, swept, speculative, both or all", text));
}

std::vector<Detection> modes_of(DetectionChoice choice) {
    switch (choice) {
    case DetectionChoice::discrete: return {Detection::discrete};
    case DetectionChoice::swept: return {Detection::swept};
    case DetectionChoice::speculative: return {Detection::speculative};
    case DetectionChoice::both: return {Detection::discrete, Detection::swept};
    case DetectionChoice::all: return {Detection::discrete, Detection::swept, Detection::speculative};
    }
    return {Detection::discrete};
}

const char* detection_name(Detection mode) {
    switch (mode) {
    case Detection::discrete: return "discrete";
    case Detection::swept: return "swept";
    case Detection::speculative: return "speculative";
    }
    return "discrete";
}

std::vector<std::string_view> split_commas(std::string_view text) {
    std::vector<std::string_view> parts;
    for (std::size_t start = 0;;) {
        const std::size_t comma = text.find(',', start);
        parts.push_back(trim(text.substr(start, comma == std::string_view::npos ? comma : comma - start)));
        if (comma == std::string_view::npos) return parts;
        start = comma + 1;
    }
}

std::vector<std::string> parse_engine_list(std::string_view text) {
    // Row order: collide, then the optional engines as the registry lists them, then the rest.
    const auto rank = [](std::string_view name) -> std::size_t {
        if (name == "collide") return 0;
        for (std::size_t k = 0; k < std::size(kOptionalEngines); ++k)
            if (name == kOptionalEngines[k]) return k + 1;
        return std::size(kOptionalEngines) + 1;
    };
    std::vector<std::string> names;
    for (const std::string_view name : split_commas(text)) {
        if (name.empty())
            throw command_error(fmt::format("--engine {}: expected an engine name or several separated by commas "
                                            "(collide,bullet)",
                                            text));
        if (std::find(names.begin(), names.end(), name) != names.end())
            throw command_error(fmt::format("--engine {}: {} is named twice", text, name));
        names.emplace_back(name);
    }
    std::stable_sort(names.begin(), names.end(),
                     [&](const std::string& a, const std::string& b) { return rank(a) < rank(b); });
    return names;
}

namespace {

bool parse_whole(std::string_view s, std::uint64_t& out) {
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return !s.empty() && ec == std::errc{} && end == s.data() + s.size();
}

/// The shard a Slurm array task is (SLURM_ARRAY_TASK_ID is `id`); `count` from `auto/N`, or 0.
Shard slurm_shard(const std::string& option, std::uint64_t count, const Environment& env) {
    const auto number = [&](const char* name, bool required, std::uint64_t fallback) {
        const char* value = env(name);
        std::uint64_t n = fallback;
        if (!value) {
            if (required)
                throw command_error(fmt::format("{}: SLURM_ARRAY_TASK_ID is set but {} is not: a Slurm array "
                                                "task has both",
                                                option, name));
            return n;
        }
        if (!parse_whole(value, n))
            throw command_error(
                    fmt::format("{}: {} is '{}', not a whole number", option, name, detail::shortened(value)));
        return n;
    };
    const std::uint64_t task = number("SLURM_ARRAY_TASK_ID", true, 0);
    const std::uint64_t min = number("SLURM_ARRAY_TASK_MIN", true, 0);
    const std::uint64_t max = number("SLURM_ARRAY_TASK_MAX", true, 0);
    const std::uint64_t tasks = number("SLURM_ARRAY_TASK_COUNT", true, 0);
    // The step: Slurm's, or the one that spreads COUNT tasks from MIN to MAX (an index list
    // such as 1,3,5,7 is a range with a step too; any other list is not).
    const std::uint64_t spread = tasks > 1 ? (max >= min ? (max - min) / (tasks - 1) : 0) : 1;
    const std::uint64_t step = number("SLURM_ARRAY_TASK_STEP", false, spread == 0 ? 1 : spread);
    const std::string array = fmt::format("{}-{}{}", min, max, step == 1 ? std::string() : fmt::format(":{}", step));
    if (tasks == 0 || max < min || step == 0 || (max - min) % step != 0 || (max - min) / step + 1 != tasks)
        throw command_error(fmt::format("{}: the Slurm array (SLURM_ARRAY_TASK_MIN {}, _MAX {}, _COUNT {}) is not a "
                                        "range A-B[:S] of its count of tasks; submit it as --array=A-B, or give "
                                        "--shard K/N",
                                        option, min, max, tasks));
    if (task < min || task > max || (task - min) % step != 0)
        throw command_error(
                fmt::format("{}: SLURM_ARRAY_TASK_ID {} is not a task of the array {}", option, task, array));
    if (count != 0 && count != tasks)
        throw command_error(
                fmt::format("{}: the Slurm array has {} tasks (SLURM_ARRAY_TASK_COUNT), not {}", option, tasks, count));
    return Shard{(task - min) / step, tasks, fmt::format("SLURM_ARRAY_TASK_ID={} of {}", task, array)};
}

} // namespace

Shard parse_shard(std::string_view text, const Environment& environment) {
    const Environment env =
            environment ? environment : [](const char* name) -> const char* { return std::getenv(name); };
    const auto slash = text.find('/');
    const std::string shown = detail::shortened(text);
    if (text.substr(0, slash) == "auto") {
        const std::string option = "--shard " + shown;
        std::uint64_t count = 0;
        if (slash != std::string_view::npos && (!parse_whole(text.substr(slash + 1), count) || count == 0))
            throw command_error(fmt::format("{}: expected auto or auto/N, N ≥ 1", option));
        if (count > kMaxGridCells)
            throw command_error(
                    fmt::format("{}: N must be at most {}, the most cells a grid may have", option, kMaxGridCells));
        if (env("SLURM_ARRAY_TASK_ID")) return slurm_shard(option, count, env);
        if (const char* index = env("JOB_COMPLETION_INDEX")) {
            std::uint64_t k = 0;
            if (!parse_whole(index, k))
                throw command_error(fmt::format("{}: JOB_COMPLETION_INDEX is '{}', not a whole number", option,
                                                detail::shortened(index)));
            if (count == 0)
                throw command_error(fmt::format("{}: JOB_COMPLETION_INDEX is {} (a Kubernetes Indexed Job), but a pod "
                                                "is not told how many there are: give --shard auto/N, N the Job's "
                                                "completions",
                                                option, k));
            if (k >= count)
                throw command_error(fmt::format("{}: JOB_COMPLETION_INDEX {} is not below N = {}", option, k, count));
            return Shard{k, count, fmt::format("JOB_COMPLETION_INDEX={} of {}", k, count)};
        }
        throw command_error(fmt::format("{}: this is no array task: looked for SLURM_ARRAY_TASK_ID (a Slurm job "
                                        "array, sbatch --array) and JOB_COMPLETION_INDEX (a Kubernetes Indexed Job); "
                                        "outside them give --shard K/N",
                                        option));
    }
    std::uint64_t k = 0, n = 0;
    if (slash == std::string_view::npos || !parse_whole(text.substr(0, slash), k) ||
        !parse_whole(text.substr(slash + 1), n))
        throw command_error(fmt::format("--shard {}: expected K/N (e.g. 2/8) or auto", shown));
    if (n == 0 || k == 0 || k > n)
        throw command_error(fmt::format("--shard {}: K must be between 1 and N (N ≥ 1)", shown));
    if (n > kMaxGridCells)
        throw command_error(
                fmt::format("--shard {}: N must be at most {}, the most cells a grid may have", text, kMaxGridCells));
    return Shard{k - 1, n, {}};
}

} // namespace collide
