#pragma once
/// \file
/// `collide validate`: load and check scenario files without simulating them.

#include <iosfwd>
#include <string>
#include <vector>

namespace collide {

/// Loads each file ("-" reads stdin): a line `FILE: ok (N bodies, …)` per good file on `out`,
/// one line per problem on `err` as `FILE:LINE:COLUMN: error: …`. Every file is tried. Returns
/// 0, or 2 when any file has bad input.
int validate_command(const std::vector<std::string>& files, std::ostream& out, std::ostream& err);

} // namespace collide
