#pragma once
/// \file
/// The fixed-step world: rigid bodies that move and turn, pushed apart by an impulse solver at
/// contact manifolds; discrete, swept or speculative detection (per world or per body);
/// characters moved by push-out + slide + slope limit; kinematic bodies that move and turn at
/// given rates; triggers; sleeping; and observers told what happened. It is built from plain
/// definitions (model/bodies.h) and needs nothing of a scenario file or of the log:
/// measurements are observers (probes/). One World can be reset and stepped again; once warmed
/// up by a world of the same size, stepping allocates nothing.
///
/// **Time.** Bodies are at their given poses at t = 0. Frame k (k = 0 … frames − 1) is sampled
/// at t_k = (k + phase)·dt. The world first advances from 0 to t_0 (a step of phase·dt,
/// possibly 0), then by dt per frame; the step ending at t_k belongs to frame k.
///
/// **Bodies** (BodyKind): static bodies never move; kinematic bodies move at their velocity and
/// turn at their angular velocity about their position (rotation(t) = exp(ω·t)·rotation0,
/// exactly), never pushed; characters are moved by their controller (below) and never turn;
/// dynamic bodies move under gravity and contacts and turn about their centre of mass, with the
/// mass (or density × volume) and the exact inertia tensor of their shape (shapes/mass.h); one
/// with `fixed_rotation` never turns. To a dynamic body, every other kind is a body of infinite
/// mass moving as it moves. Triggers (any kind) are in no pair: nothing responds to them.
///
/// **A step** of h seconds is a list of named stages (one file each; the contact solver's
/// method is in world/contact_solver.h):
///  1. *prepare* (contact_solver): the contacts found at the end of the last step become
///     solver constraints, with the impulses they carried (warm starting by feature id);
///  2. *impacts* (contact_solver): points that touch and approach at the step's start get the
///     impulse of an impact (restitution above the bounce speed, Coulomb friction);
///  3. *integrate velocities* (integrate): v += g·h for dynamic bodies;
///  4. *solve* (contact_solver): warm start, then velocity_iterations passes of sequential
///     impulses — no penetration, speculative gaps closing at most to touching, friction in
///     Coulomb's cone;
///  5. *integrate positions* and *continuous* (integrate, continuous): each body moves over the
///     step with the constant acceleration that takes it from its velocity after the impacts to
///     its solved one (exact: the position follows the mean of the two, the trapezoid, exact for
///     a free fall and for a body rolling or sliding under constant contact forces; Euler: the
///     solved velocity only), and turns by the exponential map of its mean (Euler: solved)
///     angular velocity; its angular velocity is then carried through the turn so that its
///     angular momentum I·ω is unchanged (the gyroscopic term, exactly: a torque-free body keeps
///     L). Swept pairs (a `ccd` body, or every pair in a swept world; never a character) that
///     are not touching (not in contact, or in contact with a gap at every point) are searched
///     for the earliest time of impact along those motions (closed-form sphere casts where the
///     relative motion is straight and the sphere does not turn, conservative advancement
///     otherwise): every body moves to it, the pair's manifold there gets an impact's impulse
///     (Poisson's restitution, each manifold solved exactly), and the rest of the step is solved
///     again for the two bodies (their other contacts included, other bodies held still), so a
///     ball that lands without bouncing rests exactly on the floor; then the next impact (the
///     same pair's too: a tumbling box's next corner), up to kMaxImpactsPerStep, then the rest
///     of the step. A body turning free of torque moves, and is cast, along that turn itself;
///     at an impact its angular velocity is I(q)⁻¹·L;
///  6. *restitution* (contact_solver): a speculative gap that closed bounces;
///  7. *store impulses* (contact_solver);
///  8. *characters* (character): push-out + slide + steps + snap;
///  9. *correct positions* (contact_solver): penetrations are pushed out without adding
///     velocity;
/// 10. *update contacts* (contacts_update): the broadphase's candidate pairs get their manifolds
///     at the new poses; a pair comes into contact when it overlaps (discrete), touches at an
///     impact (swept), or its gap is within its reach over the next step (speculative), and
///     stays in contact while within the skin plus its reach; observers hear of every pair that
///     overlaps;
/// 11. *sleep* (sleep): islands of touching dynamic bodies still for rest_time fall asleep;
/// 12. observers hear of the frame.
///
/// **Contacts and detection.** Discrete: a pair comes into contact when its shapes overlap at a
/// sampled frame (bullets tunnel when no frame lands them in the wall). Swept: at the exact time
/// of impact. Speculative (Catto, "Continuous Collision", GDC 2013): when its gap is smaller
/// than the distance its motion can close in the next step; the solver lets it arrive touching
/// and the restitution pass bounces it at the speed it had. Either way, a pair in contact is the
/// solver's until it parts by more than the skin: a resting body stays on its floor exactly.
///
/// **Characters** (`character: true`, like Godot's move_and_slide): every step the body's given
/// `velocity` is its run intent, plus gravity accumulated while airborne and the velocity at its
/// foot of the kinematic body it stands on; it moves in a straight line, then up to
/// character_iterations passes push it out of every other body (the others do not move): a
/// walkable surface (slope from up ≤ slope_limit) is a floor — lifted straight up until clear by
/// the skin, falling stops, the run intent slides along it — a steeper one is a wall — pushed
/// out along its normal, sliding along it with the pair's friction. step_height climbs steps,
/// snap_distance keeps it on the ground over crests and down slopes.
///
/// **Sleep.** A dynamic body whose fastest point is slower than rest_speed accumulates still
/// time; an island of dynamic bodies joined by contacts sleeps when each of them has been still
/// for rest_time (velocities zeroed; not integrated, solved or collided among themselves), and
/// wakes when a body that is awake, or a kinematic body or character that moves, touches it.
/// `world.sleep: false` keeps every body awake.
///
/// **Pairs come from a broadphase** (world/broadphase.h): every loop over pairs visits only the
/// candidates whose grown bounds meet, in (i, j) order — the same pairs, in the same order, as
/// the loop over all of them, so results are bit-identical to it (use_all_pairs() runs that
/// loop, for tests).
///
/// **Observers** are told, in this order within a step: every move of a body (before it moves),
/// every impact found by a time of impact (before its response), every velocity a response
/// changed (impacts, restitution), every character push-out, every pair found overlapping when
/// the contacts are updated, then the frame.

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "detection/manifold.h"
#include "model/bodies.h"
#include "world/bodies.h"
#include "world/broadphase.h"
#include "world/contact_solver.h"
#include "world/contacts.h"
#include "world/step_context.h"

