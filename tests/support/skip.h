#pragma once
/// \file
/// Skipping a test case that cannot run on this machine, honestly. Catch2 v2 has no SKIP, so a
/// skip is the process's exit status: ctest runs every test case in a process of its own
/// (catch_discover_tests in CMakeLists.txt), with COLLIDE_TEST_UNDER_CTEST=1 in its environment
/// and SKIP_RETURN_CODE 77, so there skip_test prints "skipped: REASON" and exits 77, and ctest
/// lists the test as "Skipped" (the reason is in its output: `ctest -V`, or
/// Testing/Temporary/LastTest.log). Run directly — the whole binary, many test cases in one
/// process — exiting would leave every later test case unrun, so the test case fails instead,
/// with the same reason: a test that did not check never passes.
///
/// Call it before the test creates anything (a temporary folder, a child process): the exit
/// runs no destructors of the test's locals. Decide with a probe that cleans up after itself.

#include <catch2/catch.hpp>

#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string>

namespace collide::test {

/// The exit status ctest reads as "skipped" (SKIP_RETURN_CODE in CMakeLists.txt).
inline constexpr int kSkipExitCode = 77;

/// Ends the running test case as skipped because of `reason` (what this machine lacks).
[[noreturn]] inline void skip_test(const std::string& reason) {
    const char* under_ctest = std::getenv("COLLIDE_TEST_UNDER_CTEST");
    if (under_ctest && std::string(under_ctest) == "1") {
        std::printf("skipped: %s\n", reason.c_str());
        std::fflush(stdout);
        std::_Exit(kSkipExitCode); // no exit handlers: LeakSanitizer must not turn a skip into a failure
    }
    FAIL("not run here: " << reason << " (under ctest this test is reported as skipped)");
    throw std::logic_error("FAIL returned"); // FAIL ends the test case by throwing; never reached
}

} // namespace collide::test
