#pragma once
/// \file
/// Building worlds from code for the world's tests: bodies by shape and kind, a world
/// definition with gravity, and stepping to a time.

#include <cmath>
#include <numbers>
#include <vector>

#include "world/world.h"

namespace collide::test {

inline constexpr double kG = 9.81;                        ///< m/s²
inline constexpr double kDegree = std::numbers::pi / 180; ///< rad per degree

/// A world definition: `rate` Hz, enough frames for `seconds` (the last frame at t = seconds),
/// gravity (0, −g, 0) unless told otherwise.
inline WorldDef world_def(double rate, double seconds, Detection detection = Detection::swept, double g = kG) {
    WorldDef def;
    def.dt = 1 / rate;
    def.frames = static_cast<int>(std::lround(seconds * rate)) + 1;
    def.gravity = {0, -g, 0};
    def.detection = detection;
    return def;
}

/// A dynamic ball of `radius` at `position`.
inline BodyDef ball_at(Vec3 position, double radius, double friction = 0, double restitution = 0) {
    BodyDef b;
    b.name = "ball";
    b.shape = Sphere{{}, radius};
    b.position = position;
    b.friction = friction;
    b.restitution = restitution;
    return b;
}

/// A dynamic box of half extents `half` at `position` turned by `rotation`.
inline BodyDef box_at(Vec3 position, Vec3 half, Quat rotation = {}, double friction = 0, double restitution = 0) {
    BodyDef b;
    b.name = "box";
    b.shape = Aabb{half * -1.0, half};
    b.position = position;
    b.rotation = rotation;
    b.friction = friction;
    b.restitution = restitution;
    return b;
}

/// A static box of half extents `half` at `position` turned by `rotation`.
inline BodyDef ground_at(Vec3 position, Vec3 half, Quat rotation = {}, double friction = 0, double restitution = 0) {
    BodyDef b = box_at(position, half, rotation, friction, restitution);
    b.name = "ground";
    b.is_static = true;
    return b;
}

/// Steps `world` through every frame.
inline void run(World& world) {
    while (world.frames_stepped() < world.def().frames) world.step_frame();
}

/// The angle (degrees) between body `i`'s nearest local axis and straight down.
inline double tilt_degrees(const World& world, int i) {
    const Mat3 r = to_mat3(world.state(i).rotation);
    double best = 0;
    for (const Vec3& axis : r.col) best = std::max(best, std::fabs(axis.y));
    return std::acos(std::min(1.0, best)) / kDegree;
}

} // namespace collide::test
