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

void write_file_atomically(const std::string& path, std::string_view content) {
    namespace fs = std::filesystem;
    const fs::path target(path);
    const fs::path dir = target.has_parent_path() ? target.parent_path() : fs::path(".");
    const fs::path temp = dir / ("." + target.filename().string() + ".tmp." + std::to_string(::getpid()));
    {
        std::FILE* f = std::fopen(temp.c_str(), "wb");
        if (!f) throw std::runtime_error(path + ": cannot write: " + std::strerror(errno));
        const bool ok = std::fwrite(content.data(), 1, content.size(), f) == content.size() && std::fflush(f) == 0 &&
                        ::fsync(::fileno(f)) == 0;
        const int saved = errno;
        if (std::fclose(f) != 0 || !ok) {
            std::error_code ignored;
            fs::remove(temp, ignored);
            throw std::runtime_error(path + ": cannot write: " + std::strerror(saved ? saved : errno));
        }
    }
    std::error_code ec;
    fs::rename(temp, target, ec);
    if (ec) {
        std::error_code ignored;
        fs::remove(temp, ignored);
        throw std::runtime_error(path + ": cannot write: " + ec.message());
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
