// Merging sweep shards in two streaming passes, each holding one line per shard:
// 1. check every shard line by line, in file order (the grid line, the header, each row's
//    fields, cell and mode, and that its rows come in grid order), gathering what the grid is —
//    each axis's number of values, the largest cell, the modes;
// 2. merge the shards' rows by (cell, mode) — each shard is in that order already — checking
//    that every cell and mode comes exactly once and that each row's coordinates are its
//    cell's, and write them out.
// Memory: a line buffer per shard and the values of every axis but the first (which varies
// slowest, so its values stream by), never the cells. The grid line gives each axis's number
// of values; shards without one (an older collide) keep each axis's distinct values in pass 1.
#include "sweep/merge_shards.h"

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <queue>
#include <string_view>
#include <sys/stat.h>
#include <unordered_set>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "io/atomic_file.h"
#include "sweep/format.h"
#include "sweep/grid.h"

namespace collide {

namespace {

constexpr std::string_view kGridPrefix = "# collide sweep grid: ";

const char* detection_of(int mode) { return mode % 3 == 2 ? "speculative" : mode % 3 == 1 ? "swept" : "discrete"; }

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

/// The lines of one shard, read in order, from its text in memory or from its file through a
/// buffer; it can start again from the top (for the second pass).
class ShardLines {
public:
    /// The lines of `text` (which must outlive this), named `name`.
    ShardLines(std::string name, std::string_view text) : name_(std::move(name)), text_(text) {}
    /// The lines of the file `path` ("-" and FIFOs are read whole into memory once: they can
    /// be read only once). Throws std::runtime_error naming the file when it cannot be read.
    explicit ShardLines(const std::string& path) : name_(path) {
        struct stat st {};
        if (path == "-" || ::stat(path.c_str(), &st) != 0 || !S_ISREG(st.st_mode)) {
            owned_ = read_file(path); // names the file in its error
            text_ = owned_;
            return;
        }
        file_.reset(std::fopen(path.c_str(), "rb"));
        if (!file_) throw std::runtime_error(path + ": cannot read: " + std::strerror(errno));
        buffer_.resize(1 << 20);
    }

    const std::string& name() const { return name_; }
    /// 1-based number of the line last read.
    std::size_t line_no() const { return line_no_; }
    /// True when the shard holds no byte at all.
    bool empty() {
        if (!file_) return text_.empty();
        fill();
        return end_ == begin_ && eof_;
    }
    /// The next line (without its '\n') into `line`; false at the end. `broken` is set when
    /// the line has a line break after it.
    bool next(std::string_view& line, bool& broken) {
        if (!file_) {
            if (pos_ >= text_.size()) return false;
            ++line_no_;
            const std::size_t end = text_.find('\n', pos_);
            broken = end != std::string_view::npos;
            line = text_.substr(pos_, (broken ? end : text_.size()) - pos_);
            pos_ = broken ? end + 1 : text_.size();
            return true;
        }
        for (;;) {
            const char* start = buffer_.data() + begin_;
            if (const void* nl = std::memchr(start, '\n', end_ - begin_)) {
                const std::size_t length = static_cast<const char*>(nl) - start;
                line = std::string_view(start, length);
                begin_ += length + 1;
                broken = true;
                ++line_no_;
                return true;
            }
            if (eof_) {
                if (begin_ == end_) return false;
                line = std::string_view(start, end_ - begin_);
                begin_ = end_;
                broken = false;
                ++line_no_;
                return true;
            }
            // Keep the partial line at the front and read more after it (growing for a long line).
            std::memmove(buffer_.data(), start, end_ - begin_);
            end_ -= begin_;
            begin_ = 0;
            if (end_ == buffer_.size()) buffer_.resize(2 * buffer_.size());
            fill();
        }
    }
    /// Starts again from the first line.
    void rewind() {
        line_no_ = 0;
        pos_ = 0;
        if (!file_) return;
        std::rewind(file_.get());
        begin_ = end_ = 0;
        eof_ = false;
    }

private:
    struct Closer {
        void operator()(std::FILE* f) const { std::fclose(f); }
    };
    void fill() {
        if (eof_ || end_ == buffer_.size()) return;
        const std::size_t got = std::fread(buffer_.data() + end_, 1, buffer_.size() - end_, file_.get());
        end_ += got;
        if (got == 0) {
            if (std::ferror(file_.get())) throw std::runtime_error(name_ + ": cannot read: " + std::strerror(errno));
            eof_ = true;
        }
    }

