// `collide check` with the run's recording kept beside a golden (golden: { recording: true }):
// --update writes it, the same bytes as `sim --record` of the same run; a failing check's HTML
// report draws the golden's run from it, faint, under the new one; a failing run leaves its
// recording pending, and review accepts or rejects it with the log; a scenario that stops
// keeping one, or is gone, loses it with --update.
#include <catch2/catch.hpp>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "app/check.h"
#include "app/measure.h"
#include "app/review.h"
#include "support/project_dir.h"

using namespace collide;
using namespace collide::test;
namespace fs = std::filesystem;

namespace {

/// A ball (restitution `e`) dropped beside another onto a floor, keeping its run's recording.
std::string drop(const std::string& e, bool keep = true, const std::string& duration = "2") {
    return "name: drop\nparams: { e: " + e + " }\n" + (keep ? "golden: { recording: true }\n" : "") +
           "world: { dt: 1/60, duration: " + duration +
           ", gravity: [0, -9.81, 0], detection: swept }\n"
           "bodies:\n"
           "  floor: { static: true, box: { min: [-5, -1, -5], max: [5, 0, 5] } }\n"
           "  ball: { sphere: { radius: 0.1 }, position: [0, 1.1, 0], restitution: $e }\n"
           "  other: { sphere: { radius: 0.1 }, position: [2, 1.1, 0], restitution: 0.8 }\n"
           "log:\n  - final: { body: ball }\n";
}

struct Run {
    int code;
    std::string out, err;
};

Run check(const ProjectDir& d, bool update = false, bool ci = true, const std::string& html = "") {
    CheckOptions o;
    o.paths = {d / "scenarios"};
    o.expected_dir = d / "expected";
    o.update = update;
    o.ci = ci;
    o.html_path = html;
    std::ostringstream out, err;
    const int code = check_command(o, out, err);
    return {code, out.str(), err.str()};
}

/// `sim --record` of `yaml` (written beside the project's folders), as bytes.
std::string recorded(const ProjectDir& d, const std::string& yaml) {
    write_text(d / "drop.yaml", yaml);
    SimOptions options;
    options.record_path = d / "drop.rec";
    measure_scenario(d / "drop.yaml", options);
    return read_text(d / "drop.rec");
}

/// The JSON of the page's element `id="ID"`'s script.
nlohmann::json script_data(const std::string& html, const std::string& id) {
    const std::string open = "id=\"" + id + "\">";
    const std::size_t at = html.find(open);
    REQUIRE(at != std::string::npos);
    const std::size_t from = at + open.size();
    return nlohmann::json::parse(html.substr(from, html.find("</script>", from) - from));
}

} // namespace

TEST_CASE("check --update keeps the run's recording beside the golden: sim --record's bytes",
          "[app][check][recording]") {
    const ProjectDir d("collide_check_recording");
    write_text(d / "scenarios/drop.yaml", drop("0.8"));
    const Run r = check(d, true);
    REQUIRE(r.code == 0);
    CHECK_THAT(r.out, Catch::Contains("recorded " + (d / "expected/drop.rec")));
    // The run made again is the run the golden holds: the same bits as sim --record of it (its
    // header names the scenario file's digest, which the copy beside shares).
    CHECK(read_text(d / "expected/drop.rec") == recorded(d, drop("0.8")));
    CHECK(check(d).code == 0);

    // Removed by hand: check says how to write it again and passes; --update writes it.
    fs::remove(d / "expected/drop.rec");
    Run again = check(d);
    CHECK(again.code == 0);
    CHECK_THAT(again.out, Catch::Contains("note     drop: no recording beside its golden yet"));
    again = check(d, true);
    CHECK(again.code == 0);
    CHECK_THAT(again.out, Catch::Contains("recorded "));
    CHECK(fs::exists(d / "expected/drop.rec"));

    // The scenario stops keeping it: --update removes it; so does a scenario that is gone.
    write_text(d / "scenarios/drop.yaml", drop("0.8", false));
    again = check(d, true);
    CHECK(again.code == 0);
    CHECK_THAT(again.out, Catch::Contains("removed  " + (d / "expected/drop.rec")));
    CHECK_FALSE(fs::exists(d / "expected/drop.rec"));
    write_text(d / "scenarios/drop.yaml", drop("0.8"));
    REQUIRE(check(d, true).code == 0);
    REQUIRE(fs::exists(d / "expected/drop.rec"));
    write_text(d / "scenarios/other.yaml", drop("0.5", false));
    fs::remove(d / "scenarios/drop.yaml");
    CheckOptions o;
    o.paths = {d / "scenarios"};
    o.expected_dir = d / "expected";
    o.update = true;
    o.prune = true;
    o.ci = true;
    std::ostringstream out, err;
    CHECK(check_command(o, out, err) == 0);
    CHECK_FALSE(fs::exists(d / "expected/drop.rec"));
    CHECK_FALSE(fs::exists(d / "expected/drop.log"));
}