namespace collide {

/// Most impacts handled inside one step by swept detection before the rest of it is left to
/// the solver.
inline constexpr int kMaxImpactsPerStep = 16;
/// A resting body placed within skin + this gap of another (m) starts in contact with it.
inline constexpr double kGroundGap = 1e-7;

/// A body's state (world frame).
struct BodyState {
    Vec3 position;         ///< its origin: the position it was given at (m)
    Vec3 velocity;         ///< of its centre of mass (a dynamic body) or its origin (m/s)
    Quat rotation;         ///< orientation (unit quaternion)
    Vec3 angular_velocity; ///< ω (rad/s, world frame)
};

class World;

/// Which events an observer wants (a bit set); the world calls only the wanted ones.
enum WorldEvent : unsigned {
    kOnMove = 1u << 0,     ///< on_move
    kOnContact = 1u << 1,  ///< on_contact
    kOnResponse = 1u << 2, ///< on_response
    kOnFrame = 1u << 3,    ///< on_frame
};

/// A contact the world found: bodies a < b, when, and where (normals from a to b).
struct ContactEvent {
    int a = 0;                           ///< first body, a < b
    int b = 0;                           ///< second body
    double time = 0;                     ///< when (s)
    std::span<const Manifold> manifolds; ///< where: the pair's manifolds (an impact's depths are 0)
};

/// Told what happens while a World steps (Jolt's ContactListener, Box2D's events). The world
/// is passed back read-only; an observer must not keep references into it across calls.
class WorldObserver {
public:
    virtual ~WorldObserver() = default;
    /// Body `body` is about to move for `tau` s with constant acceleration `accel` (m/s²) of its
    /// reference point from its current state (world.state(body)), turning at its angular velocity.
    virtual void on_move(const World& world, int body, double tau, const Vec3& accel);
    /// Two bodies touch (see ContactEvent); positions are those at contact.
    virtual void on_contact(const World& world, const ContactEvent& contact);
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
    /// with no observers. Pairs within the skin of each other start in contact. Reuses
    /// storage: once warmed up by a world as large, allocates nothing. The world shares what
    /// the bodies' shapes point into (BodyDef::hull_data, BodyDef::mesh_data), so it may outlive
    /// `bodies`.
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
    /// Body `i`'s current state.
    BodyState state(int i) const {
        const BodySim& s = sims_[static_cast<std::size_t>(i)];
        const Body& b = bodies_[static_cast<std::size_t>(i)];
        return {s.centre + b.origin_offset, s.velocity, s.rotation, s.angular_velocity};
    }
    /// Every body's state as the last frame left it, in body order; filled only while an
    /// observer wants kOnFrame (read it from on_frame).
    std::span<const BodyState> states() const { return states_; }
    /// An upper bound on the speed of body `i`'s fastest point (m/s): |v| + |ω|·ρ, with ρ its
    /// farthest point from its reference point (|v| for a ball turning about its centre).
    double fastest_speed(int i) const {
        const BodySim& s = sims_[static_cast<std::size_t>(i)];
        const Body& b = bodies_[static_cast<std::size_t>(i)];
        return length(s.velocity) + (b.round ? 0.0 : length(s.angular_velocity) * b.radius);
    }
    /// What moves body `i`.
    BodyKind kind(int i) const { return bodies_[static_cast<std::size_t>(i)].kind; }
    /// True when body `i` never moves.
    bool is_static(int i) const { return kind(i) == BodyKind::fixed; }
    /// True when body `i` is a trigger volume: no pair with it is ever formed.
    bool is_trigger(int i) const { return bodies_[static_cast<std::size_t>(i)].trigger; }
    /// True when body `i` sleeps.
    bool is_asleep(int i) const { return bodies_[static_cast<std::size_t>(i)].asleep; }
    /// Body `i`'s shape turned by its current rotation, its origin at 0 (m).
    const Shape& local_shape(int i) const { return bodies_[static_cast<std::size_t>(i)].base; }
    /// Body `i`'s shape placed where the body is now (world frame).
    const Shape& placed(int i) const {
        Body& b = bodies_[static_cast<std::size_t>(i)];
        if (b.dirty) {
            const Vec3 origin = sims_[static_cast<std::size_t>(i)].centre + b.origin_offset;
            // Spheres and boxes inline (the same sums as translate_into): a crowd's hot path.
            if (const auto* ball = std::get_if<Sphere>(&b.base); ball && std::holds_alternative<Sphere>(b.placed))
                std::get<Sphere>(b.placed) = Sphere{ball->centre + origin, ball->radius};
            else if (const auto* box = std::get_if<Aabb>(&b.base); box && std::holds_alternative<Aabb>(b.placed))
                std::get<Aabb>(b.placed) = Aabb{box->min + origin, box->max + origin};
            else
                translate_into(b.placed, b.base, origin);
            b.dirty = false;
        }
        return b.placed;
    }
    /// Body `i`'s bounds where it is now (m).
    Aabb bounds(int i) const {
        const Body& b = bodies_[static_cast<std::size_t>(i)];
        const Vec3 origin = sims_[static_cast<std::size_t>(i)].centre + b.origin_offset;
        return Aabb{b.base_bounds.min + origin, b.base_bounds.max + origin};
    }
    /// The pairs in contact as the last step left them (sorted by (i, j)).
    const ContactSet& contacts() const { return contacts_; }
    /// A character's contact with the ground as the last frame left it.
    struct CharacterState {
        bool grounded = false; ///< it stands on a walkable surface
        Vec3 ground_normal;    ///< that surface's unit normal (zero when not grounded)
        int steps = 0;         ///< steps climbed so far
    };
    /// Body `i`'s character state (all zero for a body that is not a character).
    CharacterState character_state(int i) const {
        const Body& b = bodies_[static_cast<std::size_t>(i)];
        if (b.character < 0) return {};
        const CharacterBody& c = characters_[static_cast<std::size_t>(b.character)];
        return {c.on_floor, c.on_floor ? c.floor_normal : Vec3{}, c.steps};
    }
    /// Steps on `threads` threads from now on (≥ 1; the default 1 steps on the caller's
    /// thread): the same bits for every count (world/parallel.h). Kept across reset().
    void set_threads(int threads) { threads_.set_threads(threads); }
    /// The threads the world steps on.
    int threads() const { return threads_.threads(); }

