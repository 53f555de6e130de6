#include "io/atomic_file.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <unistd.h>

namespace collide {

OutputFile::OutputFile(const std::string& path) {
    if (path.empty() || path == "-") {
        file_ = stdout;
        return;
    }
    namespace fs = std::filesystem;
    const fs::path target(path);
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    path_ = path;
    temp_ = (dir / ("." + target.filename().string() + ".tmp." + std::to_string(::getpid()))).string();
    file_ = std::fopen(temp_.c_str(), "wb");
    if (!file_) throw std::runtime_error(path + ": cannot write: " + std::strerror(errno));
}

OutputFile::~OutputFile() {
    if (temp_.empty() || committed_) return;
    if (file_) std::fclose(file_);
    std::error_code ignored;
    std::filesystem::remove(temp_, ignored);
}

void OutputFile::write(std::string_view bytes) {
    if (std::fwrite(bytes.data(), 1, bytes.size(), file_) != bytes.size())
        throw std::runtime_error((path_.empty() ? std::string("stdout") : path_) +
                                 ": cannot write: " + std::strerror(errno));
}

void OutputFile::commit() {
    if (temp_.empty()) {
        if (std::fflush(file_) != 0)
            throw std::runtime_error(std::string("stdout: cannot write: ") + std::strerror(errno));
        committed_ = true;
        return;
    }
    const bool ok = std::fflush(file_) == 0 && ::fsync(::fileno(file_)) == 0;
    const int saved = errno;
    const bool closed = std::fclose(file_) == 0;
    file_ = nullptr;
    if (!ok || !closed) throw std::runtime_error(path_ + ": cannot write: " + std::strerror(ok ? errno : saved));
    std::error_code ec;
    std::filesystem::rename(temp_, path_, ec);
    if (ec) throw std::runtime_error(path_ + ": cannot write: " + ec.message());
    committed_ = true;
}

void write_file_atomically(const std::string& path, std::string_view content) {
    OutputFile out(path);
    out.write(content);
    out.commit();
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
