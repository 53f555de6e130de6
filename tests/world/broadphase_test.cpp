// The broadphase: its candidates are exactly what the all-pairs loop would test, and a world
// stepped through it is bit-identical to the same world stepped over all pairs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <cstdint>
#include <random>
#include <vector>

#include "support/meshes.h"
#include "support/sample_count.h"
#include "world/broadphase.h"
#include "world/world.h"

using namespace collide;

namespace {

/// Every pair i < j with at least one active body and grown boxes that meet, by brute force.
std::vector<PairKey> all_pairs(const Broadphase& b, const std::vector<unsigned char>& active) {
    std::vector<PairKey> out;
    for (int i = 0; i < b.size(); ++i)
        for (int j = i + 1; j < b.size(); ++j)
            if ((active[static_cast<std::size_t>(i)] || active[static_cast<std::size_t>(j)]) &&
                boxes_meet(b.grown(i), b.grown(j)))
                out.push_back(pair_key(i, j));
    return out;
}

std::vector<int> all_found(const Broadphase& b, const Aabb& box) {
    std::vector<int> out;
    for (int k = 0; k < b.size(); ++k)
        if (boxes_meet(b.grown(k), box)) out.push_back(k);
    return out;
}

Aabb random_box(std::mt19937_64& rng) {
    std::uniform_real_distribution<double> at(-5, 5), size(0.05, 0.6), kind(0, 1);
    const double k = kind(rng);
    const double s = k < 0.05 ? 30 : (k < 0.15 ? 3 : size(rng)); // a few large bodies
    const Vec3 c{at(rng), at(rng), at(rng)};
    return Aabb{c - Vec3{s, s * 0.5, s} * 0.5, c + Vec3{s, s * 0.5, s} * 0.5};
}

} // namespace

TEST_CASE("broadphase pairs are exactly the pairs whose grown boxes meet, sorted") {
    for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        std::mt19937_64 rng(seed);
        const int n = 50 + static_cast<int>(seed) * 20;
        std::vector<Aabb> boxes;
        std::vector<unsigned char> active;
        for (int k = 0; k < n; ++k) {
            boxes.push_back(random_box(rng));
            active.push_back(rng() % 4 != 0);
        }
        if (seed % 3 == 0) boxes.push_back(Aabb{Vec3{-1e300, -1e300, -1e300} * 1e10, Vec3{1e300, 0, 1e300} * 1e10});
        if (seed % 3 == 0) active.push_back(0); // an infinite static body (a plane's bounds)
        Broadphase b;
        b.set_flat_limit(0);
        b.build(boxes, active, 0.01, 0.05);
        std::vector<PairKey> got;
        b.pairs(got);
        CHECK(got == all_pairs(b, active));
        // Move bodies far and refit: queries and pairs follow.
        std::uniform_real_distribution<double> jump(-2, 2);
        for (int k = 0; k < n; k += 3) {
            const Vec3 d{jump(rng), jump(rng), jump(rng)};
            boxes[static_cast<std::size_t>(k)] =
                    Aabb{boxes[static_cast<std::size_t>(k)].min + d, boxes[static_cast<std::size_t>(k)].max + d};
            b.refit(k, boxes[static_cast<std::size_t>(k)]);
            std::vector<int> found;
            b.query(b.grown(k), found);
            CHECK(found == all_found(b, b.grown(k)));
        }
        b.pairs(got);
        CHECK(got == all_pairs(b, active));
        for (std::size_t k = 0; k < boxes.size(); ++k) {
            const Aabb& g = b.grown(static_cast<int>(k));
            CHECK((g.min.x <= boxes[k].min.x && g.max.y >= boxes[k].max.y)); // bounds inside their grown box
        }
    }
}

