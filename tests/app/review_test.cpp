// The review command: pending results from a failing check, accepted or rejected all at once,
// by name, or interactively; accepting gives the goldens check --update writes, byte for byte.
// Scenarios come from a stand-in measurer (a file holding a slope angle), as in check_test.cpp.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "app/check.h"
#include "app/review.h"
#include "support/project_dir.h"

using namespace collide;
namespace fs = std::filesystem;

namespace {

/// A throwaway project folder (scenarios/, expected/), removed at the end of the test.
struct TempDir : test::ProjectDir {
    TempDir() : test::ProjectDir("collide_review_test") {}
};

void write(const std::string& path, const std::string& text) { test::write_text(path, text); }
std::string read(const std::string& path) { return test::read_text(path); }

/// Stand-in measurer: the file holds a slope angle.
ScenarioAttempt fake_measurer(const std::string& path) {
    MeasuredScenario o;
    o.scenario.file = path;
    o.scenario.name = fs::path(path).stem().string();
    o.scenario.log.push_back(LogDef{"slope", "", "", -1, {}, SlopeLog{{0, 1, 0}, 46}});
    o.layout = layout_of(o.scenario);
    const double angle = std::stod(read(path));
    o.values = {angle, angle <= 46 ? 1.0 : 0.0};
    return {std::move(o), {}};
}

int check(const TempDir& d, bool update = false) {
    CheckOptions o;
    o.paths = {d / "scenarios"};
    o.expected_dir = d / "expected";
    o.update = update;
    std::ostringstream out, err;
    return check_command(o, fake_measurer, out, err);
}

struct Result {
    int code;
    std::string out;
    std::string err;
};

Result review(const TempDir& d, ReviewOptions o, const std::string& answers = "") {
    o.expected_dir = d / "expected";
    std::istringstream in(answers);
    std::ostringstream out, err;
    const int code = review_command(o, in, out, err);
    return {code, out.str(), err.str()};
}

ReviewOptions mode(ReviewOptions::Mode m) {
    ReviewOptions o;
    o.mode = m;
    return o;
}

/// Goldens for flat (0°) and ramp (30°), then the scenarios moved to 1° and 31°: two pending.
void two_pending(const TempDir& d) {
    write(d / "scenarios/flat.yaml", "0");
    write(d / "scenarios/ramp.yaml", "30");
    REQUIRE(check(d, true) == 0);
    write(d / "scenarios/flat.yaml", "1");
    write(d / "scenarios/ramp.yaml", "31");
    REQUIRE(check(d) == 1);
    REQUIRE(pending_names(d / "expected") == std::vector<std::string>{"flat", "ramp"});
}

} // namespace

TEST_CASE("review --accept-all makes check pass, with goldens byte-identical to check --update") {
    TempDir d;
    two_pending(d);
    const Result r = review(d, mode(ReviewOptions::Mode::accept_all));
    CHECK(r.code == 0);
    CHECK(r.out == "accepted " + (d / "expected/flat.log") + "\naccepted " + (d / "expected/ramp.log") +
                           "\nreview: 2 accepted, 0 rejected, 0 skipped; 0 still pending\n");
    CHECK(pending_names(d / "expected").empty());
    CHECK(check(d) == 0);
    const std::string log = read(d / "expected/ramp.log"), values = read(d / "expected/ramp.values");
    fs::remove(d / "expected/ramp.log");
    fs::remove(d / "expected/ramp.values");
    REQUIRE(check(d, true) == 0);
    CHECK(read(d / "expected/ramp.log") == log);
    CHECK(read(d / "expected/ramp.values") == values);
}

TEST_CASE("review --reject-all drops the pending results and keeps the goldens") {
    TempDir d;
    two_pending(d);
    const std::string golden = read(d / "expected/ramp.log");
    const Result r = review(d, mode(ReviewOptions::Mode::reject_all));
    CHECK(r.code == 0);
    CHECK(r.out.find("rejected " + (d / "expected/ramp.log.new")) != std::string::npos);
    CHECK(pending_names(d / "expected").empty());
    CHECK(read(d / "expected/ramp.log") == golden);
    CHECK(check(d) == 1);
}

