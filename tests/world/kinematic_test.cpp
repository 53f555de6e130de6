// Kinematic bodies that turn (angular_velocity) and characters carried by kinematic bodies,
// against closed forms: a door turning into a still ball (first contact at
// t* = (φ0 − asin((r + w)/D))/ω), a fan blade knocking a ball (it leaves at the blade's
// surface speed ω·ρ), characters standing and walking on moving platforms.
#include <catch2/catch.hpp>

#include <cmath>
#include <optional>
#include <vector>

#include "world/world.h"

using namespace collide;
using Catch::Detail::Approx;

namespace {

constexpr double kPi = 3.14159265358979323846;

/// The door: a box hinged at the origin along +x (length 3 m, half-thickness w = 0.05 m),
/// turning about +z at ω = 2 rad/s; the ball (r = 0.3 m) is still at distance D = 2 m from the
/// hinge, at φ0 = 60° from the door.
constexpr double kW = 0.05, kR = 0.3, kD = 2, kOmega = 2;
constexpr double kPhi0 = kPi / 3;

BodyDef door() {
    BodyDef b;
    b.name = "door";
    b.shape = Aabb{{0, -kW, -1}, {3, kW, 1}};
    b.kinematic = true;
    b.angular_velocity = {0, 0, kOmega};
    return b;
}

BodyDef still_ball() {
    BodyDef b;
    b.name = "ball";
    b.shape = Sphere{{}, kR};
    b.position = {kD * std::cos(kPhi0), kD * std::sin(kPhi0), 0};
    return b;
}

double contact_time() { return (kPhi0 - std::asin((kR + kW) / kD)) / kOmega; }

/// The first contact and the first response the world reports.
struct FirstEvents : EngineObserver {
    std::optional<double> time;
    std::optional<Vec3> after;
    std::optional<Vec3> door_position;
    void on_contact(const EngineView& w, const ContactEvent& e) override {
        const double t = e.time;
        if (!time) {
            time = t;
            door_position = w.state(0).position;
        }
    }
    void on_response(const EngineView&, int body, const Vec3&, const Vec3& v) override {
        if (!after && body == 1) after = v;
    }
};

WorldDef flat(double rate, double seconds, Detection detection) {
    WorldDef w;
    w.dt = 1.0 / rate;
    w.frames = static_cast<int>(std::lround(rate * seconds)) + 1;
    w.detection = detection;
    return w;
}

FirstEvents run_door(double rate, Detection detection) {
    World world;
    const std::vector<BodyDef> bodies{door(), still_ball()};
    world.reset(flat(rate, 1, detection), bodies);
    FirstEvents events;
    world.add_observer(events, kOnContact | kOnResponse);
    while (world.frames_stepped() < world.def().frames && !events.after) world.step_frame();
    return events;
}

} // namespace

TEST_CASE("a turning kinematic body's rotation is exp(w t) q0 and its shape turns with it", "[world][kinematic]") {
    World world;
    const std::vector<BodyDef> bodies{door()};
    world.reset(flat(60, 0.5, Detection::discrete), bodies);
    while (world.frames_stepped() < world.def().frames) world.step_frame();
    const double angle = kOmega * 0.5; // 30 frames of 1/60 s
    const Quat q = world.state(0).rotation;
    CHECK(q.w == Approx(std::cos(angle / 2)).epsilon(1e-12));
    CHECK(q.z == Approx(std::sin(angle / 2)).epsilon(1e-12));
    CHECK(world.state(0).position.x == 0.0); // it turns about its position, which stays
    // The far end of the door's centre line is at 3·(cos, sin) of the angle.
    const Aabb b = world.bounds(0);
    CHECK(b.max.x == Approx(3 * std::cos(angle) + kW * std::sin(angle)).epsilon(1e-12));
    CHECK(b.max.y == Approx(3 * std::sin(angle) + kW * std::cos(angle)).epsilon(1e-12));
}

TEST_CASE("a door turning into a still ball: swept first contact at t* within 1e-9 s", "[world][kinematic]") {
    const FirstEvents e = run_door(60, Detection::swept);
    REQUIRE(e.time);
    CHECK(std::fabs(*e.time - contact_time()) < 1e-9);
}

TEST_CASE("a door turning into a still ball: discrete first contact converges to t* as the rate rises",
          "[world][kinematic]") {
    for (const double rate : {30.0, 120.0, 480.0, 1920.0}) {
        INFO("rate " << rate);
        const FirstEvents e = run_door(rate, Detection::discrete);
        REQUIRE(e.time);
        CHECK(*e.time >= contact_time());            // the first frame that overlaps …
        CHECK(*e.time - contact_time() <= 1 / rate); // … is at most one frame late
    }
}

TEST_CASE("a fan blade knocks a ball off at its surface speed w rho at the contact radius", "[world][kinematic]") {
    // Restitution 0 and no friction: the ball's velocity becomes the blade's surface velocity
    // along the face normal, ω·ρ with ρ = √(D² − (r + w)²) the contact's distance along the
    // blade, and keeps no tangential part (it had none).
    const FirstEvents e = run_door(60, Detection::swept);
    REQUIRE(e.after);
    const double rho = std::sqrt(kD * kD - (kR + kW) * (kR + kW));
    const double theta = kOmega * contact_time(); // the blade's angle at the contact
    CHECK(e.after->x == Approx(-kOmega * rho * std::sin(theta)).epsilon(1e-8));
    CHECK(e.after->y == Approx(kOmega * rho * std::cos(theta)).epsilon(1e-8));
    CHECK(e.after->z == Approx(0).margin(1e-12));
}