    std::string name_;
    std::string_view text_; // in memory
    std::string owned_;     // … read whole (stdin, a FIFO)
    std::size_t pos_ = 0;
    std::unique_ptr<std::FILE, Closer> file_; // or from a file, through buffer_
    std::vector<char> buffer_;
    std::size_t begin_ = 0, end_ = 0;
    bool eof_ = false;
    std::size_t line_no_ = 0;
};

/// A problem with line `line` of shard `shard`.
InputError error_at(const ShardLines& shard, std::size_t line, std::string message) {
    return InputError(shard.name(), static_cast<int>(line), 1, std::move(message));
}

/// A hash of text that finds std::string keys by std::string_view (no copy per lookup).
struct TextHash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
};

/// What the first pass learned: the shards' grid line and header, where the engine and
/// detection columns are, and the grid the rows make.
struct Survey {
    std::string grid_line; ///< the shared grid line, or empty (shards of an older collide)
    std::string header;    ///< the shared header
    std::size_t columns = 0, detection = 0;
    std::size_t engine = 0;           ///< the engine column (a sweep of several engines), or 0: none
    std::vector<std::string> engines; ///< with an engine column: the engines, in row order, as the grid line lists them
    std::vector<std::string> axis_names;
    /// Per axis, its number of values: from the grid line, or (shards without one) counted
    /// from the rows, whose distinct values are then kept in `distinct`.
    std::vector<std::uint64_t> sizes;
    bool sizes_from_grid = false;
    std::vector<std::unordered_set<std::string, TextHash, std::equal_to<>>> distinct;
    std::uint64_t max_cell = 0;
    std::vector<bool> has_mode = std::vector<bool>(3);
    bool has_rows = false;

    /// A mode's name in messages: "swept", or with an engine column "bullet swept".
    std::string mode_name(int mode) const {
        const auto e = static_cast<std::size_t>(mode / 3);
        return engine ? engines[e] + " " + detection_of(mode) : std::string(detection_of(mode));
    }
};

/// A data row's cell and mode (3 × its engine's index + 0 discrete, 1 swept, 2 speculative),
/// after `fields` were split.
struct RowKey {
    std::uint64_t cell = 0;
    int mode = 0;
    bool operator<(const RowKey& o) const { return cell != o.cell ? cell < o.cell : mode < o.mode; }
    bool operator==(const RowKey& o) const { return cell == o.cell && mode == o.mode; }
};

/// Reads a data row's fields into `fields` and its key; throws at the row when it is malformed.
RowKey parse_row(const ShardLines& shard, std::string_view line, const Survey& s,
                 std::vector<std::string_view>& fields) {
    const std::size_t line_no = shard.line_no();
    if (!split_fields(line, fields)) throw error_at(shard, line_no, "a quoted field is not closed");
    if (fields.size() != s.columns)
        throw error_at(shard, line_no,
                       fmt::format("the row has {} fields, the header has {}", fields.size(), s.columns));
    RowKey key;
    const std::string_view cell = fields[0];
    const auto [p, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), key.cell);
    if (cell.empty() || ec != std::errc{} || p != cell.data() + cell.size())
        throw error_at(shard, line_no, fmt::format("the cell '{}' is not a whole number", cell));
    const std::string_view mode = fields[s.detection];
    if (mode == "discrete")
        key.mode = 0;
    else if (mode == "swept")
        key.mode = 1;
    else if (mode == "speculative")
        key.mode = 2;
    else
        throw error_at(shard, line_no, fmt::format("the detection '{}' is not discrete, swept or speculative", mode));
    if (s.engine) {
        const std::string_view engine = fields[s.engine];
        const auto e = std::find(s.engines.begin(), s.engines.end(), engine);
        if (e == s.engines.end())
            throw error_at(
                    shard, line_no,
                    fmt::format("the engine '{}' is not one of the grid's ({})", engine, fmt::join(s.engines, ", ")));
        key.mode += 3 * static_cast<int>(e - s.engines.begin());
    }
    return key;
}

