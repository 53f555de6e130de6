#pragma once
/// \file
/// The fixed-step world: bodies moved frame by frame with discrete or swept detection (per
/// world or per body), characters moved by push-out + slide + slope limit, and observers told
/// what happened. It is built from plain definitions (model/bodies.h) and needs nothing of a
/// scenario file or of the log: measurements are observers (probes/). One World can be reset
/// and stepped again; once warmed up by a world of the same size, stepping allocates nothing.
///
/// Semantics, in the order a frame happens:
///
/// - **Time.** Bodies are at their given positions at t = 0. Frame k (k = 0 … frames − 1) is
///   sampled at t_k = (k + phase)·dt. The world first advances from 0 to t_0 (a step of
///   phase·dt, possibly 0), then by dt per frame; the step ending at t_k belongs to frame k.
/// - **Integration** (translation; static bodies never move). Exact (default): p += v·h +
///   ½·g·h², v += g·h. Euler: v += g·h at the start of the step, then p += v·h — so within one
///   step every body moves in a straight line. Only a kinematic body with an angular_velocity ω
///   turns: about its position, its rotation at time t is exp(ω·t)·rotation (exact, no
///   integration), and its shape is placed anew from its local shape at every move. Every
///   other body keeps its rotation.
/// - **Kinematic bodies** move at their velocity (and turn at ω), never pushed by contacts or
///   gravity: to every other body they are a static body that moves. A response against one
///   uses its surface velocity at the contact point, v + ω × (p − position), with p the other
///   body's point deepest towards it (its support point along the contact normal). A dynamic
///   body never rests (below) on a turning body: the discrete pass keeps it on top.
/// - **Discrete detection** (after every step, for every pair i < j in index order that is not
///   two static bodies; repeated up to kDiscretePasses passes while a pass still finds an
///   overlap, for stacks): q = contact(body i, body j). When they overlap (normal n from i to
///   j, depth d): the push-out d + skin goes all to the dynamic body against a static one (j
///   moves +n, i moves −n) and is shared by inverse mass between two dynamic ones (linear
///   projection: Millington, Game Physics Engine Development, ch. 7). Then, if the relative
///   velocity v_rel = v_j − v_i approaches (v_rel·n < 0): new = respond_velocity(v_rel, n, e,
///   f) with e, f the larger of the pair's, and Δ = new − v_rel is shared by inverse mass (+ to
///   j, − to i; a static body has infinite mass), which against a static body is exactly
///   respond_velocity on the moving one. Then up to kVelocityPasses passes over the pairs found
///   overlapping in this step remove whatever of their relative velocity still approaches along
///   their last normal (restitution 0, no friction), so a stack's shared velocity goes to rest
///   instead of settling at a fraction of g·dt (the push-out leaves them a skin apart, where
///   the contact test no longer sees them). Swept pairs take part too: the pass is what
///   resolves a cast that started inside.
/// - **Swept detection** (pairs with a body whose `ccd` is set, or every pair when the world
///   is swept): within each step, the earliest time of impact of those pairs over the rest of
///   the step (closed-form sphere casts when the pair's relative motion is straight — zero or
///   equal accelerations, or Euler — else time_of_impact on both parabolas); every body moves
///   to that time along its exact motion, the pair's velocities respond as above (no push-out:
///   they touch), and the rest of the step is spent the same way. A hit whose relative
///   velocity does not approach (resting, sliding or grazing) takes that pair out of casting
///   for the rest of the step; after kMaxImpactsPerStep impacts in one step the last pair's
///   approaching normal velocity is zeroed and the step ends without casting. Pairs that start
///   inside are left to the discrete pass. Pairs with a character are never cast. A pair with a
///   turning kinematic body is cast by conservative advancement (time_of_impact_turning); such
///   a pair is never speculative (its motion is not straight): the discrete pass takes it.
///   Resting: when a swept body's rebound off a static body (or off a body itself resting) is
///   slower than the bounce threshold (max(rest_speed, |g|·dt)), or it touches one without
///   approaching while its gravity presses it in, it rests there: its normal velocity is
///   zeroed and its gravity loses the part pressing into that surface (a normal force) until,
///   at the start of a later step, it is no longer within the skin of it (distance > skin +
///   kGroundGap) or moves away faster than the threshold. Without this a resting swept body
///   would sink each step and be bounced by the discrete pass.
/// - **Characters** (`character: true`, like Godot's move_and_slide): every step the body's
///   given `velocity` is its run intent, re-applied each step, plus gravity accumulated while
///   airborne; it moves in a straight line, then up to character_iterations passes push it out
///   of every other body (the others do not move): with n the contact normal pointing at the
///   character, a walkable surface (slope from up = −gravity direction, or +y without gravity,
///   ≤ slope_limit) is a floor — the character is lifted straight up until clear by the skin,
///   the gravity accumulation resets and the velocity becomes the run intent slid along the
///   floor, so it stands on a slope under the limit; a steeper surface is a wall — pushed out
///   along n by depth + skin, the velocity and the gravity accumulation slide along it with
///   the pair's friction (restitution 0), and friction also takes its share of the step's
///   travel along the wall, so rough walls are slower to glide along. A dynamic body meeting a
///   character in the discrete pass treats it as static. A character that stood on a kinematic
///   body (its floor) at the end of the last frame is carried: the step adds that body's
///   surface velocity at the character's foot (its lowest point along −up) to its run intent; a
///   kinematic body moving into a character pushes it out as a static body would.
/// - **Triggers** (`trigger: true`) move as their kind says (static, kinematic, dynamic under
///   gravity, character) but are in no pair: nothing above ever sees them — no contact, push-out,
///   response, cast, speculative contact, grounding, character push-out, step or snap — so a
///   world with a trigger moves every other body bit for bit as the world without it. Their
///   overlaps are measured by an observer (probes/trigger.h).
/// - **Pairs come from a broadphase** (world/broadphase.h): every loop above over pairs or
///   over other bodies visits only the candidates whose grown bounds meet — the same pairs, in
///   the same (i, j) order, as the loop over all of them, so results are bit-identical to it
///   (use_all_pairs() runs that loop, for tests). A body pushed out of its grown box mid-pass is
///   looked up again at once. Stepping costs about n log n for n bodies spread out, not n².
///   A world of at most kFlatBodies bodies lists its pairs once at reset instead (the tunnel's
///   two bodies do not pay for a grid each step).
/// - **Observers** are told, in this order within a frame: every move of a body (before it
///   moves), every contact found (discrete: a pass finds the pair overlapping, before its
///   push-out; swept: an approaching impact, before its response; characters: each push-out),
///   every velocity a response changed, and the frame once all collision handling is done.

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "detection/contact.h"
#include "model/bodies.h"
#include "world/broadphase.h"

