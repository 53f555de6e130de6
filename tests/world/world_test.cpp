// The world built and stepped from code, without a scenario file or a log: motion against
// closed forms, and what its observers are told.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include "world/world.h"

using namespace collide;
using Catch::Detail::Approx;

namespace {

BodyDef ball(Vec3 position, Vec3 velocity, double radius) {
    BodyDef b;
    b.name = "ball";
    b.shape = Sphere{{}, radius};
    b.position = position;
    b.velocity = velocity;
    return b;
}

BodyDef wall(Vec3 min, Vec3 max) {
    BodyDef b;
    b.name = "wall";
    b.shape = Aabb{min, max};
    b.is_static = true;
    return b;
}

/// Records every event.
struct Recorder : EngineObserver {
    struct Hit {
        int i, j, frame;
        double time;
        Vec3 position; // of body 1 at the contact
    };
    std::vector<Hit> contacts;
    std::vector<std::pair<Vec3, Vec3>> responses;
    std::vector<int> responders; // the body of each response
    std::vector<double> frame_times;
    int moves = 0;
    void on_move(const EngineView&, int, double, const Vec3&) override { ++moves; }
    void on_contact(const EngineView& w, const ContactEvent& e) override {
        const int i = e.a, j = e.b;
        const double time = e.time;
        contacts.push_back({i, j, w.frame(), time, w.state(1).position});
    }
    void on_response(const EngineView&, int body, const Vec3& before, const Vec3& after) override {
        responses.emplace_back(before, after);
        responders.push_back(body);
    }
    void on_frame(const EngineView&, int, double time) override { frame_times.push_back(time); }
};

constexpr unsigned kAll = kOnMove | kOnContact | kOnResponse | kOnFrame;

} // namespace

TEST_CASE("a body in free fall follows y = y0 - g t^2 / 2 exactly at every sampled frame") {
    WorldDef def;
    def.dt = 1.0 / 60;
    def.frames = 30;
    def.gravity = {0, -9.81, 0};
    const std::vector<BodyDef> bodies{ball({0, 10, 0}, {0, 0, 0}, 0.5)};
    World world;
    world.reset(def, bodies);
    Recorder r;
    world.add_observer(r, kOnFrame);
    for (int k = 0; k < def.frames; ++k) {
        world.step_frame();
        const double t = k * def.dt;
        CHECK(world.state(0).position.y == Approx(10 - 0.5 * 9.81 * t * t).margin(1e-12));
        CHECK(world.state(0).velocity.y == Approx(-9.81 * t).margin(1e-12));
    }
    CHECK(world.frames_stepped() == 30);
    world.step_frame(); // past the last frame: nothing happens
    CHECK(world.frames_stepped() == 30);
    REQUIRE(r.frame_times.size() == 30);
    CHECK(r.frame_times[7] == Approx(7.0 / 60));
}

TEST_CASE("frames are sampled at (k + phase) dt") {
    WorldDef def;
    def.dt = 0.1;
    def.frames = 3;
    def.phase = 0.25;
    const std::vector<BodyDef> bodies{ball({0, 0, 0}, {2, 0, 0}, 0.1)};
    World world;
    world.reset(def, bodies);
    Recorder r;
    world.add_observer(r, kOnFrame);
    for (int k = 0; k < 3; ++k) world.step_frame();
    REQUIRE(r.frame_times.size() == 3);
    CHECK(r.frame_times[0] == Approx(0.025));
    CHECK(r.frame_times[2] == Approx(0.225));
    CHECK(world.state(0).position.x == Approx(2 * 0.225)); // 2 m/s for 0.225 s
}

TEST_CASE("swept detection reports the impact a bullet makes with a thin wall at the solved time") {
    // A 0.3 m ball at x = -3 moving at 60 m/s meets the wall's face x = -0.05 when its centre
    // reaches -0.35: t = 2.65 / 60 s, inside the step that ends at frame 3.
    WorldDef def;
    def.dt = 1.0 / 60;
    def.frames = 40;
    def.phase = 0.5;
    def.detection = Detection::swept;
    const std::vector<BodyDef> bodies{wall({-0.05, -2, -2}, {0.05, 2, 2}), ball({-3, 0, 0}, {60, 0, 0}, 0.3)};
    World world;
    world.reset(def, bodies);
    Recorder r;
    world.add_observer(r, kAll);
    for (int k = 0; k < def.frames; ++k) world.step_frame();
    REQUIRE_FALSE(r.contacts.empty());
    CHECK(r.contacts[0].i == 0);
    CHECK(r.contacts[0].j == 1);
    CHECK(r.contacts[0].time == Approx(2.65 / 60).margin(1e-9));
    CHECK(r.contacts[0].position.x == Approx(-0.35).margin(1e-9));
    CHECK(r.contacts[0].frame == 3); // frame 2 is sampled at 2.5/60 s, before the hit; frame 3 at 3.5/60 s
    REQUIRE_FALSE(r.responses.empty());
    CHECK(r.moves > 0);
}

