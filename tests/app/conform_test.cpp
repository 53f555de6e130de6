// `collide conform` as library calls: each scenario's expectations through each engine the
// registry has, scored against closed forms worked out here (a thrown ball's exact flight); an
// engine that cannot run a scenario is a refused cell with its located reason; a scenario without
// expectations is not run; the text and JSON reports; exit codes 0, 1 (--strict) and 2.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>

#include "app/conform.h"
#include "engine/registry.h"
#include "scenario/load.h"
#include "support/project_dir.h"

using namespace collide;
namespace fs = std::filesystem;

namespace {

/// A ball thrown at 2 m/s from y 10 m; frame 50 at 50 Hz is t = 1 s, where exact flight puts it at
/// x = 2, y = 10 − 9.81/2 = 5.095, vy = −9.81: the first two hold, the third (−9 within 1e-3)
/// misses by 0.81 m/s.
const char* const kThrow = R"(world: { rate: 50, frames: 51, gravity: [0, -9.81, 0] }
bodies:
  b: { sphere: { radius: 0.2 }, position: [0, 10, 0], velocity: [2, 0, 0] }
log:
  - final: { body: b }
expect:
  - { value: final.x, equals: 2, tolerance: 1e-9 }
  - { value: final.y, equals: 5.095, tolerance: 1e-9 }
  - { value: final.vy, equals: -9, tolerance: 1e-3 }
)";

/// A body the test engine "refuser" cannot run (it is named walker), at line 3, column 3.
const char* const kWalker = R"(world: { rate: 60, frames: 3 }
bodies:
  walker: { sphere: { radius: 0.2 } }
log:
  - final: { body: walker }
expect:
  - { value: final.x, equals: 0 }
)";

/// No expectations: listed, not run.
const char* const kPlain =
        "world: { frames: 2 }\nbodies:\n  b: { sphere: { radius: 1 } }\nlog:\n  - final: { body: b }\n";

/// Registers "refuser": collide's own world, which refuses any scenario with a body named
/// walker, as an engine that lacks something does (UnsupportedError at the body).
void register_refuser() {
    if (find_engine("refuser")) return;
    EngineSpec spec = *find_engine("collide");
    spec.name = "refuser";
    spec.version = "collide's world, refusing walkers (a test engine)";
    spec.refuse_unsupported = [](const Scenario& s) {
        for (const BodyDef& b : s.bodies)
            if (b.name == "walker")
                throw UnsupportedError(display_name(s.file), b.mark.line, b.mark.column,
                                       "--engine refuser cannot run a walker: body 'walker'");
    };
    register_engine(std::move(spec));
}

struct Project : test::ProjectDir {
    Project() : test::ProjectDir("collide_conform_test") {
        test::write_text((path / "scenarios/throw.yaml").string(), kThrow);
        test::write_text((path / "scenarios/walker.yaml").string(), kWalker);
        test::write_text((path / "scenarios/plain.yaml").string(), kPlain);
    }
    std::string file(const std::string& name) const { return (path / "scenarios" / name).generic_string(); }
    std::string dir() const { return (path / "scenarios").generic_string(); }
};

} // namespace

TEST_CASE("conform scores each expectation against its closed form: value, target, error, held") {
    const Project p;
    const ConformReport r = run_conformance({p.file("throw.yaml")}, {"collide"});
    REQUIRE(r.engines.size() == 1);
    CHECK(r.engines[0].name == "collide");
    REQUIRE(r.rows.size() == 1);
    const ConformRow& row = r.rows[0];
    CHECK(row.name == "throw");
    CHECK(row.lines == std::vector<int>{7, 8, 9});
    REQUIRE(row.cells.size() == 1);
    const ConformCell& c = row.cells[0];
    CHECK(c.status == CellStatus::ran);
    REQUIRE(c.outcomes.size() == 3);
    CHECK(c.held() == 2);
    CHECK(c.outcomes[0].value == Approx(2).margin(1e-12));
    CHECK(c.outcomes[1].value == Approx(5.095).margin(1e-12));
    CHECK(c.outcomes[1].unit == "m");
    CHECK_FALSE(c.outcomes[2].passed);
    CHECK(c.outcomes[2].value == Approx(-9.81).margin(1e-12));
    CHECK(c.outcomes[2].target == -9);
    CHECK(c.outcomes[2].error == Approx(0.81).margin(1e-12));
    CHECK(c.outcomes[2].unit == "m/s");
    CHECK(c.worst() == &c.outcomes[2]); // the one that failed
    CHECK(c.cpu_seconds >= 0);
}

