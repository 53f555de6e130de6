// `collide conform --format html`: one page with the table of scenarios × engines, the summary per
// engine, and per cell its expectations and the 3D view of its run (built when opened); a
// refused cell shows its reason, escaped. (scripts/browser-test.py opens the page in Chromium.)
#include <catch2/catch.hpp>

#include <string>

#include "app/conform_html.h"
#include "support/project_dir.h"

using namespace collide;

namespace {

std::size_t count(const std::string& text, const std::string& part) {
    std::size_t n = 0;
    for (std::size_t at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
    return n;
}

struct Project : test::ProjectDir {
    Project() : test::ProjectDir("collide_conform_html_test") {
        // Dropped from 2 m with e 0.5: the first apex is 2·0.5² = 0.5 m (held); the second is
        // stated wrongly as 0.2 (0.125 by the closed form).
        test::write_text((path / "scenarios/drop.yaml").string(),
                         "world: { rate: 60, duration: 2, gravity: [0, -9.81, 0], detection: swept }\n"
                         "bodies:\n  floor: { static: true, box: { min: [-2, -1, -2], max: [2, 0, 2] } }\n"
                         "  ball: { sphere: { radius: 0.1 }, position: [0, 2.1, 0], restitution: 0.5 }\n"
                         "log:\n  - apex: { body: ball, bounces: 2, floor: floor }\n"
                         "expect:\n  - { value: apex.apex_1, equals: 0.5, tolerance: 1e-6 }\n"
                         "  - { value: apex.apex_2, equals: 0.2, tolerance: 1e-6 }\n");
        test::write_text(
                (path / "scenarios/plain.yaml").string(),
                "world: { frames: 2 }\nbodies:\n  b: { sphere: { radius: 1 } }\nlog:\n  - final: { body: b }\n");
    }
    std::string file(const std::string& name) const { return (path / "scenarios" / name).generic_string(); }
};

} // namespace

TEST_CASE("the conform page: the table, the summary, each run's expectations and its 3D view") {
    const Project p;
    ConformReport r = run_conformance({p.file("drop.yaml"), p.file("plain.yaml")}, {"collide"});
    // A refused cell as an engine that lacks something gives it, its reason needing escapes.
    ConformCell refused;
    refused.engine = "other";
    refused.status = CellStatus::refused;
    refused.reason = "drop.yaml:3:3: <no> ball & floor";
    r.engines.push_back({"other", "a stand-in"});
    r.rows[0].cells.push_back(refused);
    ConformCell none;
    none.engine = "other";
    r.rows[1].cells.push_back(none);
    const std::string page = render_conformance_html(r);

    CHECK(page.rfind("<!DOCTYPE html>", 0) == 0);
    CHECK(page.find("<table id=\"conformance\">") != std::string::npos);
    CHECK(page.find("<td class=\"failed\" data-scenario=\"drop\" data-engine=\"collide\" data-status=\"failed\" "
                    "data-held=\"1\" data-checked=\"2\"><a href=\"#cell-0-0\">1/2</a> 0.075 m ") != std::string::npos);
    CHECK(page.find("<a href=\"#cell-0-1\">refused</a>") != std::string::npos);
    CHECK(page.find("data-scenario=\"plain\" data-engine=\"collide\" data-status=\"none\">no expectations</td>") !=
          std::string::npos);
    CHECK(page.find("<table id=\"summary\">") != std::string::npos);
    CHECK(page.find("<tr data-engine=\"collide\"><td>collide</td><td>1</td><td>2</td><td>1</td><td>0 (0 "
                    "expectations)</td>") != std::string::npos);
    // The run's section: each expectation with its values, and the 3D view of the run.
    CHECK(page.find(
                  "<section id=\"cell-0-0\" data-scenario=\"drop\" data-engine=\"collide\" data-status=\"failed\">") !=
          std::string::npos);
    CHECK(page.find("<td><code>apex.apex_2 = 0.2 within 1e-6</code></td><td>0.125") != std::string::npos);
    CHECK(count(page, "<details class=\"v3d\">") == 1); // the one run; none for the refused or unrun cells
    CHECK(page.find("id=\"cell-0-0-3d-data\"") != std::string::npos);
    // The refused cell: its reason, escaped; no section for a scenario without expectations.
    CHECK(page.find("<p class=\"reason\">refused: drop.yaml:3:3: &lt;no&gt; ball &amp; floor</p>") !=
          std::string::npos);
    CHECK(page.find("id=\"cell-1-") == std::string::npos);
    CHECK(page.find("var THREE") != std::string::npos); // three.js embedded: no network
}
