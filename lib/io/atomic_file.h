#pragma once
/// \file
/// Writing files so that no reader ever sees a partial one: write a temporary file beside the
/// target, flush it, then rename it over the target (atomic on POSIX within one file system).
/// OutputFile streams (a sweep's CSV block by block); write_file_atomically writes one string.

#include <cstdio>
#include <string>
#include <string_view>

namespace collide {

/// A byte sink that is either stdout or an atomically replaced file.
class OutputFile {
public:
    /// Opens `path` for writing (through a temporary file), or stdout when `path` is empty or
    /// "-". Throws std::runtime_error naming the path when it cannot be created.
    explicit OutputFile(const std::string& path);
    /// Removes the temporary file unless commit() succeeded.
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    /// Appends bytes; throws std::runtime_error on a write error.
    void write(std::string_view bytes);
    /// Flushes and, for a file, renames the temporary over the target. Throws on failure.
    void commit();

private:
    std::string path_;
    std::string temp_;
    std::FILE* file_ = nullptr;
    bool committed_ = false;
};

/// Write `content` to `path` atomically through an OutputFile (temp file `.NAME.tmp.PID` in the
/// same folder, then rename; "-" writes stdout). Throws std::runtime_error with a one-line message naming the path on
/// failure, and leaves no temporary file behind.
void write_file_atomically(const std::string& path, std::string_view content);

/// Read a whole file into a string. Throws std::runtime_error naming the path on failure.
/// "-" reads standard input.
std::string read_file(const std::string& path);

} // namespace collide
