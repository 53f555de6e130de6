// Running sweeps: byte-identical output for every thread count and shard split, bounded
// output formats, no partial file on failure. Uses the closed-form tunnel (closed_form.h).
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include <nlohmann/json.hpp>

#include "io/atomic_file.h"
#include "scenario/load.h"
#include "sweep/closed_form.h"
#include "sweep/merge_shards.h"
#include "sweep/scenario_model.h"
#include "sweep/sweep_grid.h"

using namespace collide;

namespace {

/// This process's scratch folder, removed again when the tests end (they leave /tmp as they found it).
std::filesystem::path temp_dir() {
    struct Scratch {
        std::filesystem::path path;
        ~Scratch() {
            std::error_code ec;
            std::filesystem::remove_all(path, ec);
        }
    };
    static const Scratch scratch{std::filesystem::temp_directory_path() /
                                 ("collide_sweep_test_" + std::to_string(::getpid()))};
    std::filesystem::create_directories(scratch.path);
    return scratch.path;
}

/// Runs a sweep of the closed-form tunnel into a file and returns its bytes.
std::string sweep_text(SweepRequest request, const SweepModel& model = test::closed_form_tunnel()) {
    request.output = (temp_dir() / "out").string();
    execute_grid(model, request, SweepConsole{nullptr, false});
    return read_file(request.output);
}

SweepRequest tunnel_request(SweepFormat format) {
    SweepRequest r;
    r.varies = {"speed=30:300:15", "offset=0:0.95:0.05"};
    r.detection = DetectionChoice::both;
    r.format = format;
    return r;
}

} // namespace

TEST_CASE("sweep CSV has a header, one row per cell and mode, typed values") {
    SweepRequest r;
    r.varies = {"speed=60", "offset=0,0.5"};
    r.detection = DetectionChoice::both;
    r.format = SweepFormat::csv;
    // speed 60: frame positions −3 + (k + φ) m. φ = 0: x = 0 at k = 3 (caught); φ = 0.5: x = ±0.5 (missed).
    CHECK(sweep_text(r) == "# collide sweep grid: speed (1 value), offset (2 values); detection discrete, swept; "
                           "digest 75e2df8a68b7b1ae\n"
                           "cell,speed,offset,detection,hit,frame,time,x,y,z\n"
                           "0,60,0,discrete,true,3,0.05,0,0,0\n"
                           "0,60,0,swept,true,3,0.04416666666666667,-0.35,0,0\n"
                           "1,60,0.5,discrete,false,,,,,\n"
                           "1,60,0.5,swept,true,3,0.04416666666666667,-0.35,0,0\n");
}

TEST_CASE("sweep output is byte-identical for --jobs 1 and 2, in every format") {
    for (SweepFormat f : {SweepFormat::csv, SweepFormat::json, SweepFormat::table, SweepFormat::svg}) {
        SweepRequest r = tunnel_request(f);
        r.jobs = 1;
        const std::string one = sweep_text(r);
        r.jobs = 2;
        CHECK(sweep_text(r) == one);
    }
}

TEST_CASE("merging the shards of a sweep gives the unsharded CSV byte for byte, in any order") {
    SweepRequest r = tunnel_request(SweepFormat::csv);
    r.varies = {"speed=30:300:7.5", "offset=0:0.999:0.001"}; // 37 × 1000 cells: several CSV blocks
    const std::string whole = sweep_text(r);
    std::mt19937_64 rng(12345);
    for (int n : {1, 2, 3, 7}) {
        std::vector<ShardText> shards;
        for (int k = 1; k <= n; ++k) {
            r.shard = std::to_string(k) + "/" + std::to_string(n);
            shards.push_back({"shard" + std::to_string(k) + ".csv", sweep_text(r)});
        }
        std::shuffle(shards.begin(), shards.end(), rng);
        INFO("N = " << n);
        CHECK(merge_sweep_csv(shards) == whole);
    }
}

TEST_CASE("a shard holds only the cells whose index mod N is K-1") {
    SweepRequest r = tunnel_request(SweepFormat::csv);
    r.shard = "2/3";
    std::istringstream in(sweep_text(r));
    std::string line;
    std::getline(in, line); // the grid
    std::getline(in, line); // the header
    int rows = 0;
    while (std::getline(in, line)) {
        CHECK(std::stoi(line.substr(0, line.find(','))) % 3 == 1);
        ++rows;
    }
    CHECK(rows == 2 * 127); // cells 1, 4, …, 379 of 380, in two modes
}

