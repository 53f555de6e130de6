#pragma once
/// \file
/// The one output writer: every file collide writes goes through OutputFile.
///
/// - a regular file (or a new one) is replaced atomically: a temporary file is created beside
///   it with O_CREAT|O_EXCL|O_NOFOLLOW (a name no other run uses; a symlink or a stale file at
///   that name is never followed or reused), written, fsync'ed and renamed over the target,
///   which keeps the original file's permission bits. No reader ever sees a partial file.
/// - a character device (/dev/null, a terminal), a FIFO or `-` (stdout) is written in place,
///   streaming; nothing is created or replaced.
/// - a symbolic link at the target is refused: collide never writes through a link.
/// - a directory, socket or block device is refused.
/// Temporary files are removed when the process gets SIGINT, SIGTERM or SIGHUP; it then exits
/// with 128 + the signal's number (130, 143, 129).

#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace collide {

/// An output that cannot be opened, written or committed. The message names the path; it is
/// not a problem with any input file.
class OutputError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// A byte sink: stdout, a device or FIFO written in place, or an atomically replaced file.
class OutputFile {
public:
    /// Opens `path` for writing (see the file comment), or stdout when `path` is empty or "-".
    /// Throws OutputError naming the path when it cannot or must not be written.
    explicit OutputFile(const std::string& path);
    /// Removes the temporary file unless commit() succeeded.
    ~OutputFile();
    OutputFile(const OutputFile&) = delete;
    OutputFile& operator=(const OutputFile&) = delete;

    /// Appends bytes (buffered); throws OutputError on a write error.
    void write(std::string_view bytes);
    /// Flushes and, for a replaced file, fsyncs and renames the temporary over the target.
    /// Throws OutputError on failure (then the target is untouched).
    void commit();
    /// The temporary file being written ("" unless a regular file is being replaced).
    const std::string& temporary() const { return temp_; }

private:
    void flush();
    void discard() noexcept;

    std::string path_; ///< as named; "" for stdout
    std::string temp_; ///< the temporary beside it, when replacing a file
    int fd_ = -1;      ///< the open file or device (-1 for stdout, which goes through stdio)
    int slot_ = -1;    ///< the temporary's slot in the signal clean-up registry
    std::string buffer_;
    bool committed_ = false;
};

/// Write `content` to `path` through an OutputFile ("-" writes stdout). Throws OutputError
/// with a one-line message naming the path on failure, and leaves no temporary file behind.
void write_file_atomically(const std::string& path, std::string_view content);

/// Throws OutputError when output `output` (given as option `option`, e.g. "-o") is one of
/// `inputs`: the same path, or the same file (device and inode, links followed). "-", "" and
/// character devices are never inputs' files.
void refuse_output_onto_inputs(const std::string& output, std::string_view option,
                               const std::vector<std::string>& inputs);

/// Read a whole file into a string. Throws std::runtime_error naming the path on failure.
/// "-" reads standard input; a FIFO is read to its end.
std::string read_file(const std::string& path);

} // namespace collide
