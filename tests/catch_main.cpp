// The test runner: Catch2's, with two warnings always on, so that no test passes by accident.
// NoAssertions: a test case that checks nothing fails. NoTests: a run whose test spec matches
// no test case fails (a ctest entry whose name no longer matches its test case would otherwise
// pass having run nothing).
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

int main(int argc, char* argv[]) {
    Catch::Session session;
    if (const int bad = session.applyCommandLine(argc, argv); bad != 0) return bad;
    session.configData().warnings = static_cast<Catch::WarnAbout::What>(
            session.configData().warnings | Catch::WarnAbout::NoAssertions | Catch::WarnAbout::NoTests);
    return session.run();
}
