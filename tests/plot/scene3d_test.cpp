// The 3D view's data: the packed tracks (bytes worked out by hand), base64, the shapes as
// geometry, the door's rotation at each frame against its closed form, the size of a big run.
#include <catch2/catch.hpp>

#include <cmath>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "plot/camera3d.h"
#include "plot/plot.h"
#include "plot/scene3d.h"
#include "plot/view3d.h"
#include "probes/record.h"
#include "scenario/load.h"

using namespace collide;

namespace {

Scenario shipped(const std::string& name) {
    return load_scenario(std::string(COLLIDE_SOURCE_DIR) + "/scenarios/" + name + ".yaml", {});
}

Recording record(const Scenario& sc) {
    std::vector<double> values(layout_of(sc).fields.size());
    return simulate_recorded(sc, values);
}

std::vector<std::uint8_t> decode64(const std::string& text) {
    std::vector<std::uint8_t> out;
    const std::string alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    unsigned bits = 0, count = 0;
    for (const char c : text) {
        if (c == '=') break;
        bits = (bits << 6) | static_cast<unsigned>(alphabet.find(c));
        count += 6;
        if (count >= 8) {
            count -= 8;
            out.push_back(static_cast<std::uint8_t>((bits >> count) & 0xff));
        }
    }
    return out;
}

} // namespace

TEST_CASE("packed tracks: residuals of the prediction as zig-zag varints, zero runs as one") {
    // One body, three frames; position x = 1, 2, 4 at a quantum of 1 m, every other channel 0.
    std::vector<double> values(3 * kTrackChannels, 0.0);
    values[0] = 1, values[kTrackChannels] = 2, values[2 * kTrackChannels] = 4;
    TrackQuanta q;
    q.position = 0;
    const std::vector<std::uint8_t> bytes = pack_tracks(values, 3, 1, q);
    // x: residuals 1, 2 − 1 = 1, 4 − (2·2 − 1) = 1 → tokens 2·zigzag(1) = 4 each; each of the
    // other 12 channels: a run of three zeros → 2·(3 − 1) + 1 = 5.
    std::vector<std::uint8_t> expected{4, 4, 4};
    expected.insert(expected.end(), 12, 5);
    CHECK(bytes == expected);
    CHECK(unpack_tracks(bytes, 3, 1, q) == values);

    // A negative residual and a multi-byte varint: x = 0, −100 → residual −100, zigzag 199,
    // token 398 = 0b1_1000_1110 → bytes 0x8e, 0x03.
    std::vector<double> two(2 * kTrackChannels, 0.0);
    two[kTrackChannels] = -100;
    const std::vector<std::uint8_t> b2 = pack_tracks(two, 2, 1, q);
    REQUIRE(b2.size() >= 3);
    CHECK(b2[0] == 1); // a run of one zero (frame 0)
    CHECK(b2[1] == 0x8e);
    CHECK(b2[2] == 0x03);
    CHECK(unpack_tracks(b2, 2, 1, q) == two);
}

TEST_CASE("packed tracks keep a falling body to the quantum, about a byte per moving channel and frame") {
    const int frames = 60, bodies = 50;
    std::vector<double> values(static_cast<std::size_t>(frames * bodies * kTrackChannels), 0.0);
    for (int k = 0; k < frames; ++k)
        for (int b = 0; b < bodies; ++b) {
            const double t = k / 60.0;
            double* v = &values[static_cast<std::size_t>((k * bodies + b) * kTrackChannels)];
            v[0] = 0.5 * b, v[1] = 5 - 4.905 * t * t, v[2] = -0.25 * b, v[4] = -9.81 * t, v[6] = 1;
        }
    const TrackQuanta q; // 2^-17 m, m/s; 2^-20 for quaternions
    const std::vector<std::uint8_t> bytes = pack_tracks(values, frames, bodies, q);
    const std::vector<double> back = unpack_tracks(bytes, frames, bodies, q);
    REQUIRE(back.size() == values.size());
    for (std::size_t i = 0; i < values.size(); ++i) {
        const int c = static_cast<int>(i % kTrackChannels);
        const double quantum = std::ldexp(1.0, c >= 6 && c < 10 ? -20 : -17);
        REQUIRE(std::fabs(back[i] - values[i]) <= quantum / 2);
    }
    // Two moving channels (y, vy) per body and frame, the others constant: about a byte per
    // moving channel and frame (the residuals of rounding), where float32 positions take 12.
    INFO(bytes.size() << " bytes");
    CHECK(bytes.size() <= static_cast<std::size_t>(frames * bodies) * 5 / 2);
}

TEST_CASE("base64 is RFC 4648's") {
    const auto b = [](std::string_view s) {
        return base64(std::span(reinterpret_cast<const std::uint8_t*>(s.data()), s.size()));
    };
    CHECK(b("") == "");
    CHECK(b("f") == "Zg==");
    CHECK(b("fo") == "Zm8=");
    CHECK(b("foo") == "Zm9v");
    CHECK(b("foob") == "Zm9vYg==");
    CHECK(b("foobar") == "Zm9vYmFy");
}

