// The check command: goldens matched, missing, stale, updated atomically; bad input exits 2 and
// touches nothing; output is the same bytes for any number of jobs. Scenarios here come from a
// small stand-in measurer (a file holding a slope angle), so these tests exercise the command's
// bookkeeping, not the loader.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unistd.h>

#include "app/check.h"
#include "report/golden.h"
#include "report/render.h"
#include "support/project_dir.h"

using namespace collide;
namespace fs = std::filesystem;

namespace {

/// A throwaway project folder (scenarios/, expected/), removed at the end of the test.
struct TempDir : test::ProjectDir {
    TempDir() : test::ProjectDir("collide_check_test") {}
};

void write(const std::string& path, const std::string& text) { test::write_text(path, text); }
std::string read(const std::string& path) { return test::read_text(path); }

/// Stand-in measurer: the file holds "ANGLE [MAX]" — a slope entry measuring ANGLE degrees, and,
/// when MAX is there, an expectation `slope.angle at_most MAX`; "bad" is bad input at 2:3.
ScenarioAttempt fake_measurer(const std::string& path) {
    std::istringstream in(read(path));
    std::string first;
    in >> first;
    if (first == "bad") return {std::nullopt, {Diagnostic{path, 2, 3, "unknown key 'radiuss'"}}};
    MeasuredScenario o;
    o.scenario.file = path;
    o.scenario.name = fs::path(path).stem().string();
    o.scenario.log.push_back(LogDef{"slope", "", "", -1, {}, SlopeLog{{0, 1, 0}, 46}});
    double max = 0;
    if (in >> max) {
        ExpectDef d;
        d.value = "slope.angle";
        d.op = ExpectOp::at_most;
        d.number = max;
        d.text = "slope.angle at_most " + std::to_string(static_cast<int>(max));
        d.mark = {7, 3};
        o.scenario.expect.push_back(d);
    }
    o.layout = layout_of(o.scenario);
    const double angle = std::stod(first);
    o.values = {angle, angle <= 46 ? 1.0 : 0.0};
    return {std::move(o), {}};
}

/// The log the stand-in scenario "ANGLE" renders (an angle of at most 46° is walkable).
std::string log_of(const std::string& angle, bool walkable = true) {
    return "slope of a surface with normal (0, 1, 0) → " + angle +
           (walkable ? "°, walkable under the 46° limit\n" : "°, too steep to stand on, over the 46° limit\n");
}

/// Writes the golden NAME (log and values) that the stand-in scenario "ANGLE" gives, as
/// `check --update` would.
void write_golden(const TempDir& d, const std::string& name, const std::string& angle) {
    const std::string source = d / ("golden_source_" + name);
    write(source, angle);
    const ScenarioAttempt a = fake_measurer(source);
    fs::remove(source);
    const MeasuredScenario& m = *a.measured;
    const std::string log = render_text(m.scenario, m.layout, m.values);
    write(d / ("expected/" + name + ".log"), log);
    write(d / ("expected/" + name + ".values"), render_values(m.scenario, m.layout, m.values, log, name + ".log"));
}

struct Result {
    int code;
    std::string out;
    std::string err;
};

Result check(CheckOptions options) {
    std::ostringstream out, err;
    const int code = check_command(options, fake_measurer, out, err);
    return {code, out.str(), err.str()};
}

CheckOptions in(const TempDir& dir) {
    CheckOptions o;
    o.paths = {dir / "scenarios"};
    o.expected_dir = dir / "expected";
    return o;
}

} // namespace

TEST_CASE("check passes when every log matches its golden") {
    TempDir d;
    write(d / "scenarios/flat.yaml", "0");
    write(d / "scenarios/ramp.yaml", "30");
    write_golden(d, "flat", "0.000");
    write_golden(d, "ramp", "30.000");
    const Result r = check(in(d));
    CHECK(r.code == 0);
    CHECK(r.out == "ok       flat\nok       ramp\ncheck: 2 passed, 0 failed\n");
    CHECK(r.err.empty());
}