TEST_CASE("conform takes its engines from the registry: a scenario one cannot run is a refused cell") {
    register_refuser();
    const Project p;
    const ConformReport r = run_conformance({p.file("throw.yaml"), p.file("walker.yaml")}, {"collide", "refuser"});
    REQUIRE(r.rows.size() == 2);
    const ConformRow& thrown = r.rows[0];
    const ConformRow& walker = r.rows[1];
    // The refuser steps collide's world: the same outcomes.
    REQUIRE(thrown.cells.size() == 2);
    CHECK(thrown.cells[1].status == CellStatus::ran);
    REQUIRE(thrown.cells[1].outcomes.size() == 3);
    for (std::size_t i = 0; i < 3; ++i) CHECK(thrown.cells[1].outcomes[i].value == thrown.cells[0].outcomes[i].value);
    CHECK(walker.cells[0].status == CellStatus::ran);
    CHECK(walker.cells[0].held() == 1);
    CHECK(walker.cells[1].status == CellStatus::refused);
    CHECK(walker.cells[1].reason ==
          p.file("walker.yaml") + ":3:3: --engine refuser cannot run a walker: body 'walker'");
    CHECK(walker.cells[1].outcomes.empty());
    const EngineSummary s = summarize_engine(r, 1);
    CHECK(s.held == 2);
    CHECK(s.ran == 3);
    CHECK(s.scenarios == 1);
    CHECK(s.refused == 1);
    CHECK(s.unchecked == 1);
}

TEST_CASE("conform of a directory runs its scenarios in path order; one without expectations is not run") {
    const Project p;
    const ConformReport r = run_conformance({p.file("plain.yaml"), p.file("throw.yaml")}, {"collide"});
    REQUIRE(r.rows.size() == 2);
    CHECK(r.rows[0].name == "plain");
    CHECK(r.rows[0].cells[0].status == CellStatus::none);
    CHECK(r.rows[0].cells[0].worst() == nullptr);
    std::ostringstream out, err;
    ConformRequest q;
    q.paths = {p.dir()};
    q.engines = "collide";
    q.format = ConformFormat::json;
    REQUIRE(conform_command(q, out, err) == 0);
    const auto doc = nlohmann::json::parse(out.str());
    REQUIRE(doc["scenarios"].size() == 3);
    CHECK(doc["scenarios"][0]["name"] == "plain");
    CHECK(doc["scenarios"][1]["name"] == "throw");
    CHECK(doc["scenarios"][2]["name"] == "walker");
    CHECK(doc["scenarios"][0]["cells"][0]["status"] == "no expectations");
}

TEST_CASE("the text report: a table of scenarios × engines, the refusals, a summary per engine") {
    register_refuser();
    const Project p;
    const ConformReport r = run_conformance({p.file("plain.yaml"), p.file("throw.yaml"), p.file("walker.yaml")},
                                            {"collide", "refuser"});
    const std::string text = render_conformance_text(r);
    INFO(text);
    CHECK(text.rfind("conform: 3 scenarios × 2 engines;", 0) == 0);
    CHECK(text.find("\nscenario  collide") != std::string::npos);
    CHECK(text.find("\nplain     no expectations") != std::string::npos);
    CHECK(text.find("\nthrow     2/3  0.81 m/s  ") != std::string::npos); // held / checked, the worst error
    CHECK(text.find("refused\n") != std::string::npos);
    CHECK(text.find("\nrefused:\n  walker by refuser: " + p.file("walker.yaml") + ":3:3: --engine refuser cannot") !=
          std::string::npos);
    CHECK(text.find("\n  collide  held 3 of 4 expectations in 2 scenarios, ") != std::string::npos);
    CHECK(text.find("\n  refuser  held 2 of 3 expectations in 1 scenario, ") != std::string::npos);
    CHECK(text.find("; refused 1 scenario (1 expectation)") != std::string::npos);
}