    /// For tests and benchmarks: with `all` set, the broadphase gives every pair as a candidate
    /// (the all-pairs loop the broadphase must match bit for bit). Kept across reset().
    void use_all_pairs(bool all) { broad_.set_exhaustive(all); }

    /// True when no two bodies can meet again: there is no character and nothing turns, every
    /// dynamic body is free (in no contact), and every pair drifts apart on some axis under its
    /// relative velocity and gravity, so every later frame is free flight. Always false for a
    /// world of more than 256 bodies (the proof is n²).
    bool no_pair_can_meet() const;

private:
    /// One observer and the events it wants.
    struct Listener {
        WorldObserver* observer = nullptr;
        unsigned events = 0;
    };

    WorldDef def_;                     ///< the settings
    LargeVector<BodySim> sims_;        ///< hot, per body (huge pages: the solver reads it every pass)
    mutable LargeVector<Body> bodies_; ///< cold, per body (mutable: placed shapes are cached lazily)
    std::vector<std::shared_ptr<const void>> shape_data_; ///< what the bodies' hulls and meshes point into, kept alive
    std::vector<TurningShape> turning_;                   ///< per body that turns its shape (Body::turning)
    std::vector<CharacterBody> characters_;               ///< per character (Body::character)
    ContactSet contacts_;                                 ///< pairs in contact, by (i, j)
    ContactSet next_contacts_;                            ///< scratch: the update's new list
    StepConstraints solver_;                              ///< this step's constraints
    StepConstraints sub_solver_;                          ///< scratch: an impact's constraints
    std::vector<Manifold> manifolds_;                     ///< scratch: one pair's manifolds
    /// A candidate pair's contact found ahead of the update's walk (update_contacts()): its
    /// manifold, whether it stays, and the contact it had before (whose impulses it carries).
    struct FoundAhead {
        bool kept = false;                      ///< it stays or comes into contact: the walk adds it
        PairContact pair;                       ///< the pair (first: set by the walk)
        Manifold found;                         ///< its one manifold (no mesh: one a pair)
        const PairContact* before = nullptr;    ///< its contact before the update, or null
        const ContactSet* before_set = nullptr; ///< … and the set that holds it
        int at = 0;                             ///< its place among the new pairs
        int point = 0;                          ///< its first point's place among the new points
    };
    /// An old contact that stays as it was (frozen), and its places in the new set.
    struct FrozenPlace {
        int old;      ///< its index among the old pairs
        int pair;     ///< its place among the new pairs
        int manifold; ///< … its first manifold's
        int point;    ///< … its first point's
    };
    std::vector<FrozenPlace> frozen_at_;  ///< scratch: update_contacts() on several threads
    LargeVector<FoundAhead> found_ahead_; ///< scratch: per candidate key, on several threads
    std::vector<unsigned char>
            touched_;                   ///< scratch: per contact, pushed/arrived (begin_motion); per body, moved (step)
    ContactSet impact_pairs_;           ///< pairs that came into contact at an impact this step
    std::vector<PairKey> cast_pairs_;   ///< continuous: candidate swept pairs this step, sorted
    std::vector<PairKey> resolved_;     ///< continuous: pairs solved at the current instant
    std::vector<PairKey> pressing_;     ///< continuous: pairs pressing on after their impact
    std::vector<BodySim> sub_bodies_;   ///< continuous: an impact's bodies (local copies)
    std::vector<int> sub_index_;        ///< continuous: their global indices
    ContactSet sub_pairs_;              ///< continuous: the impact's new contact, in local indices
    StepThreads threads_;               ///< the threads a step runs on
    mutable Broadphase broad_;          ///< candidate pairs
    std::vector<PairKey> keys_;         ///< scratch: candidate pair keys
    std::vector<PairKey> kept_keys_;    ///< scratch: the keys of contacts that may stay
    std::vector<PairKey> merged_keys_;  ///< scratch: candidates and kept keys together
    std::vector<unsigned char> active_; ///< scratch: per body, moves this step (broadphase)
    std::vector<unsigned char> round_;  ///< per body: a ball about its reference point (Body::round)
    std::vector<Aabb> boxes_;           ///< scratch: every body's bounds (grown by its reach)
    std::vector<double> reach_;         ///< per body: how far a point of it can move in a step (m)
    std::vector<int> found_;            ///< scratch: bodies found by a query
    mutable std::vector<int> probe_;    ///< scratch: bodies near a character's trial position
    std::vector<Vec3> before_;          ///< scratch: velocities before a response
    std::vector<int> levels_;           ///< scratch: per body, distance in contacts from a body that does not move
    std::vector<int> adjacency_start_;  ///< scratch: contact adjacency, compressed rows
    std::vector<int> adjacency_;        ///< scratch: the neighbours
    std::vector<int> fill_;             ///< scratch
    std::vector<int> queue_;            ///< scratch: the breadth-first walk
    std::vector<double> load_;          ///< scratch: the weight a body carries (N·s)
    std::vector<Vec3> load_torque_;     ///< scratch: the torque of what rests on it, about its centre (N·m·s)
    /// A point holding a body up, for the resting estimate.
    struct Support {
        int point;               ///< which of contacts_.points it is
        int support;             ///< the body under it
        Vec3 normal;             ///< from the support to the body held
        double rise, arm1, arm2; ///< its normal's upward part, its torque arm about two horizontal axes
        double impulse;          ///< the impulse estimated (N·s)
    };
    std::vector<Support> supports_;    ///< scratch
    std::vector<int> island_;          ///< scratch: union–find parents of the sleep islands
    std::vector<double> island_still_; ///< scratch: an island's least still time
    std::vector<unsigned char>
            island_wake_;             ///< scratch: per island, 1 touched by something moving, 2 resting on something
    std::vector<Listener> listeners_; ///< observers and their events
    std::vector<BodyState> states_;   ///< every body's state at the last frame (when observed)
    unsigned wanted_ = 0;             ///< union of the listeners' events