TEST_CASE("review --accept NAME and --reject NAME decide only those; the rest stay pending") {
    TempDir d;
    two_pending(d);
    ReviewOptions o = mode(ReviewOptions::Mode::named);
    o.accept = {"ramp"};
    const Result r = review(d, o);
    CHECK(r.code == 0);
    CHECK(r.out.find("review: 1 accepted, 0 rejected, 1 skipped; 1 still pending") != std::string::npos);
    CHECK(pending_names(d / "expected") == std::vector<std::string>{"flat"});
    o.accept.clear();
    o.reject = {d / "expected/flat.log.new"}; // a path names it too
    CHECK(review(d, o).code == 0);
    CHECK(pending_names(d / "expected").empty());
}

TEST_CASE("review --accept of an unknown name exits 2 naming it, and touches nothing") {
    TempDir d;
    two_pending(d);
    ReviewOptions o = mode(ReviewOptions::Mode::named);
    o.accept = {"ramp", "nosuch"};
    const Result r = review(d, o);
    CHECK(r.code == 2);
    CHECK(r.err ==
          "collide review: error: nosuch names no pending result in " + (d / "expected") + " (pending: flat, ramp)\n");
    CHECK(pending_names(d / "expected").size() == 2);
    o.accept = {"ramp"};
    o.reject = {"ramp"};
    CHECK(review(d, o).code == 2);
}

TEST_CASE("review with nothing pending says so and exits 0") {
    TempDir d;
    const Result r = review(d, mode(ReviewOptions::Mode::interactive));
    CHECK(r.code == 0);
    CHECK(r.out.find("review: nothing pending in " + (d / "expected")) != std::string::npos);
    CHECK(review(d, mode(ReviewOptions::Mode::accept_all)).code == 0);
}

TEST_CASE("interactive review shows each diff and reads a, r, s, q; unknown answers ask again") {
    TempDir d;
    two_pending(d);
    const std::string ramp = read(d / "expected/ramp.log");
    const Result r = review(d, mode(ReviewOptions::Mode::interactive), "x\na\nr\n");
    CHECK(r.code == 0);
    CHECK(r.out.find("[1/2] scenario flat") != std::string::npos);
    CHECK(r.out.find("- slope of a surface with normal (0, 1, 0) → 0.000°") != std::string::npos);
    CHECK(r.out.find("+ slope of a surface with normal (0, 1, 0) → 1.000°") != std::string::npos);
    CHECK(r.out.find("  slope.angle: 0 → 1 (diff 1)") != std::string::npos);
    CHECK(r.out.find("accept (a), reject (r), skip (s), quit (q)? accept (a), reject (r), skip (s), quit (q)? "
                     "accepted ") != std::string::npos);
    CHECK(r.out.find("review: 1 accepted, 1 rejected, 0 skipped; 0 still pending") != std::string::npos);
    CHECK(read(d / "expected/ramp.log") == ramp);
    CHECK(read(d / "expected/flat.log").find("1.000°") != std::string::npos);

    two_pending(d);
    const Result q = review(d, mode(ReviewOptions::Mode::interactive), "s\nq\n");
    CHECK(q.out.find("review: 0 accepted, 0 rejected, 2 skipped; 2 still pending") != std::string::npos);
    const Result eof = review(d, mode(ReviewOptions::Mode::interactive), "");
    CHECK(eof.out.find("2 still pending") != std::string::npos);
}

TEST_CASE("review accepts a new golden and refuses a pending result whose values do not match its log") {
    TempDir d;
    write(d / "scenarios/new.yaml", "5");
    REQUIRE(check(d) == 1);
    const Result shown = review(d, mode(ReviewOptions::Mode::interactive), "s\n");
    CHECK(shown.out.find("no golden yet: accepting creates " + (d / "expected/new.log")) != std::string::npos);
    write(d / "expected/new.log.new", "edited\n");
    const Result r = review(d, mode(ReviewOptions::Mode::accept_all));
    CHECK(r.code == 2);
    CHECK(r.err.find("new.values.new: error: does not match the pending log") != std::string::npos);
    CHECK_FALSE(fs::exists(d / "expected/new.log"));
    fs::remove(d / "expected/new.log.new");
    CHECK(review(d, mode(ReviewOptions::Mode::accept_all)).code == 2); // values without a log
    CHECK(review(d, mode(ReviewOptions::Mode::reject_all)).code == 0);
    CHECK(pending_names(d / "expected").empty());
}
