// `collide check` end to end with real scenario files: --update then check passes and
// reproduces the goldens byte for byte, CI never writes a missing golden, bad YAML exits 2,
// a scenario's tolerance override is honoured, --jobs does not change a byte of the output;
// values hidden below the printed precision are seen, per-field tolerances, pending results
// and `collide review`, and CI writing nothing.
#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <unistd.h>

#include "support/run_command.h"
#include "support/scoped_env.h"

using collide::test::run_collide;
namespace fs = std::filesystem;

namespace {
struct Dir {
    fs::path path;
    explicit Dir(const std::string& name)
            : path(fs::temp_directory_path() / ("collide_check_cli_" + name + "_" + std::to_string(getpid()))) {
        fs::remove_all(path);
        fs::create_directories(path / "s");
    }
    ~Dir() {
        std::error_code ec;
        fs::remove_all(path, ec);
    }
    std::string operator/(const std::string& rel) const { return (path / rel).string(); }
};
/// Unsets CI for its lifetime (a test of pending files must not see the CI it runs in), then restores it.
struct NoCI : collide::test::ScopedEnv {
    NoCI() : ScopedEnv("CI", std::nullopt) {}
};
/// Sets CI=true for its lifetime, then restores what was there.
struct WithCI : collide::test::ScopedEnv {
    WithCI() : ScopedEnv("CI", "true") {}
};
void write(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }
std::string read(const fs::path& path) {
    std::stringstream s;
    s << std::ifstream(path, std::ios::binary).rdbuf();
    return s.str();
}
} // namespace

TEST_CASE("check --update writes the goldens of the shipped scenarios, then check passes and a rerun reproduces them") {
    Dir d("update");
    const auto u = run_collide("check --expected " + (d / "exp") + " --update");
    REQUIRE(u.exit_code == 0);
    const std::string tunnel = read(d / "exp/tunnel.log");
    CHECK(tunnel == "first contact of bullet with wall → frame 3 at t = 0.050 s, centre (0.000, 0.000, 0.000) m\n"
                    "bullet against wall → tunneled: through at frame 4, t = 0.067 s, and ended beyond it\n");
    const auto again = run_collide("check --expected " + (d / "exp"));
    CHECK(again.exit_code == 0);
    int shipped = 0;
    for (const auto& entry : fs::directory_iterator(std::string(COLLIDE_SOURCE_DIR) + "/scenarios"))
        shipped += entry.path().extension() == ".yaml" ? 1 : 0;
    CHECK(again.out.find("check: " + std::to_string(shipped) + " passed, 0 failed") != std::string::npos);
    fs::remove(d / "exp/tunnel.log");
    REQUIRE(run_collide("check --expected " + (d / "exp") + " --update tunnel").exit_code == 0);
    CHECK(read(d / "exp/tunnel.log") == tunnel);
}

TEST_CASE("check with CI set reports a missing golden, writes nothing, and says so") {
    Dir d("ci");
    write(d / "s/steep.yaml", "log:\n  - slope: { surface_degrees: 50, limit: 46 }\n");
    const auto ci = [&] {
        const WithCI with_ci;
        return run_collide("check " + (d / "s") + " --expected " + (d / "exp"));
    }();
    CHECK(ci.exit_code == 1);
    CHECK(ci.out.find("CI is set: goldens are read only") != std::string::npos);
    CHECK_FALSE(fs::exists(d / "exp/steep.log"));
}

TEST_CASE("check exits 2 on bad YAML with a FILE:LINE:COLUMN line and writes no golden") {
    Dir d("bad");
    write(d / "s/typo.yaml", "log:\n  - slope: { surface_degrees: 50, limitt: 46 }\n");
    const auto r = run_collide("check " + (d / "s") + " --expected " + (d / "exp") + " --update");
    CHECK(r.exit_code == 2);
    CHECK(r.err.find((d / "s/typo.yaml") + ":2:35: error: ") != std::string::npos);
    CHECK_FALSE(fs::exists(d / "exp/typo.log"));
}