namespace collide {

/// Most passes of the discrete push-out per step (stops earlier when a pass finds nothing).
inline constexpr int kDiscretePasses = 8;
/// Most velocity passes per step over the pairs the discrete pass found overlapping.
inline constexpr int kVelocityPasses = 16;
/// A resting swept body stays on its ground while within skin + this gap of it (m).
inline constexpr double kGroundGap = 1e-7;
/// Most impacts handled inside one step by swept detection before it gives up on the step.
inline constexpr int kMaxImpactsPerStep = 16;

/// A body's state (world frame).
struct BodyState {
    Vec3 position; ///< position of the body's local origin (m)
    Vec3 velocity; ///< velocity (m/s)
    Quat rotation; ///< orientation (unit quaternion; changes only for a turning kinematic body)
};

class World;

/// Which events an observer wants (a bit set); the world calls only the wanted ones.
enum WorldEvent : unsigned {
    kOnMove = 1u << 0,     ///< on_move
    kOnContact = 1u << 1,  ///< on_contact
    kOnResponse = 1u << 2, ///< on_response
    kOnFrame = 1u << 3,    ///< on_frame
};

/// Told what happens while a World steps (Jolt's ContactListener, Box2D's events). The world
/// is passed back read-only; an observer must not keep references into it across calls.
class WorldObserver {
public:
    virtual ~WorldObserver() = default;
    /// Body `body` is about to move for `tau` s with acceleration `accel` (m/s²) from its
    /// current state (world.state(body)).
    virtual void on_move(const World& world, int body, double tau, const Vec3& accel);
    /// Bodies i < j touch at `time` (s) in the current frame; positions are those at contact.
    virtual void on_contact(const World& world, int i, int j, double time);
    /// A response changed `body`'s velocity from `before` to `after` (m/s).
    virtual void on_response(const World& world, int body, const Vec3& before, const Vec3& after);
    /// Frame `frame` (sampled at `time` s) is done: every body is where the frame leaves it.
    virtual void on_frame(const World& world, int frame, double time);
};

/// The world. Movable, not copyable (observers hold on to it). Not shared between threads.
class World {
public:
    World() = default;
    World(World&&) = default;
    World& operator=(World&&) = default;
    World(const World&) = delete;
    World& operator=(const World&) = delete;

