#include "io/atomic_file.h"

#include <array>
#include <atomic>
#include <cerrno>
#include <climits>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <mutex>
#include <random>
#include <sstream>
#include <sys/stat.h>
#include <unistd.h>

namespace collide {

namespace {

namespace fs = std::filesystem;

// ---- temporary files removed on a signal --------------------------------------------------------

/// Slots of live temporary files, read by the signal handler (lock-free, no allocation).
constexpr int kSlots = 64;
enum SlotState : int { kFree = 0, kFilling = 1, kLive = 2 };
std::array<std::atomic<int>, kSlots> slot_state{};
char slot_path[kSlots][PATH_MAX];

extern "C" void remove_temporaries_and_exit(int sig) {
    for (int i = 0; i < kSlots; ++i)
        if (slot_state[i].load(std::memory_order_acquire) == kLive) ::unlink(slot_path[i]);
    ::_exit(128 + sig);
}

/// Installs the handler for SIGINT, SIGTERM and SIGHUP wherever another handler has taken its
/// place since (a test framework's, say), unless a signal is ignored, as under nohup. Checked at
/// every registration: three system calls per output file.
void install_signal_handlers() {
    static std::mutex lock;
    const std::lock_guard<std::mutex> hold(lock);
    for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
        struct sigaction old {};
        if (::sigaction(sig, nullptr, &old) != 0 || old.sa_handler == SIG_IGN ||
            old.sa_handler == remove_temporaries_and_exit)
            continue;
        struct sigaction sa {};
        sa.sa_handler = remove_temporaries_and_exit;
        sigemptyset(&sa.sa_mask);
        ::sigaction(sig, &sa, nullptr);
    }
}

/// Registers `path` for removal on a signal; returns its slot (−1 when every slot is taken).
int register_temporary(const std::string& path) {
    install_signal_handlers();
    if (path.size() >= PATH_MAX) return -1;
    for (int i = 0; i < kSlots; ++i) {
        int expected = kFree;
        if (!slot_state[i].compare_exchange_strong(expected, kFilling)) continue;
        std::memcpy(slot_path[i], path.c_str(), path.size() + 1);
        slot_state[i].store(kLive, std::memory_order_release);
        return i;
    }
    return -1;
}

void release_slot(int slot) {
    if (slot >= 0) slot_state[slot].store(kFree, std::memory_order_release);
}

// ---- opening ----------------------------------------------------------------------------------

[[noreturn]] void fail(const std::string& path, const std::string& what) { throw OutputError(path + ": " + what); }

[[noreturn]] void fail_errno(const std::string& path, const char* doing, int err) {
    fail(path, std::string(doing) + ": " + std::strerror(err));
}

/// A name for a temporary beside `target` that no other run uses: `.NAME.tmp.PID.RANDOM`.
std::string temporary_name(const fs::path& target) {
    static std::atomic<std::uint64_t> counter{0};
    static const std::uint64_t seed = [] {
        std::random_device rd;
        return (std::uint64_t(rd()) << 32) ^ rd();
    }();
    const std::uint64_t n = seed + 0x9E3779B97F4A7C15ull * (counter.fetch_add(1) + 1);
    char suffix[17];
    std::snprintf(suffix, sizeof suffix, "%016llx", static_cast<unsigned long long>(n));
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    return (dir / ("." + target.filename().string() + ".tmp." + std::to_string(::getpid()) + "." + suffix)).string();
}

} // namespace

OutputFile::OutputFile(const std::string& path) {
    if (path.empty() || path == "-") return; // stdout
    path_ = path;
    struct stat st {};
    bool exists = true;
    if (::lstat(path.c_str(), &st) != 0) {
        if (errno != ENOENT) fail_errno(path, "cannot write", errno);
        exists = false;
    }
    if (exists) {
        if (S_ISLNK(st.st_mode)) fail(path, "is a symbolic link; collide does not write through links");
        if (S_ISDIR(st.st_mode)) fail(path, "cannot write: is a directory");
        if (S_ISCHR(st.st_mode) || S_ISFIFO(st.st_mode)) {
            // Written in place, streaming: /dev/null stays /dev/null, a FIFO's reader gets it all.
            fd_ = ::open(path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC | O_NOFOLLOW);
            if (fd_ < 0) fail_errno(path, "cannot write", errno);
            return;
        }
        if (!S_ISREG(st.st_mode)) fail(path, "cannot write: not a regular file, a FIFO or a character device");
    }
    const fs::path target(path);
    // SIGINT, SIGTERM and SIGHUP wait while the temporary is made and registered: one arriving
    // in between would otherwise end the process by default and leave the temporary behind.
    sigset_t stops, before;
    sigemptyset(&stops);
    for (const int sig : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&stops, sig);
    ::pthread_sigmask(SIG_BLOCK, &stops, &before);
    struct Unblock {
        const sigset_t* mask;
        ~Unblock() { ::pthread_sigmask(SIG_SETMASK, mask, nullptr); }
    } const unblock{&before};
    for (int attempt = 0; attempt < 100 && fd_ < 0; ++attempt) {
        std::string temp = temporary_name(target);
        fd_ = ::open(temp.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, exists ? 0600 : 0666);
        if (fd_ >= 0) {
            temp_ = std::move(temp);
            break;
        }
        if (errno != EEXIST) fail_errno(path, "cannot write", errno);
    }
    if (fd_ < 0) fail(path, "cannot write: no free temporary name beside it");
    slot_ = register_temporary(temp_);
    ::pthread_sigmask(SIG_SETMASK, &before, nullptr); // a signal that came meanwhile is handled now
    if (exists) {
        // Keep the replaced file's permissions (and, when allowed, its owner).
        if (::geteuid() == 0 && ::fchown(fd_, st.st_uid, st.st_gid) != 0) { /* best effort */
        }
        if (::fchmod(fd_, st.st_mode & 07777) != 0) {
            const int err = errno;
            discard();
            fail_errno(path, "cannot write", err);
        }
    }
}

