#include "sweep/merge.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string_view>
#include <unordered_set>

#include <fmt/format.h>

#include "io/atomic_file.h"
#include "sweep/format.h"
#include "sweep/grid.h"

namespace collide {

namespace {

/// One data row of a shard: its key, where it came from, and its text (without the newline).
struct Row {
    std::uint64_t cell = 0;
    int mode = 0; // 0 discrete, 1 swept, 2 speculative
    std::uint32_t file = 0;
    std::uint32_t line = 0;
    std::string_view text;
    std::vector<std::string_view> coordinates; ///< the varied params' values as written
};

constexpr std::string_view kGridPrefix = "# collide sweep grid: ";

const char* mode_name(int mode) { return mode == 2 ? "speculative" : mode == 1 ? "swept" : "discrete"; }

/// Splits a CSV line into its raw fields (quotes kept); false when a quote is not closed.
bool split_fields(std::string_view line, std::vector<std::string_view>& fields) {
    fields.clear();
    std::size_t start = 0;
    bool quoted = false;
    for (std::size_t i = 0; i < line.size(); ++i) {
        const char c = line[i];
        if (c == '"')
            quoted = !quoted; // a doubled quote toggles twice
        else if (c == ',' && !quoted) {
            fields.push_back(line.substr(start, i - start));
            start = i + 1;
        }
    }
    fields.push_back(line.substr(start));
    return !quoted;
}

/// A problem with line `line` of `shard`.
InputError error_at(const ShardText& shard, std::size_t line, std::string message) {
    return InputError(shard.name, static_cast<int>(line), 1, std::move(message));
}

/// Checks that every row's coordinates are its cell's: the value a row gives an axis is the one
/// every other row at that axis index gives (the first varied param varies slowest), and, when
/// the shards record their grid, that the grid the rows make is that grid. Rows are sorted and
/// complete (every cell present).
void check_coordinates(const std::vector<ShardText>& shards, const std::vector<Row>& rows,
                       const std::vector<std::unordered_set<std::string_view>>& distinct,
                       const std::vector<std::string_view>& axis_names, const std::vector<int>& modes,
                       std::string_view grid_line) {
    const std::size_t n = distinct.size();
    std::vector<std::uint64_t> size(n), stride(n, 1);
    for (std::size_t a = 0; a < n; ++a) size[a] = std::max<std::size_t>(distinct[a].size(), 1);
    for (std::size_t a = n; a-- > 1;) stride[a - 1] = stride[a] * size[a];
    std::vector<std::vector<const Row*>> at(n); // axis → index → the first row that set it
    for (std::size_t a = 0; a < n; ++a) at[a].assign(size[a], nullptr);
    for (const Row& r : rows)
        for (std::size_t a = 0; a < n; ++a) {
            const std::uint64_t i = (r.cell / stride[a]) % size[a];
            const Row*& first = at[a][i];
            if (!first) {
                first = &r;
            } else if (first->coordinates[a] != r.coordinates[a]) {
                throw error_at(shards[r.file], r.line,
                               fmt::format("the row's coordinates are not cell {}'s: {} is {} here but {} at {}:{} "
                                           "(cell {}), the same position on that axis",
                                           r.cell, axis_names[a], r.coordinates[a], first->coordinates[a],
                                           shards[first->file].name, first->line, first->cell));
            }
        }
    if (grid_line.empty()) return;
    std::vector<std::pair<std::string, std::vector<std::string>>> axes(n);
    for (std::size_t a = 0; a < n; ++a) {
        axes[a].first = std::string(axis_names[a]);
        for (const Row* r : at[a]) axes[a].second.emplace_back(r ? r->coordinates[a] : std::string_view());
    }
    std::vector<std::string> mode_names;
    for (const int m : modes) mode_names.emplace_back(mode_name(m));
    const std::string made = sweep_grid_line(axes, mode_names);
    if (made != grid_line)
        throw command_error(fmt::format("the rows make the grid '{}', not the grid the shards record '{}' (a row "
                                        "whose coordinates are not its cell's?)",
                                        made, grid_line));
}

} // namespace

std::string merge_sweep_csv(const std::vector<ShardText>& shards) {
    if (shards.empty()) throw command_error("no shard files to merge");
    std::string_view header, grid_line;
    std::size_t columns = 0, detection = 0;
    std::vector<Row> rows;
    std::vector<std::unordered_set<std::string_view>> distinct;
    std::vector<std::string_view> fields, axis_names;
    std::uint64_t max_cell = 0;

    for (std::size_t f = 0; f < shards.size(); ++f) {
        const ShardText& shard = shards[f];
        const std::string_view text = shard.text;
        if (text.empty()) throw error_at(shard, 1, "empty file; expected a sweep CSV starting with cell,…");
        std::size_t pos = 0, line_no = 0, header_line = 1;
        while (pos < text.size()) {
            ++line_no;
            const std::size_t end = text.find('\n', pos);
            if (end == std::string_view::npos)
                throw error_at(shard, line_no, "the last line has no line break (a truncated file?)");
            const std::string_view line = text.substr(pos, end - pos);
            pos = end + 1;
            if (line_no == 1) {
                // The grid line: every shard must come from the same sweep.
                const bool has_grid = line.rfind(kGridPrefix, 0) == 0;
                if (f == 0) {
                    grid_line = has_grid ? line : std::string_view();
                } else if (has_grid != !grid_line.empty() || (has_grid && line != grid_line)) {
                    throw error_at(shard, 1,
                                   has_grid || !grid_line.empty()
                                           ? fmt::format("a shard of a different sweep: its grid '{}' is not {}'s '{}'",
                                                         has_grid ? line : "(none)", shards[0].name,
                                                         grid_line.empty() ? "(none)" : grid_line)
                                           : std::string("the grid line differs"));
                }
                if (has_grid) {
                    header_line = 2;
                    continue;
                }
            }
            if (line_no == header_line) {
                if (f == 0) {
                    if (!split_fields(line, fields) || fields.empty() || fields[0] != "cell")
                        throw error_at(shard, line_no, "not a sweep CSV: the header must start with cell,");
                    const auto d = std::find(fields.begin() + 1, fields.end(), std::string_view("detection"));
                    if (d == fields.end())
                        throw error_at(shard, line_no, "not a sweep CSV: the header has no detection column");
                    axis_names.assign(fields.begin() + 1, d);
                    header = line;
                    columns = fields.size();
                    detection = static_cast<std::size_t>(d - fields.begin());
                    distinct.resize(detection - 1);
                } else if (line != header) {
                    throw error_at(
                            shard, line_no,
                            fmt::format("the header differs from {}'s: '{}' vs '{}'", shards[0].name, line, header));
                }
                continue;
            }
            if (!split_fields(line, fields)) throw error_at(shard, line_no, "a quoted field is not closed");
            if (fields.size() != columns)
                throw error_at(shard, line_no,
                               fmt::format("the row has {} fields, the header has {}", fields.size(), columns));
            Row row;
            const std::string_view cell = fields[0];
            const auto [p, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), row.cell);
            if (cell.empty() || ec != std::errc{} || p != cell.data() + cell.size())
                throw error_at(shard, line_no, fmt::format("the cell '{}' is not a whole number", cell));
            if (fields[detection] == "discrete")
                row.mode = 0;
            else if (fields[detection] == "swept")
                row.mode = 1;
            else if (fields[detection] == "speculative")
                row.mode = 2;
            else
                throw error_at(
                        shard, line_no,
                        fmt::format("the detection '{}' is not discrete, swept or speculative", fields[detection]));
            for (std::size_t a = 1; a < detection; ++a) {
                distinct[a - 1].insert(fields[a]);
                row.coordinates.push_back(fields[a]);
            }
            row.file = static_cast<std::uint32_t>(f);
            row.line = static_cast<std::uint32_t>(line_no);
            row.text = line;
            max_cell = std::max(max_cell, row.cell);
            rows.push_back(row);
        }
    }