    /// Starts over with these settings and bodies (body i is bodies[i]), at t = 0, frame 0,
    /// with no observers. Reuses storage: once warmed up by a world as large, allocates nothing.
    void reset(const WorldDef& def, std::span<const BodyDef> bodies);

    /// Adds an observer for the `events` (WorldEvent bits). It must outlive the stepping.
    void add_observer(WorldObserver& observer, unsigned events);

    /// Steps to the next sampled frame (the world's frame counter + 1) and tells observers.
    /// Does nothing once every frame has been stepped.
    void step_frame();

    /// The settings.
    const WorldDef& def() const { return def_; }
    /// How many bodies there are.
    int body_count() const { return static_cast<int>(bodies_.size()); }
    /// Frames stepped so far (the next frame's index).
    int frames_stepped() const { return frames_stepped_; }
    /// The frame being stepped (during a step) or last stepped; −1 before the first.
    int frame() const { return frame_; }
    /// The unit up direction: −gravity normalised, or +y without gravity.
    Vec3 up() const { return up_; }
    /// The current position and velocity of body `i` (m, m/s).
    BodyState state(int i) const {
        const StepBody& b = bodies_[static_cast<std::size_t>(i)];
        return {b.position, b.velocity, b.rotation};
    }
    /// Every body's state as the last frame left it, in body order; filled only while an
    /// observer wants kOnFrame (read it from on_frame).
    std::span<const BodyState> states() const { return states_; }
    /// True when body `i` never moves.
    bool is_static(int i) const { return bodies_[static_cast<std::size_t>(i)].is_static; }
    /// True when body `i` is a trigger volume: no pair with it is ever formed, so it never
    /// responds, pushes, blocks, grounds or is cast against, and no character meets it.
    bool is_trigger(int i) const { return bodies_[static_cast<std::size_t>(i)].trigger; }
    /// Body `i`'s shape turned by its rotation, local origin at 0 (m).
    const Shape& local_shape(int i) const { return bodies_[static_cast<std::size_t>(i)].base; }
    /// Body `i`'s shape placed where the body is now (world frame).
    const Shape& placed(int i) const {
        StepBody& b = bodies_[static_cast<std::size_t>(i)];
        if (b.dirty) {
            // Spheres and boxes inline (the same sums as translate_into): a crowd's hot path.
            if (const auto* ball = std::get_if<Sphere>(&b.base); ball && std::holds_alternative<Sphere>(b.placed))
                std::get<Sphere>(b.placed) = Sphere{ball->centre + b.position, ball->radius};
            else if (const auto* box = std::get_if<Aabb>(&b.base); box && std::holds_alternative<Aabb>(b.placed))
                std::get<Aabb>(b.placed) = Aabb{box->min + b.position, box->max + b.position};
            else
                translate_into(b.placed, b.base, b.position);
            b.dirty = false;
        }
        return b.placed;
    }
    /// Body `i`'s bounds where it is now (m).
    Aabb bounds(int i) const {
        const StepBody& b = bodies_[static_cast<std::size_t>(i)];
        return Aabb{b.base_bounds.min + b.position, b.base_bounds.max + b.position};
    }
    /// A character's contact with the ground as the last frame left it.
    struct CharacterState {
        bool grounded = false; ///< it stands on a walkable surface
        Vec3 ground_normal;    ///< that surface's unit normal (zero when not grounded)
        int steps = 0;         ///< steps climbed so far
    };
    /// Body `i`'s character state (all zero for a body that is not a character).
    CharacterState character_state(int i) const {
        const StepBody& b = bodies_[static_cast<std::size_t>(i)];
        return {b.on_floor, b.on_floor ? b.floor_normal : Vec3{}, b.steps};
    }
    /// For tests and benchmarks: with `all` set, the broadphase gives every pair as a candidate
    /// (the all-pairs loop the broadphase must match bit for bit). Kept across reset().
    void use_all_pairs(bool all) { broad_.set_exhaustive(all); }

