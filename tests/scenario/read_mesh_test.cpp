// `mesh:` in scenarios: an OBJ file beside the scenario (quads triangulated, relative indices,
// position and rotation honoured) or inline vertices and triangles; and one test per mistake,
// each with the file, line and column it is reported at.
#include <catch2/catch.hpp>

#include <filesystem>

#include "../support/project_dir.h"
#include "../support/run_command.h"
#include "scenario/load.h"
#include "shapes/mesh.h"

using namespace collide;
using namespace collide::test;

namespace {

/// A scenario with one static mesh body `level` (its `mesh:` value given) and a ball.
std::string scenario_with(const std::string& mesh, const std::string& extra = "static: true") {
    return "name: m\nworld: { frames: 2 }\nbodies:\n  level: { " + extra + ", mesh: " + mesh +
           " }\n  ball: { sphere: { radius: 0.5 }, position: [0, 2, 0] }\nlog:\n  - final: { body: ball }\n";
}

/// Every diagnostic from loading `yaml` written as scenarios/m.yaml of `dir`, with `obj` (when
/// not empty) written as scenarios/level.obj.
std::vector<Diagnostic> problems(const ProjectDir& dir, const std::string& yaml, const std::string& obj = "") {
    if (!obj.empty()) write_text(dir / "scenarios/level.obj", obj);
    write_text(dir / "scenarios/m.yaml", yaml);
    try {
        (void)load_scenario(dir / "scenarios/m.yaml");
    } catch (const InputError& e) {
        return e.diagnostics;
    }
    return {};
}

/// Requires one diagnostic, in `file` (ending), at `line`:`column`, containing `part`.
void expect_one(const std::vector<Diagnostic>& ds, const std::string& file, int line, int column,
                const std::string& part) {
    std::string all;
    for (const Diagnostic& d : ds) all += format_diagnostic(d) + "\n";
    INFO(all);
    REQUIRE(ds.size() == 1);
    CHECK_THAT(ds[0].file, Catch::EndsWith(file));
    CHECK(ds[0].line == line);
    CHECK(ds[0].column == column);
    CHECK_THAT(ds[0].message, Catch::Contains(part));
}

/// Requires one diagnostic in the scenario, on line 4 (the mesh body's line) at the column where
/// `token` first appears on it, containing `part`.
void expect_at(const std::vector<Diagnostic>& ds, const std::string& yaml, const std::string& token,
               const std::string& part) {
    std::size_t start = 0;
    for (int l = 1; l < 4; ++l) start = yaml.find('\n', start) + 1;
    const std::string row = yaml.substr(start, yaml.find('\n', start) - start);
    const std::size_t at = row.find(token);
    REQUIRE(at != std::string::npos);
    expect_one(ds, "m.yaml", 4, static_cast<int>(at) + 1, part);
}

constexpr const char* kQuadObj =
        "# a 2 m square floor as one quad\nv -1 0 -1\nv -1 0 1\nv 1 0 1\nv 1 0 -1\nf 1 2 3 4\n";

} // namespace

TEST_CASE("an OBJ mesh is read beside the scenario, its quads triangulated", "[scenario][mesh]") {
    ProjectDir dir("collide_mesh");
    write_text(dir / "scenarios/level.obj", kQuadObj);
    write_text(dir / "scenarios/m.yaml", scenario_with("{ file: level.obj }", "static: true, position: [0, -1, 0]"));
    const Scenario s = load_scenario(dir / "scenarios/m.yaml");
    const BodyDef& level = s.bodies[0];
    REQUIRE(kind_of(level.shape) == ShapeKind::mesh);
    REQUIRE(level.mesh_data);
    CHECK(std::get<Mesh>(level.shape).data == level.mesh_data.get());
    CHECK(level.mesh_data->triangles.size() == 2);
    CHECK(level.position.y == -1);
    // A copy of the scenario shares the mesh: no copy of the triangles.
    const Scenario copy = s;
    CHECK(copy.bodies[0].mesh_data.get() == level.mesh_data.get());
}

