#pragma once
/// \file
/// One context for a step (Box2D v3's b2StepContext): the step's length and the thresholds
/// every stage reads, made once per step and passed to each stage instead of loose arguments.

#include <algorithm>

#include "math/vec3.h"
#include "model/bodies.h"

namespace collide {

/// A contact point closer than this (m) to touching counts as touching: the solver holds it
/// with a hard constraint instead of letting its gap close.
inline constexpr double kTouchTolerance = 1e-9;

/// What every stage of one step reads.
struct StepContext {
    double h = 0;                 ///< the step (s) > 0
    double inv_h = 0;             ///< 1/h (1/s)
    Vec3 gravity;                 ///< m/s²
    Vec3 up{0, 1, 0};             ///< −gravity normalised, or +y without gravity
    double skin = 0.001;          ///< contact margin (m): a pair in contact stays in contact while within it
    bool exact = true;            ///< positions advance by the trapezoid of the step's start and end velocities
    double bounce_speed = 0;      ///< restitution applies to impacts faster than this (m/s): max(rest_speed, |g|·dt)
    double impact_speed = 0;      ///< a touching point approaching faster than this (m/s) at the step's start is an
                                  ///< impact, solved before gravity; slower ones are left to the force solve
    int velocity_iterations = 10; ///< most sequential-impulse passes over the contacts per step
    double velocity_tolerance = 1e-5; ///< … fewer once no pass changes a velocity by more (m/s)
    int position_iterations = 4;      ///< position-correction passes per step
    bool coulomb = true;              ///< Coulomb friction (else the per_contact designer's dial)
};

/// The step context of a world for a step of `h` seconds.
inline StepContext make_step_context(const WorldDef& def, double h, const Vec3& up) {
    StepContext c;
    c.h = h;
    c.inv_h = h > 0 ? 1 / h : 0;
    c.gravity = def.gravity;
    c.up = up;
    c.skin = def.skin;
    c.exact = def.integrator == Integrator::exact;
    c.bounce_speed = std::max(def.rest_speed, length(def.gravity) * def.dt);
    c.impact_speed = c.bounce_speed;
    c.velocity_iterations = def.velocity_iterations;
    c.velocity_tolerance = def.velocity_tolerance;
    c.position_iterations = def.position_iterations;
    c.coulomb = def.friction_model == FrictionModel::coulomb;
    return c;
}

} // namespace collide
