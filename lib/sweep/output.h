#pragma once
/// \file
/// Where a sweep or merge writes: standard output, or a file written atomically (a temporary
/// file beside it, renamed over it on commit) so that no partial file is ever left behind,
/// even when the output is streamed in blocks.

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

} // namespace collide