TEST_CASE("a changed number fails with a diff naming scenario, golden and line") {
    TempDir d;
    write(d / "scenarios/ramp.yaml", "30.5");
    write_golden(d, "ramp", "30.000");
    const Result r = check(in(d));
    CHECK(r.code == 1);
    CHECK(r.out == "scenario ramp (" + (d / "scenarios/ramp.yaml") + " vs " + (d / "expected/ramp.log") +
                           ")\n"
                           "@@ line 1 @@\n"
                           "- " +
                           log_of("30.000") + "+ " + log_of("30.500") +
                           "  slope.angle: expected 30, actual 30.5 (diff 0.5 > 3e-08: absolute 1e-09, relative "
                           "1e-09); 30.000 → 30.500 (digits from the 1st decimal change)\n"
                           "pending  " +
                           (d / "expected/ramp.log.new") + " (`collide review --expected " + (d / "expected") +
                           "` accepts or rejects it)\n" +
                           "check: 0 passed, 1 failed (1 differ); 1 pending: `collide review --expected " +
                           (d / "expected") + "` accepts or rejects it\n");
}

TEST_CASE("a missing golden fails and is not created, and CI is stated in the summary") {
    TempDir d;
    write(d / "scenarios/ramp.yaml", "30");
    CheckOptions o = in(d);
    o.ci = true;
    const Result r = check(o);
    CHECK(r.code == 1);
    CHECK(r.out.find("no golden: " + (d / "expected/ramp.log") + " does not exist") != std::string::npos);
    CHECK(r.out.find("check: 0 passed, 1 failed (1 missing golden); CI is set: goldens are read only") !=
          std::string::npos);
    CHECK_FALSE(fs::exists(d / "expected/ramp.log"));
}

TEST_CASE("a stale golden fails on a full run but not when single files are named") {
    TempDir d;
    write(d / "scenarios/ramp.yaml", "30");
    write_golden(d, "ramp", "30.000");
    write(d / "expected/gone.log", "x → 1\n");
    const Result full = check(in(d));
    CHECK(full.code == 1);
    CHECK(full.out.find("stale golden " + (d / "expected/gone.log")) != std::string::npos);
    CHECK(full.out.find("check: 1 passed, 1 failed (1 stale golden)") != std::string::npos);
    CheckOptions one = in(d);
    one.paths = {d / "scenarios/ramp.yaml"};
    const Result single = check(one);
    CHECK(single.code == 0);
    CHECK(fs::exists(d / "expected/gone.log"));
}

TEST_CASE("check --update writes goldens atomically, removes stale ones, and a second check passes") {
    TempDir d;
    write(d / "scenarios/flat.yaml", "0");
    write(d / "scenarios/ramp.yaml", "30");
    write_golden(d, "ramp", "29.000");
    write(d / "expected/gone.log", "x → 1\n");
    CheckOptions o = in(d);
    o.update = true;
    o.prune = true; // a temporary --expected folder: pruning needs --prune
    o.ci = true;    // --update writes even in CI
    const Result u = check(o);
    CHECK(u.code == 0);
    CHECK(u.out.find("created  " + (d / "expected/flat.log")) != std::string::npos);
    CHECK(u.out.find("updated  " + (d / "expected/ramp.log")) != std::string::npos);
    CHECK(u.out.find("removed  " + (d / "expected/gone.log")) != std::string::npos);
    CHECK(u.out.find("goldens: 1 created, 1 updated, 1 removed") != std::string::npos);
    CHECK(read(d / "expected/ramp.log") == log_of("30.000"));
    CHECK_FALSE(fs::exists(d / "expected/gone.log"));
    int files = 0;
    for (const auto& f : fs::directory_iterator(d.path / "expected")) {
        ++files;
        CHECK(f.path().filename().string().find(".tmp.") == std::string::npos);
    }
    CHECK(files == 4); // NAME.log and NAME.values each
    const Result again = check(in(d));
    CHECK(again.code == 0);
    CHECK(again.out == "ok       flat\nok       ramp\ncheck: 2 passed, 0 failed\n");
}

