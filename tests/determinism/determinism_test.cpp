// Determinism as a test (Box2D's test/test_determinism.c, Jolt's determinism check): every
// shipped scenario and a set of generated scenes — piles of turned boxes and balls, swept and
// discrete, Euler and exact; turning kinematic bodies; balls and crates on an icosphere mesh
// and a tiled floor; characters on turned slopes — are stepped frame by frame, and a hash of
// the bit patterns of every body's position, velocity and rotation at every frame is compared
// with the value committed in tests/determinism/hashes.txt. Every build of the CI matrix
// (scripts/test.sh, scripts/second-build.sh: GCC, GCC -march=native, Clang) must reproduce the
// same hashes: that is the floating-point contract of README's Reliability section. The same
// hashes must also come out when the scenes run on several threads at once, and a sweep's
// output must not change with --jobs.
//
// Re-blessing. When a change moves the physics on purpose, every affected hash changes. Then
//     COLLIDE_BLESS_HASHES=1 ./build/collide_tests "[determinism]"
// (or bash scripts/bless-hashes.sh) rewrites hashes.txt from this build; commit it, and say in
// the commit why the results moved. A failure message says the same.
#include <catch2/catch.hpp>

#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "io/atomic_file.h"
#include "math/trig.h"
#include "scenario/load.h"
#include "support/project_dir.h"
#include "support/splitmix.h"
#include "sweep/scenario_model.h"
#include "sweep/sweep_grid.h"
#include "world/world.h"

using namespace collide;
using namespace collide::test;
namespace fs = std::filesystem;

