#pragma once
/// \file
/// The fixed-step world: runs a scenario's bodies frame by frame with discrete or swept
/// detection (per world or per body), moves characters by push-out + slide + slope limit, and
/// measures every log entry into one flat array of doubles (report/fields.h says which fields,
/// in which order). One run allocates nothing once its Workspace has warmed up.
///
/// Semantics, in the order a frame happens:
///
/// - **Time.** Bodies are at their given positions at t = 0. Frame k (k = 0 … frames − 1) is
///   sampled at t_k = (k + phase)·dt. The world first advances from 0 to t_0 (a step of
///   phase·dt, possibly 0), then by dt per frame; the step ending at t_k belongs to frame k.
/// - **Integration** (translation only; bodies never turn; static bodies never move). Exact
///   (default): p += v·h + ½·g·h², v += g·h. Euler: v += g·h at the start of the step, then
///   p += v·h — so within one step every body moves in a straight line.
/// - **Discrete detection** (after every step, for every pair i < j in index order that is not
///   two static bodies; repeated up to kDiscretePasses passes while a pass still finds an
///   overlap, for stacks): q = contact(body i, body j). When they overlap (normal n from i to
///   j, depth d): the push-out d + skin goes all to the dynamic body against a static one (j
///   moves +n, i moves −n) and is shared by inverse mass between two dynamic ones (Odin's
///   `Correct`, seed 003). Then, if the relative velocity v_rel = v_j − v_i approaches
///   (v_rel·n < 0): new = respond_velocity(v_rel, n, e, f) with e, f the larger of the pair's,
///   and Δ = new − v_rel is shared by inverse mass (+ to j, − to i; a static body has infinite
///   mass), which against a static body is exactly respond_velocity on the moving one. Then up
///   to kVelocityPasses passes over the pairs found overlapping in this step remove whatever of
///   their relative velocity still approaches along their last normal (restitution 0, no
///   friction), so a stack's shared velocity goes to rest instead of settling at a fraction of
///   g·dt (the push-out leaves them a skin apart, where the contact test no longer sees them).
///   Swept pairs take part too: the pass is what resolves a cast that started inside.
/// - **Swept detection** (pairs with a body whose `ccd` is set, or every pair when the world
///   is swept): within each step, the earliest time of impact of those pairs over the rest of
///   the step (closed-form sphere casts when the pair's relative motion is straight — zero or
///   equal accelerations, or Euler — else time_of_impact on both parabolas); every body moves
///   to that time along its exact motion, the pair's velocities respond as above (no push-out:
///   they touch), and the rest of the step is spent the same way. A hit whose relative
///   velocity does not approach (resting, sliding or grazing) takes that pair out of casting
///   for the rest of the step; after kMaxImpactsPerStep impacts in one step the last pair's
///   approaching normal velocity is zeroed and the step ends without casting. Pairs that
///   start inside are left to the discrete pass. Pairs with a character are never swept.
///   Resting: when a swept body's rebound off a static body (or off a body itself resting) is
///   slower than the bounce threshold (below), or it touches one without approaching while its
///   gravity presses it in, it rests there: its normal velocity is zeroed and its gravity loses the
///   part pressing into that surface (a normal force) until, at the start of a later step, it
///   is no longer within the skin of it (distance > skin + kGroundGap) or moves away faster than the threshold. Without
///   this a resting swept body would sink each step and be bounced by the discrete pass.
/// - **Characters** (`character: true`, like Godot's move_and_slide): every step the body's
///   given `velocity` is its run intent, re-applied each step, plus gravity accumulated while
///   airborne; it moves in a straight line, then up to world.character_iterations passes push
///   it out of every other body (the others do not move): with n the contact normal pointing
///   at the character, a walkable surface (slope from up = −gravity direction, or +y without
///   gravity, ≤ slope_limit) is a floor — the character is lifted straight up until clear by
///   the skin, the gravity accumulation resets and the velocity becomes the run intent slid
///   along the floor, so it stands on a slope under the limit; a steeper surface is a wall —
///   pushed out along n by depth + skin, the velocity and the gravity accumulation slide along
///   it with the pair's friction (restitution 0), and friction also takes its share of the
///   step's travel along the wall, so rough walls are slower to glide along.
///   A dynamic body meeting a character in the discrete pass treats it as static.
/// - **Trace**: after all collision handling of frame k, `trace->frame(k, t_k, states)`.
///
/// Measurements (NaN: not measured):
/// - apex: heights of the body's lowest point (along up) above the floor body's highest point
///   (or above 0). A bounce is a response that turns the vertical velocity from down to up
///   faster than max(rest_speed, |g|·dt) (slower rebounds are resting contact). apex_k is the
///   highest point between bounce k and bounce k + 1 (or the end), on the continuous motion:
///   inside a step whose vertical velocity turns from up to down, the parabola's top
///   y0 + vy0²/(2g). analytic_k = apex_after_bounces(drop_height, max(e_body, e_floor), k).
///   bounces = every bounce seen.
/// - first_contact: discrete — the first frame at which a pass finds the pair overlapping,
///   with the body's position then (before that pair's push-out); swept — the first impact,
///   its frame (the one whose step contained it), its time and the body's position at impact.
/// - axis_overlaps, contact, push_out, separating_axis, raycast: on the bodies as placed at
///   t = 0. A contact the dispatcher cannot answer is reported as no hit. push_out without a
///   contact leaves the position where it was. separating_axis answers two boxes (an Aabb is
///   an Obb) or a box and a triangle, in either order; other pairs are all NaN.
/// - split, respond, slope: pure functions of their inputs (the normal is normalised first;
///   slope measures from the world's up).
/// - final: position and velocity at the last frame. at_rest: the first frame from which the
///   body's speed stays below rest_speed until the end, when that lasts at least rest_time.
///   max_overlap: the deepest contact among pairs that are not both static at the last frame
///   (0, −1, −1 when none).
///
/// Without a trace the run may stop early once every log entry is settled (all first_contact
/// entries found, or no pair can ever meet again) — the values are identical to a full run.