    /// True when no two bodies can meet again: there is no character, and every pair drifts
    /// apart on some axis under its relative velocity and gravity, so every later frame is
    /// free flight. Always false for a world of more than 256 bodies (the proof is n²).
    bool no_pair_can_meet() const;

private:
    /// A body while the world steps.
    struct StepBody {
        Shape base;                ///< the local shape turned by the body's rotation, local origin at 0
        Shape placed;              ///< base moved to `position` (valid when !dirty)
        Aabb base_bounds;          ///< bounds of `base` (m)
        Vec3 position;             ///< local origin (m)
        Vec3 velocity;             ///< m/s
        Vec3 accel;                ///< gravity for a dynamic non-character body, else 0 (m/s²)
        Vec3 desired;              ///< a character's run intent (m/s)
        Vec3 fall;                 ///< a character's accumulated gravity (m/s)
        double inv_mass = 0;       ///< 1/kg; 0 for static bodies (and characters, for others)
        double restitution = 0;    ///< [0, 1]
        double friction = 0;       ///< [0, 1]
        double slope_limit = 0;    ///< degrees (characters)
        bool is_static = false;    ///< never moves
        bool kinematic = false;    ///< moved by its velocity only
        bool swept = false;        ///< ccd or a swept world
        bool speculative = false;  ///< speculative contacts (ccd: speculative or a speculative world)
        bool character = false;    ///< moved by push-out + slide
        bool trigger = false;      ///< a trigger volume: in no pair, never met by a character
        bool dirty = true;         ///< `placed` is stale
        double step_height = 0;    ///< characters: highest step climbed (m)
        double snap_distance = 0;  ///< characters: how far down it stays glued to the ground (m)
        bool on_floor = false;     ///< characters: stood on a walkable surface this frame
        bool was_on_floor = false; ///< characters: … and the frame before
        Vec3 floor_normal;         ///< characters: that surface's unit normal
        int steps = 0;             ///< characters: steps climbed so far
        bool stepping = false;     ///< characters: climbed (part of) a step this frame
        int last_step = -1;        ///< characters: the last body stepped onto, or −1
        double floor_height = 0;   ///< characters: height along up where it last stood on a floor (m)
        int ground = -1;           ///< the body a swept body rests on (static or resting itself), or −1
        Vec3 ground_normal;        ///< unit normal of that ground, pointing at this body
        int floor_body = -1;       ///< characters: the body stood on at the end of the last frame, or −1
        bool turning = false;      ///< a kinematic body with a non-zero angular velocity
        Vec3 omega;                ///< its angular velocity (rad/s, world frame)
        Quat rotation0;            ///< the rotation at t = 0
        Quat rotation;             ///< the rotation now
        double spin_time = 0;      ///< time turned so far (s)
        double spin_radius = 0;    ///< the farthest point of `base` from its origin (m)
        Shape local;               ///< a turning body's shape in its local frame (unturned)
    };

    /// A pair of bodies that can meet (i < j, not both static).
    struct StepPair {
        int i = 0;                ///< first body
        int j = 0;                ///< second body
        bool swept = false;       ///< found by casting
        bool speculative = false; ///< given speculative contacts
        bool arriving = false;    ///< a speculative contact slowed it this step
        double approach = 0;      ///< its normal velocity before that (m/s, negative: approaching)
        bool character = false;   ///< involves a character
        bool touched = false;     ///< the discrete pass found it overlapping this frame
        bool resting = false;     ///< swept: out of casting for the rest of this step
        Vec3 normal;              ///< the last contact normal found this frame, from i to j
    };

    /// One observer and the events it wants.
    struct Listener {
        WorldObserver* observer = nullptr;
        unsigned events = 0;
    };

    /// A hit of a pair inside a step: time from the sub-step's start and the normal from i to j.
    struct PairHit {
        double time = 0;
        Vec3 normal;
    };