namespace {

const std::string kHashFile = std::string(COLLIDE_SOURCE_DIR) + "/tests/determinism/hashes.txt";

/// FNV-1a over 64-bit words (Fowler, Noll & Vo): order-sensitive, no library hash involved.
struct Fnv {
    std::uint64_t h = 0xcbf29ce484222325ull;
    void word(std::uint64_t w) {
        for (int i = 0; i < 8; ++i) {
            h ^= (w >> (8 * i)) & 0xffu;
            h *= 0x100000001b3ull;
        }
    }
    void number(double x) { word(std::bit_cast<std::uint64_t>(x)); }
};

/// The hash of a run: every frame, every body's position, velocity and rotation, bit for bit.
std::uint64_t run_hash(const Scenario& s, World& world) {
    world.reset(s.world, s.bodies);
    Fnv f;
    for (int frame = 0; frame < s.world.frames; ++frame) {
        world.step_frame();
        for (int i = 0; i < world.body_count(); ++i) {
            const BodyState b = world.state(i);
            for (const double x : {b.position.x, b.position.y, b.position.z, b.velocity.x, b.velocity.y, b.velocity.z,
                                   b.rotation.w, b.rotation.x, b.rotation.y, b.rotation.z})
                f.number(x);
        }
    }
    return f.h;
}

/// A number as YAML text that reads back as the same double.
std::string num(double x) {
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", x);
    return buf;
}
std::string vec(const Vec3& v) { return "[" + num(v.x) + ", " + num(v.y) + ", " + num(v.z) + "]"; }

/// A pile: `count` balls and turned boxes of random sizes thrown onto a floor box and into each
/// other; rotations as axis + degrees and Euler angles (the project's own sine and cosine).
std::string pile_yaml(std::uint64_t seed, int count, const std::string& world_extra) {
    SplitMix rng{seed};
    std::string y = "name: pile\nworld: { rate: 60, frames: 90, gravity: [0, -9.81, 0]" + world_extra +
                    " }\nbodies:\n  floor: { static: true, box: { min: [-6, -1, -6], max: [6, 0, 6] } }\n";
    for (int i = 0; i < count; ++i) {
        // One draw a statement: the order of operands of + is unspecified, and compilers differ.
        const Vec3 p = rng.point({-3, 0.6, -3}, {3, 5, 3});
        const Vec3 v = rng.point({-2, -3, -2}, {2, 1, 2});
        y += "  b" + std::to_string(i) + ": { ";
        if (i % 2 == 0) {
            const double radius = rng.uniform(0.1, 0.45);
            y += "sphere: { radius: " + num(radius) + " }";
        } else {
            const Vec3 half = rng.point({0.1, 0.1, 0.1}, {0.45, 0.45, 0.45});
            y += "box: { half: " + vec(half) + " }, rotation: ";
            if (i % 4 == 1) {
                const Vec3 axis = rng.direction();
                const double degrees = rng.uniform(-180, 180);
                y += "{ axis: " + vec(axis) + ", degrees: " + num(degrees) + " }";
            } else {
                const Vec3 euler = rng.point({-90, -90, -90}, {90, 90, 90});
                y += "{ euler: " + vec(euler) + " }";
            }
        }
        const double restitution = rng.uniform(0, 0.8);
        const double friction = rng.uniform(0, 0.6);
        y += ", position: " + vec(p) + ", velocity: " + vec(v) + ", restitution: " + num(restitution) +
             ", friction: " + num(friction) + " }\n";
    }
    return y;
}

/// Turning kinematic bodies (a door and a paddle: spin_rotation every step) sweeping through balls.
std::string turning_yaml(std::uint64_t seed) {
    SplitMix rng{seed};
    // One draw a statement: the order of operands of + is unspecified, and compilers differ.
    const double door_rate = rng.uniform(1.5, 3);
    const Vec3 paddle_axis = rng.direction();
    const double paddle_rate = rng.uniform(1, 4);
    std::string y = "name: turning\nworld: { rate: 60, frames: 90, gravity: [0, 0, 0], detection: swept }\nbodies:\n"
                    "  door: { kinematic: true, angular_velocity: " +
                    vec({0, 0, door_rate}) +
                    ", box: { min: [0, -0.05, -1], max: [3, 0.05, 1] } }\n"
                    "  paddle: { kinematic: true, position: [0, 0, 4], angular_velocity: " +
                    vec(paddle_axis * paddle_rate) +
                    ", rotation: { axis: [1, 1, 0], degrees: 33 }, box: { min: [-1.5, -0.1, -0.3], max: [1.5, 0.1, "
                    "0.3] } }\n";
    for (int i = 0; i < 12; ++i) {
        const SinCos angle = sin_cos(rng.uniform(0.3, 6)); // not the C library's: the same bits everywhere
        const double radius = rng.uniform(0.5, 2.8);
        const double ball = rng.uniform(0.1, 0.3);
        const Vec3 v = rng.point({-0.5, -0.5, 0}, {0.5, 0.5, 0});
        const Vec3 p{radius * angle.cos, radius * angle.sin, i < 6 ? 0.0 : 4.0};
        y += "  ball" + std::to_string(i) + ": { sphere: { radius: " + num(ball) + " }, position: " + vec(p) +
             ", velocity: " + vec(v) + ", restitution: 0.3, friction: 0.2, ccd: true }\n";
    }
    return y;
}

/// An inline icosphere-like mesh (an octahedron's faces split twice, pushed onto a sphere), a
/// tiled floor mesh under it, and balls and crates falling onto both.
std::string mesh_yaml(std::uint64_t seed) {
    SplitMix rng{seed};
    // The floor: 6 × 6 quads, 2 m each, around the origin at y = 0.
    std::string verts, tris;
    int n = 0;
    for (int i = 0; i <= 6; ++i)
        for (int j = 0; j <= 6; ++j) verts += (n++ ? ", " : "") + vec({-6.0 + 2 * i, 0, -6.0 + 2 * j});
    for (int i = 0; i < 6; ++i)
        for (int j = 0; j < 6; ++j) {
            const int a = i * 7 + j, b = a + 1, c = a + 8, d = a + 7;
            tris += (tris.empty() ? "" : ", ") + std::string("[") + std::to_string(a) + ", " + std::to_string(b) +
                    ", " + std::to_string(c) + "], [" + std::to_string(a) + ", " + std::to_string(c) + ", " +
                    std::to_string(d) + "]";
        }
    // A dome: the octahedron's upper faces, split twice, on the sphere of radius 1.5 about (0, 0, 0).
    std::vector<Vec3> dv = {{1, 0, 0}, {0, 0, 1}, {-1, 0, 0}, {0, 0, -1}, {0, 1, 0}};
    std::vector<std::array<int, 3>> dt = {{0, 1, 4}, {1, 2, 4}, {2, 3, 4}, {3, 0, 4}};
    for (int s = 0; s < 2; ++s) {
        std::vector<std::array<int, 3>> finer;
        for (const auto& f : dt) {
            int m[3];
            for (int k = 0; k < 3; ++k) {
                dv.push_back(normalize(dv[static_cast<std::size_t>(f[static_cast<std::size_t>(k)])] +
                                       dv[static_cast<std::size_t>(f[static_cast<std::size_t>((k + 1) % 3)])]));
                m[k] = static_cast<int>(dv.size()) - 1;
            }
            finer.push_back({f[0], m[0], m[2]});
            finer.push_back({f[1], m[1], m[0]});
            finer.push_back({f[2], m[2], m[1]});
            finer.push_back({m[0], m[1], m[2]});
        }
        dt = std::move(finer);
    }
    std::string dome_v, dome_t;
    for (const Vec3& p : dv) dome_v += (dome_v.empty() ? "" : ", ") + vec(p * 1.5);
    for (const auto& f : dt)
        dome_t += (dome_t.empty() ? "" : ", ") + std::string("[") + std::to_string(f[0]) + ", " + std::to_string(f[1]) +
                  ", " + std::to_string(f[2]) + "]";
    std::string y = "name: meshes\nworld: { rate: 60, frames: 100, gravity: [0, -9.81, 0] }\nbodies:\n"
                    "  floor: { static: true, mesh: { vertices: [" +
                    verts + "], triangles: [" + tris +
                    "] } }\n"
                    "  dome: { static: true, position: [0, 0.01, 0], mesh: { vertices: [" +
                    dome_v + "], triangles: [" + dome_t + "] } }\n";
    for (int i = 0; i < 16; ++i) {
        // One draw a statement: the order of operands of + is unspecified, and compilers differ.
        const Vec3 p = rng.point({-3, 2, -3}, {3, 6, 3});
        std::string shape;
        if (i % 3 == 2) {
            const Vec3 euler = rng.point({-40, -40, -40}, {40, 40, 40});
            shape = "box: { half: [0.2, 0.15, 0.25] }, rotation: { euler: " + vec(euler) + " }";
        } else {
            const double radius = rng.uniform(0.15, 0.35);
            shape = "sphere: { radius: " + num(radius) + " }";
        }
        const Vec3 v = rng.point({-1, -2, -1}, {1, 0, 1});
        y += "  f" + std::to_string(i) + ": { " + shape + ", position: " + vec(p) + ", velocity: " + vec(v) +
             ", restitution: 0.4, friction: 0.3" + (i % 2 ? ", ccd: true" : "") + " }\n";
    }
    return y;
}

/// Characters walking into walls and up and down turned slopes, with steps and snapping.
std::string characters_yaml(std::uint64_t seed) {
    SplitMix rng{seed};
    std::string y = "name: characters\nworld: { rate: 60, frames: 120, gravity: [0, -9.81, 0] }\nbodies:\n"
                    "  ground: { static: true, box: { min: [-20, -1, -20], max: [20, 0, 20] } }\n"
                    "  ramp: { static: true, box: { min: [-4, -0.5, -2], max: [4, 0.5, 2] }, position: [6, 0, 0], "
                    "rotation: { axis: [0, 0, 1], degrees: 20 } }\n"
                    "  steep: { static: true, box: { min: [-3, -0.5, -2], max: [3, 0.5, 2] }, position: [-6, 0, 6], "
                    "rotation: { euler: [0, 30, 55] } }\n"
                    "  wall: { static: true, box: { min: [-0.5, 0, -10], max: [0.5, 3, 10] }, position: [0, 0, -8], "
                    "rotation: { axis: [0, 1, 0], degrees: 90 } }\n"
                    "  step: { static: true, box: { min: [-1, 0, -1], max: [1, 0.25, 1] }, position: [-5, 0, -3] }\n";
    for (int i = 0; i < 8; ++i) {
        // One draw a statement: the order of operands of + is unspecified, and compilers differ.
        const SinCos heading = sin_cos_degrees(rng.uniform(0, 360));
        const double speed = rng.uniform(1, 5);
        const double friction = rng.uniform(0, 0.5);
        const double x = rng.uniform(-6, 6);
        const double z = rng.uniform(-6, 6);
        y += "  c" + std::to_string(i) +
             ": { sphere: { radius: 0.4 }, character: true, step_height: 0.3, snap_distance: 0.2, friction: " +
             num(friction) + ", position: " + vec({x, 0.41, z}) +
             ", velocity: " + vec({speed * heading.cos, 0, speed * heading.sin}) + " }\n";
    }
    return y;
}

/// Turned crates dropped in layers into a pen, where they pile into one island of hundreds of
/// contacts (solved by colours: world/solver_islands.h).
std::string crates_yaml(std::uint64_t seed) {
    SplitMix rng{seed};
    std::string y = "name: crates\nworld: { rate: 60, frames: 90, gravity: [0, -9.81, 0] }\nbodies:\n"
                    "  floor: { static: true, box: { min: [-4, -1, -4], max: [4, 0, 4] } }\n"
                    "  west: { static: true, box: { min: [-4, 0, -4], max: [-3, 3, 4] } }\n"
                    "  east: { static: true, box: { min: [3, 0, -4], max: [4, 3, 4] } }\n"
                    "  north: { static: true, box: { min: [-3, 0, -4], max: [3, 3, -3] } }\n"
                    "  south: { static: true, box: { min: [-3, 0, 3], max: [3, 3, 4] } }\n";
    int n = 0;
    for (int layer = 0; layer < 4; ++layer)
        for (int row = 0; row < 8; ++row)
            for (int col = 0; col < 8; ++col) {
                // One draw a statement: the order of operands of + is unspecified, and compilers differ.
                const Vec3 euler = rng.point({-30, -30, -30}, {30, 30, 30});
                const double jitter = rng.uniform(-0.05, 0.05);
                const Vec3 p{-2.45 + 0.7 * col + jitter, 0.4 + 0.75 * layer, -2.45 + 0.7 * row};
                y += "  c" + std::to_string(n++) +
                     ": { box: { half: [0.3, 0.3, 0.3] }, rotation: { euler: " + vec(euler) +
                     " }, position: " + vec(p) + ", friction: 0.5, restitution: 0.1 }\n";
            }
    return y;
}

/// A pyramid of `rows` rows of touching unit cubes (Box3D's large_pyramid, smaller): one island.
std::string touching_pyramid_yaml(int rows, int frames) {
    std::string y = "name: touching-pyramid\nworld: { rate: 60, frames: " + std::to_string(frames) +
                    ", gravity: [0, -10, 0], sleep: false }\nbodies:\n"
                    "  ground: { static: true, box: { min: [-100, -2, -100], max: [100, 0, 100] }, friction: 0.6 }\n";
    for (int r = 0; r < rows; ++r)
        for (int k = 0; k < rows - r; ++k)
            y += "  r" + std::to_string(r) + "_" + std::to_string(k) +
                 ": { box: { half: [0.5, 0.5, 0.5] }, density: 100, friction: 0.6, position: " +
                 vec({-0.5 * (rows - r - 1) + k, 0.5 + r, 0}) + " }\n";
    return y;
}

struct Scene {
    std::string name;
    Scenario scenario;
};

/// Every shipped scenario (by file stem) and the generated scenes.
std::vector<Scene> scenes() {
    std::vector<Scene> out;
    std::vector<fs::path> files;
    for (const auto& e : fs::directory_iterator(std::string(COLLIDE_SOURCE_DIR) + "/scenarios"))
        if (e.path().extension() == ".yaml") files.push_back(e.path());
    std::sort(files.begin(), files.end());
    for (const fs::path& f : files) out.push_back({f.stem().string(), load_scenario(f.string())});
    const auto generated = [&](const std::string& name, const std::string& yaml) {
        out.push_back({"generated/" + name, parse_scenario_template(yaml, name + ".yaml").base()});
    };
    generated("pile-swept", pile_yaml(101, 40, ", detection: swept"));
    generated("pile-discrete-euler", pile_yaml(101, 40, ", detection: discrete, integrator: euler"));
    generated("pile-speculative", pile_yaml(202, 40, ", detection: speculative"));
    generated("turning", turning_yaml(303));
    generated("meshes", mesh_yaml(404));
    generated("characters", characters_yaml(505));
    generated("crates", crates_yaml(606));
    generated("touching-pyramid", touching_pyramid_yaml(24, 60));
    return out;
}

/// The committed hashes: `NAME 0xHASH` a line; `#` starts a comment.
std::map<std::string, std::uint64_t> committed() {
    std::map<std::string, std::uint64_t> out;
    if (!fs::exists(kHashFile)) return out;
    std::istringstream in(read_file(kHashFile));
    for (std::string line; std::getline(in, line);) {
        if (line.empty() || line[0] == '#') continue;
        std::istringstream words(line);
        std::string name, hex;
        words >> name >> hex;
        out[name] = std::stoull(hex, nullptr, 16);
    }
    return out;
}

std::string hex(std::uint64_t h) {
    char buf[24];
    std::snprintf(buf, sizeof buf, "0x%016llx", static_cast<unsigned long long>(h));
    return buf;
}

const char* kHowToBless = "If the change is meant, re-bless: COLLIDE_BLESS_HASHES=1 ./build/collide_tests "
                          "\"[determinism]\" (or bash scripts/bless-hashes.sh) rewrites tests/determinism/hashes.txt; "
                          "commit it and say in the commit why the results moved.";

} // namespace