TEST_CASE("three.js runs as a classic script: its closing export list becomes the global THREE") {
    CHECK(three_classic_script("const a=1;class b{}export{a as A,b};\n") ==
          "var THREE=(function(){\"use strict\";\nconst a=1;class b{}\nreturn{A:a,b:b};})();\n");
    CHECK_THROWS_AS(three_classic_script("const a=1;"), std::invalid_argument);
    const std::string three = three_classic_script(kThreeModuleSource);
    CHECK(three.find("WebGLRenderer:") != std::string::npos);
    CHECK(three.find("InstancedMesh:") != std::string::npos);
    CHECK(three.find("export{") == std::string::npos);
    const std::string scripts = view3d_scripts();
    CHECK(scripts.find("window.Collide3D") != std::string::npos);
    // Nothing to load: no element that fetches, no URL but XML namespaces (the browser test
    // also fails on any request that is not the page itself).
    CHECK(std::regex_search(scripts, std::regex("<(script|img|link|iframe)[^>]*(src|href)=")) == false);
    CHECK(std::regex_search(scripts, std::regex("https?://(?!www\\.w3\\.org/)")) == false);
}

TEST_CASE("the 3D scene: each shape once, as its real shape in its body's frame") {
    Scenario sc;
    sc.name = "shapes";
    const auto add = [&](const std::string& name, Shape shape, bool is_static) {
        BodyDef b;
        b.name = name;
        b.shape = shape;
        b.is_static = is_static;
        sc.bodies.push_back(b);
    };
    add("floor", Plane{{0, 1, 0}, 0}, true);
    add("a", Sphere{{0, 0, 0}, 0.5}, false);
    add("b", Sphere{{0, 0, 0}, 0.5}, false); // the same shape: one geometry
    HullPoints cube;
    for (int i = 0; i < 8; ++i)
        cube.points[static_cast<std::size_t>(i)] = {i & 1 ? 1.0 : -1.0, i & 2 ? 1.0 : -1.0, i & 4 ? 1.0 : -1.0};
    cube.count = 8;
    add("cube", hull_of(cube), false);
    add("crate", Obb{{0, 1, 0}, to_mat3(quat_from_axis_degrees({0, 0, 1}, 30)), {0.5, 0.25, 1}}, false);
    add("pill", Capsule{{0, 0, 0}, {0, 1, 0}, 0.2}, false);
    const auto doc = nlohmann::json::parse(render_scene3d_scene(sc));
    CHECK(doc["bodies"]["n"] == 6);
    CHECK(doc["bodies"]["names"] == "floor\na\nb\ncube\ncrate\npill");
    const auto& g = doc["geoms"];
    REQUIRE(g.size() == 5);
    CHECK(g[0]["t"] == "plane");
    CHECK(g[1]["t"] == "sphere");
    CHECK(g[1]["r"] == 0.5);
    CHECK(g[2]["t"] == "tris");
    CHECK(g[2]["n"] == 12); // a cube's hull: 6 faces, 2 triangles each
    CHECK(g[3]["t"] == "box");
    CHECK(g[3]["h"] == nlohmann::json::array({0.5, 0.25, 1}));
    const double c30 = std::cos(std::acos(-1.0) / 6), s30 = 0.5;
    CHECK(std::fabs(g[3]["m"][0].get<double>() - c30) < 1e-12); // first column: the turned x axis
    CHECK(std::fabs(g[3]["m"][1].get<double>() - s30) < 1e-12);
    CHECK(g[4]["t"] == "capsule");
    // Body → geometry: floor 0, a and b share 1, cube 2, crate 3, pill 4 (uint32, little-endian).
    const std::vector<std::uint8_t> geom = decode64(doc["bodies"]["geom"]);
    REQUIRE(geom.size() == 24);
    const std::vector<int> which{geom[0], geom[4], geom[8], geom[12], geom[16], geom[20]};
    CHECK(which == std::vector<int>{0, 1, 1, 2, 3, 4});
    CHECK(doc["statics"].size() == 1);
}