TEST_CASE("check --update reproduces the goldens byte for byte") {
    TempDir d;
    write(d / "scenarios/flat.yaml", "0");
    write(d / "scenarios/steep.yaml", "60.25");
    CheckOptions o = in(d);
    o.update = true;
    REQUIRE(check(o).code == 0);
    const std::string flat = read(d / "expected/flat.log");
    const std::string steep = read(d / "expected/steep.log");
    CHECK(steep == log_of("60.250", false));
    fs::remove(d / "expected/flat.log");
    fs::remove(d / "expected/steep.log");
    REQUIRE(check(o).code == 0);
    CHECK(read(d / "expected/flat.log") == flat);
    CHECK(read(d / "expected/steep.log") == steep);
}

TEST_CASE("check --update NAME blesses only the scenarios named") {
    TempDir d;
    write(d / "scenarios/flat.yaml", "1");
    write(d / "scenarios/ramp.yaml", "31");
    write_golden(d, "flat", "0.000");
    write_golden(d, "ramp", "30.000");
    CheckOptions o = in(d);
    o.update = true;
    o.update_names = {"ramp"};
    const Result r = check(o);
    CHECK(r.code == 1);
    CHECK(read(d / "expected/ramp.log") == log_of("31.000"));
    CHECK(read(d / "expected/flat.log") == log_of("0.000"));
    o.update_names = {"nosuch"};
    CHECK(check(o).code == 2);
}

TEST_CASE("bad input prints FILE:LINE:COLUMN errors, exits 2, and no golden is touched even with --update") {
    TempDir d;
    write(d / "scenarios/broken.yaml", "bad");
    write(d / "scenarios/ramp.yaml", "31");
    write_golden(d, "ramp", "30.000");
    CheckOptions o = in(d);
    o.update = true;
    const Result r = check(o);
    CHECK(r.code == 2);
    CHECK(r.err == (d / "scenarios/broken.yaml") + ":2:3: error: unknown key 'radiuss'\n");
    CHECK(read(d / "expected/ramp.log") == log_of("30.000"));
    CHECK_FALSE(fs::exists(d / "expected/broken.log"));
    CHECK(r.out.find("bad input: no golden written") != std::string::npos);
}

TEST_CASE("a path that does not exist is bad input") {
    TempDir d;
    CheckOptions o = in(d);
    o.paths = {d / "scenarios/nosuch.yaml"};
    const Result r = check(o);
    CHECK(r.code == 2);
    CHECK(r.err.find("nosuch.yaml: error: no such scenario file or directory") != std::string::npos);
}

TEST_CASE("a failed expectation fails the scenario with its position and values") {
    TempDir d;
    write(d / "scenarios/ramp.yaml", "30 20");
    write_golden(d, "ramp", "30.000");
    const Result r = check(in(d));
    CHECK(r.code == 1);
    CHECK(r.out.find("  " + (d / "scenarios/ramp.yaml") +
                     ":7:3: expectation failed: slope.angle at_most 20 (got 30, over by 10, tolerance 1e-09)") !=
          std::string::npos);
    CHECK(r.out.find("(1 failed expectation)") != std::string::npos);
}

TEST_CASE("check --artifacts keeps the actual log and the diff of each failing scenario") {
    TempDir d;
    write(d / "scenarios/ramp.yaml", "31");
    write(d / "scenarios/flat.yaml", "0");
    write_golden(d, "ramp", "30.000");
    write_golden(d, "flat", "0.000");
    CheckOptions o = in(d);
    o.artifacts_dir = d / "artifacts";
    o.color = true;
    CHECK(check(o).code == 1);
    CHECK(read(d / "artifacts/ramp.log") == log_of("31.000"));
    const std::string diff = read(d / "artifacts/ramp.diff");
    CHECK(diff.find("- " + log_of("30.000")) != std::string::npos);
    CHECK(diff.find('\x1b') == std::string::npos);
    CHECK_FALSE(fs::exists(d / "artifacts/flat.log"));
}

