#pragma once
/// \file
/// `collide merge`: join the CSV of a sweep's shards into the whole grid.

#include <iosfwd>
#include <string>
#include <vector>

namespace collide {

/// Merges shard CSVs `files` and writes the result atomically to `output` (stdout when empty).
/// Problems go to `err` (app/errors.h). Returns 0, or 2 on bad input.
int merge_command(const std::vector<std::string>& files, const std::string& output, std::ostream& err);

} // namespace collide