TEST_CASE("every body's state at every frame of the shipped and generated scenes hashes to the committed value",
          "[determinism]") {
    const std::vector<Scene> all = scenes();
    World world;
    std::vector<std::pair<std::string, std::uint64_t>> got;
    for (const Scene& s : all) got.emplace_back(s.name, run_hash(s.scenario, world));

    const char* bless = std::getenv("COLLIDE_BLESS_HASHES");
    if (bless && std::string(bless) == "1") {
        std::string text = "# The determinism hashes (tests/determinism/determinism_test.cpp): per scene, FNV-1a of\n"
                           "# every body's position, velocity and rotation bits at every frame. Written by\n"
                           "# COLLIDE_BLESS_HASHES=1 ./build/collide_tests \"[determinism]\"; say in the commit why\n"
                           "# they changed.\n";
        for (const auto& [name, h] : got) text += name + " " + hex(h) + "\n";
        write_file_atomically(kHashFile, text);
        WARN("wrote " << got.size() << " hashes to " << kHashFile);
    }

    const std::map<std::string, std::uint64_t> expected = committed();
    int compared = 0;
    for (const auto& [name, h] : got) {
        INFO("scene " << name);
        const auto it = expected.find(name);
        if (it == expected.end()) {
            FAIL_CHECK("no committed hash for scene " << name << " (got " << hex(h) << "). " << kHowToBless);
            continue;
        }
        if (it->second != h)
            FAIL_CHECK("scene " << name << " hashes to " << hex(h) << ", committed " << hex(it->second)
                                << ": some body's state differs at some frame. " << kHowToBless);
        ++compared;
    }
    CHECK(expected.size() == got.size()); // no stale line for a scene that is gone
    CHECK(compared == static_cast<int>(all.size()));
    CHECK(all.size() >= 39); // 31 shipped scenarios and 8 generated scenes
}