    Vec3 up_{0, 1, 0};
    bool has_characters_ = false;
    bool any_swept_ = false;       ///< some pair can be swept
    bool any_speculative_ = false; ///< some body is speculative: its pairs need the broadphase to see its reach
    bool any_turning_ = false;     ///< some body can turn (a dynamic one, or a spinning kinematic one)
    bool any_mesh_ = false;        ///< some body is a mesh (its pairs can have several manifolds)
    int frame_ = -1;
    int frames_stepped_ = 0;
    double frame_time_ = 0; ///< the sampled time of the frame being stepped (s)
    double step_start_ = 0; ///< the time its step starts from: the frame before's (s)
    double step_ = 0;       ///< the step being taken (s)
    double last_step_ = 0;  ///< the step before it (s): warm-start impulses scale by step_/last_step_

    // world.cpp: the pipeline and the notifications.
    void step(double h);
    void estimate_resting_impulses(const StepContext& ctx);
    void tell_move(int index, double tau, const Vec3& accel);
    /// Tells observers that a < b touch; the manifolds' normals point from a to b.
    void tell_contact(int a, int b, double time, std::span<const Manifold> manifolds);
    void tell_responses(std::span<const SolverContact> contacts);
    void save_velocities(std::span<const SolverContact> contacts);
    bool is_dynamic(int i) const { return bodies_[static_cast<std::size_t>(i)].kind == BodyKind::dynamic; }
    bool is_character(int i) const { return bodies_[static_cast<std::size_t>(i)].kind == BodyKind::character; }
    Body& body(int i) const { return bodies_[static_cast<std::size_t>(i)]; }
    bool moves(int i) const;
    bool pair_can_touch(int i, int j) const;
    bool pair_is_swept(int i, int j) const;
    bool pair_is_speculative(int i, int j) const;
    bool pair_drifts_apart(int i, int j) const;