/// The number of values of each of `names` as `grid_line` records them ("speed (19 values),
/// offset (20 values); …"), or nothing when the line does not name exactly these axes or makes
/// more cells than a grid may have (the rows are then counted instead).
std::optional<std::vector<std::uint64_t>> sizes_in_grid_line(std::string_view grid_line,
                                                             const std::vector<std::string>& names) {
    std::string_view rest = grid_line.substr(kGridPrefix.size());
    rest = rest.substr(0, std::min(rest.find("; engine "), rest.find("; detection ")));
    std::vector<std::uint64_t> sizes;
    std::uint64_t cells = 1;
    if (rest == "no axes") return names.empty() ? std::optional(sizes) : std::nullopt;
    for (const std::string& name : names) {
        if (rest.substr(0, name.size() + 2) != name + " (") return std::nullopt;
        rest.remove_prefix(name.size() + 2);
        std::uint64_t count = 0;
        const auto [p, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), count);
        if (ec != std::errc{} || count == 0 || count > kMaxGridCells / cells) return std::nullopt;
        cells *= count;
        rest.remove_prefix(static_cast<std::size_t>(p - rest.data()));
        const std::string_view unit = count == 1 ? " value)" : " values)";
        if (rest.substr(0, unit.size()) != unit) return std::nullopt;
        rest.remove_prefix(unit.size());
        if (rest.substr(0, 2) == ", ") rest.remove_prefix(2);
        sizes.push_back(count);
    }
    if (!rest.empty()) return std::nullopt;
    return sizes;
}

