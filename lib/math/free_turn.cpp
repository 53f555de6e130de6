#include "math/free_turn.h"

#include <algorithm>
#include <cmath>

#include "math/trig.h"

namespace collide {

bool turn_free_of_torque(const Mat3& inv_inertia, const Vec3& momentum, double h, Vec3& turn) {
    // Implicit midpoint on Euler's equations, body frame: Π₁ = Π₀ + k·Π_m × I⁻¹Π_m with
    // Π_m = (Π₀ + Π₁)/2, by fixed-point passes (each shrinks the error by about k·|ω|), in
    // sub-steps that each turn the body at most a quarter radian. Each turns it by the Cayley
    // rotation cay(k·ω̂_m), 2·atan(k·|ω_m|/2) about ω_m, which takes Π₀ to Π₁ exactly; the step
    // k = 2·tan(s·|ω₀|/2)/|ω₀| (s the sub-step) makes that s·|ω| exactly for a spin about a
    // principal axis (ω_m = ω₀ there), and whatever k is, |Π| and the energy are kept: it only
    // retimes the motion, by O((s·|ω|)³) a sub-step.
    const double speed0 = length(inv_inertia * momentum);
    // (and NaN) The sub-steps keep any rate exact; past kMaxFreeTurn a step (16 turns) the
    // caller's own turn is cheaper than the 400 sub-steps.
    if (!(h * speed0 < kMaxFreeTurn)) return false;
    const int steps = std::max(1, static_cast<int>(std::ceil(h * speed0 / 0.25)));
    const double sub = h / steps;
    Vec3 p0 = momentum;
    Quat delta; // the turn so far, body frame (R = R₀·Δ)
    for (int step = 0; step < steps; ++step) {
        Vec3 w_mid = inv_inertia * p0;
        const double speed = length(w_mid);
        double k = sub;
        if (speed > 0) {
            const SinCos half = sin_cos(0.5 * sub * speed);
            k = 2 * half.sin / (half.cos * speed);
        }
        Vec3 p1 = p0;
        bool settled = false;
        double last = 0; // the pass before's change, squared
        for (int pass = 0; pass < 64 && !settled; ++pass) {
            const Vec3 mid = (p0 + p1) * 0.5;
            w_mid = inv_inertia * mid;
            const Vec3 next = p0 + cross(mid, w_mid) * k;
            // Settled: no change, or one at rounding's level that has stopped shrinking (the
            // passes can trade the last bits back and forth for ever).
            const double change = length_squared(next - p1), size = length_squared(p0);
            settled = next == p1 || change <= 1e-32 * size || (pass > 0 && change <= 1e-28 * size && change >= last);
            last = change;
            p1 = next;
        }
        if (!settled) return false;
        if (steps == 1) { // the rotation vector itself (fewer roundings than through Δ)
            const double speed_mid = length(w_mid);
            turn = speed_mid > 0 ? w_mid * (2 * arc_tangent(0.5 * k * speed_mid) / speed_mid) : Vec3{};
            return true;
        }
        const Vec3 v = w_mid * (0.5 * k); // cay(k·ω̂_m) as the unit quaternion (1, k·ω_m/2)/|…|
        const double norm = std::sqrt(1 + length_squared(v));
        delta = delta * Quat{1 / norm, v.x / norm, v.y / norm, v.z / norm};
        p0 = p1;
    }
    // The rotation vector of Δ: 2·atan(|v|/w) about v (w ≥ 0: the shorter way).
    if (delta.w < 0) delta = Quat{-delta.w, -delta.x, -delta.y, -delta.z};
    const Vec3 v{delta.x, delta.y, delta.z};
    const double sine = length(v);
    turn = sine > 0 ? v * (2 * arc_tangent(sine / delta.w) / sine) : Vec3{};
    return true;
}

Quat free_turn_rotation(const Quat& start, const Mat3& inv_inertia, const Vec3& momentum, double t) {
    const Mat3 r0 = to_mat3(start);
    Vec3 turn;
    if (!turn_free_of_torque(inv_inertia, momentum, t, turn)) turn = (inv_inertia * momentum) * t;
    return normalize(exp_rotation(r0 * turn) * start);
}

} // namespace collide
