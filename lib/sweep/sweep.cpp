#include "sweep/sweep.h"

#include <fmt/format.h>

#include "io/atomic_file.h"
#include "sweep/progress.h"

namespace collide {

SweepPlan plan_sweep(const SweepModel& model, const SweepRequest& request) {
    SweepPlan plan;
    plan.grid = make_grid(request.varies, model.param_names);
    plan.modes = request.detection ? modes_of(*request.detection) : std::vector<Detection>{model.detection};
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

    GridExecutor executor(model, plan, request.jobs);
    OutputFile out(request.output);
    Progress progress(rows, console.terminal, console.err);
    const std::size_t width = model.fields.size();

    if (request.format == SweepFormat::csv) {
        // Rows are computed a block at a time and formatted in parallel pieces, each into its
        // own string, then written in grid order: bounded memory, the same bytes for any --jobs.
        constexpr std::uint64_t kPieceRows = 256;
        std::vector<double> block(kSweepBlockRows * width);
        std::vector<std::string> pieces(kSweepBlockRows / kPieceRows);
        std::string header; // written with the first block, so a failing first cell prints nothing
        append_csv_header(model, plan, header);
        if (rows == 0) out.write(header);
        for (std::uint64_t first = 0; first < rows; first += kSweepBlockRows) {
            const std::uint64_t count = std::min(kSweepBlockRows, rows - first);
            executor.compute_rows(first, count, block);
            executor.for_each_piece(count, kPieceRows, [&](std::uint64_t begin, std::uint64_t end) {
                std::string& text = pieces[begin / kPieceRows];
                text.clear();
                append_csv_rows(model, plan, first + begin, end - begin,
                                std::span<const double>(block).subspan(begin * width, (end - begin) * width), text);
            });
            if (first == 0) out.write(header);
            for (std::uint64_t begin = 0; begin < count; begin += kPieceRows) out.write(pieces[begin / kPieceRows]);
            progress.update(first + count);
        }
    } else {
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
    }
    out.commit();
    progress.finish();
}

} // namespace collide