TEST_CASE("OBJ negative indices count back from the last vertex read", "[scenario][mesh]") {
    ProjectDir dir("collide_mesh");
    const auto ds = problems(dir, scenario_with("{ file: level.obj }"),
                             "v 0 0 0\nv 0 0 1\nv 1 0 1\nf -3 -2 -1\nv 1 0 0\nf 1 3 -1\n");
    REQUIRE(ds.empty());
    const Scenario s = load_scenario(dir / "scenarios/m.yaml");
    REQUIRE(s.bodies[0].mesh_data->triangles.size() == 2);
    CHECK(s.bodies[0].mesh_data->triangles[0] == std::array<int, 3>{0, 1, 2});
    CHECK(s.bodies[0].mesh_data->triangles[1] == std::array<int, 3>{0, 2, 3});
}

TEST_CASE("an inline mesh is read", "[scenario][mesh]") {
    ProjectDir dir("collide_mesh");
    const auto ds =
            problems(dir, scenario_with("{ vertices: [[0, 0, 0], [0, 0, 1], [1, 0, 0]], triangles: [[0, 1, 2]] }"));
    REQUIRE(ds.empty());
    const Scenario s = load_scenario(dir / "scenarios/m.yaml");
    CHECK(s.bodies[0].mesh_data->triangles.size() == 1);
    CHECK(s.bodies[0].mesh_data->source == "inline");
}

TEST_CASE("a missing OBJ file is an error at the file name", "[scenario][mesh][errors]") {
    ProjectDir dir("collide_mesh");
    const std::string yaml = scenario_with("{ file: nowhere.obj }");
    expect_at(problems(dir, yaml), yaml, "nowhere.obj", "no such file");
}

TEST_CASE("an OBJ path that is a folder cannot be read", "[scenario][mesh][errors]") {
    ProjectDir dir("collide_mesh");
    std::filesystem::create_directories(dir.path / "scenarios/dir.obj");
    const std::string yaml = scenario_with("{ file: dir.obj }");
    expect_at(problems(dir, yaml), yaml, "dir.obj", "not a regular file");
}

TEST_CASE("an empty OBJ file is an error at its first line", "[scenario][mesh][errors]") {
    ProjectDir dir("collide_mesh");
    write_text(dir / "scenarios/level.obj", "");
    expect_one(problems(dir, scenario_with("{ file: level.obj }")), "level.obj", 1, 1, "empty");
}

TEST_CASE("an OBJ file without faces has no triangles", "[scenario][mesh][errors]") {
    ProjectDir dir("collide_mesh");
    const std::string yaml = scenario_with("{ file: level.obj }");
    expect_at(problems(dir, yaml, "v 0 0 0\nv 1 0 0\n"), yaml, "level.obj", "no triangles");
}

TEST_CASE("an OBJ face index past the vertices is an error at the face's line", "[scenario][mesh][errors]") {
    ProjectDir dir("collide_mesh");
    expect_one(problems(dir, scenario_with("{ file: level.obj }"), "v 0 0 0\nv 1 0 0\nv 0 0 1\n\nf 1 2 3\nf 1 2 7\n"),
               "level.obj", 6, 1, "refers to vertex 7");
}

TEST_CASE("an OBJ negative index reaching before the first vertex is an error", "[scenario][mesh][errors]") {
    ProjectDir dir("collide_mesh");
    expect_one(problems(dir, scenario_with("{ file: level.obj }"), "v 0 0 0\nv 1 0 0\nv 0 0 1\nf -1 -2 -4\n"),
               "level.obj", 4, 1, "after resolving relative indices");
}

TEST_CASE("an OBJ coordinate that is NaN or infinite is an error at it", "[scenario][mesh][errors]") {
    ProjectDir dir("collide_mesh");
    expect_one(problems(dir, scenario_with("{ file: level.obj }"), "v 0 0 0\nv 1 nan 0\nv 0 0 1\nf 1 2 3\n"),
               "level.obj", 2, 5, "'nan' is not a finite number");
    expect_one(problems(dir, scenario_with("{ file: level.obj }"), "v 0 0 0\nv 1 0 1e999\nv 0 0 1\nf 1 2 3\n"),
               "level.obj", 2, 7, "not a finite number");
}