TEST_CASE("check --junit writes one testcase per scenario and stale golden; annotations name the golden line") {
    TempDir d;
    write(d / "scenarios/ramp.yaml", "31");
    write(d / "scenarios/flat.yaml", "0");
    write_golden(d, "ramp", "30.000");
    write_golden(d, "flat", "0.000");
    write(d / "expected/gone.log", "x\n");
    CheckOptions o = in(d);
    o.junit_path = d / "report.xml";
    o.annotations = true;
    const Result r = check(o);
    CHECK(r.code == 1);
    const std::string xml = read(d / "report.xml");
    CHECK(xml.find("tests=\"3\" failures=\"2\" errors=\"0\"") != std::string::npos);
    CHECK(xml.find("<testcase name=\"flat\" classname=\"" + (d / "scenarios/flat.yaml") + "\"") != std::string::npos);
    CHECK(xml.find("<failure message=\"1 value differs from " + (d / "expected/ramp.log") +
                   " (slope.angle: expected 30, actual 31") != std::string::npos);
    CHECK(xml.find("  slope.angle: expected 30, actual 31 (diff 1 &gt; 3e-08: absolute 1e-09, relative 1e-09); "
                   "30.000 → 31.000") != std::string::npos);
    CHECK(r.out.find("::error file=" + (d / "expected/ramp.log") +
                     ",line=1::ramp: line 1: slope.angle: expected 30, actual 31 (diff 1 > 3e-08: absolute 1e-09, "
                     "relative 1e-09); 30.000 → 31.000 (the whole part changes)") != std::string::npos);
}

TEST_CASE("the output is the same bytes with one job and with several") {
    TempDir d;
    for (int i = 0; i < 12; ++i) {
        const std::string name = "s" + std::to_string(i);
        write(d / ("scenarios/" + name + ".yaml"), std::to_string(i * 7));
        if (i % 3 != 0) write_golden(d, name, std::to_string(i * 7 + i % 2));
    }
    CheckOptions o = in(d);
    o.jobs = 1;
    const Result one = check(o);
    o.jobs = 2;
    const Result two = check(o);
    o.jobs = 4;
    const Result four = check(o);
    CHECK(one.code == 1);
    CHECK(one.out == two.out);
    CHECK(one.out == four.out);
    CHECK(one.out.find("check: 4 passed, 8 failed (4 differ, 4 missing goldens)") != std::string::npos);
}

TEST_CASE("one unit in the last printed digit fails, and so does a change below the printed precision") {
    TempDir d;
    write(d / "scenarios/ramp.yaml", "30.001");
    write_golden(d, "ramp", "30");
    CHECK(check(in(d)).code == 1);
    write(d / "scenarios/ramp.yaml", "30.0001");
    const Result r = check(in(d));
    CHECK(r.code == 1);
    CHECK(r.out.find("prints 30.000 either way (the change is below the printed precision)") != std::string::npos);
}

TEST_CASE("without CI a failing check leaves the run pending beside the golden; a passing one removes it") {
    TempDir d;
    write(d / "scenarios/ramp.yaml", "31");
    write(d / "scenarios/new.yaml", "5");
    write_golden(d, "ramp", "30");
    const Result r = check(in(d));
    CHECK(r.code == 1);
    CHECK(r.out.find("pending  " + (d / "expected/ramp.log.new")) != std::string::npos);
    CHECK(r.out.find("pending  " + (d / "expected/new.log.new")) != std::string::npos);
    // Each hint is a command that works from where the check ran: it names the golden folder.
    CHECK(r.out.find("; 2 pending: `collide review --expected " + (d / "expected") + "` accepts or rejects them") !=
          std::string::npos);
    CHECK(read(d / "expected/ramp.log.new") == log_of("31.000"));
    CHECK(read(d / "expected/ramp.values.new").find("\nslope.angle = 31\n") != std::string::npos);
    CHECK(read(d / "expected/ramp.log") == log_of("30.000")); // the golden itself is untouched
    write(d / "scenarios/ramp.yaml", "30");
    CHECK(check(in(d)).code == 1); // new still has no golden
    CHECK_FALSE(fs::exists(d / "expected/ramp.log.new"));
    CHECK_FALSE(fs::exists(d / "expected/ramp.values.new"));
    CHECK(fs::exists(d / "expected/new.log.new"));
}