TEST_CASE("merge reports a missing cell, a duplicate, a header mismatch and a bad row") {
    SweepRequest r;
    r.varies = {"speed=30:90:30"};
    r.detection = DetectionChoice::both;
    r.format = SweepFormat::csv;
    r.shard = "1/2";
    const std::string a = sweep_text(r);
    r.shard = "2/2";
    const std::string b = sweep_text(r);
    const auto error = [](std::vector<ShardText> shards) {
        try {
            merge_sweep_csv(shards);
        } catch (const InputError& e) {
            // As `collide merge` prints it (app/errors.h): a problem without a file is the command's.
            const Diagnostic& d = e.diagnostics.front();
            return d.file.empty() ? "collide merge: error: " + d.message : format_diagnostic(d);
        }
        return std::string();
    };
    CHECK(error({{"a.csv", a}}) ==
          "collide merge: error: cell 1 (discrete) is missing from every shard (the grid has 3 cells)");
    CHECK_THAT(error({{"a.csv", a}, {"b.csv", b}, {"c.csv", b}}),
               Catch::StartsWith("c.csv:3:1: error: cell 1 (discrete) appears twice; it is also at b.csv:3"));
    std::string no_last = a.substr(0, a.rfind("2,90,swept"));
    CHECK(error({{"a.csv", no_last}, {"b.csv", b}}) ==
          "collide merge: error: cell 2 (swept) is missing from every shard (the grid has 3 cells)");
    const std::string grid = a.substr(0, a.find('\n') + 1);
    CHECK_THAT(error({{"a.csv", a}, {"b.csv", grid + "cell,rate,detection,hit\n"}}),
               Catch::StartsWith("b.csv:2:1: error: the header differs from a.csv's"));
    CHECK_THAT(error({{"a.csv", a}, {"b.csv", "cell,rate,detection,hit\n"}}),
               Catch::StartsWith("b.csv:1:1: error: a shard of a different sweep"));
    CHECK_THAT(error({{"a.csv", a + "x,1,discrete,true,,,,,\n"}}),
               Catch::StartsWith("a.csv:7:1: error: the cell 'x' is not a whole number"));
    CHECK_THAT(error({{"a.csv", a + "9,1,sideways,true,,,,,\n"}}),
               Catch::Contains("is not discrete, swept or speculative"));
    CHECK_THAT(error({{"a.csv", a + "9,1,swept\n"}}), Catch::Contains("the row has 3 fields, the header has 9"));
    CHECK_THAT(error({{"a.csv", a + "9,1"}}), Catch::Contains("a.csv:7:1: error: the last line has no line break"));
    CHECK_THAT(error({{"a.csv", ""}}), Catch::Contains("a.csv:1:1: error: empty file"));

    // Shards of two different grids with the same header: speeds 30, 60, 90 and 40, 70, 100.
    r.varies = {"speed=40:100:30"};
    r.shard = "2/2";
    const std::string other = sweep_text(r);
    CHECK_THAT(error({{"a.csv", a}, {"b.csv", other}}),
               Catch::StartsWith("b.csv:1:1: error: a shard of a different sweep: its grid"));
    // A row whose coordinates are not its cell's: cell 1 (swept) says speed 90.
    std::string moved = b;
    moved.replace(moved.find("1,60,swept"), 10, "1,90,swept");
    CHECK_THAT(error({{"a.csv", a}, {"b.csv", moved}}),
               Catch::Contains("error: the row's coordinates are not cell 1's: speed is 90 here but 60"));
    // ... even when the row is the only one at its position: the recorded grid catches it.
    std::string both = b;
    for (const char* mode : {"discrete", "swept"}) {
        const std::string from = std::string("1,60,") + mode, to = std::string("1,65,") + mode;
        both.replace(both.find(from), from.size(), to);
    }
    CHECK_THAT(error({{"a.csv", a}, {"b.csv", both}}), Catch::Contains("collide merge: error: the rows make the grid"));
    CHECK_THAT(error({{"a.csv", "speed,hit\n"}}), Catch::Contains("not a sweep CSV"));
}