TEST_CASE("a failing check's HTML report draws the golden's run faint under the new one", "[app][check][recording]") {
    const ProjectDir d("collide_check_recording");
    write_text(d / "scenarios/drop.yaml", drop("0.8"));
    REQUIRE(check(d, true).code == 0);
    write_text(d / "scenarios/drop.yaml", drop("0.5"));
    const Run r = check(d, false, true, d / "report.html");
    REQUIRE(r.code == 1);
    const std::string html = read_text(d / "report.html");
    CHECK_THAT(html, Catch::Contains("faint: the <b>golden</b>'s run, recorded by <code>"));
    // The 2D plot: the golden's balls as ghosts in their new counterparts' colours, drawn first.
    CHECK_THAT(html, Catch::Contains("<g class=\"body ghost c0\" data-body=\"golden: ball\">"));
    CHECK_THAT(html, Catch::Contains("<g class=\"body ghost c1\" data-body=\"golden: other\">"));
    CHECK(html.find("data-body=\"golden: ball\"") < html.find("data-body=\"new: ball\""));
    // The 3D view: the new run's bodies, then the golden's moving ones, flagged as ghosts.
    const auto data = script_data(html, "s0-3d-data");
    CHECK(data["scene"]["bodies"]["names"] == "new: floor\nnew: ball\nnew: other\ngolden: ball\ngolden: other");
    CHECK(data["scene"]["bodies"]["ghost"] == "AAAAAQE="); // 0 0 0 1 1
    CHECK(data["scene"]["ghost_note"] ==
          "faint: the golden's run (" + (d / "expected/drop.rec") + "), as recorded when it was blessed");

    // A passing check draws its run alone.
    write_text(d / "scenarios/drop.yaml", drop("0.8"));
    REQUIRE(check(d, false, true, d / "report.html").code == 0);
    CHECK_THAT(read_text(d / "report.html"), !Catch::Contains("golden: ball"));

    // A failing scenario that keeps no recording: its run alone, and the page says how to keep one.
    write_text(d / "scenarios/drop.yaml", drop("0.8", false));
    REQUIRE(check(d, true).code == 0);
    write_text(d / "scenarios/drop.yaml", drop("0.5", false));
    REQUIRE(check(d, false, true, d / "report.html").code == 1);
    const std::string alone = read_text(d / "report.html");
    CHECK_THAT(alone, !Catch::Contains("golden: ball"));
    CHECK_THAT(alone,
               Catch::Contains("keeps no recording beside its golden (<code>golden: { recording: true }</code>"));
}

TEST_CASE("a golden run sampled at other times is drawn frame by frame, and the page says so",
          "[app][check][recording]") {
    const ProjectDir d("collide_check_recording");
    write_text(d / "scenarios/drop.yaml", drop("0.8"));
    REQUIRE(check(d, true).code == 0);
    // Same times: no word about sampling.
    write_text(d / "scenarios/drop.yaml", drop("0.5"));
    REQUIRE(check(d, false, true, d / "report.html").code == 1);
    CHECK_THAT(read_text(d / "report.html"), !Catch::Contains("sampled at different times"));
    // A frame a step of 1/60 s, the last at t = duration (sim --trace: frames 0 to 60 in 1 s): 61
    // frames against the golden's 121.
    write_text(d / "scenarios/drop.yaml", drop("0.8", true, "1"));
    REQUIRE(check(d, false, true, d / "report.html").code == 1);
    const std::string html = read_text(d / "report.html");
    CHECK_THAT(html, Catch::Contains("sampled at different times (61 frames against the golden's 121"));
    CHECK_THAT(html, Catch::Contains("over the 61 frames both have"));
    CHECK_THAT(html, Catch::Contains("data-body=\"golden: ball\""));
}

TEST_CASE("a failing run's recording is left pending with its log; review accepts or rejects it",
          "[app][check][recording]") {
    const ProjectDir d("collide_check_recording");
    write_text(d / "scenarios/drop.yaml", drop("0.8"));
    REQUIRE(check(d, true).code == 0);
    const std::string before = read_text(d / "expected/drop.rec");
    write_text(d / "scenarios/drop.yaml", drop("0.5"));
    REQUIRE(check(d, false, false).code == 1);
    REQUIRE(fs::exists(d / "expected/drop.rec.new"));
    CHECK(read_text(d / "expected/drop.rec.new") == recorded(d, drop("0.5")));
    ReviewOptions reject;
    reject.expected_dir = d / "expected";
    reject.mode = ReviewOptions::Mode::reject_all;
    std::istringstream none;
    std::ostringstream out, err;
    CHECK(review_command(reject, none, out, err) == 0);
    CHECK_FALSE(fs::exists(d / "expected/drop.rec.new"));
    CHECK(read_text(d / "expected/drop.rec") == before);
    REQUIRE(check(d, false, false).code == 1);
    ReviewOptions accept = reject;
    accept.mode = ReviewOptions::Mode::accept_all;
    CHECK(review_command(accept, none, out, err) == 0);
    CHECK_FALSE(fs::exists(d / "expected/drop.rec.new"));
    CHECK(read_text(d / "expected/drop.rec") == recorded(d, drop("0.5")));
    CHECK(check(d).code == 0);
}
