#pragma once
/// \file
/// Writing files so that no reader ever sees a partial one: write a temporary file beside the
/// target, flush it, then rename it over the target (atomic on POSIX within one file system).

#include <string>
#include <string_view>

namespace collide {

/// Write `content` to `path` atomically (temp file `.NAME.tmp.PID` in the same folder, then
/// rename). Throws std::runtime_error with a one-line message naming the path on failure, and
/// leaves no temporary file behind.
void write_file_atomically(const std::string& path, std::string_view content);

/// Read a whole file into a string. Throws std::runtime_error naming the path on failure.
/// "-" reads standard input.
std::string read_file(const std::string& path);

} // namespace collide