TEST_CASE("sweep JSON lists the params, the axes and every cell") {
    SweepRequest r;
    r.varies = {"speed=60", "offset=0,0.5"};
    r.detection = DetectionChoice::discrete;
    r.format = SweepFormat::json;
    const auto doc = nlohmann::json::parse(sweep_text(r));
    CHECK(doc["scenario"] == "tunnel");
    CHECK(doc["params"]["rate"] == 60);
    CHECK(doc["axes"][1]["name"] == "offset");
    CHECK(doc["axes"][1]["values"] == nlohmann::json::array({0, 0.5}));
    CHECK(doc["detection"] == nlohmann::json::array({"discrete"}));
    REQUIRE(doc["cells"].size() == 2);
    CHECK(doc["cells"][0]["cell"] == 0);
    CHECK(doc["cells"][0]["values"]["hit"] == true);
    CHECK(doc["cells"][0]["values"]["frame"] == 3);
    CHECK(doc["cells"][1]["params"]["offset"] == 0.5);
    CHECK(doc["cells"][1]["values"]["hit"] == false);
    CHECK(doc["cells"][1]["values"]["x"].is_null());
}

TEST_CASE("sweep JSON and the page's data are written by nlohmann: quotes, backslashes and </script> read back") {
    // A scenario name with what a hand-written escaper must get right (quotes, a backslash, and
    // a '<' that would end a <script> element), and a body name with every character a body's
    // name may have besides letters (_ . -).
    const std::string name = "say \"hi\" \\ </script><b>x";
    const std::string yaml = "name: \"say \\\"hi\\\" \\\\ </script><b>x\"\n"
                             "params: { v: 1 }\n"
                             "world: { rate: 60, frames: 5, gravity: [0, 0, 0] }\n"
                             "bodies:\n"
                             "  wall: { static: true, box: { min: [1, -1, -1], max: [2, 1, 1] } }\n"
                             "  ball_1.a-b: { sphere: { radius: 0.5 }, velocity: [$v, 0, 0] }\n"
                             "log:\n  - first_contact: { body: ball_1.a-b, with: wall }\n";
    const SweepModel model = scenario_sweep_model(parse_scenario_template(yaml, "odd.yaml"));
    REQUIRE(model.name == name);
    SweepRequest r;
    r.varies = {"v=1,6"};
    r.format = SweepFormat::json;
    const std::string json = sweep_text(r, model);
    INFO(json);
    const auto doc = nlohmann::json::parse(json);
    CHECK(doc["scenario"] == name);
    CHECK(doc["axes"][0]["values"] == nlohmann::json::array({1, 6}));
    CHECK(doc["cells"].size() == 2);
    r.format = SweepFormat::html;
    const std::string html = sweep_text(r, model);
    CHECK(html.find("</script><b>") == std::string::npos); // the name is escaped wherever it is
    const std::string open = "<script type=\"application/json\" id=\"data\">";
    const std::size_t at = html.find(open);
    REQUIRE(at != std::string::npos);
    const std::size_t from = at + open.size(), to = html.find("</script>", from);
    REQUIRE(to != std::string::npos);
    const auto data = nlohmann::json::parse(html.substr(from, to - from)); // the element ends after the data
    CHECK(data["bodies"][0]["name"] == "ball_1.a-b");
    CHECK(data["statics"][0]["name"] == "wall");
    CHECK(data["axes"][0]["name"] == "v");
    CHECK(data["values"] == nlohmann::json::array({0, 0})); // the measure (hit) of each row, as a number
}

TEST_CASE("sweep table draws caught and missed cells as the closed form says") {
    SweepRequest r = tunnel_request(SweepFormat::table);
    const std::string table = sweep_text(r);
    CHECK_THAT(table, Catch::StartsWith("tunnel: hit over speed (rows) × offset (columns)\n"
                                        "# hit true (caught)   . hit false (missed)   blank: not measured\n"));
    // The row for 60 m/s: discrete marks alternate with the offset, swept is caught throughout.
    std::istringstream in(table);
    std::string line, row60;
    while (std::getline(in, line))
        if (line.rfind("   60 ", 0) == 0) row60 = line; // row labels are right-aligned under "speed"
    REQUIRE(!row60.empty());
    std::string discrete, swept;
    for (int j = 0; j < 20; ++j) {
        discrete += test::tunnel_discrete_frame(60, j * 0.05) >= 0 ? '#' : '.';
        swept += '#';
        discrete += ' ';
        swept += ' ';
    }
    CHECK(row60.find("60 " + discrete) == 3);
    CHECK(row60.find("60 " + swept.substr(0, swept.size() - 1)) != std::string::npos);
    CHECK(discrete.find('#') != std::string::npos);
    CHECK(discrete.find('.') != std::string::npos);
}