TEST_CASE("check honours a scenario's tolerance override") {
    Dir d("tolerance");
    const std::string args = "check " + (d / "s") + " --expected " + (d / "exp");
    const NoCI no_ci;
    write(d / "s/steep.yaml", "log:\n  - slope: { surface_degrees: 50.0004, limit: 46 }\n");
    REQUIRE(run_collide(args + " --update").exit_code == 0);
    write(d / "s/steep.yaml", "tolerance: { absolute: 0.5 }\nlog:\n  - slope: { surface_degrees: 50, limit: 46 }\n");
    const auto loose = run_collide(args);
    INFO(loose.out);
    CHECK(loose.exit_code == 0);
    write(d / "s/steep.yaml", "log:\n  - slope: { surface_degrees: 50, limit: 46 }\n");
    const auto strict = run_collide(args);
    CHECK(strict.exit_code == 1);
    CHECK(strict.out.find("  slope.angle: expected 50.0004") != std::string::npos);
    CHECK(strict.out.find("prints 50.000 either way") != std::string::npos);
}

TEST_CASE("one unit in the last printed digit of a golden fails with exit 1") {
    Dir d("last-digit");
    const std::string args = "check " + (d / "s") + " --expected " + (d / "exp");
    const NoCI no_ci;
    write(d / "s/steep.yaml", "log:\n  - slope: { surface_degrees: 50.001, limit: 46 }\n");
    REQUIRE(run_collide(args + " --update").exit_code == 0);
    REQUIRE(read(d / "exp/steep.log").find("50.001°") != std::string::npos);
    write(d / "s/steep.yaml", "log:\n  - slope: { surface_degrees: 50, limit: 46 }\n");
    const auto r = run_collide(args);
    CHECK(r.exit_code == 1);
    CHECK(r.out.find("50.001 → 50.000 (digits from the 3rd decimal change)") != std::string::npos);
}

TEST_CASE("a change of 1e-4 that prints identically fails by default and passes with tolerance absolute 0.001") {
    Dir d("hidden");
    const std::string args = "check " + (d / "s") + " --expected " + (d / "exp");
    const NoCI no_ci;
    write(d / "s/steep.yaml", "log:\n  - slope: { surface_degrees: 50.0001, limit: 46 }\n");
    REQUIRE(run_collide(args + " --update").exit_code == 0);
    write(d / "s/steep.yaml", "log:\n  - slope: { surface_degrees: 50, limit: 46 }\n");
    const auto strict = run_collide(args);
    CHECK(strict.exit_code == 1);
    CHECK(strict.out.find("prints 50.000 either way (the change is below the printed precision)") != std::string::npos);
    write(d / "s/steep.yaml", "tolerance: { absolute: 0.001 }\nlog:\n  - slope: { surface_degrees: 50, limit: 46 }\n");
    CHECK(run_collide(args).exit_code == 0);
    CHECK_FALSE(fs::exists(d / "exp/steep.log.new")); // the passing run removed the pending result
}

TEST_CASE("check: a per-field tolerance applies to that field only, and an unknown field is a located error") {
    Dir d("per-field");
    const std::string args = "check " + (d / "s") + " --expected " + (d / "exp");
    const NoCI no_ci;
    const auto scenario = [](const std::string& a, const std::string& b, const std::string& tolerance) {
        return tolerance + "log:\n  - slope: { surface_degrees: " + a + ", limit: 46 }\n    id: a\n" +
               "  - slope: { surface_degrees: " + b + ", limit: 46 }\n    id: b\n";
    };
    write(d / "s/two.yaml", scenario("50.0001", "30.0001", ""));
    REQUIRE(run_collide(args + " --update").exit_code == 0);
    write(d / "s/two.yaml", scenario("50", "30.0001", "tolerance: { fields: { a.angle: { absolute: 0.001 } } }\n"));
    CHECK(run_collide(args).exit_code == 0);
    write(d / "s/two.yaml", scenario("50.0001", "30", "tolerance: { fields: { a.angle: { absolute: 0.001 } } }\n"));
    const auto r = run_collide(args);
    CHECK(r.exit_code == 1);
    CHECK(r.out.find("  b.angle: expected 30.0001") != std::string::npos);
    CHECK(r.out.find("a.angle:") == std::string::npos);
    write(d / "s/two.yaml", scenario("50", "30", "tolerance: { fields: { c.angle: { absolute: 0.001 } } }\n"));
    const auto bad = run_collide(args);
    CHECK(bad.exit_code == 2);
    CHECK(bad.err.find("two.yaml:1:24: error: tolerance.fields: no logged value 'c.angle' (log ids: a, b)") !=
          std::string::npos);
}