#include <span>
#include <vector>

#include "report/fields.h"

namespace collide {

/// A body's state at a sampled frame (world frame).
struct BodyState {
    Vec3 position; ///< position of the body's local origin (m)
    Vec3 velocity; ///< velocity (m/s)
};

/// Receives every sampled frame, after collision handling.
struct TraceSink {
    virtual ~TraceSink() = default;
    /// Frame `frame` at time `time` (s); bodies in Scenario::bodies order.
    virtual void frame(int frame, double time, std::span<const BodyState> bodies) = 0;
};

/// Most passes of the discrete push-out per step (stops earlier when a pass finds nothing).
inline constexpr int kDiscretePasses = 8;
/// Most velocity passes per step over the pairs the discrete pass found overlapping.
inline constexpr int kVelocityPasses = 16;
/// A resting swept body stays grounded while within skin + this gap of its ground (m).
inline constexpr double kGroundGap = 1e-7;
/// Most impacts handled inside one step by swept detection before it gives up on the step.
inline constexpr int kMaxImpactsPerStep = 16;

namespace world_detail {
/// A body while it runs.
struct RunBody {
    Shape base;             ///< the local shape turned by the body's rotation, local origin at 0
    Shape placed;           ///< base moved to `position` (valid when !dirty)
    Aabb base_bounds;       ///< bounds of `base` (m)
    Vec3 position;          ///< local origin (m)
    Vec3 velocity;          ///< m/s
    Vec3 accel;             ///< gravity for a dynamic non-character body, else 0 (m/s²)
    Vec3 desired;           ///< a character's run intent (m/s)
    Vec3 fall;              ///< a character's accumulated gravity (m/s)
    double inv_mass = 0;    ///< 1/kg; 0 for static bodies (and characters, for others)
    double restitution = 0; ///< [0, 1]
    double friction = 0;    ///< [0, 1]
    double slope_limit = 0; ///< degrees (characters)
    bool is_static = false; ///< never moves
    bool swept = false;     ///< ccd or a swept world
    bool character = false; ///< moved by push-out + slide
    bool dirty = true;      ///< `placed` is stale
    int slow_since = -1;    ///< first frame of the current run of frames below rest_speed, or −1
    int ground = -1;        ///< the body a swept body rests on (static or resting itself), or −1
    Vec3 ground_normal;     ///< unit normal of that ground, pointing at this body
};
/// A pair of bodies that can meet (i < j, not both static).
struct RunPair {
    int i = 0;             ///< first body
    int j = 0;             ///< second body
    bool swept = false;    ///< checked by swept detection
    bool character = false;///< involves a character
    bool touched = false;  ///< the discrete pass found it overlapping this frame
    Vec3 normal;           ///< the last contact normal found this frame, from i to j
};
/// An unsettled first_contact entry.
struct ContactProbe {
    int offset = 0;   ///< its first value in the output
    int body = 0;     ///< the body reported
    int with = 0;     ///< the other body
    bool found = false;
};
/// An apex entry while it runs.
struct ApexProbe {
    int offset = 0;         ///< its first value in the output
    int body = 0;           ///< the bouncing body
    int floor = -1;         ///< the floor body, or −1
    int wanted = 0;         ///< apexes to report
    int bounces = 0;        ///< bounces seen so far
    double best = 0;        ///< highest height since the last bounce (m)
    double low_offset = 0;  ///< the body's lowest point along up, relative to its position (m)
    double top_offset = 0;  ///< the floor's highest point along up, relative to its position (m)
};
} // namespace world_detail

/// Reusable buffers for simulate(): once warmed up by a scenario of the same size, a run
/// allocates nothing. Not shared between threads.
struct Workspace {
    std::vector<world_detail::RunBody> bodies;       ///< per body
    std::vector<world_detail::RunPair> pairs;        ///< pairs that can meet
    std::vector<unsigned char> resting;              ///< per pair: out of casting this step
    std::vector<Aabb> cast_bounds;                   ///< per body: bounds over the rest of the step
    std::vector<BodyState> states;                   ///< for the trace
    std::vector<Shape> targets;                      ///< raycast targets
    std::vector<world_detail::ContactProbe> contacts;///< first_contact entries
    std::vector<world_detail::ApexProbe> apexes;     ///< apex entries
    int frames_stepped = 0; ///< frames the last run stepped: fewer than world.frames when it stopped early
};

/// Run the scenario's world for world.frames frames and write every log entry's fields into
/// `values` (size layout_of(scenario).fields.size(); entry i starts at the sum of field_count
/// of the entries before it). Deterministic: the same scenario gives bit-identical values.
/// `trace`, when given, receives every sampled frame.
void simulate(const Scenario& scenario, std::span<double> values, Workspace& workspace,
              TraceSink* trace = nullptr);

/// Convenience: simulate into a fresh vector sized by the layout (allocates).
std::vector<double> simulate(const Scenario& scenario);

} // namespace collide