namespace {

/// True when `text` is well-formed UTF-8 (no cut or stray continuation bytes, no overlong forms).
bool valid_utf8(const std::string& text) {
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        const std::size_t n = c < 0x80 ? 1 : (c >> 5) == 0x6 ? 2 : (c >> 4) == 0xE ? 3 : (c >> 3) == 0x1E ? 4 : 0;
        if (n == 0 || (n == 2 && c < 0xC2) || i + n > text.size()) return false;
        for (std::size_t k = 1; k < n; ++k)
            if ((static_cast<unsigned char>(text[i + k]) & 0xC0) != 0x80) return false;
        i += n;
    }
    return true;
}

} // namespace

TEST_CASE("sweep table is valid UTF-8 for every grid shape: 1 to 40 columns") {
    for (int columns = 1; columns <= 40; ++columns) {
        for (const DetectionChoice detection : {DetectionChoice::swept, DetectionChoice::both}) {
            std::string offsets = "offset=";
            for (int j = 0; j < columns; ++j) offsets += (j > 0 ? "," : "") + std::to_string(j * 0.02);
            SweepRequest r;
            r.varies = {"speed=60,120", offsets};
            r.detection = detection;
            r.format = SweepFormat::table;
            const std::string table = sweep_text(r);
            INFO("columns: " << columns << "\n" << table);
            CHECK(valid_utf8(table));
            CHECK_THAT(table, Catch::Contains("offset"));
        }
    }
}

TEST_CASE("sweep table shades a numeric measure from its min to its max") {
    SweepRequest r;
    r.varies = {"speed=30:300:30"};
    r.detection = DetectionChoice::swept;
    r.format = SweepFormat::table;
    r.measure = "time";
    const std::string table = sweep_text(r);
    CHECK_THAT(table, Catch::Contains(".:-=+*#%@ from 0.00883333 to 0.0883333"));
    CHECK_THAT(table, Catch::Contains("\n   30 @\n")); // the slowest reaches the wall last
    CHECK_THAT(table, Catch::Contains("\n  300 .\n")); // the fastest first
}

TEST_CASE("sweep SVG is a standalone heatmap with title, axes and legend") {
    SweepRequest r = tunnel_request(SweepFormat::svg);
    const std::string svg = sweep_text(r);
    CHECK_THAT(svg, Catch::StartsWith(
                            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\""));
    CHECK_THAT(svg, Catch::EndsWith("</svg>\n"));
    CHECK_THAT(svg, Catch::Contains(">tunnel: hit</text>"));
    CHECK_THAT(svg, Catch::Contains(">discrete</text>"));
    CHECK_THAT(svg, Catch::Contains(">swept</text>"));
    CHECK_THAT(svg, Catch::Contains(">speed</text>"));
    CHECK_THAT(svg, Catch::Contains(">offset</text>"));
    CHECK_THAT(svg, Catch::Contains("hit true (caught)"));
    CHECK_THAT(svg, Catch::Contains("fill=\"#39d3c3\""));
    CHECK_THAT(svg, Catch::Contains("fill=\"#ff7b72\""));
    std::size_t open = 0, close = 0;
    for (std::size_t p = 0; (p = svg.find("<g ", p)) != std::string::npos; ++p) ++open;
    for (std::size_t p = 0; (p = svg.find("</g>", p)) != std::string::npos; ++p) ++close;
    CHECK(open == close);
}

TEST_CASE("sweep --measure names a field; an unknown one lists the fields") {
    const SweepModel m = test::closed_form_tunnel();
    CHECK(find_measure(m, "") == 0);
    CHECK(find_measure(m, "time") == 2);
    CHECK_THROWS_WITH(find_measure(m, "speed"),
                      Catch::Contains("--measure speed") && Catch::Contains("hit, frame, time, x, y, z"));
}

TEST_CASE("json, table and svg refuse grids too big to keep in memory") {
    SweepRequest r;
    r.varies = {"speed=1:5000:1", "offset=0:0.2:0.0001"}; // 5000 × 2001 > 10^7 rows
    r.format = SweepFormat::json;
    r.output = (temp_dir() / "big.json").string();
    CHECK_THROWS_WITH(execute_grid(test::closed_form_tunnel(), r, {nullptr, false}),
                      Catch::Contains("use --format csv"));
    CHECK_FALSE(std::filesystem::exists(r.output));
}

TEST_CASE("a cell that fails leaves no partial output file") {
    SweepRequest r;
    r.varies = {"speed=1:20000:1"}; // several CSV blocks are written before speed 15000 fails
    r.format = SweepFormat::csv;
    const auto dir = temp_dir() / "fail";
    std::filesystem::create_directories(dir);
    r.output = (dir / "out.csv").string();
    CHECK_THROWS_WITH(execute_grid(test::closed_form_tunnel(15000), r, {nullptr, false}), "speed rejected");
    CHECK(std::filesystem::is_empty(dir));
}

