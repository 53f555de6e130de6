// Characters: climbing steps up to their step height, stopping at higher ones one radius from
// the face, and staying glued to the ground walking down within their snap distance.
#include <catch2/catch.hpp>

#include <cmath>
#include <vector>

#include "math/quat.h"
#include "world/world.h"

using namespace collide;
using Catch::Detail::Approx;

namespace {

constexpr double kSkin = 0.001;

/// A capsule character 1.8 m tall, radius 0.3, its feet a skin above y = 0, walking along +x.
BodyDef walker(double speed, double step_height, double snap) {
    BodyDef c;
    c.name = "walker";
    c.shape = Capsule{{0, 0.3, 0}, {0, 1.5, 0}, 0.3};
    c.position = {0, kSkin, 0};
    c.velocity = {speed, 0, 0};
    c.character = true;
    c.step_height = step_height;
    c.snap_distance = snap;
    return c;
}

BodyDef block(Vec3 min, Vec3 max) {
    BodyDef b;
    b.shape = Aabb{min, max};
    b.is_static = true;
    return b;
}

World walk(const std::vector<BodyDef>& bodies, double seconds) {
    WorldDef w;
    w.dt = 1.0 / 60;
    w.frames = static_cast<int>(seconds * 60) + 1;
    w.gravity = {0, -9.81, 0};
    World world;
    world.reset(w, bodies);
    while (world.frames_stepped() < w.frames) world.step_frame();
    return world;
}

} // namespace

TEST_CASE("a character with step height 0.3 walking at 2 m/s climbs a 0.2 m step and keeps its speed",
          "[world][character]") {
    const std::vector<BodyDef> bodies{block({-5, -1, -2}, {20, 0, 2}), block({1, 0, -2}, {20, 0.2, 2}),
                                      walker(2, 0.3, 0)};
    const World world = walk(bodies, 2);
    const BodyState s = world.state(2);
    CHECK(s.position.x == Approx(4.0).margin(1e-9)); // 2 m/s for 2 s: the step cost no time
    CHECK(s.position.y == Approx(0.2 + kSkin).margin(1e-6));
    CHECK(s.velocity.x == Approx(2.0).margin(1e-12));
    const CharacterState c = world.character_state(2);
    CHECK(c.grounded);
    CHECK(c.ground_normal.y == Approx(1));
    CHECK(c.steps == 1);
}

TEST_CASE("a 0.45 m step stops a character with step height 0.3 one radius from its face", "[world][character]") {
    const std::vector<BodyDef> bodies{block({-5, -1, -2}, {20, 0, 2}), block({1, 0, -2}, {20, 0.45, 2}),
                                      walker(2, 0.3, 0)};
    const World world = walk(bodies, 2);
    CHECK(world.state(2).position.x == Approx(1 - 0.3 - kSkin).margin(1e-9));
    CHECK(world.state(2).position.y == Approx(kSkin).margin(1e-6));
    CHECK(world.character_state(2).steps == 0);
}

TEST_CASE("without a step height a character stops at a 0.2 m step", "[world][character]") {
    const std::vector<BodyDef> bodies{block({-5, -1, -2}, {20, 0, 2}), block({1, 0, -2}, {20, 0.2, 2}),
                                      walker(2, 0, 0)};
    const World world = walk(bodies, 2);
    CHECK(world.state(2).position.x < 1.0 - 0.3 + 0.05); // stopped at (or rounding over) the face's top edge
    CHECK(world.character_state(2).steps == 0);
}

TEST_CASE("snap distance keeps a character on the ground walking over a crest onto a 20 degree down slope",
          "[world][character]") {
    // Flat floor for x < 1, then a ramp falling away at 20°. At 4 m/s the ground drops 2.4 cm a
    // frame past the crest while gravity pulls a free character down 0.3 cm: without snapping it
    // flies off the crest for a few frames; with a 0.2 m snap distance it is grounded on every
    // frame and follows the slope.
    struct Footing : EngineObserver {
        int airborne = 0;
        std::vector<int> frames;
        void on_frame(const EngineView& w, int k, double) override {
            if (!w.character_state(2).grounded) {
                ++airborne;
                frames.push_back(k);
            }
        }
    };
    const double a = 20 * 3.14159265358979323846 / 180;
    const Vec3 u{std::cos(a), -std::sin(a), 0}, v{std::sin(a), std::cos(a), 0};
    const Vec3 corner{1, 0, 0};
    BodyDef ramp = block({}, {});
    ramp.shape = Obb{corner + u * 5.0 - v * 0.5, to_mat3(quat_from_axis_degrees({0, 0, 1}, -20)), {5, 0.5, 2}};
    for (const double snap : {0.0, 0.2}) {
        INFO("snap " << snap);
        const std::vector<BodyDef> bodies{block({-5, -1, -2}, {1, 0, 2}), ramp, walker(4, 0, snap)};
        WorldDef w;
        w.dt = 1.0 / 60;
        w.frames = 31;
        w.gravity = {0, -9.81, 0};
        World world;
        world.reset(w, bodies);
        Footing footing;
        world.add_observer(footing, kOnFrame);
        while (world.frames_stepped() < w.frames) world.step_frame();
        if (snap > 0) {
            for (int k : footing.frames) UNSCOPED_INFO("airborne at frame " << k);
            CHECK(footing.airborne == 0);
            CHECK(world.character_state(2).ground_normal.x == Approx(std::sin(a)));
        } else {
            CHECK(footing.airborne > 0);
        }
    }
}