    // integrate.cpp
    void integrate_velocities(const StepContext& ctx);
    void begin_motion(const StepContext& ctx);
    void advance(double tau);
    /// begin_motion() of body i (after the contacts marked it).
    void begin_body_motion(const StepContext& ctx, int i);
    /// end_motion() of body i.
    void end_body_motion(int i);
    void advance_body(int index, double tau);
    void end_motion(const StepContext& ctx);
    /// Stage 5 for a body no contact pushes, turning: its turn over the step free of torque
    /// (math/free_turn.h), as a constant angular velocity, and its angular momentum for
    /// end_motion(); leaves free_turn false when the turn cannot be found.
    void turn_freely(BodySim& s, Body& b, double h);
    /// A body turning free of torque: its world inverse inertia at its rotation now, and its
    /// angular velocity there, I(q)⁻¹·L (L its free_momentum).
    static void spin_from_momentum(BodySim& s, const Body& b);
    void refresh_body(int index);
    void turn_kinematic(int index, double tau);

    // continuous.cpp
    void continuous(const StepContext& ctx);
    std::optional<std::pair<double, Vec3>> pair_impact(int i, int j, double span) const;
    /// The impact of pair (i, j) at time `now` and the rest of the step (`remaining` s) for
    /// the two; true when the pair still presses on after it (then not cast again this step).
    bool resolve_impact(const StepContext& ctx, int i, int j, double remaining, double now);