TEST_CASE("the scenes hash the same when they run on one thread and on three at once, and in a reused world",
          "[determinism]") {
    const std::vector<Scene> all = scenes();
    std::vector<std::uint64_t> serial(all.size()), parallel(all.size()), reused(all.size());
    {
        World world;
        for (std::size_t i = 0; i < all.size(); ++i) serial[i] = run_hash(all[i].scenario, world);
        // The same World once more, in reverse order: nothing is carried over from a run.
        for (std::size_t i = all.size(); i-- > 0;) reused[i] = run_hash(all[i].scenario, world);
    }
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < 3; ++t)
        threads.emplace_back([&, t] {
            World world;
            for (std::size_t i = t; i < all.size(); i += 3) parallel[i] = run_hash(all[i].scenario, world);
        });
    for (std::thread& t : threads) t.join();
    int compared = 0;
    for (std::size_t i = 0; i < all.size(); ++i) {
        INFO("scene " << all[i].name);
        CHECK(parallel[i] == serial[i]);
        CHECK(reused[i] == serial[i]);
        ++compared;
    }
    CHECK(compared == static_cast<int>(all.size()));
}

TEST_CASE("every scene hashes the same stepped on 1, 2, 3 and 8 threads", "[determinism][threads][heavy]") {
    const std::vector<Scene> all = scenes();
    World world;
    std::vector<std::uint64_t> one(all.size());
    for (std::size_t i = 0; i < all.size(); ++i) one[i] = run_hash(all[i].scenario, world);
    for (const int threads : {2, 3, 8}) {
        world.set_threads(threads);
        for (std::size_t i = 0; i < all.size(); ++i) {
            INFO("scene " << all[i].name << " on " << threads << " threads");
            CHECK(run_hash(all[i].scenario, world) == one[i]);
        }
    }
}