TEST_CASE("after a failing check, review --accept-all makes check pass with the goldens check --update writes") {
    Dir d("review");
    const std::string exp = " --expected " + (d / "exp");
    const std::string args = "check " + (d / "s") + exp;
    const NoCI no_ci;
    write(d / "s/steep.yaml", "log:\n  - slope: { surface_degrees: 50, limit: 46 }\n");
    write(d / "s/flat.yaml", "log:\n  - slope: { surface_degrees: 5, limit: 46 }\n");
    REQUIRE(run_collide(args + " --update").exit_code == 0);
    write(d / "s/steep.yaml", "log:\n  - slope: { surface_degrees: 50.0001, limit: 46 }\n");
    write(d / "s/new.yaml", "log:\n  - slope: { surface_degrees: 7, limit: 46 }\n");
    const auto failing = run_collide(args);
    REQUIRE(failing.exit_code == 1);
    CHECK(failing.out.find("2 pending: `collide review" + exp + "` accepts or rejects them") != std::string::npos);
    const auto accepted = run_collide("review --accept-all" + exp);
    CHECK(accepted.exit_code == 0);
    CHECK(accepted.out.find("review: 2 accepted, 0 rejected, 0 skipped; 0 still pending") != std::string::npos);
    const auto passing = run_collide(args);
    CHECK(passing.exit_code == 0);
    std::map<std::string, std::string> reviewed;
    for (const auto& f : fs::directory_iterator(d.path / "exp"))
        reviewed[f.path().filename().string()] = read(f.path());
    CHECK(reviewed.size() == 6);
    fs::remove_all(d.path / "exp");
    REQUIRE(run_collide(args + " --update").exit_code == 0);
    std::map<std::string, std::string> updated;
    for (const auto& f : fs::directory_iterator(d.path / "exp")) updated[f.path().filename().string()] = read(f.path());
    CHECK(reviewed == updated);
}

TEST_CASE("review on the command line: nothing pending, unknown names, answers from stdin, bad flag mixes") {
    Dir d("review-cli");
    const std::string exp = " --expected " + (d / "exp");
    const NoCI no_ci;
    const auto none = run_collide("review" + exp);
    CHECK(none.exit_code == 0);
    CHECK(none.out.find("review: nothing pending") != std::string::npos);
    write(d / "s/steep.yaml", "log:\n  - slope: { surface_degrees: 50, limit: 46 }\n");
    REQUIRE(run_collide("check " + (d / "s") + exp).exit_code == 1); // no golden: pending
    const auto unknown = run_collide("review --accept nosuch" + exp);
    CHECK(unknown.exit_code == 2);
    CHECK(unknown.err.find("nosuch names no pending result") != std::string::npos);
    CHECK(run_collide("review --accept-all --reject steep" + exp).exit_code == 2);
    const auto answered = run_collide("review" + exp, "a\n");
    CHECK(answered.exit_code == 0);
    CHECK(answered.out.find("created  " + (d / "exp/steep.log")) != std::string::npos);
    CHECK(run_collide("check " + (d / "s") + exp).exit_code == 0);
}

