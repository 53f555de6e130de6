// Loading engine plugins (engine/plugin_loader.h): which --engine values are paths, and each
// way a library can fail to be an engine — a missing file, a folder, a file that is no library,
// no entry point, no table, another ABI version, a small table, a bad name — is one error naming
// the path, while a good plugin is registered once under the name it reports. The plugins are
// tests/engine/plugins/test_plugin.c, built by CMake as MODULE libraries.
#include <catch2/catch.hpp>

#include <collide/engine_abi.h>

#include <filesystem>
#include <string>

#include "engine/plugin_loader.h"
#include "support/run_command.h"

using namespace collide;
using collide::test::run_collide;

namespace {

/// The diagnostic load_engine_plugin(path) throws (it must throw).
Diagnostic load_error(const std::string& path) {
    try {
        (void)load_engine_plugin(path);
    } catch (const InputError& e) {
        REQUIRE(e.diagnostics.size() == 1);
        return e.diagnostics.front();
    }
    FAIL("load_engine_plugin(" << path << ") did not throw");
    return {};
}

} // namespace

TEST_CASE("An --engine value is a plugin's path when it holds a '/' or ends in .so", "[engine][plugin]") {
    CHECK(is_engine_path("./libbounce.so"));
    CHECK(is_engine_path("/opt/engines/libmine.so"));
    CHECK(is_engine_path("libbounce.so"));         // relative to the working folder
    CHECK(is_engine_path("build/plugins/engine")); // a folder in it: a path, whatever it ends in
    CHECK_FALSE(is_engine_path("collide"));
    CHECK_FALSE(is_engine_path("bullet"));
    CHECK_FALSE(is_engine_path(".so"));
    CHECK_FALSE(is_engine_path("libbounce.so.1"));
}

TEST_CASE("A missing file, a folder and a file that is no library are refused, naming the path", "[engine][plugin]") {
    const Diagnostic missing = load_error("./no-such-engine.so");
    CHECK(missing.file == "./no-such-engine.so");
    CHECK(missing.line == 0);
    CHECK(missing.message.rfind("no such file", 0) == 0);
    const Diagnostic folder = load_error(std::string(COLLIDE_SOURCE_DIR) + "/scenarios");
    CHECK(folder.message.rfind("is a folder", 0) == 0);
    const Diagnostic text = load_error(std::string(COLLIDE_SOURCE_DIR) + "/scenarios/bouncing.yaml");
    CHECK(text.message.rfind("cannot load it as a shared library: ", 0) == 0);
}

TEST_CASE("A library without the entry point, or whose entry point returns no table, is no engine",
          "[engine][plugin]") {
    const Diagnostic none = load_error(COLLIDE_TEST_PLUGIN_NO_ENTRY);
    CHECK(none.file == COLLIDE_TEST_PLUGIN_NO_ENTRY);
    CHECK(none.message == "not a collide engine: it exports no collide_engine_entry() (include/collide/engine_abi.h: "
                          "COLLIDE_ENGINE_ENTRY)");
    CHECK(load_error(COLLIDE_TEST_PLUGIN_NULL_TABLE).message == "collide_engine_entry() returned no engine table");
}

TEST_CASE("A plugin of another ABI version is refused, naming the version it reports and collide's",
          "[engine][plugin]") {
    const Diagnostic d = load_error(COLLIDE_TEST_PLUGIN_WRONG_ABI);
    CHECK(d.file == COLLIDE_TEST_PLUGIN_WRONG_ABI);
    CHECK(d.message == "engine ABI version " + std::to_string(COLLIDE_ENGINE_ABI_MAJOR + 1) +
                               "; this collide loads version " + std::to_string(COLLIDE_ENGINE_ABI_MAJOR) +
                               " (rebuild the plugin against this collide's include/collide/engine_abi.h)");
    // A refused plugin is not kept: loading it again says the same.
    CHECK(load_error(COLLIDE_TEST_PLUGIN_WRONG_ABI).message == d.message);
    CHECK(find_engine("broken") == nullptr);
}

