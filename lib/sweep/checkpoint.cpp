#include "sweep/checkpoint.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>
#include <vector>

#include <fmt/format.h>

#include "io/atomic_file.h"

namespace collide {

namespace {

/// The file that records which sweep a chunk folder belongs to, and the lock file.
constexpr const char* kManifest = "sweep";
constexpr const char* kLock = "lock";
constexpr const char* kManifestHead = "# collide sweep chunks: the finished rows of this sweep, kept until it ends\n";

/// A chunk's name: the first row and the number of rows, zero-padded so that names sort as rows.
std::string chunk_name(std::uint64_t first, std::uint64_t rows) {
    return fmt::format("rows-{:012}-{:012}.csv", first, rows);
}

/// The first row and row count of a chunk's file name; false for any other name.
bool parse_chunk_name(const std::string& name, std::uint64_t& first, std::uint64_t& rows) {
    unsigned long long a = 0, b = 0;
    char tail = 0;
    if (name.size() != 34 || std::sscanf(name.c_str(), "rows-%12llu-%12llu.cs%c", &a, &b, &tail) != 3 || tail != 'v')
        return false;
    first = a;
    rows = b;
    return rows > 0;
}

/// True when the file at `path` is not empty and ends with a line break (a whole chunk).
bool ends_with_line_break(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return false;
    struct stat st {};
    char last = 0;
    const bool ok = ::fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 &&
                    ::pread(fd, &last, 1, st.st_size - 1) == 1 && last == '\n';
    ::close(fd);
    return ok;
}

struct Chunk {
    std::uint64_t first = 0, rows = 0;
    std::string name;
};

/// The chunks (and stale temporaries) in `folder`, sorted by first row.
std::vector<Chunk> list_chunks(const std::string& folder, std::vector<std::string>& temporaries) {
    std::vector<Chunk> chunks;
    DIR* dir = ::opendir(folder.c_str());
    if (!dir) throw OutputError(fmt::format("{}: cannot list: {}", folder, std::strerror(errno)));
    while (const dirent* e = ::readdir(dir)) {
        const std::string name = e->d_name;
        Chunk c;
        if (parse_chunk_name(name, c.first, c.rows)) {
            c.name = name;
            chunks.push_back(c);
        } else if (name.size() > 1 && name[0] == '.' && name.find(".tmp.") != std::string::npos) {
            temporaries.push_back(name); // left by a run killed while it wrote a chunk or the manifest
        }
    }
    ::closedir(dir);
    std::sort(chunks.begin(), chunks.end(), [](const Chunk& a, const Chunk& b) { return a.first < b.first; });
    return chunks;
}

/// Removes the temporaries of `output` (`.NAME.tmp.PID.RANDOM`, io/atomic_file.h) whose process
/// is gone: runs killed while they wrote it. Only the holder of the chunk folder's lock writes
/// a resumable output, so none of them is being written.
void remove_dead_temporaries(const std::string& output) {
    const std::size_t slash = output.rfind('/');
    const std::string dir = slash == std::string::npos ? "." : output.substr(0, slash + 1);
    const std::string prefix = "." + output.substr(slash == std::string::npos ? 0 : slash + 1) + ".tmp.";
    DIR* d = ::opendir(dir.c_str());
    if (!d) return;
    std::vector<std::string> dead;
    while (const dirent* e = ::readdir(d)) {
        const std::string name = e->d_name;
        if (name.rfind(prefix, 0) != 0) continue;
        const long pid = std::strtol(name.c_str() + prefix.size(), nullptr, 10);
        if (pid > 0 && ::kill(static_cast<pid_t>(pid), 0) != 0 && errno == ESRCH) dead.push_back(name);
    }
    ::closedir(d);
    for (const std::string& name : dead) ::unlink((dir + (slash == std::string::npos ? "/" : "") + name).c_str());
}

} // namespace

std::string chunk_folder_of(const std::string& output) { return output + ".chunks"; }

Checkpoint::Checkpoint(const std::string& output, const std::string& identity)
        : output_(output), folder_(chunk_folder_of(output)) {
    struct stat st {};
    if (::lstat(folder_.c_str(), &st) == 0) {
        if (S_ISLNK(st.st_mode))
            throw OutputError(fmt::format("{}: is a symbolic link; collide does not write through links", folder_));
        if (!S_ISDIR(st.st_mode))
            throw OutputError(fmt::format("{}: is not a folder, so the sweep cannot keep its finished rows there "
                                          "(remove it)",
                                          folder_));
    } else if (errno != ENOENT || (::mkdir(folder_.c_str(), 0777) != 0 && errno != EEXIST)) {
        throw OutputError(fmt::format("{}: cannot make the folder for the sweep's finished rows: {}", folder_,
                                      std::strerror(errno)));
    }
    const std::string lock = folder_ + "/" + kLock;
    lock_fd_ = ::open(lock.c_str(), O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (lock_fd_ < 0) throw OutputError(fmt::format("{}: cannot open: {}", lock, std::strerror(errno)));
    if (::flock(lock_fd_, LOCK_EX | LOCK_NB) != 0) {
        const int err = errno;
        ::close(lock_fd_);
        lock_fd_ = -1;
        throw OutputError(err == EWOULDBLOCK
                                  ? fmt::format("{}: another collide sweep is writing it now (it holds the lock of "
                                                "{}); run one at a time",
                                                output_, folder_)
                                  : fmt::format("{}: cannot lock: {}", lock, std::strerror(err)));
    }
    // Which sweep the folder holds: this one (resume), another one (refuse), or none yet.
    const std::string manifest = folder_ + "/" + kManifest;
    const std::string expected = kManifestHead + identity;
    if (::lstat(manifest.c_str(), &st) == 0) {
        if (read_file(manifest) != expected) {
            ::close(lock_fd_);
            lock_fd_ = -1;
            throw OutputError(fmt::format("{}: holds the finished rows of another sweep (another scenario text, grid, "
                                          "detection, shard or columns); remove it to start this one afresh, or "
                                          "write -o elsewhere",
                                          folder_));
        }
    } else {
        write_file_atomically(manifest, expected);
    }
    // The whole chunks, contiguous from row 0; anything after a gap or a damaged chunk is dropped.
    std::vector<std::string> temporaries;
    const std::vector<Chunk> chunks = list_chunks(folder_, temporaries);
    for (const std::string& t : temporaries) ::unlink((folder_ + "/" + t).c_str()); // ours: we hold the lock
    bool whole = true;
    for (const Chunk& c : chunks) {
        const std::string path = folder_ + "/" + c.name;
        whole = whole && c.first == done_ && ends_with_line_break(path);
        if (whole)
            done_ += c.rows;
        else
            ::unlink(path.c_str());
    }
}

Checkpoint::~Checkpoint() {
    if (lock_fd_ >= 0) ::close(lock_fd_); // releases the lock
}

void Checkpoint::add_chunk(std::uint64_t rows, std::string_view text) {
    if (rows == 0) return;
    write_file_atomically(folder_ + "/" + chunk_name(done_, rows), text);
    done_ += rows;
}

void Checkpoint::finish(std::string_view header) {
    std::vector<std::string> temporaries;
    const std::vector<Chunk> chunks = list_chunks(folder_, temporaries);
    remove_dead_temporaries(output_);
    OutputFile out(output_);
    out.write(header);
    std::uint64_t rows = 0;
    for (const Chunk& c : chunks) {
        if (c.first != rows)
            throw OutputError(fmt::format("{}: the chunk {} does not follow row {}", folder_, c.name, rows));
        out.write(read_file(folder_ + "/" + c.name));
        rows += c.rows;
    }
    out.commit();
    discard();
}

void Checkpoint::discard() {
    std::vector<std::string> temporaries;
    for (const Chunk& c : list_chunks(folder_, temporaries)) ::unlink((folder_ + "/" + c.name).c_str());
    for (const std::string& t : temporaries) ::unlink((folder_ + "/" + t).c_str());
    ::unlink((folder_ + "/" + kManifest).c_str());
    ::unlink((folder_ + "/" + kLock).c_str());
    if (lock_fd_ >= 0) ::close(lock_fd_);
    lock_fd_ = -1;
    ::rmdir(folder_.c_str());
}

} // namespace collide