/// Pass 1: every shard's lines checked, in file order; the grid they make gathered.
Survey survey(std::vector<ShardLines>& shards) {
    Survey s;
    std::vector<std::string_view> fields;
    for (std::size_t f = 0; f < shards.size(); ++f) {
        ShardLines& shard = shards[f];
        if (shard.empty()) throw error_at(shard, 1, "empty file; expected a sweep CSV starting with cell,…");
        std::size_t header_line = 1;
        std::vector<std::string> last_value; // per axis, the value of the row before (none before the first)
        std::optional<RowKey> previous;
        std::size_t previous_line = 0;
        std::string_view line;
        bool broken = false;
        while (shard.next(line, broken)) {
            const std::size_t line_no = shard.line_no();
            if (!broken) throw error_at(shard, line_no, "the last line has no line break (a truncated file?)");
            if (line_no == 1) {
                // The grid line: every shard must come from the same sweep.
                const bool has_grid = line.rfind(kGridPrefix, 0) == 0;
                if (f == 0) {
                    s.grid_line = has_grid ? std::string(line) : std::string();
                } else if (has_grid != !s.grid_line.empty() || (has_grid && line != s.grid_line)) {
                    throw error_at(shard, 1,
                                   has_grid || !s.grid_line.empty()
                                           ? fmt::format("a shard of a different sweep: its grid '{}' is not {}'s '{}'",
                                                         has_grid ? line : "(none)", shards[0].name(),
                                                         s.grid_line.empty() ? "(none)" : s.grid_line)
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
                    const bool engine_column = *(d - 1) == "engine";
                    s.axis_names.assign(fields.begin() + 1, engine_column ? d - 1 : d);
                    s.header = std::string(line);
                    s.columns = fields.size();
                    s.detection = static_cast<std::size_t>(d - fields.begin());
                    if (engine_column) {
                        // A sweep of several engines: the grid line lists them in row order.
                        s.engine = s.detection - 1;
                        const std::size_t at = s.grid_line.find("; engine ");
                        const std::size_t end = s.grid_line.find("; detection ");
                        if (at == std::string::npos || end == std::string::npos || end < at)
                            throw error_at(shard, line_no,
                                           "the header has an engine column but the file has no grid line listing "
                                           "the engines (# collide sweep grid: …; engine …)");
                        const std::string_view list = std::string_view(s.grid_line).substr(at + 9, end - at - 9);
                        for (const std::string_view engine : split_commas(list)) s.engines.emplace_back(engine);
                        s.has_mode.assign(3 * s.engines.size(), false);
                    }
                    if (const auto sizes =
                                s.grid_line.empty() ? std::nullopt : sizes_in_grid_line(s.grid_line, s.axis_names)) {
                        s.sizes = *sizes; // the grid says how many values each axis has: none is kept
                        s.sizes_from_grid = true;
                    } else {
                        s.distinct.resize(s.axis_names.size());
                    }
                } else if (line != s.header) {
                    throw error_at(shard, line_no,
                                   fmt::format("the header differs from {}'s: '{}' vs '{}'", shards[0].name(), line,
                                               s.header));
                }
                continue;
            }
            const RowKey key = parse_row(shard, line, s, fields);
            if (previous && key < *previous)
                throw error_at(
                        shard, line_no,
                        fmt::format("the rows are out of grid order: cell {} ({}) comes after cell {} ({}) at "
                                    "line {}; a shard lists its cells in grid order, as collide sweep writes them",
                                    key.cell, s.mode_name(key.mode), previous->cell, s.mode_name(previous->mode),
                                    previous_line));
            previous = key;
            previous_line = line_no;
            const bool first_row = last_value.empty();
            last_value.resize(s.distinct.size());
            for (std::size_t a = 1; a <= s.distinct.size(); ++a) {
                if (!first_row && fields[a] == last_value[a - 1]) continue; // a slow axis keeps its value
                auto& values = s.distinct[a - 1];
                if (values.find(fields[a]) == values.end()) values.emplace(fields[a]);
                last_value[a - 1].assign(fields[a]);
            }
            s.max_cell = std::max(s.max_cell, key.cell);
            s.has_mode[static_cast<std::size_t>(key.mode)] = true;
            s.has_rows = true;
        }
    }
    if (!s.sizes_from_grid) {
        s.sizes.clear();
        for (const auto& values : s.distinct) s.sizes.push_back(values.size());
        s.distinct.clear();
    }
    return s;
}

/// One shard's current row in pass 2.
struct Current {
    RowKey key;
    std::size_t line = 0;
    std::string_view text;
    std::vector<std::string_view> fields;
};

/// The first row found at each position of an axis (its value there, and where it was).
struct AxisFirst {
    std::string value;
    std::size_t file = 0, line = 0;
    std::uint64_t cell = 0;
    bool set = false;
};

/// Pass 2: the rows merged in (cell, mode) order into `write`, every cell checked.
template <class Write> void merge_rows(std::vector<ShardLines>& shards, const Survey& s, Write&& write) {
    // The grid: the product of each axis's distinct values, the modes those that appear.
    std::uint64_t cells = 0;
    if (s.has_rows) {
        cells = 1;
        for (const std::uint64_t count : s.sizes) cells = std::min<std::uint64_t>(cells * count, kMaxGridCells);
        cells = std::max(cells, s.max_cell + 1);
    }
    std::vector<int> modes;
    for (std::size_t m = 0; m < s.has_mode.size(); ++m)
        if (s.has_mode[m]) modes.push_back(static_cast<int>(m));

    const std::size_t n = s.sizes.size();
    std::vector<std::uint64_t> size(n), stride(n, 1);
    for (std::size_t a = 0; a < n; ++a) size[a] = std::max<std::uint64_t>(s.sizes[a], 1);
    for (std::size_t a = n; a-- > 1;) stride[a - 1] = stride[a] * size[a];
    // The first row at each position of each axis. The first axis varies slowest: its
    // positions come one after the other in cell order and never again, so only the current
    // one is kept (its values go into the grid line's digest as they come). The others' lists
    // grow as their positions first appear (in order: the cells come without a gap).
    std::vector<std::vector<AxisFirst>> at(n);
    AxisFirst slowest;
    std::uint64_t slowest_position = ~std::uint64_t{0};
    GridLineBuilder grid;
    if (n > 0) grid.axis(s.axis_names[0]);
    std::optional<InputError> coordinate_error; // reported once every cell is known to be there

    if (!s.grid_line.empty()) {
        write(s.grid_line);
        write("\n");
    }
    write(s.header);
    write("\n");

    // Each shard's next row; a heap of the shards by their row's (cell, mode), then file.
    std::vector<Current> current(shards.size());
    const auto advance = [&](std::size_t f) {
        std::string_view line;
        bool broken = false;
        ShardLines& shard = shards[f];
        while (shard.next(line, broken)) {
            const std::size_t header_line = s.grid_line.empty() ? 1 : 2;
            if (shard.line_no() <= header_line) continue;
            Current& c = current[f];
            c.key = parse_row(shard, line, s, c.fields);
            c.line = shard.line_no();
            c.text = line;
            return true;
        }
        return false;
    };
    const auto later = [&](std::size_t a, std::size_t b) {
        const RowKey &x = current[a].key, &y = current[b].key;
        return y < x || (x == y && b < a);
    };
    std::priority_queue<std::size_t, std::vector<std::size_t>, decltype(later)> heap(later);
    for (std::size_t f = 0; f < shards.size(); ++f) {
        shards[f].rewind();
        if (advance(f)) heap.push(f);
    }

    const std::uint64_t expected_rows = cells * modes.size();
    std::uint64_t k = 0;
    std::optional<RowKey> last;
    std::size_t last_file = 0, last_line = 0;
    while (!heap.empty()) {
        const std::size_t f = heap.top();
        heap.pop();
        const Current& r = current[f];
        if (last && *last == r.key)
            throw error_at(shards[f], r.line,
                           fmt::format("cell {} ({}) appears twice; it is also at {}:{}", r.key.cell,
                                       s.mode_name(r.key.mode), shards[last_file].name(), last_line));
        const std::uint64_t cell = k / modes.size();
        const int mode = modes[k % modes.size()];
        if (r.key.cell != cell || r.key.mode != mode)
            throw command_error(fmt::format("cell {} ({}) is missing from every shard (the grid has {} cells)", cell,
                                            s.mode_name(mode), cells));
        // Its coordinates: each axis's value must be the one every other row at its position has.
        for (std::size_t a = 0; a < n && !coordinate_error; ++a) {
            const std::uint64_t position = (r.key.cell / stride[a]) % size[a];
            const std::string_view value = r.fields[a + 1];
            if (a == 0 && position != slowest_position) {
                slowest_position = position;
                slowest.set = false;
            }
            if (a > 0 && position >= at[a].size()) at[a].resize(position + 1);
            AxisFirst& first = a == 0 ? slowest : at[a][position];
            if (!first.set) {
                first = AxisFirst{std::string(value), f, r.line, r.key.cell, true};
                if (a == 0) grid.value(value);
            } else if (first.value != value) {
                coordinate_error = error_at(
                        shards[f], r.line,
                        fmt::format("the row's coordinates are not cell {}'s: {} is {} here but {} at {}:{} (cell {}), "
                                    "the same position on that axis",
                                    r.key.cell, s.axis_names[a], value, first.value, shards[first.file].name(),
                                    first.line, first.cell));
            }
        }
        write(r.text);
        write("\n");
        last = r.key;
        last_file = f;
        last_line = r.line;
        ++k;
        if (advance(f)) heap.push(f);
    }
    if (k < expected_rows)
        throw command_error(fmt::format("cell {} ({}) is missing from every shard (the grid has {} cells)",
                                        k / modes.size(), s.mode_name(modes[k % modes.size()]), cells));
    if (coordinate_error) throw *coordinate_error;
    if (s.grid_line.empty()) return;
    // The grid the rows make must be the one the shards record.
    for (std::size_t a = 1; a < n; ++a) {
        grid.axis(s.axis_names[a]);
        for (const AxisFirst& first : at[a]) grid.value(first.value);
    }
    // The detections and engines the rows have, in row order.
    std::vector<std::string> mode_names, engine_names;
    for (int d = 0; d < 3; ++d)
        for (const int m : modes)
            if (m % 3 == d) {
                mode_names.emplace_back(detection_of(m));
                break;
            }
    for (std::size_t e = 0; e < s.engines.size(); ++e)
        for (const int m : modes)
            if (static_cast<std::size_t>(m / 3) == e) {
                engine_names.push_back(s.engines[e]);
                break;
            }
    const std::string made = grid.finish(mode_names, engine_names);
    if (made != s.grid_line)
        throw command_error(fmt::format("the rows make the grid '{}', not the grid the shards record '{}' (a row "
                                        "whose coordinates are not its cell's?)",
                                        made, s.grid_line));
}

} // namespace