TEST_CASE("broadphase pairs found in chunks on 2, 3 and 8 threads are the pairs found on one", "[threads]") {
    // 6,000 small boxes (over the 4,096 filed entries that split the search) in a crowd: the
    // chunks' cuts fall inside crowded rows of cells, whose neighbours lie across the cut. Every
    // 700th is larger than a cell (listed apart, in order, from every block of bodies filed).
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> at(0, 20), size(0.2, 0.6);
    std::vector<Aabb> boxes;
    std::vector<unsigned char> active;
    for (int k = 0; k < 6000; ++k) {
        const Vec3 c{at(rng), at(rng) * 0.5, at(rng)};
        const double s = k % 700 == 699 ? 4.0 : size(rng);
        boxes.push_back(Aabb{c - Vec3{s, s, s} * 0.5, c + Vec3{s, s, s} * 0.5});
        active.push_back(rng() % 5 != 0);
    }
    Broadphase b;
    b.build(boxes, active, 0.01, 0.05);
    std::vector<PairKey> one;
    b.pairs(one);
    REQUIRE(one == all_pairs(b, active));
    REQUIRE(one.size() > 2000); // (about one neighbour a box)
    for (const int threads : {2, 3, 8}) {
        StepThreads t;
        t.set_threads(threads);
        std::vector<PairKey> got;
        b.pairs(got, t);
        CHECK(got == one);
        // Built on the threads too (each body's cell, the filing and the sort in blocks).
        Broadphase built;
        built.build(boxes, active, 0.01, 0.05, t);
        built.pairs(got, t);
        CHECK(got == one);
        for (const int k : {0, 699, 2047, 2048, 5999}) {
            std::vector<int> found, expected;
            b.query(b.grown(k), expected);
            built.query(built.grown(k), found);
            CHECK(found == expected);
        }
    }
}

TEST_CASE("a body that leaves its grown box is refit; one that stays is not") {
    std::vector<Aabb> boxes{Aabb{{0, 0, 0}, {1, 1, 1}}, Aabb{{3, 0, 0}, {4, 1, 1}}};
    std::vector<unsigned char> active{1, 1};
    Broadphase b;
    b.set_flat_limit(0); // file even two bodies in the grid
    b.build(boxes, active, 0.1, 0);
    CHECK(b.margin() == 0.1);
    CHECK_FALSE(b.refit(0, Aabb{{0.05, 0, 0}, {1.05, 1, 1}}));
    CHECK(b.refit(0, Aabb{{0.5, 0, 0}, {1.5, 1, 1}}));
    CHECK(b.grown(0).max.x == 1.6);
    std::vector<PairKey> pairs;
    b.pairs(pairs);
    CHECK(pairs.empty()); // 1.6 < 2.9
    CHECK(b.refit(0, Aabb{{1.9, 0, 0}, {2.9, 1, 1}}));
    b.pairs(pairs);
    CHECK(pairs == std::vector<PairKey>{pair_key(0, 1)});
}