OutputFile::~OutputFile() {
    if (!committed_) discard();
}

void OutputFile::discard() noexcept {
    if (!temp_.empty()) {
        if (fd_ >= 0) ::close(fd_);
        fd_ = -1;
        ::unlink(temp_.c_str());
        release_slot(slot_);
        slot_ = -1;
        temp_.clear();
    } else if (fd_ >= 0) {
        ::close(fd_);
        fd_ = -1;
    }
}

void OutputFile::flush() {
    std::size_t done = 0;
    while (done < buffer_.size()) {
        const ssize_t n = ::write(fd_, buffer_.data() + done, buffer_.size() - done);
        if (n < 0) {
            if (errno == EINTR) continue;
            fail_errno(path_, "cannot write", errno);
        }
        done += static_cast<std::size_t>(n);
    }
    buffer_.clear();
}

void OutputFile::write(std::string_view bytes) {
    if (path_.empty()) {
        if (std::fwrite(bytes.data(), 1, bytes.size(), stdout) != bytes.size())
            fail_errno("stdout", "cannot write", errno);
        return;
    }
    if (committed_ || fd_ < 0) fail(path_, "cannot write: already closed");
    constexpr std::size_t kBuffer = 1 << 16;
    if (buffer_.size() + bytes.size() > kBuffer) flush();
    if (bytes.size() > kBuffer) {
        buffer_.assign(bytes);
        flush();
    } else {
        buffer_ += bytes;
    }
}

void OutputFile::commit() {
    if (path_.empty()) {
        if (std::fflush(stdout) != 0) fail_errno("stdout", "cannot write", errno);
        committed_ = true;
        return;
    }
    if (committed_ || fd_ < 0) fail(path_, "cannot write: already closed");
    flush();
    if (temp_.empty()) { // a device or FIFO, written in place
        const int rc = ::close(fd_);
        fd_ = -1;
        if (rc != 0) fail_errno(path_, "cannot write", errno);
        committed_ = true;
        return;
    }
    if (::fsync(fd_) != 0) fail_errno(path_, "cannot write", errno);
    const int rc = ::close(fd_);
    fd_ = -1;
    if (rc != 0) fail_errno(path_, "cannot write", errno);
    if (::rename(temp_.c_str(), path_.c_str()) != 0) fail_errno(path_, "cannot write", errno);
    release_slot(slot_);
    slot_ = -1;
    temp_.clear();
    committed_ = true;
    // Make the rename itself durable (best effort: some file systems cannot sync a folder).
    const fs::path target(path_);
    const std::string dir = target.has_parent_path() ? target.parent_path().string() : ".";
    const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        (void)::fsync(dfd);
        ::close(dfd);
    }
}

void write_file_atomically(const std::string& path, std::string_view content) {
    OutputFile out(path);
    out.write(content);
    out.commit();
}

void refuse_output_onto_inputs(const std::string& output, std::string_view option,
                               const std::vector<std::string>& inputs) {
    if (output.empty() || output == "-") return;
    struct stat out_st {};
    const bool out_exists = ::stat(output.c_str(), &out_st) == 0;
    if (out_exists && S_ISCHR(out_st.st_mode)) return;
    std::error_code ec;
    const fs::path out_path = fs::absolute(output, ec).lexically_normal();
    for (const std::string& input : inputs) {
        if (input.empty() || input == "-") continue;
        bool same = !ec && fs::absolute(input, ec).lexically_normal() == out_path;
        struct stat in_st {};
        if (!same && out_exists && ::stat(input.c_str(), &in_st) == 0)
            same = in_st.st_dev == out_st.st_dev && in_st.st_ino == out_st.st_ino;
        if (same)
            throw OutputError(std::string(output) + ": " + std::string(option) + " names an input (" + input +
                              "); it would be overwritten");
    }
}

std::string read_file(const std::string& path) {
    if (path == "-") {
        std::ostringstream ss;
        ss << std::cin.rdbuf();
        return ss.str();
    }
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) throw std::runtime_error(path + ": is a directory");
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error(path + ": cannot read: " + std::strerror(errno));
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    if (in.bad()) throw std::runtime_error(path + ": cannot read: " + std::strerror(errno));
    return text;
}

} // namespace collide