TEST_CASE("an OBJ of degenerate triangles only is an error", "[scenario][mesh][errors]") {
    ProjectDir dir("collide_mesh");
    const std::string yaml = scenario_with("{ file: level.obj }");
    expect_at(problems(dir, yaml, "v 0 0 0\nv 1 0 0\nv 2 0 0\nf 1 2 3\n"), yaml, "level.obj", "degenerate");
}

TEST_CASE("an OBJ file over the size cap is refused before it is read", "[scenario][mesh][errors]") {
    ProjectDir dir("collide_mesh");
    write_text(dir / "scenarios/level.obj", "v 0 0 0\n");
    std::filesystem::resize_file(dir.path / "scenarios/level.obj", 257u * 1024u * 1024u); // sparse: no disk used
    const std::string yaml = scenario_with("{ file: level.obj }");
    expect_at(problems(dir, yaml), yaml, "level.obj", "at most 268435456");
}

TEST_CASE("inline triangles that are short or out of range are errors at them", "[scenario][mesh][errors]") {
    ProjectDir dir("collide_mesh");
    const std::string v = "vertices: [[0, 0, 0], [0, 0, 1], [1, 0, 0]]";
    const std::string short_triple = scenario_with("{ " + v + ", triangles: [[0, 1]] }");
    expect_at(problems(dir, short_triple), short_triple, "[0, 1]]", "expected three vertex indices");
    const std::string past = scenario_with("{ " + v + ", triangles: [[0, 1, 3]] }");
    expect_at(problems(dir, past), past, "3]]", "triangles[0][2] must be in [0, 2], got 3");
    const std::string negative = scenario_with("{ " + v + ", triangles: [[0, -1, 2]] }");
    expect_at(problems(dir, negative), negative, "-1", "triangles[0][1] must be in [0, 2]");
    const std::string fraction = scenario_with("{ " + v + ", triangles: [[0, 1, 0.5]] }");
    expect_at(problems(dir, fraction), fraction, "0.5", "must be a whole number");
    const std::string short_vertex = scenario_with("{ vertices: [[0, 0, 0], [0, 0]], triangles: [[0, 1, 1]] }");
    expect_at(problems(dir, short_vertex), short_vertex, "[0, 0]]", "expected [x, y, z]");
}

TEST_CASE("a mesh on a body that is not static is refused", "[scenario][mesh][errors]") {
    ProjectDir dir("collide_mesh");
    const std::string yaml = scenario_with("{ file: level.obj }", "mass: 1");
    expect_at(problems(dir, yaml, kQuadObj), yaml, "mesh:", "must be static");
}

TEST_CASE("a mesh given both as a file and inline is refused", "[scenario][mesh][errors]") {
    ProjectDir dir("collide_mesh");
    const std::string yaml = scenario_with("{ file: level.obj, vertices: [[0, 0, 0]] }");
    expect_at(problems(dir, yaml, kQuadObj), yaml, "vertices", "not both");
}

TEST_CASE("collide sim of a scenario whose OBJ has a bad face prints one located error and exits 2",
          "[scenario][mesh][errors]") {
    ProjectDir dir("collide_mesh");
    write_text(dir / "scenarios/level.obj", "v 0 0 0\nv 1 0 0\nv 0 0 1\nf 1 2 9\n");
    write_text(dir / "scenarios/m.yaml", scenario_with("{ file: level.obj }"));
    const CommandResult r = run_collide("sim " + (dir / "scenarios/m.yaml"));
    CHECK(r.exit_code == 2);
    CHECK(r.out.empty());
    CHECK(r.err == (dir / "scenarios/level.obj") +
                           ":4:1: error: corner 3 refers to vertex 9 (after resolving relative indices), but 3 "
                           "vertices are defined\n");
}