TEST_CASE("the JSON report gives every expectation's measured and expected value, error and tolerance") {
    register_refuser();
    const Project p;
    const ConformReport r = run_conformance({p.file("throw.yaml"), p.file("walker.yaml")}, {"collide", "refuser"});
    const auto doc = nlohmann::json::parse(render_conformance_json(r));
    REQUIRE(doc["engines"].size() == 2);
    CHECK(doc["engines"][0]["name"] == "collide");
    CHECK(doc["engines"][0]["held"] == 3);
    CHECK(doc["engines"][0]["checked"] == 4);
    CHECK(doc["engines"][1]["refused"] == 1);
    const auto& cell = doc["scenarios"][0]["cells"][0];
    CHECK(cell["status"] == "ran");
    CHECK(cell["held"] == 2);
    const auto& vy = cell["expectations"][2];
    CHECK(vy["line"] == 9);
    CHECK(vy["field"] == "final.vy");
    CHECK(vy["condition"] == "final.vy = -9 within 1e-3");
    CHECK(vy["held"] == false);
    CHECK(vy["value"].get<double>() == Approx(-9.81).margin(1e-12));
    CHECK(vy["expected"].get<double>() == -9);
    CHECK(vy["error"].get<double>() == Approx(0.81).margin(1e-12));
    CHECK(vy["tolerance"].get<double>() == 1e-3);
    CHECK(vy["unit"] == "m/s");
    const auto& refused = doc["scenarios"][1]["cells"][1];
    CHECK(refused["status"] == "refused");
    CHECK(refused["reason"].get<std::string>().find(":3:3: --engine refuser") != std::string::npos);
    CHECK_FALSE(refused.contains("expectations"));
}

TEST_CASE("conform exits 0 whatever held, 1 with --strict when an expectation failed, 2 on bad input") {
    const Project p;
    std::ostringstream out, err;
    ConformRequest q;
    q.paths = {p.file("throw.yaml")};
    q.engines = "collide";
    CHECK(conform_command(q, out, err) == 0);
    q.strict = true;
    CHECK(conform_command(q, out, err) == 1);
    q.paths = {p.file("walker.yaml")}; // holds: strict is content
    CHECK(conform_command(q, out, err) == 0);
    CHECK(err.str().empty());

    // A scenario that does not load: its located error, exit 2, and no report written.
    test::write_text(p.file("broken.yaml"), "world: { rate: 0 }\n");
    const std::string report = (p.path / "report.txt").string();
    q.paths = {p.file("throw.yaml"), p.file("broken.yaml")};
    q.output = report;
    err.str("");
    CHECK(conform_command(q, out, err) == 2);
    CHECK(err.str().rfind(p.file("broken.yaml") + ":1:16: error: world.rate must be > 0", 0) == 0);
    CHECK_FALSE(fs::exists(report));

    // An engine this program lacks, a path that is not there, stdin.
    q.paths = {p.file("throw.yaml")};
    q.engines = "collide,nosuch";
    err.str("");
    CHECK(conform_command(q, out, err) == 2);
    // (what follows names this build's engines)
    CHECK(err.str().rfind("collide conform: error: --engine nosuch: no such engine (this build has collide", 0) == 0);
    q.engines = "collide";
    q.paths = {p.file("missing.yaml")};
    err.str("");
    CHECK(conform_command(q, out, err) == 2);
    CHECK(err.str() == p.file("missing.yaml") + ": error: no such scenario file or directory\n");
    q.paths = {"-"};
    err.str("");
    CHECK(conform_command(q, out, err) == 2);
    CHECK(err.str().find("not stdin") != std::string::npos);
    CHECK_FALSE(fs::exists(report));

    // The report onto one of its scenarios is refused before anything runs.
    q.paths = {p.file("throw.yaml")};
    q.output = p.file("throw.yaml");
    err.str("");
    CHECK(conform_command(q, out, err) == 2);
    CHECK(test::read_text(p.file("throw.yaml")) == kThrow);
}

TEST_CASE("conform's report is the same bytes run after run, but for the times") {
    const Project p;
    const ConformReport a = run_conformance({p.file("throw.yaml"), p.file("plain.yaml")}, {"collide"});
    ConformReport b = run_conformance({p.file("throw.yaml"), p.file("plain.yaml")}, {"collide"});
    for (std::size_t r = 0; r < a.rows.size(); ++r) b.rows[r].cells[0].cpu_seconds = a.rows[r].cells[0].cpu_seconds;
    CHECK(render_conformance_json(a) == render_conformance_json(b));
    CHECK(render_conformance_text(a) == render_conformance_text(b));
}
