#pragma once
/// \file
/// A sweep's CSV output that survives being killed: its finished rows are kept, chunk by
/// chunk, in a folder beside the output, `OUTPUT.chunks/`, each chunk a file written atomically
/// (io/atomic_file.h) and named after the rows it holds (`rows-FIRST-COUNT.csv`). A run with
/// the same arguments (the same scenario text, grid, modes, shard and columns: its identity)
/// after a kill, a node failure or a requeue finds the whole chunks, computes only the rows
/// after them, and once every row is there writes the output — the header and the chunks
/// joined, byte for byte what an uninterrupted run writes — atomically, then removes the
/// folder. The folder is locked (flock) while a run uses it, so a second run at once is refused,
/// and one of another sweep (another identity) is refused rather than mixed or thrown away.

#include <cstdint>
#include <string>
#include <string_view>

namespace collide {

/// The chunk folder of an output.
std::string chunk_folder_of(const std::string& output);

/// The finished rows of one sweep output, kept in chunks.
class Checkpoint {
public:
    /// Opens `output`'s chunk folder for the sweep `identity` (a text that differs between
    /// sweeps whose rows differ), creating it when there is none, and finds its whole chunks.
    /// Throws OutputError (exit 2) when the folder cannot be made, belongs to another sweep, or
    /// is in use by another run.
    Checkpoint(const std::string& output, const std::string& identity);
    ~Checkpoint();
    Checkpoint(const Checkpoint&) = delete;
    Checkpoint& operator=(const Checkpoint&) = delete;

    /// Rows already finished: the rows of the whole chunks found, contiguous from row 0.
    std::uint64_t done() const { return done_; }
    /// Keeps rows done() … done() + rows − 1 (their CSV `text`, one line each) as the next
    /// chunk, atomically; done() grows by `rows`.
    void add_chunk(std::uint64_t rows, std::string_view text);
    /// Writes `header` and every chunk to the output, atomically, and removes the folder.
    void finish(std::string_view header);
    /// Removes the folder and its chunks (the sweep cannot finish: a cell rejected its input).
    void discard();

private:
    std::string output_;
    std::string folder_;
    int lock_fd_ = -1;
    std::uint64_t done_ = 0;
};

} // namespace collide
