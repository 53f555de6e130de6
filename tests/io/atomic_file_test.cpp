// Atomic writes: the target gets the whole content, no temporary file is left, and a write into
// a missing folder fails with a message naming the path.
#include <catch2/catch.hpp>

#include <filesystem>

#include "io/atomic_file.h"

using namespace collide;
namespace fs = std::filesystem;

TEST_CASE("write_file_atomically replaces the target and leaves no temporary file") {
    const fs::path dir = fs::temp_directory_path() / "collide_atomic_test";
    fs::remove_all(dir);
    fs::create_directories(dir);
    const std::string path = (dir / "out.log").string();
    write_file_atomically(path, "first\n");
    write_file_atomically(path, "second\n");
    CHECK(read_file(path) == "second\n");
    int files = 0;
    for (const auto& e : fs::directory_iterator(dir)) {
        (void)e;
        ++files;
    }
    CHECK(files == 1);
    fs::remove_all(dir);
}

TEST_CASE("writing into a missing folder throws a message naming the path") {
    const std::string path = "/nonexistent-collide-dir/x.log";
    CHECK_THROWS_WITH(write_file_atomically(path, "x"), Catch::Contains(path));
}