std::string merge_sweep_csv(const std::vector<ShardText>& shards) {
    if (shards.empty()) throw command_error("no shard files to merge");
    std::vector<ShardLines> lines;
    lines.reserve(shards.size());
    for (const ShardText& shard : shards) lines.emplace_back(shard.name, shard.text);
    const Survey s = survey(lines);
    std::string out;
    merge_rows(lines, s, [&](std::string_view bytes) { out += bytes; });
    return out;
}

void merge_sweep_files(const std::vector<std::string>& files, const std::string& output) {
    if (files.empty()) throw command_error("no shard files to merge");
    refuse_output_onto_inputs(output, "-o", files);
    std::vector<ShardLines> lines;
    lines.reserve(files.size());
    for (const std::string& file : files) lines.emplace_back(file);
    const Survey s = survey(lines);
    OutputFile out(output);
    // A file is replaced only when the merge is whole; a stream (stdout, a FIFO) gets nothing
    // until a dry run has found every cell in place.
    if (out.temporary().empty()) merge_rows(lines, s, [](std::string_view) {});
    merge_rows(lines, s, [&](std::string_view bytes) { out.write(bytes); });
    out.commit();
}

} // namespace collide

namespace collide {

namespace {

/// `text` split at every `separator`.
std::vector<std::string> split_at(std::string_view text, std::string_view separator) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (std::size_t at; (at = text.find(separator, start)) != std::string_view::npos; start = at + separator.size())
        parts.emplace_back(text.substr(start, at - start));
    parts.emplace_back(text.substr(start));
    return parts;
}

/// A CSV field without its quotes (doubled quotes made single).
std::string unquoted(std::string_view field) {
    if (field.size() < 2 || field.front() != '"') return std::string(field);
    std::string out;
    for (std::size_t i = 1; i + 1 < field.size(); ++i) {
        out += field[i];
        if (field[i] == '"') ++i;
    }
    return out;
}

double number_of(std::string_view text, const std::string& where) {
    double v = 0;
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size())
        throw command_error(fmt::format("{}: '{}' is not a number", where, text));
    return v;
}

