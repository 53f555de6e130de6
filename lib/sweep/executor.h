#pragma once
/// \file
/// Executing a sweep's cells in parallel. What a cell computes is behind a small interface
/// (SweepModel + CellWorker) so that the grid, the threads and the output can be tested with a
/// closed-form cell; sweep/scenario_model.h wires the real scenario (template → instantiate →
/// simulate) into it.
///
/// Each thread owns one CellWorker (its own evaluator, scenario and workspace), made on first
/// use; a row's values depend only on its params and mode, and are written into the slot of
/// its row index, so the results are the same for every thread count.

#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "model/log.h"
#include "model/scenario.h"
#include "probes/record.h"
#include "sweep/grid.h"

namespace collide {

/// Computes cells for one thread. Implementations keep whatever per-thread state they need
/// (an evaluator, a warm scenario, a workspace) and must not allocate or format per cell.
class CellWorker {
public:
    virtual ~CellWorker() = default;
    /// Computes one cell: `params` holds every param of the scenario (in its order), `engine` is
    /// the engine to run (an index into SweepModel::engines), `mode` the detection to use;
    /// writes one value per measured field into `values` (FieldType conventions of
    /// report/fields.h; NaN when not measured).
    virtual void compute(std::span<const double> params, std::size_t engine, Detection mode,
                         std::span<double> values) = 0;
    /// Frames simulated by the last call to compute() (for benchmark figures); 0 when unknown.
    virtual std::uint64_t frames_simulated() const { return 0; }
};

/// One cell run again with every frame recorded (the HTML map draws it): the scenario as the
/// cell instantiated it and its recording.
struct CellRun {
    Scenario scenario;   ///< the cell's scenario (params applied, detection set)
    Recording recording; ///< its frames and contacts
};

/// What a sweep computes: the scenario's names and measured fields, and how to make workers.
struct SweepModel {
    std::string name;                     ///< scenario name, for titles
    std::string file;                     ///< the scenario file
    std::vector<std::string> param_names; ///< every param, in the scenario's order
    std::vector<double> default_params;   ///< their values before the grid applies
    std::vector<std::string> columns;     ///< one column name per field: FIELD, or ID.FIELD with several log entries
    std::vector<FieldSpec> fields;        ///< what each column holds
    std::vector<std::string> body_names;  ///< names for FieldType::body values
    std::uint64_t source_digest = 0;      ///< FNV-1a of the scenario's text (a resumed sweep's rows must be of it)
    Detection detection = Detection::discrete;                ///< the scenario's own mode, used without --detection
    std::vector<std::string> engines{"collide"};              ///< the engines each cell runs, in row order (≥ 1)
    std::function<std::unique_ptr<CellWorker>()> make_worker; ///< called once per thread
    /// Runs one cell (params, engine and mode as CellWorker::compute takes them) with its frames
    /// recorded; empty when the model has no scenario to draw (the HTML map then has no frames).
    std::function<CellRun(std::span<const double> params, std::size_t engine, Detection mode)> run_cell;
};

/// Computes rows of a plan on a fixed number of threads, reusing each thread's worker.
class GridExecutor {
public:
    /// `jobs` threads (0: every core).
    GridExecutor(const SweepModel& model, const SweepPlan& plan, int jobs);
    ~GridExecutor();
    GridExecutor(const GridExecutor&) = delete;
    GridExecutor& operator=(const GridExecutor&) = delete;

    /// Computes rows first_row … first_row + count − 1 of the plan into `out`
    /// (count × fields values, row-major).
    void compute_rows(std::uint64_t first_row, std::uint64_t count, std::span<double> out);

    /// Calls fn(begin, end) for consecutive pieces [begin, end) of [0, count), at most `piece`
    /// long, in parallel on this executor's threads (so --jobs holds for the work around the
    /// cells too, such as formatting them). fn must not depend on the order of the calls.
    void for_each_piece(std::uint64_t count, std::uint64_t piece,
                        const std::function<void(std::uint64_t begin, std::uint64_t end)>& fn);

    /// Frames simulated by all runs so far (0 when the workers do not count them).
    std::uint64_t frames_simulated() const;
    /// How many threads have run cells so far (each made its own worker).
    std::size_t threads_used() const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

} // namespace collide