TEST_CASE("checks and reviews running at once never leave a half-written golden or pending file") {
    Dir d("concurrent");
    const std::string exp = " --expected " + (d / "exp");
    const std::string check = "check " + (d / "s") + exp;
    const NoCI no_ci;
    for (int i = 0; i < 6; ++i)
        write(d / ("s/s" + std::to_string(i) + ".yaml"),
              "log:\n  - slope: { surface_degrees: " + std::to_string(40 + i) + ", limit: 46 }\n");
    // Two writers at once, twice over: the second process's output goes to a file of its own.
    const std::string exe = std::string("'") + COLLIDE_EXE + "'";
    const std::string side = " >'" + (d / "side.out") + "' 2>&1 & ";
    for (int round = 0; round < 2; ++round) {
        run_collide(check + " --update" + side + exe + " " + check + " --update; wait");
        for (int i = 0; i < 6; ++i)
            write(d / ("s/s" + std::to_string(i) + ".yaml"),
                  "log:\n  - slope: { surface_degrees: " + std::to_string(40 + i) + ".5, limit: 46 }\n");
        run_collide(check + side + exe + " " + check + "; wait");
        run_collide("review --accept-all" + exp + side + exe + " review --accept-all" + exp + "; wait");
        run_collide("review --accept-all" + exp); // whatever a race left pending
    }
    const auto r = run_collide(check);
    INFO(r.out << r.err);
    CHECK(r.exit_code == 0);
    for (const auto& f : fs::directory_iterator(d.path / "exp"))
        CHECK(f.path().filename().string().find(".tmp.") == std::string::npos);
}

TEST_CASE("with CI=true a failing check writes no file at all") {
    Dir d("ci-pending");
    const std::string args = "check " + (d / "s") + " --expected " + (d / "exp");
    write(d / "s/steep.yaml", "log:\n  - slope: { surface_degrees: 50, limit: 46 }\n");
    {
        const NoCI no_ci;
        REQUIRE(run_collide(args + " --update").exit_code == 0);
    }
    write(d / "s/steep.yaml", "log:\n  - slope: { surface_degrees: 51, limit: 46 }\n");
    write(d / "s/new.yaml", "log:\n  - slope: { surface_degrees: 7, limit: 46 }\n");
    const auto before = fs::last_write_time(d.path / "exp/steep.log");
    const auto r = [&] {
        const WithCI with_ci;
        return run_collide(args);
    }();
    CHECK(r.exit_code == 1);
    int files = 0;
    for (const auto& f : fs::directory_iterator(d.path / "exp")) {
        ++files;
        INFO(f.path().string());
        CHECK((f.path().extension() == ".log" || f.path().extension() == ".values"));
    }
    CHECK(files == 2);
    CHECK(fs::last_write_time(d.path / "exp/steep.log") == before);
}

TEST_CASE("a hand-edited golden is bad input naming the file, with the fix") {
    Dir d("edited");
    const std::string args = "check " + (d / "s") + " --expected " + (d / "exp");
    const NoCI no_ci;
    write(d / "s/steep.yaml", "log:\n  - slope: { surface_degrees: 50, limit: 46 }\n");
    REQUIRE(run_collide(args + " --update").exit_code == 0);
    std::string log = read(d / "exp/steep.log");
    log.replace(log.find("50.000"), 6, "50.001");
    write(d / "exp/steep.log", log);
    const auto r = run_collide(args);
    CHECK(r.exit_code == 2);
    CHECK(r.err.find((d / "exp/steep.values") + ": error: the values do not match the golden log " +
                     (d / "exp/steep.log") + " (edited by hand?); `collide check --expected " + (d / "exp") +
                     " --update " + (d / "s/steep.yaml") + "` rewrites both") != std::string::npos);
}

TEST_CASE("check output is the same bytes with --jobs 1 and --jobs 2") {
    Dir d("jobs");
    const auto one = run_collide("check --expected " + (d / "exp") + " --jobs 1");
    const auto two = run_collide("check --expected " + (d / "exp") + " --jobs 2");
    CHECK(one.exit_code == 1);
    CHECK(one.out == two.out);
    CHECK(one.err == two.err);
}