namespace {

/// Every event, with every state at every frame, as bits.
struct Tape : EngineObserver {
    std::vector<std::uint64_t> bits;
    void put(double v) { bits.push_back(std::bit_cast<std::uint64_t>(v)); }
    void on_contact(const EngineView&, const ContactEvent& e) override {
        const int i = e.a, j = e.b;
        const double time = e.time;
        bits.push_back(static_cast<std::uint64_t>(i) << 32 | static_cast<std::uint64_t>(j));
        put(time);
    }
    void on_response(const EngineView&, int body, const Vec3&, const Vec3& after) override {
        bits.push_back(static_cast<std::uint64_t>(body));
        put(after.x);
        put(after.y);
        put(after.z);
    }
    void on_frame(const EngineView& w, int, double) override {
        for (int k = 0; k < w.body_count(); ++k) {
            const BodyState s = w.state(k);
            put(s.position.x);
            put(s.position.y);
            put(s.position.z);
            put(s.velocity.x);
            put(s.velocity.y);
            put(s.velocity.z);
        }
    }
};

/// A random, crowded scene: a floor, a few static and kinematic obstacles, and bodies of every
/// shape dropped and thrown into each other, some swept, some speculative, a character, some
/// triggers, turning kinematic bodies, and now and then a mesh floor.
std::vector<BodyDef> random_scene(std::mt19937_64& rng, int n) {
    std::uniform_real_distribution<double> at(-2, 2), up(0.3, 3), speed(-4, 4), size(0.1, 0.4), unit(0, 1);
    std::vector<BodyDef> bodies;
    BodyDef floor;
    floor.name = "floor";
    floor.shape = Aabb{{-6, -1, -6}, {6, 0, 6}};
    if (unit(rng) < 0.3) { // a level mesh instead: 12 × 12 quads, many internal edges
        floor.mesh_data = test::grid_floor(12, 1.0, -6, -6);
        floor.shape = Mesh{floor.mesh_data.get(), identity3(), Vec3{}};
    }
    floor.is_static = true;
    floor.friction = 0.3;
    bodies.push_back(floor);
    if (unit(rng) < 0.5) { // a tilted wall as a plane: infinite bounds, in the broadphase's large list
        BodyDef wall;
        wall.name = "wall";
        wall.shape = Plane{normalize(Vec3{1, 0.2, 0.1}), -1.5};
        wall.is_static = true;
        bodies.push_back(wall);
    }
    for (int k = 0; k < n; ++k) {
        BodyDef b;
        b.name = "b" + std::to_string(k);
        const double s = size(rng);
        const double kind = unit(rng);
        if (kind < 0.4)
            b.shape = Sphere{{}, s};
        else if (kind < 0.6)
            b.shape = Aabb{{-s, -s, -s}, {s, s, s}};
        else if (kind < 0.75) {
            b.shape = Aabb{{-s, -s * 0.5, -s}, {s, s * 0.5, s}};
            b.rotation = quat_from_axis_degrees({0, 1, 0}, 30 * unit(rng));
        } else if (kind < 0.85)
            b.shape = Capsule{{0, -s, 0}, {0, s, 0}, s * 0.5};
        else if (kind < 0.9) { // a large slab now and then: larger than a cell
            b.shape = Aabb{{-6 * s, -s * 0.5, -6 * s}, {6 * s, s * 0.5, 6 * s}};
            b.is_static = unit(rng) < 0.5;
        } else
            b.shape = Triangle{{-s, 0, -s}, {s, 0, -s}, {0, 0, s}};
        b.position = Vec3{at(rng), up(rng), at(rng)};
        b.velocity = Vec3{speed(rng), speed(rng), speed(rng)};
        b.restitution = unit(rng) * 0.8;
        b.friction = unit(rng) * 0.6;
        b.mass = 0.5 + unit(rng);
        const double role = unit(rng);
        if (role < 0.08)
            b.is_static = true;
        else if (role < 0.14) {
            b.kinematic = true;
            if (unit(rng) < 0.5) b.angular_velocity = Vec3{0, speed(rng), speed(rng) * 0.5}; // a turning one
        } else if (role < 0.17)
            b.trigger = true; // in no pair: the same in both loops
        else if (role < 0.3)
            b.ccd = true;
        else if (role < 0.4)
            b.speculative = true;
        else if (role < 0.45)
            b.angular_velocity = Vec3{speed(rng), speed(rng), speed(rng)}; // a dynamic body thrown spinning
        else if (role < 0.5) {
            b.character = true;
            b.step_height = 0.2;
            b.snap_distance = 0.1;
        }
        bodies.push_back(b);
    }
    return bodies;
}

std::vector<std::uint64_t> run(const WorldDef& def, const std::vector<BodyDef>& bodies, bool all_pairs) {
    World w;
    w.use_all_pairs(all_pairs);
    w.reset(def, bodies);
    Tape tape;
    w.add_observer(tape, kOnContact | kOnResponse | kOnFrame);
    while (w.frames_stepped() < def.frames) w.step_frame();
    return tape.bits;
}

} // namespace

TEST_CASE("a world stepped through the broadphase is bit-identical to the all-pairs loop", "[heavy]") {
    // Seeds 1–8 already take every detection, friction model and integrator.
    const auto seeds = static_cast<std::uint64_t>(test::kSanitized ? 8 : 24);
    for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
        std::mt19937_64 rng(seed);
        WorldDef def;
        def.frames = 50;
        def.gravity = Vec3{0, -9.81, 0};
        def.detection =
                seed % 3 == 0 ? Detection::discrete : (seed % 3 == 1 ? Detection::swept : Detection::speculative);
        def.friction_model = seed % 2 ? FrictionModel::coulomb : FrictionModel::per_contact;
        def.integrator = seed % 4 == 3 ? Integrator::euler : Integrator::exact;
        const std::vector<BodyDef> bodies = random_scene(rng, 20 + static_cast<int>(seed % 5) * 15);
        INFO("seed " << seed);
        const std::vector<std::uint64_t> grid = run(def, bodies, false);
        const std::vector<std::uint64_t> brute = run(def, bodies, true);
        REQUIRE(grid.size() == brute.size());
        CHECK(grid == brute);
    }
}
