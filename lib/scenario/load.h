#pragma once
/// \file
/// Loading YAML scenarios into the model (model/scenario.h). A file is parsed once into a
/// ScenarioTemplate: a fully evaluated base Scenario (its params at their defaults) plus the
/// numbers that depend on params, kept as compiled expressions. `instantiate` fills a Scenario
/// for any param values without touching YAML again, which is what a sweep does per grid cell.
///
/// Every problem is reported as a Diagnostic at the YAML node that caused it (see
/// model/diagnostic.h); parsing reports all the problems it finds, not just the first.

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/diagnostic.h"
#include "model/scenario.h"

namespace collide {

/// Told how far loading has got: `done` of `total`, both in bytes of text counted twice (once
/// parsed, once read into the model). Called from the loading thread, at most every 256 KiB.
using LoadProgress = std::function<void(std::uint64_t done, std::uint64_t total)>;

namespace detail {
struct TemplateData;
struct EvaluatorData;
} // namespace detail

/// A scenario parsed once, its param-dependent numbers kept as compiled expressions.
/// Immutable and cheap to copy (shared data); safe to use from many threads, each with its own
/// Evaluator.
class ScenarioTemplate {
public:
    /// Per-thread evaluation state: the param values the expressions read, and the compiled
    /// expressions themselves (muparser objects are not thread-safe). Movable, not copyable.
    class Evaluator {
    public:
        Evaluator();
        ~Evaluator();
        Evaluator(Evaluator&&) noexcept;
        Evaluator& operator=(Evaluator&&) noexcept;
        Evaluator(const Evaluator&) = delete;
        Evaluator& operator=(const Evaluator&) = delete;

    private:
        friend class ScenarioTemplate;
        std::unique_ptr<detail::EvaluatorData> data_;
    };

    /// The path the scenario was read from ("-" for standard input).
    const std::string& file() const;
    /// The params' names, in file order.
    const std::vector<std::string>& param_names() const;
    /// The params' default values, in file order.
    const std::vector<double>& default_params() const;
    /// Index of param `name` (without `$`), or −1 when the scenario has no such param.
    int param_index(std::string_view name) const;
    /// True when any number in the scenario is written with this param.
    bool depends_on(int param) const;
    /// The scenario with every param at its default (not re-checked: call instantiate for that).
    const Scenario& base() const;

    /// A fresh evaluator for this template (one per thread).
    Evaluator make_evaluator() const;

    /// Fills `out` with the scenario for these param values (one per param, in file order).
    /// Reuses `out`'s storage: once `out` has been filled from this template, a call allocates
    /// nothing unless it throws. When `evaluator` last filled this same `out` (and did not
    /// throw), only the values params reach (and the params) are rewritten: whatever else the
    /// caller changed in `out` since stays changed. Throws InputError, with the mark of each offending
    /// expression, when a value is invalid after substitution (negative radius, NaN, rate 0, …).
    void instantiate(std::span<const double> params, Evaluator& evaluator, Scenario& out) const;

    /// The scenario for these param values, as instantiate() fills it, made from this
    /// template, which is left empty. When nothing else shares the template's data, the base
    /// Scenario is moved out rather than copied (a scene of 200,000 bodies is then held once,
    /// not twice). Throws as instantiate() does.
    Scenario take(std::span<const double> params) &&;

private:
    friend ScenarioTemplate parse_scenario_template(std::string_view text, const std::string& file,
                                                    const LoadProgress& progress);
    friend std::vector<double> apply_sets(const ScenarioTemplate& scenario, const std::vector<std::string>& sets);
    std::shared_ptr<const detail::TemplateData> data_;
};

/// Parses scenario YAML. `file` names it in diagnostics and in Scenario::file ("-" is shown as
/// "<stdin>"). Throws InputError listing every problem found, one Diagnostic each. `progress`,
/// when given, is told how far it has got.
ScenarioTemplate parse_scenario_template(std::string_view text, const std::string& file,
                                         const LoadProgress& progress = {});

/// Reads and parses a scenario file; "-" reads standard input. An unreadable file gives
/// "FILE:1:1: error: cannot read: <reason>".
ScenarioTemplate load_scenario_template(const std::string& path);

/// The text of a scenario file ("-": standard input), as load_scenario_template reads it: the
/// same errors (unreadable, larger than 256 MiB).
std::string read_scenario_text(const std::string& path);

/// Param values for `--set NAME=VALUE` overrides (each VALUE a number or an arithmetic
/// expression of numbers), starting from the defaults. An unknown NAME or a bad VALUE throws
/// InputError naming the file and the params it does have.
std::vector<double> apply_sets(const ScenarioTemplate& scenario, const std::vector<std::string>& sets);

/// Loads a scenario file, applies `--set` overrides and instantiates it; `progress` as for
/// parse_scenario_template.
Scenario load_scenario(const std::string& path, const std::vector<std::string>& sets = {},
                       const LoadProgress& progress = {});

} // namespace collide