TEST_CASE("check parse errors exit 2 and --help exits 0") {
    CHECK(run_collide("check --jobs 0").exit_code == 2);
    CHECK(run_collide("check --color sometimes").exit_code == 2);
    CHECK(run_collide("check --help").exit_code == 0);
}

TEST_CASE(
        "check --html writes one page: summary, every scenario's status, a failing one's values side by side, plots") {
    Dir d("html");
    const std::string args = "check " + (d / "s") + " --expected " + (d / "exp");
    const NoCI no_ci;
    write(d / "s/steep.yaml", "log:\n  - slope: { surface_degrees: 50.001, limit: 46 }\n");
    write(d / "s/drop.yaml", "world: { rate: 60, frames: 30, gravity: [0, -9.81, 0] }\n"
                             "bodies:\n  floor: { static: true, box: { min: [-1, -1, -1], max: [1, 0, 1] } }\n"
                             "  ball: { sphere: { radius: 0.1 }, position: [0, 1, 0] }\n"
                             "log:\n  - final: { body: ball }\n");
    REQUIRE(run_collide(args + " --update").exit_code == 0);
    write(d / "s/steep.yaml", "log:\n  - slope: { surface_degrees: 50, limit: 46 }\n");
    const auto r = run_collide(args + " --html " + (d / "report.html"));
    CHECK(r.exit_code == 1);
    const std::string html = read(d / "report.html");
    CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
    CHECK(html.find("1 passed</span>, <span class=\"failed\">1 failed</span>, <span class=\"pending\">1 pending") !=
          std::string::npos);
    CHECK(html.find("data-scenario=\"drop\" data-status=\"passed\"") != std::string::npos);
    CHECK(html.find("data-scenario=\"steep\" data-status=\"pending\"") != std::string::npos);
    CHECK(html.find("<td>slope.angle</td><td>50.001</td><td>50</td>") != std::string::npos);
    CHECK(html.find("<tr class=\"differs\">") != std::string::npos);
    CHECK(html.find("data-body=\"ball\"") != std::string::npos); // drop's plot
    CHECK(html.find("https://") == std::string::npos);
}

TEST_CASE("every hint a failing check prints outside the repo's folders is a command that works as written") {
    // A scenario and goldens in folders of the user's own: the hints carry --expected and the
    // scenario's path, and run as printed they create the golden, review it, and pass.
    Dir d("hints");
    const NoCI no_ci;
    fs::create_directories(d.path / "mine");
    write(d / "mine/ball.yaml", "log:\n  - slope: { surface_degrees: 20, limit: 46 }\n");
    const std::string args = "check " + (d / "mine/ball.yaml") + " --expected " + (d / "gold");
    const auto missing = run_collide(args);
    REQUIRE(missing.exit_code == 1);
    // The command between the backticks of a line holding `marker`, without its `collide `.
    const auto hint = [](const std::string& out, const std::string& marker) {
        const std::size_t at = out.find(marker);
        REQUIRE(at != std::string::npos);
        const std::size_t open = out.find("`collide ", at);
        REQUIRE(open != std::string::npos);
        const std::size_t close = out.find('`', open + 1);
        return out.substr(open + 9, close - open - 9);
    };
    const std::string create = hint(missing.out, "no golden:");
    CHECK(create == "check --expected " + (d / "gold") + " --update " + (d / "mine/ball.yaml"));
    const auto created = run_collide(create);
    CHECK(created.exit_code == 0);
    CHECK(fs::exists(d / "gold/ball.log"));
    CHECK(run_collide(args).exit_code == 0);

    write(d / "mine/ball.yaml", "log:\n  - slope: { surface_degrees: 21, limit: 46 }\n");
    const auto differs = run_collide(args);
    REQUIRE(differs.exit_code == 1);
    const std::string review = hint(differs.out, "pending  ");
    CHECK(review == "review --expected " + (d / "gold"));
    const auto accepted = run_collide(review + " --accept-all");
    CHECK(accepted.exit_code == 0);
    CHECK(accepted.out.find("accepted " + (d / "gold/ball.log")) != std::string::npos);
    CHECK(run_collide(args).exit_code == 0);
}
