// Progress on a terminal (sweep/progress.h): the phase, done of total, the rate and the time
// left, drawn once the work has run for half a second; nothing on a pipe; a sweep's summary.
#include <catch2/catch.hpp>

#include <chrono>
#include <cstdio>
#include <string>
#include <thread>

#include "support/run_command.h"
#include "sweep/progress.h"

using namespace collide;

namespace {

/// What `fn(stream)` wrote to a stream.
template <class Fn> std::string written(Fn&& fn) {
    std::FILE* f = std::tmpfile();
    REQUIRE(f != nullptr);
    fn(f);
    std::fflush(f);
    std::rewind(f);
    std::string text;
    char buffer[4096];
    for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, f)) > 0;) text.append(buffer, n);
    std::fclose(f);
    return text;
}

} // namespace

TEST_CASE("a big scene's progress: loading in MB, then stepping in frames, with rate and time left",
          "[sweep][progress]") {
    const std::string text = written([](std::FILE* f) {
        Progress p("sim", true, f);
        p.phase("loading", 24'000'000, "MB");
        p.update(6'000'000); // too early: nothing yet
        std::this_thread::sleep_for(std::chrono::milliseconds(600));
        p.update(12'000'000);
        p.phase("stepping", 60, "frames"); // drawn at once: a line is up
        std::this_thread::sleep_for(std::chrono::milliseconds(250));
        p.update(15);
        p.finish();
    });
    CHECK_THAT(text, Catch::Contains("\r\033[Ksim: loading 12.0 / 24.0 MB, ") && Catch::Contains(" MB/s, ") &&
                             Catch::Contains(" s left"));
    CHECK(text.find("6.0 / 24.0") == std::string::npos);
    CHECK_THAT(text, Catch::Contains("\r\033[Ksim: stepping 0 / 60 frames   ")); // no rate before a frame is done
    CHECK_THAT(text, Catch::Contains("\r\033[Ksim: stepping 15 / 60 frames, ") && Catch::Contains(" frames/s, "));
    CHECK_THAT(text, Catch::EndsWith("\r\033[K")); // cleared: only the result stays
}

TEST_CASE("on a pipe, progress writes nothing; a sweep still sums up", "[sweep][progress]") {
    CHECK(written([](std::FILE* f) {
              Progress p("check", false, f);
              p.phase("", 10, "scenarios");
              std::this_thread::sleep_for(std::chrono::milliseconds(600));
              p.update(5);
              p.finish();
          }).empty());
    CHECK_THAT(written([](std::FILE* f) {
                   Progress p(100, false, f);
                   p.update(100);
                   p.finish();
               }),
               Catch::Matches("sweep: 100 cells in .* s \\(\\d+ cells/s\\)\n"));
}

TEST_CASE("collide sim and check print only their result when stderr is no terminal", "[sweep][progress]") {
    const auto sim = test::run_collide("sim scenarios/rain.yaml");
    CHECK(sim.exit_code == 0);
    CHECK(sim.err.empty());
    const auto check = test::run_collide("check scenarios/rain.yaml scenarios/tunnel.yaml");
    CHECK(check.exit_code == 0);
    CHECK(check.err.empty());
}