TEST_CASE("with CI set a failing check writes no file at all") {
    TempDir d;
    write(d / "scenarios/ramp.yaml", "31");
    write(d / "scenarios/new.yaml", "5");
    write_golden(d, "ramp", "30");
    CheckOptions o = in(d);
    o.ci = true;
    const Result r = check(o);
    CHECK(r.code == 1);
    CHECK(r.out.find("pending") == std::string::npos);
    std::vector<std::string> files;
    for (const auto& f : fs::directory_iterator(d.path / "expected")) files.push_back(f.path().filename().string());
    std::sort(files.begin(), files.end());
    CHECK(files == std::vector<std::string>{"ramp.log", "ramp.values"});
}

TEST_CASE(
        "a golden without its values, or with values that do not match it, is bad input naming the file and the fix") {
    TempDir d;
    write(d / "scenarios/ramp.yaml", "30");
    write(d / "expected/ramp.log", log_of("30.000"));
    const Result missing = check(in(d));
    CHECK(missing.code == 2);
    CHECK(missing.err == (d / "expected/ramp.values") + ": error: missing: the golden " + (d / "expected/ramp.log") +
                                 " has no full-precision values beside it; `collide check --expected " +
                                 (d / "expected") + " --update " + (d / "scenarios/ramp.yaml") + "` writes them\n");
    CHECK_FALSE(fs::exists(d / "expected/ramp.log.new"));

    write_golden(d, "ramp", "30");
    write(d / "expected/ramp.log", log_of("30.001")); // edited by hand
    const Result edited = check(in(d));
    CHECK(edited.code == 2);
    CHECK(edited.err.find((d / "expected/ramp.values") + ": error: the values do not match the golden log " +
                          (d / "expected/ramp.log") + " (edited by hand?); `collide check --expected " +
                          (d / "expected") + " --update " + (d / "scenarios/ramp.yaml") + "`") != std::string::npos);

    CheckOptions o = in(d);
    o.update = true;
    o.update_names = {"ramp"};
    CHECK(check(o).code == 0); // --update NAME is the fix
    CHECK(check(in(d)).code == 0);
}

TEST_CASE("a per-field tolerance is honoured through check") {
    TempDir d;
    write(d / "scenarios/ramp.yaml", "30.0001");
    write_golden(d, "ramp", "30");
    const ScenarioMeasurer loose = [](const std::string& path) {
        ScenarioAttempt a = fake_measurer(path);
        a.measured->scenario.field_tolerances.push_back({"slope.angle", 0.001, -1, {}});
        return a;
    };
    std::ostringstream out, err;
    CHECK(check_command(in(d), loose, out, err) == 0);
    const ScenarioMeasurer other = [](const std::string& path) {
        ScenarioAttempt a = fake_measurer(path);
        a.measured->scenario.field_tolerances.push_back({"slope.walkable", 0.001, -1, {}});
        return a;
    };
    CHECK(check_command(in(d), other, out, err) == 1);
}

TEST_CASE("check --update removes a stale golden's values and pending files with it") {
    TempDir d;
    write(d / "scenarios/ramp.yaml", "30");
    write_golden(d, "gone", "10");
    write(d / "expected/gone.log.new", "x\n");
    write(d / "expected/orphan.values", "# digest 0\n");
    CheckOptions o = in(d);
    o.update = true;
    o.prune = true;
    CHECK(check(o).code == 0);
    std::vector<std::string> files;
    for (const auto& f : fs::directory_iterator(d.path / "expected")) files.push_back(f.path().filename().string());
    std::sort(files.begin(), files.end());
    CHECK(files == std::vector<std::string>{"ramp.log", "ramp.values"});
}