TEST_CASE("A plugin whose table is smaller than this ABI's, or whose name is not a-z0-9_-, is refused",
          "[engine][plugin]") {
    CHECK(load_error(COLLIDE_TEST_PLUGIN_SMALL_TABLE).message ==
          "its engine table is 16 bytes; engine ABI version " + std::to_string(COLLIDE_ENGINE_ABI_MAJOR) + " has " +
                  std::to_string(sizeof(collide_engine)) + " (set struct_size to sizeof(collide_engine))");
    CHECK(load_error(COLLIDE_TEST_PLUGIN_BAD_NAME).message ==
          "engine name 'Bad Name' is not 1 to 32 characters of a-z, 0-9, '_' and '-'");
}

TEST_CASE("A plugin whose table lacks a function is refused, naming each one missing", "[engine][plugin]") {
    const Diagnostic d = load_error(COLLIDE_TEST_PLUGIN_NO_STEP);
    CHECK(d.file == COLLIDE_TEST_PLUGIN_NO_STEP);
    CHECK(d.line == 0);
    CHECK(d.message == "engine 'broken' leaves step, destroy NULL in its table (collide_engine needs every function)");
}

TEST_CASE("A good plugin is registered once under its name, whatever the path's spelling", "[engine][plugin]") {
    const EngineSpec& spec = load_engine_plugin(COLLIDE_TEST_PLUGIN_RECORDER);
    CHECK(spec.name == "recorder");
    CHECK(spec.version == "recorder 1 (a test plugin)");
    CHECK(find_engine("recorder") == &spec);
    CHECK(&require_engine(COLLIDE_TEST_PLUGIN_RECORDER) == &spec);
    const std::filesystem::path path(COLLIDE_TEST_PLUGIN_RECORDER);
    const std::string respelt = (path.parent_path() / "." / path.filename()).string();
    CHECK(&load_engine_plugin(respelt) == &spec);
    CHECK(spec.make()->name() == "recorder");
    // The name each --engine value runs under: a path's plugin's, any other value itself.
    CHECK(engine_name_of(COLLIDE_TEST_PLUGIN_RECORDER) == "recorder");
    CHECK(engine_name_of("collide") == "collide");
    CHECK(engine_name_of("toy") == "toy");
}

TEST_CASE("collide sim, check and sweep refuse a plugin of another ABI version in one line, exit 2",
          "[engine][plugin][cli]") {
    const std::string path = COLLIDE_TEST_PLUGIN_WRONG_ABI;
    const std::string line = path + ": error: engine ABI version " + std::to_string(COLLIDE_ENGINE_ABI_MAJOR + 1) +
                             "; this collide loads version " + std::to_string(COLLIDE_ENGINE_ABI_MAJOR) +
                             " (rebuild the plugin against this collide's include/collide/engine_abi.h)\n";
    for (const std::string& args : {"sim scenarios/bouncing.yaml --engine '" + path + "'",
                                    "check scenarios/bouncing.yaml --engine '" + path + "'",
                                    "sweep scenarios/tunnel.yaml --vary speed=30,60 --engine '" + path + "'",
                                    "sim scenarios/bouncing.yaml --engine 'collide," + path + "'"}) {
        INFO(args);
        const auto r = run_collide(args);
        CHECK(r.exit_code == 2);
        CHECK(r.err == line);
        CHECK(r.out.empty());
    }
}

TEST_CASE("collide sim refuses a missing plugin and a library without the entry point in one line, exit 2",
          "[engine][plugin][cli]") {
    const auto missing = run_collide("sim scenarios/bouncing.yaml --engine ./no-such-engine.so");
    CHECK(missing.exit_code == 2);
    CHECK(missing.err == "./no-such-engine.so: error: no such file (--engine PATH loads an engine plugin: a shared "
                         "library)\n");
    const auto none =
            run_collide(std::string("sim scenarios/bouncing.yaml --engine '") + COLLIDE_TEST_PLUGIN_NO_ENTRY + "'");
    CHECK(none.exit_code == 2);
    CHECK(none.err == std::string(COLLIDE_TEST_PLUGIN_NO_ENTRY) +
                              ": error: not a collide engine: it exports no collide_engine_entry() "
                              "(include/collide/engine_abi.h: COLLIDE_ENGINE_ENTRY)\n");
}