TEST_CASE("discrete detection lets the same bullet tunnel when no frame lands it in the wall") {
    // Sampled at x = -3 + (k + 0.5): -2.5, -1.5, -0.5, 0.5, … — never within 0.35 m of x = 0.
    WorldDef def;
    def.dt = 1.0 / 60;
    def.frames = 40;
    def.phase = 0.5;
    const std::vector<BodyDef> bodies{wall({-0.05, -2, -2}, {0.05, 2, 2}), ball({-3, 0, 0}, {60, 0, 0}, 0.3)};
    World world;
    world.reset(def, bodies);
    Recorder r;
    world.add_observer(r, kOnContact);
    for (int k = 0; k < def.frames; ++k) world.step_frame();
    CHECK(r.contacts.empty());
    CHECK(world.state(1).position.x == Approx(-3 + 60 * 39.5 / 60));
}

TEST_CASE("a ball dropped on a floor with restitution 1 is told a response that turns it up") {
    WorldDef def;
    def.dt = 1.0 / 120;
    def.frames = 120;
    def.gravity = {0, -9.81, 0};
    def.detection = Detection::swept;
    BodyDef b = ball({0, 1.5, 0}, {0, 0, 0}, 0.5);
    b.restitution = 1;
    const std::vector<BodyDef> bodies{wall({-5, -1, -5}, {5, 0, 5}), b};
    World world;
    world.reset(def, bodies);
    Recorder r;
    world.add_observer(r, kOnResponse | kOnContact);
    for (int k = 0; k < def.frames; ++k) world.step_frame();
    // It falls 1 m: the impact is at t = sqrt(2 / 9.81) s with speed sqrt(2 · 9.81) m/s.
    REQUIRE_FALSE(r.contacts.empty());
    CHECK(r.contacts[0].time == Approx(std::sqrt(2 / 9.81)).margin(1e-9));
    REQUIRE_FALSE(r.responses.empty());
    // Only a body whose velocity the response changed is told: the ball, never the static floor.
    REQUIRE(r.responders[0] == 1);
    const auto& [before, after] = r.responses[0];
    CHECK(before.y == Approx(-std::sqrt(2 * 9.81)).margin(1e-9));
    CHECK(after.y == Approx(std::sqrt(2 * 9.81)).margin(1e-9));
}

TEST_CASE("a reset world steps to bit-identical states") {
    WorldDef def;
    def.dt = 1.0 / 60;
    def.frames = 90;
    def.gravity = {0, -9.81, 0};
    BodyDef a = ball({0, 2, 0}, {1, 0, 0}, 0.5);
    a.restitution = 0.8;
    BodyDef c = ball({0.3, 4, 0}, {0, 0, 0}, 0.5);
    c.restitution = 0.5;
    const std::vector<BodyDef> bodies{wall({-5, -1, -5}, {5, 0, 5}), a, c};
    World world;
    std::vector<BodyState> first;
    for (int run = 0; run < 2; ++run) {
        world.reset(def, bodies);
        for (int k = 0; k < def.frames; ++k) world.step_frame();
        for (int i = 0; i < 3; ++i) {
            if (run == 0)
                first.push_back(world.state(i));
            else {
                CHECK(world.state(i).position == first[static_cast<std::size_t>(i)].position);
                CHECK(world.state(i).velocity == first[static_cast<std::size_t>(i)].velocity);
            }
        }
    }
    CHECK(world.no_pair_can_meet() == false); // both balls rest on the floor
}

TEST_CASE("speculative contacts land a dropped box on the floor without ever overlapping it") {
    // A 1 m box dropped 2 m at 30 Hz: a discrete test would sink it up to v·dt ≈ 0.2 m deep;
    // the speculative contact slows it to arrive touching, and it stays there.
    struct Depth : EngineObserver {
        double deepest = 0;
        int contacts = 0;
        void on_contact(const EngineView&, const ContactEvent&) override { ++contacts; }
        void on_frame(const EngineView& w, int, double) override {
            deepest = std::max(deepest, w.bounds(0).max.y - w.bounds(1).min.y);
        }
    };
    WorldDef def;
    def.dt = 1.0 / 30;
    def.frames = 61;
    def.gravity = {0, -9.81, 0};
    def.detection = Detection::speculative;
    BodyDef box;
    box.shape = Aabb{{-0.5, -0.5, -0.5}, {0.5, 0.5, 0.5}};
    box.position = {0, 2.5, 0};
    const std::vector<BodyDef> bodies{wall({-5, -1, -5}, {5, 0, 5}), box};
    World world;
    world.reset(def, bodies);
    Depth d;
    world.add_observer(d, kOnFrame | kOnContact);
    while (world.frames_stepped() < def.frames) world.step_frame();
    // Never below the floor's top by more than the solver's tolerance leaves: the passes stop
    // once no velocity moves by velocity_tolerance, which closes the gap to within that times dt,
    // and position correction leaves nanometres (it stops within kTouchTolerance at each point).
    CHECK(d.deepest <= std::max(def.velocity_tolerance * def.dt, 1e-8));
    CHECK(d.contacts >= 1);
    CHECK(world.state(1).position.y == Approx(0.5).margin(1e-9));
    CHECK(world.state(1).velocity.y == Approx(0).margin(1e-9));
}
