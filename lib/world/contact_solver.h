#pragma once
/// \file
/// The contact solver: sequential impulses with accumulated, clamped impulses, warm starting
/// and position correction (Catto, "Iterative Dynamics with Temporal Coherence", GDC 2005, and
/// "Fast and Simple Physics using Sequential Impulses", GDC 2006; Box2D v2.4's
/// b2ContactSolver; Jolt's ContactConstraintManager). Every function here works on the
/// contacts of one step and the bodies' hot data (world/body_table.h); none allocates once its
/// output vectors have warmed up.
///
/// At a contact point with normal n (from A to B), anchors r_A and r_B (from each body's
/// reference point to the point), the relative velocity is
///     v_rel = (v_B + ω_B × r_B) − (v_A + ω_A × r_A),
/// and an impulse P at the point changes the velocities by
///     v_A −= P/m_A, ω_A −= I_A⁻¹ (r_A × P),  v_B += P/m_B, ω_B += I_B⁻¹ (r_B × P),
/// so along a unit direction d the relative velocity changes by P·k(d) with the effective mass
///     1/k(d) = 1/m_A + 1/m_B + (r_A × d)·I_A⁻¹(r_A × d) + (r_B × d)·I_B⁻¹(r_B × d).
/// Each pass visits every point and gives it the impulse that would make its constraint hold
/// alone: along n, the relative normal velocity v_n reaches its target and the accumulated
/// normal impulse stays ≥ 0 (a contact only pushes); in the tangent plane, the impulse along
/// the slip that would stop it, with the accumulated friction impulse kept within μ times the
/// normal one (Coulomb's cone: at the limit it opposes the sliding). Passes repeat
/// velocity_iterations times, starting from the last step's impulses (warm starting), so a
/// resting stack starts each step already holding its weight.
///
/// The solve of one step (world/world.h lists where these sit among the stages):
/// 1. prepare: anchors, effective masses, the tangents, each point's approach speed v_n before
///    the step, and the warm-start impulses carried by feature id;
/// 2. impacts: points that touch and approach faster than the impact speed (the bounce speed;
///    every approach at a time of impact) at the step's start are solved first, on the
///    velocities before gravity — an impulse at the instant the step starts (slower approaches,
///    a resting stack's, are the force solve's): compression passes stop every touching point
///    approaching (v_n ≥ 0), then each point that bounces (approach faster than the bounce speed)
///    gets e times its compression impulse again (Poisson's restitution: for one point Newton's
///    j = −(1 + e)·v_n/k, and for several no energy gained, none lost at e = 1), then friction
///    within μ times the whole normal impulse;
/// 3. (gravity is added), warm start, and the passes of the force solve: the constraint at a
///    touching point is v_n ≥ 0; at a point with a gap s (speculative) the gap may close but not
///    more: v_n ≥ −s/h. A body such a point pushes moves with its end velocity through the step
///    (the exact integrator's mean of start and end velocities would carry it past the surface),
///    so it arrives touching. Passes stop early once no impulse changed a velocity by more
///    than velocity_tolerance (m/s). An island whose contacts form a chain (solver_islands.h:
///    a column of balls, single points end to end) has its normal rows solved together in each
///    pass, exactly — a tridiagonal complementarity problem, by active sets and elimination
///    along the chain — where one row at a time needs a pass per link the push travels (a block
///    solver for stacks; the manifold's block solver below does the same for a manifold's
///    points). The passes read and write only the contacts' bodies' velocities (SolverBody,
///    56 bytes), gathered before them and scattered after;
/// 4. restitution, after positions have moved: a gap point that arrived (took a normal impulse)
///    approaching faster than the bounce speed leaves at −e·approach (Box2D's restitution pass);
///    one slower, or with e = 0, stays: its leftover approach s/h is taken away (Box2D v3's relax);
/// 5. store: the force solve's impulses go back to the persistent contacts for the next step;
/// 6. position correction, once the bodies have moved: a few nonlinear Gauss–Seidel passes
///    push penetrating points apart along the normal by kCorrectionFactor (half) of their depth
///    each, at most kMaxCorrection, moving and turning the bodies directly without adding
///    velocity (Box2D v2.4's SolvePositionConstraints), until none is deeper than
///    kTouchTolerance; the contacts are then found anew at the corrected poses. A chain whose
///    contacts turn no body is corrected the same way as its velocities are solved: all its
///    points at once, exactly to separation zero.

#include <span>
#include <vector>

#include "io/memory.h"
#include "world/body_table.h"
#include "world/contacts.h"
#include "world/parallel.h"
#include "world/solver_islands.h"
#include "world/step_context.h"