    // contacts_update.cpp
    void update_contacts(const StepContext& ctx, bool at_start);
    /// The margin within which candidate pair (i, j) is looked at by update_contacts(), or a
    /// negative value when it cannot come into contact (the rules of world/contacts.h); `keeps`
    /// is set when it may stay without an overlap. `before` is its contact before the update.
    double update_margin(const StepContext& ctx, bool at_start, int i, int j, const PairContact* before,
                         bool& keeps) const;
    void update_reach(double h);
    /// `before`, pair (i, j)'s old contact in contacts_ (or null), or instead the contact it came
    /// into at a time of impact this step when it had none or was cast (then `set` is set to
    /// impact_pairs_).
    const PairContact* with_impact(const PairContact* before, int i, int j, const ContactSet*& set);
    /// Sets pair `pc`'s friction and restitution, its bodies' combined by the world's rules.
    void combine_pair_coefficients(PairContact& pc) const;
    PairContact* find_contact(int i, int j);
    /// The contact pair (i, j) came into at a time of impact this step, or null.
    PairContact* find_impact_pair(int i, int j);

    // character.cpp
    void character_passes(const StepContext& ctx);
    void character_contact(int index, int obstacle, const Contact& hit);
    Vec3 carried_velocity(const Body& c, int index) const;
    /// Character `i`'s controller state (body `i` must be a character).
    CharacterBody& character(int i) {
        return characters_[static_cast<std::size_t>(bodies_[static_cast<std::size_t>(i)].character)];
    }
    bool overlaps_any(int index, const Shape& shape) const;
    double drop_distance(int index, const Shape& shape, double reach, Vec3* normal, int* below = nullptr) const;
    bool try_step(int index, int obstacle);
    void snap_to_ground(int index);

    // sleep.cpp
    void update_sleep(const StepContext& ctx);
    int island_root(int i);
};

/// Bodies a thread takes at a time in a stage that goes body by body (world/parallel.h).
inline constexpr int kBodiesPerBlock = 512;

/// Broadphase boxes grow by at least this fraction of the median body size (m/m): enough that a
/// push-out rarely moves a body out of its grown box, small enough that a loose grid of bodies
/// (spheres 0.4 m wide, 0.5 m apart) gives no candidates between neighbours.
inline constexpr double kBroadFraction = 0.1;

/// Bounds that overlap or come within `margin` (m) of each other.
inline bool bounds_near(const Aabb& a, const Aabb& b, double margin) {
    return a.min.x <= b.max.x + margin && b.min.x <= a.max.x + margin && a.min.y <= b.max.y + margin &&
           b.min.y <= a.max.y + margin && a.min.z <= b.max.z + margin && b.min.z <= a.max.z + margin;
}

/// Bounds that overlap by more than kTouchEpsilon on every axis (a contact needs that: were
/// they to overlap by δ ≤ kTouchEpsilon on some axis, moving B by δ along it would part them,
/// so the depth is at most δ — touching, not contact).
inline bool bounds_overlap(const Aabb& a, const Aabb& b) {
    constexpr double e = kTouchEpsilon;
    return a.min.x < b.max.x - e && b.min.x < a.max.x - e && a.min.y < b.max.y - e && b.min.y < a.max.y - e &&
           a.min.z < b.max.z - e && b.min.z < a.max.z - e;
}

} // namespace collide