Detection detection_named(const std::string& name) {
    for (const Detection d : {Detection::discrete, Detection::swept, Detection::speculative})
        if (name == detection_name(d)) return d;
    throw command_error("the merged sweep's grid line names no detection mode '" + name + "'");
}

} // namespace

MergedSweep read_merged_sweep(const std::string& csv, const SweepModel& model) {
    std::vector<std::string_view> lines;
    for (std::size_t start = 0; start < csv.size();) {
        const std::size_t end = csv.find('\n', start);
        lines.push_back(std::string_view(csv).substr(start, (end == std::string::npos ? csv.size() : end) - start));
        start = end == std::string::npos ? csv.size() : end + 1;
    }
    if (lines.size() < 2 || lines[0].substr(0, kGridPrefix.size()) != kGridPrefix)
        throw command_error("the merged shards have no grid line (# collide sweep grid: …) to draw them by");
    // "a (3 values), b (2 values); engine collide, bullet; detection discrete, swept; digest …"
    std::vector<std::pair<std::string, std::uint64_t>> axes;
    std::vector<std::string> engines{"collide"};
    std::vector<Detection> modes;
    for (const std::string& part : split_at(lines[0].substr(kGridPrefix.size()), "; ")) {
        if (part.rfind("engine ", 0) == 0) {
            engines = split_at(std::string_view(part).substr(7), ", ");
        } else if (part.rfind("detection ", 0) == 0) {
            for (const std::string& m : split_at(std::string_view(part).substr(10), ", "))
                modes.push_back(detection_named(m));
        } else if (part.rfind("digest ", 0) == 0 || part == "no axes") {
            continue;
        } else {
            for (const std::string& axis : split_at(part, ", ")) {
                const std::size_t open = axis.rfind(" (");
                if (open == std::string::npos) throw command_error("the merged sweep's grid line is malformed");
                axes.emplace_back(
                        axis.substr(0, open),
                        static_cast<std::uint64_t>(number_of(axis.substr(open + 2, axis.find(' ', open + 2) - open - 2),
                                                             "the grid line")));
            }
        }
    }
    // Each axis's values, from the rows: the coordinate of a cell along an axis is fixed by the
    // counts (the first axis varies slowest).
    std::vector<std::uint64_t> stride(axes.size(), 1);
    for (std::size_t a = axes.size(); a-- > 1;) stride[a - 1] = stride[a] * axes[a].second;
    std::vector<Axis> grid_axes(axes.size());
    for (std::size_t a = 0; a < axes.size(); ++a) {
        grid_axes[a].name = axes[a].first;
        const auto p = std::find(model.param_names.begin(), model.param_names.end(), axes[a].first);
        if (p == model.param_names.end())
            throw command_error(
                    fmt::format("the shards vary '{}', which {} has no param of", axes[a].first, model.file));
        grid_axes[a].param = static_cast<int>(p - model.param_names.begin());
        grid_axes[a].values.assign(axes[a].second, 0.0);
    }
    std::vector<std::string_view> fields;
    for (std::size_t n = 2; n < lines.size(); ++n) {
        split_fields(lines[n], fields);
        if (fields.size() < 1 + axes.size()) throw command_error(fmt::format("merged row {} is cut short", n + 1));
        const auto cell = static_cast<std::uint64_t>(number_of(fields[0], "a cell"));
        for (std::size_t a = 0; a < axes.size(); ++a)
            grid_axes[a].values[(cell / stride[a]) % axes[a].second] = number_of(fields[1 + a], axes[a].first);
    }
    MergedSweep merged;
    merged.plan.grid = Grid(std::move(grid_axes));
    merged.plan.engines = engines;
    merged.plan.modes = modes;
    // Its header must be what the model writes: the same columns, of the same scenario.
    std::string header;
    append_csv_header(model, merged.plan, header);
    const std::size_t header_end = csv.find('\n', csv.find('\n') + 1);
    if (header_end == std::string::npos || csv.compare(0, header_end + 1, header) != 0)
        throw command_error(fmt::format("the shards' columns are not those {} writes: they are of another scenario "
                                        "(or another version of it)",
                                        model.file));
    const std::size_t width = model.fields.size(), first_field = 1 + axes.size() + (engines.size() > 1 ? 1 : 0) + 1;
    if (lines.size() - 2 != merged.plan.rows())
        throw command_error(fmt::format("the merged shards hold {} rows where their grid has {}", lines.size() - 2,
                                        merged.plan.rows()));
    merged.values.assign(merged.plan.rows() * width, std::numeric_limits<double>::quiet_NaN());
    for (std::size_t n = 2; n < lines.size(); ++n) {
        split_fields(lines[n], fields);
        if (fields.size() != first_field + width) throw command_error(fmt::format("merged row {} is malformed", n + 1));
        double* row = merged.values.data() + (n - 2) * width;
        for (std::size_t f = 0; f < width; ++f) {
            const std::string_view text = fields[first_field + f];
            if (text.empty()) continue;
            const std::string where = fmt::format("merged row {}, {}", n + 1, model.columns[f]);
            switch (model.fields[f].type) {
            case FieldType::boolean:
                if (text != "true" && text != "false")
                    throw command_error(fmt::format("{}: '{}' is not true or false", where, text));
                row[f] = text == "true" ? 1 : 0;
                break;
            case FieldType::body: {
                const std::string name = unquoted(text);
                const auto b = std::find(model.body_names.begin(), model.body_names.end(), name);
                if (b == model.body_names.end())
                    throw command_error(fmt::format("{}: {} has no body '{}'", where, model.file, name));
                row[f] = static_cast<double>(b - model.body_names.begin());
                break;
            }
            case FieldType::integer:
            case FieldType::number: row[f] = number_of(text, where); break;
            }
        }
    }
    return merged;
}

} // namespace collide
