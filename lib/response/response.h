#pragma once
/// \file
/// What to do once a test says two things touch: fix the position with the depth, fix the
/// velocity with the normal. Every response here is a choice about the two parts of one split
/// of the velocity against the surface normal n (unit, pointing out of the surface, towards
/// the body being responded to — for a contact from A to B, n is the contact normal when B
/// responds and −normal when A does).

#include "detection/contact.h"

namespace collide {

/// The default skin (m): pushed-out bodies end this far clear so the next test is not a coin flip.
inline constexpr double kDefaultSkin = 0.001;

/// A velocity split against a unit surface normal n.
struct Split {
    double amount = 0; ///< v·n (m/s); negative means heading into the surface
    Vec3 blocked;      ///< (v·n)·n: the part along the normal (m/s)
    Vec3 sliding;      ///< v − (v·n)·n: the part along the surface (m/s)
};

/// Split v (m/s) into the part along the unit normal n and the part along the surface.
constexpr Split split_velocity(const Vec3& v, const Vec3& n) {
    const double amount = dot(v, n);
    const Vec3 blocked = n * amount;
    return {amount, blocked, v - blocked};
}

/// Sliding: v with its normal part removed, v − (v·n)·n (m/s).
constexpr Vec3 slide_velocity(const Vec3& v, const Vec3& n) { return v - n * dot(v, n); }

/// Bouncing: v' = v − (1 + e)(v·n)·n with restitution e in [0, 1]. e = 0 is exactly slide;
/// e = 1 keeps the speed. Applied whatever the direction (see respond_velocity for the guard).
constexpr Vec3 reflect_velocity(const Vec3& v, const Vec3& n, double restitution) {
    return v - n * (dot(v, n) * (1.0 + restitution));
}

/// The full response: unless v is leaving the surface (v·n > 0, returned untouched), the normal
/// part is reversed and scaled by `restitution` and the sliding part is scaled by
/// (1 − friction), friction clamped to [0, 1]. A velocity along the surface (v·n = 0) is
/// responded to: it keeps (1 − friction) of its slide.
constexpr Vec3 respond_velocity(const Vec3& v, const Vec3& n, double restitution, double friction) {
    const Split s = split_velocity(v, n);
    if (s.amount > 0) return v;
    const double f = friction < 0 ? 0 : (friction > 1 ? 1 : friction);
    return n * (-s.amount * restitution) + s.sliding * (1.0 - f);
}

/// How a pair's two coefficients (friction or restitution) make the pair's one, as PhysX and
/// Unity name the rules.
enum class Combine : unsigned char {
    max,      ///< the larger of the two
    min,      ///< the smaller of the two
    average,  ///< their mean
    multiply, ///< their product
};

/// The pair's coefficient from its two bodies' `a` and `b` under `rule`.
constexpr double combine_coefficients(Combine rule, double a, double b) {
    switch (rule) {
    case Combine::max: return a > b ? a : b;
    case Combine::min: return a < b ? a : b;
    case Combine::average: return 0.5 * (a + b);
    case Combine::multiply: return a * b;
    }
    return a > b ? a : b;
}

/// A Coulomb friction response of a relative velocity `v` (m/s) against the unit normal n: the
/// normal part, if it heads in (v·n < 0), is reversed and scaled by `restitution`, a normal
/// velocity change of j = −(1 + e)(v·n); the tangential part loses min(|v_t|, μ·j) (friction
/// bounded by the normal change, so a slow enough slide stops: static friction). A velocity
/// already leaving (v·n ≥ 0) is returned untouched.
Vec3 respond_coulomb(const Vec3& v, const Vec3& n, double restitution, double mu);

/// B's position pushed out of A along a contact (normal from A to B): position + n·(depth + skin) (m).
constexpr Vec3 push_out(const Vec3& position, const Contact& contact, double skin = kDefaultSkin) {
    return position + contact.normal * (contact.depth + skin);
}

/// A surface's slope in degrees from flat: acos(n·up / |n||up|). A floor is 0, a wall 90.
/// A zero normal or up gives 0.
double slope_degrees(const Vec3& normal, const Vec3& up = {0, 1, 0});

/// Walkable when the slope is no steeper than `limit_degrees` (inclusive).
bool is_walkable(const Vec3& normal, double limit_degrees, const Vec3& up = {0, 1, 0});

/// The apex of a body dropped from `height` (m) after `bounces` bounces with restitution e:
/// h·e^(2n). Restitution scales speed and height goes with speed squared.
double apex_after_bounces(double height, double restitution, int bounces);

/// The unit normal of a surface tilted `degrees` from flat about the z axis, pointing up-and-
/// towards −x: (−sin a, cos a, 0). 0° is a floor, 90° a wall facing −x.
Vec3 surface_normal_tilted(double degrees);

} // namespace collide