namespace {

constexpr double kSkin = 0.001;

/// A capsule character 1.8 m tall, radius 0.3, its feet a skin above y = 0, walking at `walk`.
BodyDef walker(Vec3 walk) {
    BodyDef c;
    c.name = "walker";
    c.shape = Capsule{{0, 0.3, 0}, {0, 1.5, 0}, 0.3};
    c.position = {0, kSkin, 0};
    c.velocity = walk;
    c.character = true;
    return c;
}

/// A kinematic platform whose top is y = 0, moving at `velocity`.
BodyDef platform(Vec3 velocity) {
    BodyDef p;
    p.name = "platform";
    p.shape = Aabb{{-20, -0.5, -2}, {20, 0, 2}};
    p.kinematic = true;
    p.velocity = velocity;
    return p;
}

World carried(Vec3 platform_velocity, Vec3 walk) {
    WorldDef w = flat(60, 1, Detection::discrete);
    w.gravity = {0, -9.81, 0};
    World world;
    const std::vector<BodyDef> bodies{platform(platform_velocity), walker(walk)};
    world.reset(w, bodies);
    while (world.frames_stepped() < world.def().frames) world.step_frame();
    return world;
}

} // namespace

TEST_CASE("a character standing on a platform moving sideways at 1 m/s moves 1 m in 1 s", "[world][kinematic]") {
    const World world = carried({1, 0, 0}, {});
    CHECK(world.state(1).position.x == Approx(1.0).margin(kSkin));
    CHECK(world.state(1).position.y == Approx(kSkin).margin(1e-6)); // still standing on it
}

TEST_CASE("a character walking at 2 m/s on a platform moving at 1 m/s the same way moves 3 m in 1 s",
          "[world][kinematic]") {
    const World world = carried({1, 0, 0}, {2, 0, 0});
    CHECK(world.state(1).position.x == Approx(3.0).margin(kSkin));
}

TEST_CASE("a platform rising at 1 m/s keeps a character on top, a skin above it", "[world][kinematic]") {
    const World world = carried({0, 1, 0}, {});
    CHECK(world.state(0).position.y == Approx(1.0).epsilon(1e-12));
    CHECK(world.state(1).position.y == Approx(1.0 + kSkin).margin(1e-6)); // its feet: the platform's top + skin
    CHECK(world.character_state(1).grounded);
}

TEST_CASE("a kinematic wall moving into a character pushes it as a static wall would", "[world][kinematic]") {
    // The wall's face starts 1 m from the character's side and moves at 2 m/s: after 1 s the
    // character stands a skin beyond the face, 1 m further on.
    WorldDef w = flat(60, 1, Detection::discrete);
    w.gravity = {0, -9.81, 0};
    BodyDef floor;
    floor.shape = Aabb{{-20, -1, -2}, {20, 0, 2}};
    floor.is_static = true;
    BodyDef wall;
    wall.shape = Aabb{{-1.5, 0.5, -1}, {-1.3, 2, 1}};
    wall.kinematic = true;
    wall.velocity = {2, 0, 0};
    World world;
    const std::vector<BodyDef> bodies{floor, wall, walker({})};
    world.reset(w, bodies);
    while (world.frames_stepped() < world.def().frames) world.step_frame();
    CHECK(world.state(2).position.x - 0.3 == Approx(world.state(1).position.x - 1.3 + kSkin).margin(1e-6));
    CHECK(world.state(2).position.x == Approx(1.0 + kSkin).margin(1e-6));
}

TEST_CASE("a character standing on a turntable is carried round with it", "[world][kinematic]") {
    // A turntable turning about +y at 0.5 rad/s (its axis through its position, the origin);
    // the character stands 2 m from the axis. Each step adds the table's velocity at its foot,
    // ω × (foot − axis): after 1 s it has gone round by ω·t = 0.5 rad (60 steps of
    // atan(ω·dt) each, 0.5 − 6e-6 rad) and its distance from the axis has grown by the explicit
    // step's factor √(1 + (ω·dt)²) per step, 60·(ω·dt)²/2 ≈ 0.2 % in all.
    WorldDef w = flat(60, 1, Detection::discrete);
    w.gravity = {0, -9.81, 0};
    BodyDef table = platform({});
    table.shape = Aabb{{-5, -0.5, -5}, {5, 0, 5}};
    table.angular_velocity = {0, 0.5, 0};
    BodyDef c = walker({});
    c.position = {2, kSkin, 0};
    World world;
    const std::vector<BodyDef> bodies{table, c};
    world.reset(w, bodies);
    while (world.frames_stepped() < world.def().frames) world.step_frame();
    const Vec3 p = world.state(1).position;
    const double angle = std::atan2(-p.z, p.x); // turning about +y takes +x towards −z
    CHECK(angle == Approx(60 * std::atan(0.5 / 60)).margin(1e-9));
    CHECK(std::hypot(p.x, p.z) == Approx(2 * std::pow(1 + (0.5 / 60) * (0.5 / 60), 30)).epsilon(1e-9));
    CHECK(p.y == Approx(kSkin).margin(1e-6));
}
