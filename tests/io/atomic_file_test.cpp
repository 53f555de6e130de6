// The one output writer: regular files replaced atomically with their mode kept, FIFOs and
// devices written in place, symlinks refused, temporaries never followed, reused or left
// behind (not even on SIGINT, SIGTERM or SIGHUP), outputs that are inputs refused.
#include <catch2/catch.hpp>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

#include "io/atomic_file.h"
#include "support/device_node.h"
#include "support/skip.h"

using namespace collide;
namespace fs = std::filesystem;

namespace {

/// A fresh folder under the system's temporary folder, removed at the end of the test.
struct TempDir {
    fs::path path;
    explicit TempDir(const std::string& name) {
        path = fs::temp_directory_path() / (name + "_" + std::to_string(::getpid()));
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~TempDir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    std::string operator/(const std::string& name) const { return (path / name).string(); }
    int count() const {
        int n = 0;
        for (const auto& e : fs::directory_iterator(path)) {
            (void)e;
            ++n;
        }
        return n;
    }
};

std::string slurp(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

} // namespace

TEST_CASE("write_file_atomically replaces the target and leaves no temporary file") {
    TempDir dir("collide_atomic_test");
    const std::string path = dir / "out.log";
    write_file_atomically(path, "first\n");
    write_file_atomically(path, "second\n");
    CHECK(read_file(path) == "second\n");
    CHECK(dir.count() == 1);
}

TEST_CASE("writing into a missing folder throws a message naming the path") {
    const std::string path = "/nonexistent-collide-dir/x.log";
    CHECK_THROWS_WITH(write_file_atomically(path, "x"), Catch::Contains(path));
}

TEST_CASE("a replaced 0600 file keeps its mode") {
    TempDir dir("collide_atomic_mode");
    const std::string path = dir / "secret.log";
    write_file_atomically(path, "old\n");
    REQUIRE(::chmod(path.c_str(), 0600) == 0);
    write_file_atomically(path, "new\n");
    struct stat st {};
    REQUIRE(::stat(path.c_str(), &st) == 0);
    CHECK((st.st_mode & 07777) == 0600);
    CHECK(read_file(path) == "new\n");
}

TEST_CASE("a FIFO is written in place, streaming: its reader gets everything and it stays a FIFO") {
    TempDir dir("collide_atomic_fifo");
    const std::string fifo = dir / "pipe";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    std::string got;
    std::thread reader([&] { got = slurp(fifo); });
    {
        OutputFile out(fifo);
        CHECK(out.temporary().empty());
        for (int i = 0; i < 10000; ++i) out.write("a line of the trace\n");
        out.commit();
    }
    reader.join();
    CHECK(got.size() == 10000 * std::string("a line of the trace\n").size());
    struct stat st {};
    REQUIRE(::lstat(fifo.c_str(), &st) == 0);
    CHECK(S_ISFIFO(st.st_mode));
    CHECK(dir.count() == 1);
}

TEST_CASE("a character device is written in place, not replaced by a regular file") {
    if (const std::string why = collide::test::device_nodes_unavailable(); !why.empty()) collide::test::skip_test(why);
    TempDir dir("collide_atomic_chr");
    const std::string node = dir / "null";
    REQUIRE(::mknod(node.c_str(), S_IFCHR | 0666, makedev(1, 3)) == 0);
    write_file_atomically(node, "gone\n");
    struct stat st {};
    REQUIRE(::lstat(node.c_str(), &st) == 0);
    CHECK(S_ISCHR(st.st_mode));
    CHECK(dir.count() == 1);
}

TEST_CASE("a symbolic link at the target is refused and what it names is untouched") {
    TempDir dir("collide_atomic_link");
    const std::string victim = dir / "victim.txt";
    const std::string link = dir / "out.log";
    write_file_atomically(victim, "precious\n");
    fs::create_symlink(victim, link);
    CHECK_THROWS_WITH(write_file_atomically(link, "x"), Catch::Contains("symbolic link"));
    CHECK(read_file(victim) == "precious\n");
    CHECK(fs::is_symlink(link));
    CHECK(dir.count() == 2);
}

TEST_CASE("a symlink or a stale file at the old temporary name is neither followed nor reused") {
    TempDir dir("collide_atomic_plant");
    const std::string victim = dir / "victim.txt";
    write_file_atomically(victim, "precious\n");
    // The names earlier versions (and a run killed with -9) used: .NAME.tmp.PID
    const std::string planted = dir / (".out.log.tmp." + std::to_string(::getpid()));
    fs::create_symlink(victim, planted);
    const std::string stale = dir / ".out.log.tmp.1";
    std::ofstream(stale) << "half a file from a killed run";
    write_file_atomically(dir / "out.log", "fresh\n");
    CHECK(read_file(dir / "out.log") == "fresh\n");
    CHECK(read_file(victim) == "precious\n");
    CHECK(fs::is_symlink(planted));
    CHECK(slurp(stale) == "half a file from a killed run");
    CHECK(dir.count() == 4);
}

TEST_CASE("a directory is not an output") {
    TempDir dir("collide_atomic_dir");
    CHECK_THROWS_WITH(write_file_atomically(dir.path.string(), "x"), Catch::Contains("is a directory"));
}

TEST_CASE("an output that is not committed leaves no temporary and the old file intact") {
    TempDir dir("collide_atomic_abandon");
    const std::string path = dir / "out.log";
    write_file_atomically(path, "old\n");
    {
        OutputFile out(path);
        out.write("half");
        CHECK(fs::exists(out.temporary()));
    }
    CHECK(read_file(path) == "old\n");
    CHECK(dir.count() == 1);
}

TEST_CASE("SIGINT, SIGTERM and SIGHUP remove the temporary files and exit 128 + the signal") {
    for (const int sig : {SIGINT, SIGTERM, SIGHUP}) {
        TempDir dir("collide_atomic_signal");
        const std::string path = dir / "out.log";
        const pid_t child = ::fork();
        REQUIRE(child >= 0);
        if (child == 0) {
            OutputFile a(path);
            OutputFile b(dir / "other.log");
            a.write("partial");
            b.write("partial");
            ::kill(::getpid(), sig);
            ::pause();
            ::_exit(99);
        }
        int status = 0;
        REQUIRE(::waitpid(child, &status, 0) == child);
        REQUIRE(WIFEXITED(status));
        CHECK(WEXITSTATUS(status) == 128 + sig);
        CHECK(dir.count() == 0);
    }
}

TEST_CASE("an output that is one of the inputs is refused: same path or same file") {
    TempDir dir("collide_atomic_inputs");
    const std::string input = dir / "s.yaml";
    write_file_atomically(input, "name: s\n");
    CHECK_THROWS_WITH(refuse_output_onto_inputs(input, "-o", {input}), Catch::Contains("-o names an input"));
    CHECK_THROWS_AS(refuse_output_onto_inputs(dir / "." + "/s.yaml", "-o", {input}), OutputError);
    const std::string hard = dir / "hard.yaml";
    fs::create_hard_link(input, hard);
    CHECK_THROWS_AS(refuse_output_onto_inputs(hard, "--trace", {input}), OutputError);
    const std::string soft = dir / "soft.yaml";
    fs::create_symlink(input, soft);
    CHECK_THROWS_AS(refuse_output_onto_inputs(soft, "-o", {input}), OutputError);
    CHECK_NOTHROW(refuse_output_onto_inputs(dir / "new.log", "-o", {input}));
    CHECK_NOTHROW(refuse_output_onto_inputs("-", "-o", {"-"}));
    CHECK(read_file(input) == "name: s\n");
}