TEST_CASE("a sweep over a turning door and over balls dropped onto a mesh writes the same bytes with --jobs 1, 2 "
          "and 4",
          "[determinism]") {
    ProjectDir dir("collide_determinism_sweep");
    write_text(dir / "scenarios/door.yaml",
               "params: { omega: 2 }\nworld: { rate: 60, frames: 60, gravity: [0, 0, 0], detection: swept }\n"
               "bodies:\n  door: { kinematic: true, angular_velocity: [0, 0, $omega], box: { min: [0, -0.05, -1], "
               "max: [3, 0.05, 1] } }\n  ball: { sphere: { radius: 0.3 }, position: [1, 1.7320508075688772, 0.5], "
               "ccd: true }\nlog:\n  - first_contact: { body: ball, with: door }\n  - final: { body: ball }\n");
    write_text(dir / "scenarios/dome.yaml",
               "params: { x: 0 }\n" + mesh_yaml(606).substr(std::string("name: meshes\n").size()) +
                       "  probe: { sphere: { radius: 0.25 }, position: [$x, 4, 0.3], ccd: true }\n"
                       "log:\n  - first_contact: { body: probe, with: dome }\n"
                       "  - final: { body: probe }\n");
    int compared = 0;
    for (const auto& [name, vary] : {std::pair{"door", "omega=0.5:6:0.25"}, std::pair{"dome", "x=-2:2:0.2"}}) {
        const ScenarioTemplate tmpl = load_scenario_template(dir / ("scenarios/" + std::string(name) + ".yaml"));
        const SweepModel model = scenario_sweep_model(tmpl);
        std::vector<std::string> outputs;
        for (const int jobs : {1, 2, 4}) {
            SweepRequest r;
            r.varies = {vary};
            r.format = SweepFormat::csv;
            r.jobs = jobs;
            r.output = dir / (std::string(name) + "-" + std::to_string(jobs) + ".csv");
            execute_grid(model, r, SweepConsole{nullptr, false});
            outputs.push_back(read_text(r.output));
        }
        INFO(name);
        REQUIRE(outputs[0].size() > 100);
        CHECK(outputs[1] == outputs[0]);
        CHECK(outputs[2] == outputs[0]);
        ++compared;
    }
    CHECK(compared == 2);
}
