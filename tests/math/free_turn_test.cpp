// The torque-free turn (math/free_turn.cpp): exact about a principal axis, and |Π| and the
// energy kept at any rate and at any time within a step.
#include <catch2/catch.hpp>

#include <cmath>
#include <numbers>

#include "math/free_turn.h"
#include "shapes/mass.h"

using namespace collide;
using Catch::Detail::Approx;

namespace {

/// The body-frame inertia of a 1 kg box of half extents 0.1 × 0.25 × 0.5 m (kg·m²).
Mat3 box_inertia() {
    const Vec3 half{0.1, 0.25, 0.5};
    return mass_properties(Aabb{half * -1.0, half}, 1).inertia;
}

} // namespace

TEST_CASE("a torque-free turn is exactly ω·h about a principal axis and keeps |Π| and the energy at any rate",
          "[math][rigid]") {
    const Mat3 inertia = box_inertia();
    const Mat3 inv = inverse(inertia);
    const double h = 1.0 / 60;
    // About a principal axis: the turn is ω·h (sub-steps and all: 2 rad/step takes 8).
    for (const double w : {5.0, 120.0}) {
        INFO("ω = " << w << " rad/s about y");
        Vec3 turn;
        REQUIRE(turn_free_of_torque(inv, inertia * Vec3{0, w, 0}, h, turn));
        CHECK(turn.x == 0);
        CHECK(turn.z == 0);
        CHECK(turn.y == Approx(w * h).epsilon(1e-14));
    }
    // Off-axis, fast (h·|ω| about 1.7): the body-frame momentum after the turn, R(turn)ᵀ·Π₀,
    // keeps |Π| and Π·I⁻¹Π.
    const Vec3 p0 = inertia * Vec3{30, 100, 20};
    Vec3 turn;
    REQUIRE(turn_free_of_torque(inv, p0, h, turn));
    const Vec3 p1 = rotate_inverse(exp_rotation(turn), p0);
    CHECK(length(p1) == Approx(length(p0)).epsilon(1e-12));
    CHECK(dot(p1, inv * p1) == Approx(dot(p0, inv * p0)).epsilon(1e-9));
    CHECK(length(p1 - p0) > 0.1 * length(p0)); // it did turn Π about
    // Past half a turn a step (200 rad/s: 3.3 rad) it still turns exactly, the shorter way round
    // at the end; past kMaxFreeTurn it is not attempted (the caller keeps its own turn).
    REQUIRE(turn_free_of_torque(inv, inertia * Vec3{0, 200, 0}, h, turn));
    CHECK(turn.y == Approx(200 * h - 2 * std::numbers::pi).epsilon(1e-12));
    CHECK_FALSE(turn_free_of_torque(inv, inertia * Vec3{0, 6001, 0}, h, turn));
}

TEST_CASE("a torque-free turn's rotation at any time within a step keeps the energy and meets the step's end",
          "[math][rigid]") {
    // Π(t) = R(t)ᵀ·L with L = R₀·Π₀ kept: its length and Π·I⁻¹Π are the turn's invariants at
    // every time, not only at the step's end (a time of impact inside a step reads them there).
    const Mat3 inertia = box_inertia();
    const Mat3 inv = inverse(inertia);
    const Quat start = normalize(Quat{0.9, 0.1, -0.3, 0.2});
    const Vec3 p0 = inertia * Vec3{12, 30, -7}; // body frame
    const Vec3 momentum = rotate(start, p0);    // L, world frame
    const double h = 1.0 / 60;
    for (const double t : {0.1 * h, 0.37 * h, 0.5 * h, h}) {
        INFO("t = " << t);
        const Quat q = free_turn_rotation(start, inv, p0, t);
        const Vec3 p = rotate_inverse(q, momentum);
        CHECK(length(p) == Approx(length(p0)).epsilon(1e-12));
        CHECK(dot(p, inv * p) == Approx(dot(p0, inv * p0)).epsilon(1e-12));
    }
    // At the whole step: the rotation turn_free_of_torque gives.
    Vec3 turn;
    REQUIRE(turn_free_of_torque(inv, p0, h, turn));
    const Quat end = normalize(exp_rotation(rotate(start, turn)) * start);
    const Quat q = free_turn_rotation(start, inv, p0, h);
    CHECK(std::fabs(q.w * end.w + q.x * end.x + q.y * end.y + q.z * end.z) == Approx(1).epsilon(1e-15));
    // About a principal axis: exp(ω·t).
    const Quat spin = free_turn_rotation(Quat{}, inv, inertia * Vec3{0, 0, 4}, 0.3);
    CHECK(spin.z == Approx(std::sin(0.5 * 4 * 0.3)).epsilon(1e-14));
}
