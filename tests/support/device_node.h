#pragma once
/// \file
/// Whether this process may create character device nodes (mknod needs root, or CAP_MKNOD, and
/// a filesystem not mounted nodev): asked once, by trying in a fresh temporary folder that is
/// removed again, before a test that needs one creates anything (tests/support/skip.h).

#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <filesystem>
#include <string>
#include <system_error>

namespace collide::test {

/// Empty when a /dev/null-like node can be made under the temporary folder; else why not.
inline std::string device_nodes_unavailable() {
    const std::filesystem::path dir =
            std::filesystem::temp_directory_path() / ("collide_mknod_probe_" + std::to_string(::getpid()));
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
    std::filesystem::create_directories(dir, ec);
    const std::string node = (dir / "null").string();
    const bool made = ::mknod(node.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0;
    std::filesystem::remove_all(dir, ec);
    return made ? ""
                : "cannot create a device node under " + std::filesystem::temp_directory_path().string() +
                           " (not root, or a nodev filesystem)";
}

} // namespace collide::test