    // The grid: the product of each axis's distinct values, the modes those that appear.
    std::uint64_t cells = 0;
    bool has_mode[3] = {false, false, false};
    if (!rows.empty()) {
        cells = 1;
        for (const auto& values : distinct) cells = std::min<std::uint64_t>(cells * values.size(), kMaxGridCells);
        cells = std::max(cells, max_cell + 1);
        for (const Row& r : rows) has_mode[r.mode] = true;
    }
    std::vector<int> modes;
    for (int m = 0; m < 3; ++m)
        if (has_mode[m]) modes.push_back(m);

    std::sort(rows.begin(), rows.end(), [](const Row& a, const Row& b) {
        return a.cell != b.cell   ? a.cell < b.cell
               : a.mode != b.mode ? a.mode < b.mode
               : a.file != b.file ? a.file < b.file
                                  : a.line < b.line;
    });
    const std::uint64_t expected_rows = cells * modes.size();
    std::uint64_t k = 0;
    for (std::size_t i = 0; i < rows.size(); ++i) {
        const Row& r = rows[i];
        if (i > 0 && rows[i - 1].cell == r.cell && rows[i - 1].mode == r.mode) {
            const Row& first = rows[i - 1];
            throw error_at(shards[r.file], r.line,
                           fmt::format("cell {} ({}) appears twice; it is also at {}:{}", r.cell, mode_name(r.mode),
                                       shards[first.file].name, first.line));
        }
        const std::uint64_t cell = k / modes.size();
        const int mode = modes[k % modes.size()];
        if (r.cell != cell || r.mode != mode)
            throw command_error(fmt::format("cell {} ({}) is missing from every shard (the grid has {} cells)", cell,
                                            mode_name(mode), cells));
        ++k;
    }
    if (k < expected_rows)
        throw command_error(fmt::format("cell {} ({}) is missing from every shard (the grid has {} cells)",
                                        k / modes.size(), mode_name(modes[k % modes.size()]), cells));

    check_coordinates(shards, rows, distinct, axis_names, modes, grid_line);

    std::string out;
    std::size_t size = grid_line.size() + 1 + header.size() + 1;
    for (const Row& r : rows) size += r.text.size() + 1;
    out.reserve(size);
    if (!grid_line.empty()) {
        out += grid_line;
        out += '\n';
    }
    out += header;
    out += '\n';
    for (const Row& r : rows) {
        out += r.text;
        out += '\n';
    }
    return out;
}

void merge_sweep_files(const std::vector<std::string>& files, const std::string& output) {
    refuse_output_onto_inputs(output, "-o", files);
    std::vector<ShardText> shards;
    shards.reserve(files.size());
    for (const std::string& file : files) shards.push_back(ShardText{file, read_file(file)});
    const std::string merged = merge_sweep_csv(shards);
    OutputFile out(output);
    out.write(merged);
    out.commit();
}

} // namespace collide