namespace collide {

/// Position correction removes this share of a penetration per pass (Box2D's b2_baumgarte).
inline constexpr double kCorrectionFactor = 0.5;
/// The most one pass of position correction moves a point (m; Box2D's b2_maxLinearCorrection).
inline constexpr double kMaxCorrection = 0.2;

/// A contact point as every pass of the force solve reads it: its anchors, its normal row's
/// masses, bias and impulse, and its friction rows. Only this is streamed through the passes
/// (120 bytes; the rest of the point is AngularRow and PointInfo, in arrays beside it), so a
/// pass over ten thousand points reads a third of what it would if it were all one struct.
struct SolverPoint {
    Vec3 ra;                     ///< from A's reference point to the point (m, world frame)
    Vec3 rb;                     ///< from B's reference point to the point (m, world frame)
    double normal_mass = 0;      ///< 1/k(n) (kg)
    double normal_k = 0;         ///< k(n), 0 when no body can move (1/kg)
    double bias = 0;             ///< the force solve's least normal velocity (m/s)
    double normal_impulse = 0;   ///< accumulated by the force solve (N·s)
    Vec3 tangent_k;              ///< the 2×2 tangent block of inverse effective masses: (k11, k12, k22)
    double tangent1_impulse = 0; ///< the force solve's friction impulse along the contact's tangent1 (N·s)
    double tangent2_impulse = 0; ///< … along its tangent2
};

/// The angular part of a point's normal row; not read for two balls (see SolverContact), whose
/// rows have none.
struct AngularRow {
    Vec3 ra_n; ///< r_A × n, A's angular part of the normal row (m); zero for a ball
    Vec3 rb_n; ///< r_B × n (m)
    Vec3 ia_n; ///< I_A⁻¹(r_A × n): A's change of ω per unit normal impulse (1/(kg·m))
    Vec3 ib_n; ///< I_B⁻¹(r_B × n)
};

/// What the stages other than the force solve's passes keep of a point: how it was at the
/// step's start, and the impact solve's impulses.
struct PointInfo {
    Vec3 local_a;               ///< ra in A's frame (position correction turns it with A; zero for a ball)
    Vec3 local_b;               ///< rb in B's frame
    double separation = 0;      ///< gap at the step's start (m): −depth
    double approach = 0;        ///< relative normal velocity when prepared (m/s; < 0 approaching)
    Vec3 slip;                  ///< relative tangential velocity when prepared (m/s, world)
    double bounce = 0;          ///< the impact solve's restitution here: e when the approach is faster than
                                ///< the bounce speed, else 0
    double impact_impulse = 0;  ///< accumulated by the impact solve (N·s)
    double impact_tangent1 = 0; ///< the impact solve's friction impulse along tangent1 (N·s)
    double impact_tangent2 = 0; ///< … along tangent2
    bool touching = false;      ///< no gap at the step's start (within kTouchTolerance)
    bool impacting = false;     ///< touching and approaching at the step's start
};

/// A body as the passes of the velocity solve read and write it (warm start, force solve,
/// restitution): its velocities and inverse mass, 56 bytes, where the body's whole BodySim is
/// 280 (Box2D v3's b2BodyState, 32 bytes in 2D and single precision, is the model). Its inverse
/// inertia, which only friction reads (the normal rows carry I⁻¹(r × n)), sits in an array
/// beside it (SolverBodies::inv_inertia).
struct SolverBody {
    Vec3 velocity;         ///< of the reference point (m/s, world frame)
    Vec3 angular_velocity; ///< ω (rad/s, world frame)
    double inv_mass = 0;   ///< 1/kg; 0 for a body contacts do not move (never written)
};
static_assert(sizeof(SolverBody) <= 64, "the passes' body state is at most a cache line");

/// The bodies one step's contacts touch, as the passes see them (Box2D v3's awake solver set):
/// one slot per body some contact of the step has, in the order of the bodies' indices, so
/// that the passes' cost and footprint follow the awake contacts — a sleeping island's bodies,
/// which no contact of the step has (prepare_contacts() leaves their pairs out), are not there.
struct SolverBodies {
    LargeVector<SolverBody> state; ///< per slot: what the passes read and write
    LargeVector<Mat3> inv_inertia; ///< per slot: the world-frame inverse inertia (1/(kg·m²)), read only
    std::vector<int> body;         ///< per slot: its body's index
    std::vector<int> slot;         ///< per body: its slot while gathering, else −1 (scratch)
    std::vector<int> block_first;  ///< scratch of gathering: per block of bodies, its first slot
};

/// One manifold of a pair as the solver sees it; its points are `count` consecutive
/// StepConstraints::points (and angular rows and infos) from `first`.
struct SolverContact {
    int a = 0;              ///< body A (index into the body arrays)
    int b = 0;              ///< body B
    int pair = 0;           ///< index of its PairContact
    int manifold = 0;       ///< index of the manifold among the pair's
    Vec3 normal;            ///< unit, from A to B
    Vec3 tangent1;          ///< unit, ⊥ normal
    Vec3 tangent2;          ///< normal × tangent1
    double friction = 0;    ///< μ
    double restitution = 0; ///< e
    int sa = 0;             ///< body A's slot in StepConstraints::bodies (gather_solver_bodies())
    int sb = 0;             ///< body B's slot
    int first = 0;          ///< its first point's index in the set's points
    int count = 0;          ///< points used
    bool impact = false;    ///< some point impacts at the step's start
    bool round_a = false;   ///< A is a ball about its reference point: a push along the normal,
                            ///< which passes through its centre, does not turn it
    bool round_b = false;   ///< … B is
    bool linear = false;    ///< position correction turns neither body: each is a ball or cannot turn
};

/// A point as position correction sees it (correct_positions()).
struct PositionRow {
    int a = 0;          ///< body A
    int b = 0;          ///< body B
    int point = -1;     ///< its SolverPoint when the push turns a body, else −1
    int contact = 0;    ///< … and its SolverContact
    Vec3 normal;        ///< unit, from A to B
    double base = 0;    ///< (point −1) the separation less B's centre's offset from A's along n (m)
    double share_a = 0; ///< (point −1) (1/m_A)/(1/m_A + 1/m_B): A's share of the push
    double share_b = 0; ///< (point −1) B's share
};

/// One step's constraints (not a set of bodies, as Box2D v3's b2SolverSet is): the contacts
/// and, in three arrays of one index, their points (a contact's together): what the force
/// solve's passes read, the angular normal rows, the rest.
struct StepConstraints {
    LargeVector<SolverContact> contacts;    ///< one per manifold
    LargeVector<SolverPoint> points;        ///< every contact's points
    LargeVector<AngularRow> angular;        ///< … their angular normal rows (same index)
    LargeVector<PointInfo> info;            ///< … the rest of them (same index)
    SolverBodies bodies;                    ///< the contacts' bodies as the passes see them
    SolverIslands islands;                  ///< the contacts' islands and colours (group_islands())
    std::vector<int> impacts;               ///< scratch of solve_impacts(): the contacts that impact
    std::vector<int> impact_order;          ///< scratch of solve_impacts(): the impacts island by island
    std::vector<int> impact_start;          ///< scratch of solve_impacts(): per island, its first in impact_order
    std::vector<int> impact_fill;           ///< scratch of solve_impacts()
    LargeVector<PositionRow> position_rows; ///< scratch of correct_positions()
    std::vector<int> row_first;             ///< scratch of correct_positions(): per contact, its first row
    std::vector<int> block_rows;            ///< scratch of correct_positions(): per block of contacts, its first row
    std::vector<int> pair_contact;          ///< scratch of prepare_contacts(): per pair, its first contact (−1: none)
    std::vector<int> pair_point;            ///< scratch of prepare_contacts(): per pair, its first point
    std::vector<int> block_places; ///< scratch of prepare_contacts(): per block of pairs, its first contact and point

