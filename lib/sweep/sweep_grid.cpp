#include "sweep/sweep_grid.h"

#include <algorithm>
#include <chrono>
#include <optional>
#include <sys/stat.h>

#include <fmt/format.h>
#include <tbb/info.h>

#include "io/atomic_file.h"
#include "sweep/checkpoint.h"
#include "sweep/progress.h"

namespace collide {

namespace {

/// True when `output` is a regular file to be replaced (or a new one): a CSV there is resumable.
bool resumable(const std::string& output) {
    if (output.empty() || output == "-") return false;
    struct stat st {};
    if (::lstat(output.c_str(), &st) != 0) return errno == ENOENT;
    return S_ISREG(st.st_mode);
}

/// What a resumed run must share with the run that left the chunks: the scenario's text, the
/// grid line and header (axes, values, modes, columns) and the shard.
std::string sweep_identity(const SweepModel& model, const SweepPlan& plan, const std::string& header) {
    return fmt::format("scenario {} digest {:016x}\nshard {}/{}\n{}", model.file, model.source_digest,
                       plan.shard.index + 1, plan.shard.count, header);
}

/// Writes the rows of a CSV sweep, block by block: to the output as they come, or, when
/// `checkpoint` is given, into its chunks (one every `seconds` at least, and at the end).
class CsvRows {
public:
    CsvRows(const std::string& output, Checkpoint* checkpoint, double seconds)
            : checkpoint_(checkpoint), seconds_(seconds), last_(std::chrono::steady_clock::now()) {
        if (!checkpoint_) out_.emplace(output);
    }
    void write_header(const std::string& header) {
        if (out_) out_->write(header);
    }
    void write_block(std::uint64_t rows, const std::vector<std::string>& pieces, std::size_t count, bool last) {
        if (out_) {
            for (std::size_t k = 0; k < count; ++k) out_->write(pieces[k]);
            return;
        }
        for (std::size_t k = 0; k < count; ++k) pending_ += pieces[k];
        pending_rows_ += rows;
        constexpr std::size_t kChunkBytes = 8 << 20; // bounds the rows held between two chunks
        const auto now = std::chrono::steady_clock::now();
        if (last || pending_.size() >= kChunkBytes || std::chrono::duration<double>(now - last_).count() >= seconds_) {
            checkpoint_->add_chunk(pending_rows_, pending_);
            pending_.clear();
            pending_rows_ = 0;
            last_ = now;
        }
    }
    void finish(const std::string& header) {
        if (out_)
            out_->commit();
        else
            checkpoint_->finish(header);
    }

private:
    Checkpoint* checkpoint_;
    double seconds_;
    std::optional<OutputFile> out_;
    std::string pending_;
    std::uint64_t pending_rows_ = 0;
    std::chrono::steady_clock::time_point last_;
};

} // namespace

SweepPlan plan_sweep(const SweepModel& model, const SweepRequest& request) {
    SweepPlan plan;
    plan.grid = make_grid(request.varies, model.param_names);
    plan.modes = request.detection ? modes_of(*request.detection) : std::vector<Detection>{model.detection};
    plan.engines = model.engines;
    if (!request.shard.empty()) plan.shard = parse_shard(request.shard);
    return plan;
}

void execute_grid(const SweepModel& model, const SweepRequest& request, const SweepConsole& console) {
    const SweepPlan plan = plan_sweep(model, request);
    const bool maps = request.format == SweepFormat::table || request.format == SweepFormat::svg ||
                      request.format == SweepFormat::html;
    // Check --measure whenever it is given, so that a typo is caught whatever the format.
    const int measure = (maps || !request.measure.empty()) ? find_measure(model, request.measure) : 0;
    const std::uint64_t rows = plan.rows();
    if (request.format != SweepFormat::csv && rows > kMaxStoredRows)
        throw command_error(fmt::format("{} rows is more than --format {} keeps in memory ({}); use --format csv, "
                                        "which streams, or --shard",
                                        rows,
                                        request.format == SweepFormat::json ? "json"
                                        : maps                              ? "table/svg/html"
                                                                            : "",
                                        kMaxStoredRows));
    if (request.checkpoint && (request.format != SweepFormat::csv || !resumable(request.output)))
        throw command_error("--checkpoint keeps the finished rows of a CSV written to a file: give --format csv and "
                            "-o FILE");
    if (!plan.shard.source.empty() && console.err)
        fmt::print(console.err, "sweep: shard {}/{} ({})\n", plan.shard.index + 1, plan.shard.count, plan.shard.source);

    GridExecutor executor(model, plan, request.jobs);
    const std::size_t width = model.fields.size();

    if (request.format == SweepFormat::csv) {
        // Rows are computed a block at a time and formatted in parallel pieces, each into its
        // own string, then written in grid order: bounded memory, the same bytes for any --jobs
        // and any block size. Blocks grow from a few rows to about half a second of work, so
        // that a heavy scenario's progress and checkpoints come often.
        std::string header; // written with the first block, so a failing first cell prints nothing
        append_csv_header(model, plan, header);
        std::optional<Checkpoint> checkpoint;
        if (request.checkpoint) checkpoint.emplace(request.output, sweep_identity(model, plan, header));
        CsvRows out(request.output, checkpoint ? &*checkpoint : nullptr, request.checkpoint.value_or(0));
        std::uint64_t first = checkpoint ? std::min(checkpoint->done(), rows) : 0;
        Progress progress(rows, console.terminal, console.err);
        progress.phase("", rows, "cells", first);
        if (first > 0 && console.err)
            fmt::print(console.err, "sweep: resuming {}: {} of {} rows are in {}\n", request.output, first, rows,
                       chunk_folder_of(request.output));
        constexpr std::uint64_t kPieceRows = 256;
        const auto threads =
                static_cast<std::uint64_t>(request.jobs > 0 ? request.jobs : tbb::info::default_concurrency());
        const std::uint64_t smallest = std::min(kSweepBlockRows, 4 * threads);
        std::uint64_t block = smallest;
        std::vector<double> values(kSweepBlockRows * width);
        std::vector<std::string> pieces(kSweepBlockRows / kPieceRows);
        if (rows == 0) out.write_header(header);
        const auto compute_rows = [&](std::uint64_t from, std::uint64_t count) {
            try {
                executor.compute_rows(from, count, values);
            } catch (const InputError&) {
                if (checkpoint) checkpoint->discard(); // the same cell would fail again: nothing to resume
                throw;
            }
        };
        for (bool started = false; first < rows;) {
            const std::uint64_t count = std::min(block, rows - first);
            const auto start = std::chrono::steady_clock::now();
            compute_rows(first, count);
            executor.for_each_piece(count, kPieceRows, [&](std::uint64_t begin, std::uint64_t end) {
                std::string& text = pieces[begin / kPieceRows];
                text.clear();
                append_csv_rows(model, plan, first + begin, end - begin,
                                std::span<const double>(values).subspan(begin * width, (end - begin) * width), text);
            });
            if (!started) out.write_header(header);
            started = true;
            out.write_block(count, pieces, (count + kPieceRows - 1) / kPieceRows, first + count == rows);
            first += count;
            progress.update(first);
            // The next block: about half a second of work at this block's pace.
            const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
            const double pace = seconds > 0 ? static_cast<double>(count) / seconds : 1e12;
            block = std::clamp<std::uint64_t>(static_cast<std::uint64_t>(std::min(pace * 0.5, 1e12)), smallest,
                                              kSweepBlockRows);
        }
        out.finish(header);
        progress.finish();
    } else {
        OutputFile out(request.output);
        Progress progress(rows, console.terminal, console.err);
        std::vector<double> values(rows * width);
        constexpr std::uint64_t kStoredBlock = 16 * kSweepBlockRows;
        for (std::uint64_t first = 0; first < rows; first += kStoredBlock) {
            const std::uint64_t count = std::min(kStoredBlock, rows - first);
            executor.compute_rows(first, count, std::span<double>(values).subspan(first * width, count * width));
            progress.update(first + count);
        }
        switch (request.format) {
        case SweepFormat::json: out.write(render_sweep_json(model, plan, values)); break;
        case SweepFormat::table: out.write(render_sweep_table(model, plan, values, measure)); break;
        case SweepFormat::svg: out.write(render_sweep_svg(model, plan, values, measure)); break;
        case SweepFormat::html: out.write(render_sweep_html(model, plan, values, measure)); break;
        case SweepFormat::csv: break;
        }
        out.commit();
        progress.finish();
    }
}

} // namespace collide
