#pragma once
/// \file
/// `collide merge`: join the CSV of a sweep's shards into the whole grid, and draw it as
/// `collide sweep` would have.

#include <iosfwd>
#include <string>
#include <vector>

namespace collide {

/// What `collide merge` was asked to do.
struct MergeRequest {
    std::vector<std::string> files; ///< the shards' CSV files
    std::string output;             ///< `-o`; empty: stdout
    std::string format = "csv";     ///< `--format`: csv (the merged rows), or table, json, svg, html (the map)
    std::string measure;            ///< `--measure` for a map; empty: `hit`, else the first field
    /// `--scenario`: the scenario the shards swept (its fields, bodies and, for html, the cells'
    /// frames); needed by every format but csv.
    std::string scenario;
};

/// Merges shard CSVs `files` and writes the result atomically to `output` (stdout when empty).
/// Problems go to `err` (app/errors.h). Returns 0, or 2 on bad input.
int merge_command(const std::vector<std::string>& files, const std::string& output, std::ostream& err);

/// Merges the shards and writes them in `request.format`: CSV as merge_command does, any other
/// format the bytes `collide sweep` writes for the whole grid. Returns 0, or 2 on bad input.
int merge_command(const MergeRequest& request, std::ostream& err);

} // namespace collide
