#pragma once
/// \file
/// Writing a sweep's rows: CSV (streamed in blocks, one row per cell and mode), JSON (params,
/// axes and every cell), a terminal outcome map (`table`) and an SVG heatmap. Every format is a
/// pure function of the model, the plan and the values, so the bytes never depend on threads.
///
/// `values` always holds the plan's rows in order (SweepPlan::rows() × fields, row-major).

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <utility>

#include "sweep/executor.h"

namespace collide {

/// Output formats of `collide sweep`.
enum class SweepFormat : std::uint8_t { table, csv, json, svg, html };

/// What a boolean measure's true and false mean on a map's legend: "tunneled" and "held" for a
/// tunnel entry's `tunneled`, "caught" and "missed" otherwise (a first contact's `hit`).
std::pair<const char*, const char*> boolean_words(const FieldSpec& field);

/// Parses `table`, `csv`, `json`, `svg` or `html`; throws an InputError (command_error) otherwise.
SweepFormat parse_sweep_format(std::string_view text);

/// The column a map shows: `name` as a column (FIELD or ID.FIELD) or a field name that only
/// one log entry has; empty: the first `tunneled` field (a tunnel entry), else the first `hit`
/// (a first contact), else the first field. Throws an InputError (command_error)
/// listing the columns when there is no such field.
int find_measure(const SweepModel& model, std::string_view name);

/// Appends the CSV's first two lines: the grid line (sweep_grid_line) and the header
/// `cell,<varied params…>,detection,<columns…>`; with several engines
/// `cell,<varied params…>,engine,detection,<columns…>`.
void append_csv_header(const SweepModel& model, const SweepPlan& plan, std::string& out);

/// The line (without '\n') that records a sweep's whole grid in its CSV, the same for every
/// shard: `# collide sweep grid: speed (3 values), offset (2 values); detection discrete, swept;
/// digest HEX`, the digest (FNV-1a, 64 bits) covering every axis's name and values as the rows
/// print them; with several engines `…; engine collide, bullet; detection …`. `axes` holds each
/// axis's name and its values' text in grid order; `merge` rebuilds it from the rows to check
/// them.
std::string sweep_grid_line(const std::vector<std::pair<std::string, std::vector<std::string>>>& axes,
                            const std::vector<std::string>& modes, const std::vector<std::string>& engines = {});

/// sweep_grid_line() built one value at a time, axis after axis, so that a merge can feed it the
/// values of its slowest axis as they stream by, holding none of them.
class GridLineBuilder {
public:
    /// Starts the next axis, `name`.
    void axis(std::string_view name);
    /// The next value of the current axis, as the rows print it.
    void value(std::string_view text);
    /// The line, for these modes and engines (none or one: no engine part; call once, after the
    /// last value).
    std::string finish(const std::vector<std::string>& modes, const std::vector<std::string>& engines = {});

private:
    void mix(std::string_view text, char end);
    void close_axis();
    std::uint64_t digest_ = 14695981039346656037ull;
    std::string line_ = "# collide sweep grid: ";
    std::size_t axes_ = 0, values_ = 0;
    bool open_ = false;
};

/// Appends rows first_row … first_row + count − 1 (their values in `values`, count × fields):
/// booleans true/false, integers without decimals, bodies by name, numbers in their shortest
/// round-trip form; a value not measured (NaN) is an empty field.
void append_csv_rows(const SweepModel& model, const SweepPlan& plan, std::uint64_t first_row, std::uint64_t count,
                     std::span<const double> values, std::string& out);

/// A JSON document, written by nlohmann with two-space indents: the scenario, its params, the
/// axes, the modes, the shard, the fields and one object per row (`null` for values not
/// measured; whole numbers without a fraction).
std::string render_sweep_json(const SweepModel& model, const SweepPlan& plan, std::span<const double> values);

/// The outcome map for a terminal: rows = values of the first varied param, columns = the
/// second; `#`/`.` for a boolean measure, a shade of `.:-=+*#%@` (min → max) for a number, a
/// blank for a value not measured or a cell of another shard; one map per variant (engine and
/// mode, titled "swept" or, with several engines, "bullet swept"; side by side as many as fit in
/// 120 columns), one set of maps per combination of any further axes.
std::string render_sweep_table(const SweepModel& model, const SweepPlan& plan, std::span<const double> values,
                               int measure);

/// The same map as a standalone SVG heatmap: a title with the scenario and measure, axes
/// labelled with the param names and tick values, a legend (caught/missed colours or a colour
/// ramp with its min and max), one panel per mode side by side, one line of panels per engine
/// (and per combination of any further axes).
std::string render_sweep_svg(const SweepModel& model, const SweepPlan& plan, std::span<const double> values,
                             int measure);

/// A self-contained HTML page (inline SVG and script, no network): the outcome map with one
/// element per cell and variant carrying `data-cell` (the grid cell), `data-mode` (the
/// variant's name: "swept", or with several engines "bullet swept") and, with several engines,
/// `data-engine`; clicking a cell, or moving the sliders of the first two axes, draws that
/// cell's frames (every body's outline at each frame, against the static bodies) for each
/// variant side by side. The frames
/// come from model.run_cell, run once per row here (decimated beyond kHtmlFrameBudget numbers).
std::string render_sweep_html(const SweepModel& model, const SweepPlan& plan, std::span<const double> values,
                              int measure);

/// Most frame coordinates the HTML map keeps for all its cells together.
inline constexpr std::size_t kHtmlFrameBudget = 2'000'000;

} // namespace collide
