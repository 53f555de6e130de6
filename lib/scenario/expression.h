#pragma once
/// \file
/// Arithmetic expressions of params, as scenarios write them ("-3 + $offset * $speed / 60"),
/// compiled with muparser. Internal to the scenario loader.

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include <muParser.h>

namespace collide::detail {

/// A `$name` written in an expression: the name (without `$`) and the byte offset of the `$`.
struct ParamReference {
    std::string name;   ///< without the `$`
    std::size_t offset; ///< byte offset of the `$` in the text
};

/// Every `$name` in `text`, in order (name = letters, digits and `_`, not starting with a digit).
std::vector<ParamReference> param_references(std::string_view text);

/// The param index when `text` (trimmed) is exactly `$name` for a known param, else −1.
int bare_param(std::string_view text, const std::vector<std::string>& names);

/// A muparser parser for `text` whose `$name` variables read values[i] for names[i]. The
/// expression is checked at once (one evaluation): throws mu::ParserError when it does not
/// parse. `values` must outlive the parser.
std::unique_ptr<mu::Parser> compile_expression(const std::string& text, const std::vector<std::string>& names,
                                               double* values);

/// What is wrong with `text` as an expression of arithmetic and functions only, or "" when
/// nothing is: numbers, `$name`s, functions (`sin(…)`, `min(a, b)`), + − * / ^ and parentheses.
/// A comma outside a function's arguments (muparser's comma operator: `0,5` would read as 5)
/// suggests the decimal point (`did you mean 0.5?`); `=` (assignment), comparisons, `?:`, `&&`
/// and the like are refused.
std::string expression_problem(std::string_view text);

/// `text` as a message quotes it: whole when short, else its start and its length.
std::string shortened(std::string_view text);

/// True when `text` is a plain YAML 1.2 decimal number ("3", "-0.5", "1e-9", ".5"); its value
/// (possibly ±inf when it overflows) goes to `value`.
bool parse_plain_number(std::string_view text, double& value);

/// True for the YAML spellings of NaN and infinity (".nan", ".inf", "-.Inf", …).
bool is_yaml_nonfinite(std::string_view text);

} // namespace collide::detail