TEST_CASE("the summary line reports cells and rate") {
    SweepRequest r;
    r.varies = {"speed=30:300:15"};
    r.format = SweepFormat::csv;
    r.output = (temp_dir() / "summary.csv").string();
    std::FILE* err = std::tmpfile();
    execute_grid(test::closed_form_tunnel(), r, {err, false});
    std::rewind(err);
    char buffer[256] = {};
    const std::size_t n = std::fread(buffer, 1, sizeof buffer - 1, err);
    std::fclose(err);
    const std::string text(buffer, n);
    CHECK_THAT(text, Catch::StartsWith("sweep: 19 cells in "));
    CHECK_THAT(text, Catch::EndsWith(" cells/s)\n"));
    CHECK(text.find('\r') == std::string::npos);
}

TEST_CASE("sweep HTML is the tunnel demo: one data-cell element per cell and mode, and each cell's frames") {
    SweepRequest r = tunnel_request(SweepFormat::html);
    const SweepModel model =
            scenario_sweep_model(load_scenario_template(std::string(COLLIDE_SOURCE_DIR) + "/scenarios/tunnel.yaml"));
    const std::string html = sweep_text(r, model);
    CHECK_THAT(html, Catch::StartsWith("<!DOCTYPE html>"));
    std::size_t cells = 0;
    for (std::size_t at = html.find("<rect data-cell=\""); at != std::string::npos;
         at = html.find("<rect data-cell=\"", at + 1))
        ++cells;
    CHECK(cells == 760); // 19 speeds × 20 offsets × (discrete, swept)
    CHECK_THAT(html, Catch::Contains("<rect data-cell=\"379\" data-mode=\"swept\" data-row=\"759\""));
    CHECK_THAT(html, Catch::Contains("\"bodies\":[{\"name\":\"bullet\""));
    CHECK_THAT(html, Catch::Contains("\"statics\":[{\"name\":\"wall\""));
    CHECK(html.find("https://") == std::string::npos);
    // Without a scenario to run (the closed-form model) the map is there, without frames.
    const std::string bare = sweep_text(r);
    CHECK_THAT(bare, Catch::Contains("\"frames\":[]"));
    CHECK_THAT(bare, Catch::Contains("<rect data-cell=\"0\" data-mode=\"discrete\""));
}

TEST_CASE("sweep HTML draws a 5 cm bullet at its true radius, not at 0.5 m, with a cross when it is tiny") {
    // A 5 cm bullet stopped against a wall whose face is at x = -0.05: as drawn at 0.5 m it
    // would reach 45 cm into the wall.
    const auto file = temp_dir() / "bullet.yaml";
    std::ofstream(file) << "name: bullet\nparams: { speed: 10 }\n"
                           "world: { rate: 60, frames: 20, gravity: [0, 0, 0], detection: swept }\n"
                           "bodies:\n"
                           "  wall: { static: true, box: { min: [-0.05, -2, -2], max: [0.05, 2, 2] } }\n"
                           "  bullet: { sphere: { radius: 0.05 }, position: [-2, 0, 0], velocity: [$speed, 0, 0],"
                           " restitution: 0, friction: 0 }\n"
                           "log:\n  - first_contact: { body: bullet, with: wall }\n";
    SweepRequest r;
    r.varies = {"speed=5,10"};
    r.format = SweepFormat::html;
    const std::string html = sweep_text(r, scenario_sweep_model(load_scenario_template(file.string())));
    const std::string open = "<script type=\"application/json\" id=\"data\">";
    const std::size_t at = html.find(open);
    REQUIRE(at != std::string::npos);
    const auto data =
            nlohmann::json::parse(html.substr(at + open.size(), html.find("</script>", at) - at - open.size()));
    REQUIRE(data["bodies"].size() == 1);
    CHECK(data["bodies"][0]["o"]["c"][2] == 0.05); // metres, as the page scales them
    const auto& wall = data["statics"][0]["o"]["p"];
    double left = 1e9;
    for (std::size_t k = 0; k < wall.size(); k += 2) left = std::min(left, wall[k].get<double>());
    CHECK(left == -0.05);
    // The page's script draws them at the page's scale: scripts/browser-test.py measures the
    // drawn bullet against the drawn wall (the tunnel sweep).
}
