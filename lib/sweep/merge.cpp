#include "sweep/merge.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <string_view>
#include <unordered_set>

#include <fmt/format.h>

#include "io/atomic_file.h"
#include "sweep/grid.h"

namespace collide {

namespace {

/// One data row of a shard: its key, where it came from, and its text (without the newline).
struct Row {
    std::uint64_t cell = 0;
    int mode = 0; // 0 discrete, 1 swept
    std::uint32_t file = 0;
    std::uint32_t line = 0;
    std::string_view text;
};

const char* mode_name(int mode) { return mode == 1 ? "swept" : "discrete"; }

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

} // namespace

std::string merge_sweep_csv(const std::vector<ShardText>& shards) {
    if (shards.empty()) throw command_error("no shard files to merge");
    std::string_view header;
    std::size_t columns = 0, detection = 0;
    std::vector<Row> rows;
    std::vector<std::unordered_set<std::string_view>> distinct;
    std::vector<std::string_view> fields;
    std::uint64_t max_cell = 0;

    for (std::size_t f = 0; f < shards.size(); ++f) {
        const ShardText& shard = shards[f];
        const std::string_view text = shard.text;
        if (text.empty()) throw error_at(shard, 1, "empty file; expected a sweep CSV starting with cell,…");
        std::size_t pos = 0, line_no = 0;
        while (pos < text.size()) {
            ++line_no;
            const std::size_t end = text.find('\n', pos);
            if (end == std::string_view::npos)
                throw error_at(shard, line_no, "the last line has no line break (a truncated file?)");
            const std::string_view line = text.substr(pos, end - pos);
            pos = end + 1;
            if (line_no == 1) {
                if (f == 0) {
                    if (!split_fields(line, fields) || fields.empty() || fields[0] != "cell")
                        throw error_at(shard, 1, "not a sweep CSV: the header must start with cell,");
                    const auto d = std::find(fields.begin() + 1, fields.end(), std::string_view("detection"));
                    if (d == fields.end())
                        throw error_at(shard, 1, "not a sweep CSV: the header has no detection column");
                    header = line;
                    columns = fields.size();
                    detection = static_cast<std::size_t>(d - fields.begin());
                    distinct.resize(detection - 1);
                } else if (line != header) {
                    throw error_at(
                            shard, 1,
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
            else
                throw error_at(shard, line_no,
                               fmt::format("the detection '{}' is neither discrete nor swept", fields[detection]));
            for (std::size_t a = 1; a < detection; ++a) distinct[a - 1].insert(fields[a]);
            row.file = static_cast<std::uint32_t>(f);
            row.line = static_cast<std::uint32_t>(line_no);
            row.text = line;
            max_cell = std::max(max_cell, row.cell);
            rows.push_back(row);
        }
    }

    // The grid: the product of each axis's distinct values, the modes those that appear.
    std::uint64_t cells = 0;
    bool has_mode[2] = {false, false};
    if (!rows.empty()) {
        cells = 1;
        for (const auto& values : distinct) cells = std::min<std::uint64_t>(cells * values.size(), kMaxGridCells);
        cells = std::max(cells, max_cell + 1);
        for (const Row& r : rows) has_mode[r.mode] = true;
    }
    std::vector<int> modes;
    for (int m = 0; m < 2; ++m)
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

    std::string out;
    std::size_t size = header.size() + 1;
    for (const Row& r : rows) size += r.text.size() + 1;
    out.reserve(size);
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
