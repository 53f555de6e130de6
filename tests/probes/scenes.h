#pragma once
// Scenarios built in C++ for the world tests and benchmarks: the tunnel (scenarios/tunnel.yaml), a
// dropped ball, a stack of boxes, characters against walls and slopes.

#include <cmath>
#include <numbers>
#include <string>
#include <utility>
#include <vector>

#include "model/log.h"
#include "probes/simulate.h"

namespace collide::test {

inline BodyDef make_body(std::string name, Shape shape, Vec3 position, Vec3 velocity = {}, bool is_static = false) {
    BodyDef b;
    b.name = std::move(name);
    b.shape = shape;
    b.position = position;
    b.velocity = velocity;
    b.is_static = is_static;
    return b;
}

inline LogDef make_entry(LogRequest request) {
    LogDef d;
    d.request = std::move(request);
    return d;
}

/// Value of field `name` of log entry `entry` (NaN when the entry has no such field).
inline double field(const Scenario& s, const std::vector<double>& values, int entry, const char* name) {
    const int i = layout_of(s).find(entry, name);
    return i >= 0 ? values[static_cast<std::size_t>(i)] : std::nan("");
}

/// The tunnel of scenarios/tunnel.yaml: a 0.3 m sphere from x = −3 at `speed` m/s towards a 10 cm
/// wall, 60 Hz, 40 frames, frames landing at `phase`; logs first_contact(bullet, wall).
inline Scenario tunnel_scene(double speed, double phase, Detection detection) {
    Scenario s;
    s.name = "tunnel";
    s.world.dt = 1.0 / 60.0;
    s.world.frames = 40;
    s.world.phase = phase;
    s.world.detection = detection;
    s.bodies.push_back(make_body("wall", Aabb{{-0.05, -2, -2}, {0.05, 2, 2}}, {}, {}, true));
    s.bodies.push_back(make_body("bullet", Sphere{{}, 0.3}, {-3, 0, 0}, {speed, 0, 0}));
    s.log.push_back(make_entry(FirstContactLog{1, 0}));
    return s;
}

/// A 0.5 m ball whose lowest point starts `height` m above a static floor (top at y = 0),
/// restitution `e`, gravity 9.81; logs apex (3 bounces) and final.
inline Scenario drop_scene(double height, double e, Detection detection, Integrator integrator, int frames) {
    Scenario s;
    s.name = "bounce";
    s.world.dt = 1.0 / 60.0;
    s.world.frames = frames;
    s.world.gravity = {0, -9.81, 0};
    s.world.detection = detection;
    s.world.integrator = integrator;
    s.bodies.push_back(make_body("floor", Aabb{{-5, -1, -5}, {5, 0, 5}}, {}, {}, true));
    BodyDef ball = make_body("ball", Sphere{{}, 0.5}, {0, height + 0.5, 0});
    ball.restitution = e;
    s.bodies.push_back(ball);
    ApexLog apex;
    apex.body = 1;
    apex.bounces = 3;
    apex.drop_height = height;
    apex.floor = 0;
    s.log.push_back(make_entry(apex));
    s.log.push_back(make_entry(FinalLog{1}));
    return s;
}

/// Two unit boxes falling onto a static floor (top at y = 0), one above the other; logs
/// max_overlap, at_rest of both and final of both.
inline Scenario stack_scene(int frames) {
    Scenario s;
    s.name = "stack";
    s.world.dt = 1.0 / 60.0;
    s.world.frames = frames;
    s.world.gravity = {0, -9.81, 0};
    s.bodies.push_back(make_body("floor", Aabb{{-5, -1, -5}, {5, 0, 5}}, {}, {}, true));
    s.bodies.push_back(make_body("low", Aabb{{-0.5, -0.5, -0.5}, {0.5, 0.5, 0.5}}, {0, 1.5, 0}));
    s.bodies.push_back(make_body("high", Aabb{{-0.5, -0.5, -0.5}, {0.5, 0.5, 0.5}}, {0.1, 3, 0}));
    s.log.push_back(make_entry(MaxOverlapLog{}));
    s.log.push_back(make_entry(AtRestLog{1}));
    s.log.push_back(make_entry(AtRestLog{2}));
    s.log.push_back(make_entry(FinalLog{1}));
    s.log.push_back(make_entry(FinalLog{2}));
    return s;
}

/// A character (0.5 m sphere, no gravity) running at 5 m/s, 30° off a wall whose face is the
/// plane x = 1 (normal −x): it heads into the wall at 2.5 m/s and along it at 4.33 m/s.
inline Scenario wall_run_scene(double friction, int frames) {
    Scenario s;
    s.name = "wall_run";
    s.world.dt = 1.0 / 60.0;
    s.world.frames = frames;
    s.bodies.push_back(make_body("wall", Aabb{{1, -5, -50}, {2, 5, 50}}, {}, {}, true));
    const double a = 30.0 * std::numbers::pi / 180.0;
    BodyDef runner = make_body("runner", Sphere{{}, 0.5}, {0, 0, 0}, {5 * std::sin(a), 0, 5 * std::cos(a)});
    runner.character = true;
    runner.friction = friction;
    s.bodies.push_back(runner);
    s.log.push_back(make_entry(FinalLog{1}));
    return s;
}

/// A character (0.5 m sphere) standing still on a slope tilted `degrees` (its surface normal
/// is surface_normal_tilted(degrees), through the origin), gravity 9.81, slope limit 46°.
inline Scenario slope_scene(double degrees, int frames) {
    Scenario s;
    s.name = "slope";
    s.world.dt = 1.0 / 60.0;
    s.world.frames = frames;
    s.world.gravity = {0, -9.81, 0};
    BodyDef slope = make_body("slope", Aabb{{-20, -1, -5}, {20, 0, 5}}, {}, {}, true);
    slope.rotation = quat_from_axis_degrees({0, 0, 1}, degrees);
    s.bodies.push_back(slope);
    const double a = degrees * std::numbers::pi / 180.0;
    const Vec3 normal{-std::sin(a), std::cos(a), 0};
    BodyDef c = make_body("walker", Sphere{{}, 0.5}, normal * 0.501);
    c.character = true;
    c.slope_limit = 46;
    s.bodies.push_back(c);
    s.log.push_back(make_entry(FinalLog{1}));
    return s;
}

} // namespace collide::test