TEST_CASE("check --update prunes stale goldens from a non-default --expected only with --prune") {
    TempDir d;
    write(d / "scenarios/ramp.yaml", "30");
    write(d / "expected/unrelated.log", "someone's notes\n");
    CheckOptions o = in(d);
    o.update = true;
    const Result listed = check(o);
    CHECK(listed.code == 1);
    CHECK(listed.out.find("stale golden " + (d / "expected/unrelated.log") +
                          ": no scenario unrelated in this run; `collide check " + (d / "scenarios") + " --expected " +
                          (d / "expected") + " --update --prune` removes it") != std::string::npos);
    CHECK(read(d / "expected/unrelated.log") == "someone's notes\n");
    o.prune = true;
    const Result pruned = check(o);
    CHECK(pruned.code == 0);
    CHECK_FALSE(fs::exists(d / "expected/unrelated.log"));
}

TEST_CASE("a stale golden already removed by a concurrent check --update is not an error") {
    TempDir d;
    write(d / "scenarios/ramp.yaml", "30");
    write_golden(d, "ramp", "30.000");
    write_golden(d, "gone", "10");
    CheckOptions o = in(d);
    o.update = true;
    o.prune = true;
    // The stand-in measurer removes the stale golden while the run is measuring, as a second
    // `check --update` would.
    const auto racing = [&](const std::string& path) {
        std::error_code ec;
        fs::remove(d / "expected/gone.log", ec);
        fs::remove(d / "expected/gone.values", ec);
        return fake_measurer(path);
    };
    std::ostringstream out, err;
    const int code = check_command(o, racing, out, err);
    CHECK(code == 0);
    CHECK(err.str().empty());
    CHECK(out.str().find("removed  " + (d / "expected/gone.log")) != std::string::npos);
}

TEST_CASE("a scenario the engine cannot run is skipped: listed at the end with its reason, a JUnit skip, exit 0; "
          "--strict makes it bad input") {
    TempDir d;
    write(d / "scenarios/flat.yaml", "0");
    write(d / "scenarios/walker.yaml", "character");
    write_golden(d, "flat", "0.000");
    fs::rename(d / "expected/flat.log", d / "expected/flat.toy.log"); // the toy engine's golden
    fs::rename(d / "expected/flat.values", d / "expected/flat.toy.values");
    // The stand-in engine has no characters: "character" is what it cannot run.
    const ScenarioMeasurer no_characters = [](const std::string& path) {
        if (read(path) == "character")
            return ScenarioAttempt{
                    std::nullopt, {Diagnostic{path, 3, 5, "--engine toy has no character controller: body 'w'"}}, true};
        return fake_measurer(path);
    };
    CheckOptions o = in(d);
    o.engine = "toy";
    o.junit_path = d / "report.xml";
    std::ostringstream out, err;
    CHECK(check_command(o, no_characters, out, err) == 0);
    CHECK(err.str().empty());
    CHECK(out.str() == "ok       flat\n"
                       "skipped  walker (" +
                               (d / "scenarios/walker.yaml") +
                               ":3:5: --engine toy has no character controller: body 'w')\n"
                               "check: 1 passed, 0 failed, 1 skipped (toy cannot run it; --strict fails it)\n");
    const std::string xml = read(d / "report.xml");
    CHECK(xml.find("skipped=\"1\"") != std::string::npos);
    CHECK(xml.find("<skipped message=\"--engine toy has no character controller: body &apos;w&apos;\"/>") !=
          std::string::npos);

    o.strict = true;
    std::ostringstream out2, err2;
    CHECK(check_command(o, no_characters, out2, err2) == 2);
    CHECK(out2.str().find("error    walker (bad input, not checked)") != std::string::npos);
    CHECK(err2.str().find("walker.yaml:3:5: error: --engine toy has no character controller") != std::string::npos);
}