    WorldDef def_;                         ///< the settings
    mutable std::vector<StepBody> bodies_; ///< per body (mutable: placed shapes are cached lazily)
    std::vector<StepPair> pairs_;          ///< discrete: the broadphase's candidate pairs, by (i, j)
    std::vector<StepPair> extra_;          ///< discrete: candidates found during a pass, by (i, j)
    std::vector<StepPair> merged_;         ///< discrete: scratch for merging extra_ into pairs_
    std::vector<StepPair> cast_pairs_;     ///< swept candidate pairs this step, by (i, j)
    std::vector<StepPair> spec_pairs_;     ///< speculative candidate pairs this step, by (i, j)
    std::vector<unsigned char> active_;    ///< per body: responds to contacts (or is a character)
    mutable Broadphase broad_;             ///< candidate pairs (rebuilt for each pass kind)
    std::vector<PairKey> keys_;            ///< scratch: candidate pair keys
    std::vector<int> found_;               ///< scratch: bodies found by a query
    mutable std::vector<int> probe_;       ///< scratch: bodies near a character's trial position
    std::vector<Aabb> boxes_;              ///< scratch: every body's bounds
    std::vector<Aabb> cast_bounds_;        ///< per body: bounds over the rest of the step
    std::vector<Listener> listeners_;      ///< observers and their events
    std::vector<BodyState> states_;        ///< every body's state at the last frame (when observed)
    unsigned wanted_ = 0;                  ///< union of the listeners' events

    Vec3 up_{0, 1, 0};
    double bounce_speed_ = 0; ///< a rebound must be faster than this to count as a bounce (m/s)
    bool exact_ = true;
    bool any_swept_pair_ = false;
    bool any_speculative_pair_ = false;
    bool has_characters_ = false;
    bool any_turning_ = false; ///< some kinematic body turns
    bool fixed_pairs_ = false; ///< at most kFlatBodies bodies: pairs_, cast_pairs_, spec_pairs_ made once at reset
    int frame_ = -1;
    int frames_stepped_ = 0;
    double frame_time_ = 0;
    double step_ = 0;

    StepPair make_pair(int i, int j) const;
    bool pair_drifts_apart(int i, int j) const;
    void build_broadphase(std::span<const Aabb> boxes, double margin);
    void refit_discrete(int index);
    void tell_move(int index, double tau, const Vec3& accel);
    void tell_contact(int i, int j, double time);
    void tell_response(int index, const Vec3& before, const Vec3& after);
    StepBody& body(int index);
    Vec3 grounded_accel(const StepBody& b) const;
    double time_to_stop(const StepBody& b, const Vec3& a) const;
    void stop_sliding(StepBody& b);
    void advance_body(int index, double tau, const Vec3& a);
    static void turn_body(StepBody& b, double tau);
    void ground_at_start();
    Vec3 motion_accel(const StepBody& b) const;
    void move(int index, double tau);
    void move_all(double tau);
    void advance_step(double h, double start);
    bool is_base(int index) const;
    bool try_ground(int i, int j, const Vec3& n);
    void keep_or_release_ground(int index);
    void update_cast_bounds(double span);
    std::optional<PairHit> pair_impact(const StepPair& p, double span);
    static bool cast_answers(const Shape& obstacle);
    static std::optional<PairHit> cast_sphere_shape(const Sphere& s, const Vec3& velocity, const Shape& obstacle,
                                                    double span);
    Vec3 surface_velocity(int index, int other, const Vec3& n) const;
    Vec3 relative_velocity(int i, int j, const Vec3& n) const;
    Vec3 carried_velocity(const StepBody& c) const;
    void respond_pair(int i, int j, const Vec3& n, const double* approach = nullptr);
    void speculate(double h);
    void arrive();
    void cast_step(double h, double start);
    void zero_approach(int i, int j, const Vec3& n);
    void push_pair(int i, int j, const Contact& c);
    void discrete_passes();
    void character_passes();
    void character_contact(int index, int obstacle, const Contact& hit);
    bool overlaps_any(int index, const Shape& shape) const;
    double drop_distance(int index, const Shape& shape, double reach, Vec3* normal, int* below = nullptr) const;
    bool try_step(int index, int obstacle);
    void snap_to_ground(int index);
};

/// Bounds that overlap by more than kTouchEpsilon on every axis (a contact needs that: were
/// they to overlap by δ ≤ kTouchEpsilon on some axis, moving B by δ along it would part them,
/// so the depth is at most δ — touching, not contact).
inline bool bounds_overlap(const Aabb& a, const Aabb& b) {
    constexpr double e = kTouchEpsilon;
    return a.min.x < b.max.x - e && b.min.x < a.max.x - e && a.min.y < b.max.y - e && b.min.y < a.max.y - e &&
           a.min.z < b.max.z - e && b.min.z < a.max.z - e;
}

} // namespace collide