    /// Empties the set (keeps the storage).
    void clear() {
        contacts.clear();
        points.clear();
        angular.clear();
        info.clear();
        islands.clear();
        impacts.clear();
        position_rows.clear();
    }
    /// Appends `count` points (value-initialised, in all three arrays) and returns the index of
    /// the first.
    int add_points(int count) {
        const std::size_t first = points.size(), n = first + static_cast<std::size_t>(count);
        points.resize(n);
        angular.resize(n);
        info.resize(n);
        return static_cast<int>(first);
    }
    /// Contact `c`'s points.
    std::span<SolverPoint> points_of(const SolverContact& c) {
        return {points.data() + c.first, static_cast<std::size_t>(c.count)};
    }
    /// Contact `c`'s points.
    std::span<const SolverPoint> points_of(const SolverContact& c) const {
        return {points.data() + c.first, static_cast<std::size_t>(c.count)};
    }
};

/// The force solve's friction impulse at point p of contact c (N·s, world frame).
inline Vec3 tangent_impulse(const SolverContact& c, const SolverPoint& p) {
    return c.tangent1 * p.tangent1_impulse + c.tangent2 * p.tangent2_impulse;
}

/// Builds one SolverContact per manifold of `pairs` into `out` (filled afresh): anchors from the
/// bodies' reference points, effective masses, tangents, approach speeds, impact targets
/// (restitution above ctx.bounce_speed), and the warm-start impulses the pairs carry.
/// Pairs with neither body in `awake` (per body, nonzero: a dynamic body that is awake) are
/// left out: their bodies sleep or never move. `round` (per body, nonzero: a sphere about its
/// reference point) marks the bodies whose normal rows have no angular part: a ball's contact
/// normal passes through its centre, so r × n is zero there, not a rounding error of it.
/// Pairs are prepared in blocks on `threads`.
void prepare_contacts(const StepContext& ctx, const ContactSet& pairs, std::span<const BodySim> bodies,
                      std::span<const unsigned char> awake, std::span<const unsigned char> round, StepConstraints& out,
                      const StepThreads& threads);

/// The impact solve (stage 2 above) on the contacts whose `impact` is set: velocity_iterations
/// passes. With set.islands grouped for these contacts (group_islands()), islands are solved at
/// once on `threads`: the same bits for any count. Returns true when some body's velocity changed.
bool solve_impacts(const StepContext& ctx, StepConstraints& set, std::span<BodySim> bodies,
                   const StepThreads& threads = StepThreads{});

/// Sets each gap point's bias for the force solve: a point a gap s > 0 apart may close it within
/// the step and no further (speculative contact, bias −s/h); a touching point gets none.
void prepare_biases(const StepContext& ctx, StepConstraints& set, const StepThreads& threads);

/// Gives every body the contacts of `set` have a slot in set.bodies (in the order of the bodies'
/// indices; each contact's sa and sb), in blocks on `threads`, and loads its velocities, inverse mass and inverse
/// inertia from `bodies`: what the passes below read and write. Call before them, and again
/// whenever `bodies` changed in between; scatter_solver_bodies() writes the result back.
void gather_solver_bodies(StepConstraints& set, std::span<const BodySim> bodies, const StepThreads& threads);

/// Writes the velocities of set.bodies' moving bodies (inverse mass > 0) back into `bodies`.
void scatter_solver_bodies(const StepConstraints& set, std::span<BodySim> bodies, const StepThreads& threads);

/// Applies every point's warm-start impulse (its normal_impulse and tangent_impulse) to
/// set.bodies, island by island (set.islands, grouped by group_islands()) on `threads`.
void warm_start(StepConstraints& set, const StepThreads& threads);

/// How far one pass of the solver moved the velocities: the largest relative velocity (m/s) that
/// any point's impulse change made at its own point, for the passes' stopping rule.
struct PassChange {
    double largest_change = 0;
    /// True when no point's impulse changed a velocity by more than `tolerance` (m/s).
    bool converged(double tolerance) const { return largest_change <= tolerance; }
};

/// One pass of the force solve over every contact, in order (an impact's few contacts), on
/// set.bodies.
PassChange solve_contacts(const StepContext& ctx, StepConstraints& set);

/// The passes of the force solve (stage 3), island by island (set.islands) on `threads`: each
/// island's contacts in its order, a coloured island's colours in blocks at once, up to
/// velocity_iterations passes; an island stops once a pass changed none of its velocities by
/// more than velocity_tolerance (its own rule: how another island converges changes nothing).
/// On set.bodies.
void solve_velocities(const StepContext& ctx, StepConstraints& set, const StepThreads& threads);

/// The restitution pass (stage 4) on set.bodies, island by island on `threads`. Returns true
/// when some body's velocity changed.
bool apply_restitution(const StepContext& ctx, StepConstraints& set, const StepThreads& threads);

/// Writes the force solve's impulses back into the persistent contacts `pairs`.
void store_impulses(const StepConstraints& set, ContactSet& pairs, const StepThreads& threads);

/// Position correction (stage 6) on `contacts` (as prepared at the step's start), with the
/// bodies where the step left them: each point's separation now is its separation at the start
/// plus how far B's anchor has moved from A's along the normal (the anchors turn with their
/// bodies; Box3D tracks separations the same way); penetrating points are pushed apart by
/// kCorrectionFactor of their depth per pass, moving and turning the bodies' centres and
/// rotations, position_iterations passes. A ball's anchor does not turn with it (the point of a
/// ball that touches is the one along the normal, whichever way the ball has turned), and a push
/// along the normal does not turn it. Island by island (set.islands) on `threads`, each island
/// until none of its points is deeper than kTouchTolerance. Returns true when some body moved.
bool correct_positions(const StepContext& ctx, StepConstraints& set, std::span<BodySim> bodies,
                       const StepThreads& threads);

/// Body `sim`'s inverse inertia in the world frame for its rotation: R·I⁻¹·Rᵀ.
inline Mat3 world_inverse_inertia(const Quat& rotation, const Mat3& inv_inertia_local) {
    return rotate_tensor(to_mat3(rotation), inv_inertia_local);
}

} // namespace collide