TEST_CASE("the 3D run of the door: the door's rotation at each frame is exp(ω·t), to the quantum") {
    const Scenario sc = shipped("door");
    const Recording rec = record(sc);
    const auto doc = nlohmann::json::parse(render_scene3d_json(sc, rec));
    const auto& run = doc["run"];
    const std::size_t frames = run["frames"].size();
    REQUIRE(frames == rec.frame_count());
    CHECK(run["stride"] == 1);
    TrackQuanta q;
    q.position = run["quanta"][0], q.velocity = run["quanta"][1], q.rotation = run["quanta"][2],
    q.angular_velocity = run["quanta"][3];
    const std::size_t moving = 3; // door, swept, sampled: none static
    const std::vector<double> tracks = unpack_tracks(decode64(run["tracks"]), frames, moving, q);
    for (std::size_t k = 0; k < frames; ++k) {
        const double t = run["times"][k].get<double>();
        const double* door = &tracks[k * moving * kTrackChannels];
        // ω = 2 rad/s about +z: the half angle is t, so q = (cos t, 0, 0, sin t) (sign kept continuous).
        CHECK(std::fabs(door[6] - std::cos(t)) <= 1e-6);
        CHECK(std::fabs(door[9] - std::sin(t)) <= 1e-6);
        CHECK(door[12] == 2); // the angular velocity read-out: the kinematic body's ω
        CHECK(door[0] == 0);  // the hinge stays put
    }
    // The first contacts are marked at their frames (27 for both balls).
    int firsts = 0;
    for (const auto& m : run["marks"])
        if (m["k"] == "first") {
            ++firsts;
            CHECK(m["f"] == 27);
        }
    CHECK(firsts == 2);
}

TEST_CASE("the 3D data of 10,000 bodies over 60 frames stays a few MB, every frame kept") {
    Scenario sc;
    sc.name = "many";
    sc.world.frames = 60;
    sc.world.gravity = {0, -9.81, 0};
    Recording rec;
    const int n = 10000;
    for (int i = 0; i < n; ++i) {
        BodyDef b;
        b.name = "b" + std::to_string(i);
        b.shape = Sphere{{0, 0, 0}, 0.1};
        b.position = {(i % 100) - 50.0, 5, (i / 100) - 50.0};
        sc.bodies.push_back(b);
    }
    rec.body_count = n;
    for (int k = 0; k < 60; ++k) {
        rec.frames.push_back(k);
        rec.times.push_back(k / 60.0);
        for (int i = 0; i < n; ++i) {
            const double t = k / 60.0;
            const Vec3 p = sc.bodies[static_cast<std::size_t>(i)].position;
            rec.states.push_back({{p.x + t, p.y - 4.905 * t * t, p.z}, {1, -9.81 * t, 0}, {}, {}});
        }
    }
    const std::string json = render_scene3d_json(sc, rec);
    INFO(json.size() << " B");
    CHECK(json.size() < 6'000'000);
    const auto doc = nlohmann::json::parse(json);
    CHECK(doc["run"]["stride"] == 1);
    CHECK(doc["run"]["frames"].size() == 60);
}

TEST_CASE("the 3D run carries its first view, its bounds and the ground; ghosts are flagged for the page") {
    const Scenario sc = shipped("bouncing");
    const Recording rec = record(sc);
    Scene3dOptions options;
    options.ghosts_from = sc.bodies.size() - 2;
    options.ghost_note = "translucent: the golden's run";
    const std::string text = render_scene3d_json(sc, rec, options);
    CHECK(text == render_scene3d_json(sc, rec, options)); // the same run, the same bytes
    const auto doc = nlohmann::json::parse(text);
    const ViewChoice v = choose_view(sc, rec);
    const auto& view = doc["run"]["view"];
    // Every number as the double it was: the page frames exactly what collide chose.
    CHECK(view["eye"] == nlohmann::json::array({v.eye.x, v.eye.y, v.eye.z}));
    CHECK(view["up"] == nlohmann::json::array({0, 1, 0}));
    const auto& bounds = doc["run"]["bounds"];
    CHECK(bounds["min"] == nlohmann::json::array({v.frame.min.x, v.frame.min.y, v.frame.min.z}));
    CHECK(bounds["max"] == nlohmann::json::array({v.frame.max.x, v.frame.max.y, v.frame.max.z}));
    // The ground: the floor's top (y = 0), where the balls land. The discrete balls sink into it
    // at a step (their lowest reach over the run is below 0), by less than 5 % of the scene's
    // size: the grid lies on the floor, not under it.
    double lowest = 1e9;
    for (std::size_t k = 0; k < rec.frame_count(); ++k)
        for (std::size_t i = 0; i < sc.bodies.size(); ++i)
            if (!sc.bodies[i].is_static) lowest = std::min(lowest, rec.at(k)[i].position.y - 0.1);
    CHECK(lowest < 0);
    CHECK(-lowest < 0.05 * length(v.frame.max - v.frame.min));
    CHECK(doc["run"]["ground"] == 0);
    const std::vector<std::uint8_t> ghost = decode64(doc["scene"]["bodies"]["ghost"]);
    REQUIRE(ghost.size() == sc.bodies.size());
    for (std::size_t i = 0; i < ghost.size(); ++i) CHECK(ghost[i] == (i >= sc.bodies.size() - 2 ? 1 : 0));
    CHECK(doc["scene"]["ghost_note"] == "translucent: the golden's run");
}
