#pragma once
/// \file
/// What a world is made of, apart from its interface (world/world.h): the tables every stage of
/// a step reads and writes (WorldState: the settings, the body tables, the contacts, this step's
/// constraints, the observers) and the scratch the stages work in (StepScratch: nothing in it
/// outlives the stage that fills it; it is kept only so that stepping allocates nothing once warm).
/// Each stage is a free function over the step's context (world/step_context.h), the state and
/// the scratch, in a file of its own; world/stages.h lists them in the order a step runs them.

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "detection/manifold.h"
#include "model/bodies.h"
#include "world/body_table.h"
#include "world/broadphase.h"
#include "world/contact_solver.h"
#include "world/contacts.h"
#include "world/observer.h"
#include "world/parallel.h"

namespace collide {

/// Most impacts handled inside one step by swept detection before the rest of it is left to
/// the solver.
inline constexpr int kMaxImpactsPerStep = 16;
/// A resting body placed within skin + this gap of another (m) starts in contact with it.
inline constexpr double kGroundGap = 1e-7;
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

/// One observer and the events it wants (WorldEvent bits).
struct Listener {
    EngineObserver* observer = nullptr;
    unsigned events = 0;
};

/// Everything a world keeps from step to step. Bodies are in two tables by one index (hot
/// `sims`, cold `bodies`: world/body_table.h), with tables of their own for what only some need.
struct WorldState {
    WorldDef def;                                        ///< the settings
    LargeVector<BodySim> sims;                           ///< hot, per body (huge pages: the solver reads it every pass)
    mutable LargeVector<Body> bodies;                    ///< cold, per body (mutable: placed shapes are cached lazily)
    std::vector<std::shared_ptr<const void>> shape_data; ///< what the bodies' hulls and meshes point into, kept alive
    std::vector<TurningShape> turning;                   ///< per body that turns its shape (Body::turning)
    std::vector<CharacterBody> characters;               ///< per character (Body::character)
    std::vector<unsigned char> round;                    ///< per body: a ball about its reference point (Body::round)
    std::vector<double> reach;                           ///< per body: how far a point of it can move in a step (m)
    ContactSet contacts;                                 ///< pairs in contact, by (i, j)
    ContactSet impact_pairs;                             ///< this step: pairs that came into contact at an impact
    StepConstraints constraints;                         ///< this step's constraints (the contact solver's)
    StepThreads threads;                                 ///< the threads a step runs on
    Broadphase broad;                                    ///< candidate pairs (rebuilt by each stage that asks)
    std::vector<Listener> listeners;                     ///< observers and their events
    unsigned wanted = 0;                                 ///< union of the listeners' events
    const EngineView* view = nullptr;                    ///< what observers are shown (the world)
    std::vector<BodyState> states;                       ///< every body's state at the last frame (when observed)

    Vec3 up{0, 1, 0};             ///< −gravity normalised, or +y without gravity
    bool has_characters = false;  ///< some body is a character
    bool any_swept = false;       ///< some pair can be swept
    bool any_speculative = false; ///< some body is speculative: its pairs need the broadphase to see its reach
    bool any_turning = false;     ///< some body can turn (a dynamic one, or a spinning kinematic one)
    bool any_mesh = false;        ///< some body is a mesh (its pairs can have several manifolds)
    int frame = -1;               ///< the frame being stepped or last stepped
    int frames_stepped = 0;       ///< frames stepped so far
    double frame_time = 0;        ///< the sampled time of the frame being stepped (s)
    double step_start = 0;        ///< the time its step starts from: the frame before's (s)
    double step = 0;              ///< the step being taken (s)
    double last_step = 0;         ///< the step before it (s): warm-start impulses scale by step/last_step

    /// How many bodies there are.
    int body_count() const { return static_cast<int>(bodies.size()); }
    /// Body `i`'s cold data.
    Body& body(int i) const { return bodies[static_cast<std::size_t>(i)]; }
    /// Body `i`'s hot data.
    BodySim& sim(int i) { return sims[static_cast<std::size_t>(i)]; }
    /// Body `i`'s hot data.
    const BodySim& sim(int i) const { return sims[static_cast<std::size_t>(i)]; }
    /// Character `i`'s controller state (body `i` must be a character).
    CharacterBody& character(int i) {
        return characters[static_cast<std::size_t>(bodies[static_cast<std::size_t>(i)].character)];
    }
    /// True when body `i` is dynamic.
    bool is_dynamic(int i) const { return body(i).kind == BodyKind::dynamic; }
    /// True when body `i` is a character.
    bool is_character(int i) const { return body(i).kind == BodyKind::character; }
    /// Body `i`'s state (world frame).
    BodyState state(int i) const {
        const BodySim& s = sim(i);
        return {s.centre + body(i).origin_offset, s.velocity, s.rotation, s.angular_velocity};
    }
    /// An upper bound on the speed of body `i`'s fastest point (m/s): |v| + |ω|·ρ, with ρ its
    /// farthest point from its reference point (|v| for a ball turning about its centre).
    double fastest_speed(int i) const {
        const BodySim& s = sim(i);
        const Body& b = body(i);
        return length(s.velocity) + (b.round ? 0.0 : length(s.angular_velocity) * b.radius);
    }
    /// Body `i`'s shape placed where the body is now (world frame), cached until it moves.
    const Shape& placed(int i) const {
        Body& b = body(i);
        if (b.dirty) {
            const Vec3 origin = sim(i).centre + b.origin_offset;
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
        const Body& b = body(i);
        const Vec3 origin = sim(i).centre + b.origin_offset;
        return Aabb{b.base_bounds.min + origin, b.base_bounds.max + origin};
    }
    /// True when body `i` moves this step: an awake dynamic body, or a kinematic body or
    /// character with a velocity or a spin.
    bool moves(int i) const;
    /// True when bodies i and j can touch: neither is a trigger and one is dynamic.
    bool pair_can_touch(int i, int j) const;
    /// True when pair (i, j) is swept (a `ccd` body or a swept world; never a character).
    bool pair_is_swept(int i, int j) const;
    /// True when pair (i, j) has speculative contacts.
    bool pair_is_speculative(int i, int j) const;
};

/// An old contact that stays as it was (frozen), and its places in the new set
/// (update_contacts() on several threads).
struct FrozenPlace {
    int old;      ///< its index among the old pairs
    int pair;     ///< its place among the new pairs
    int manifold; ///< … its first manifold's
    int point;    ///< … its first point's
};

/// What a block of the contact update's walk places (update_contacts() on several threads):
/// its count of each, then, once the blocks before it are counted, where its first of each goes.
struct PlaceCount {
    std::size_t pairs = 0;     ///< contacts (kept candidates and frozen old ones)
    std::size_t manifolds = 0; ///< their manifolds
    std::size_t points = 0;    ///< their points
    std::size_t frozen = 0;    ///< frozen old contacts among them
};

/// A candidate pair's contact found ahead of the contact update's walk (update_contacts() on
/// several threads): its manifold, whether it stays, and the contact it had before (whose
/// impulses it carries).
struct FoundAhead {
    bool kept = false;                      ///< it stays or comes into contact: the walk adds it
    PairContact pair;                       ///< the pair (first: set by the walk)
    Manifold found;                         ///< its one manifold (no mesh: one a pair)
    const PairContact* before = nullptr;    ///< its contact before the update, or null
    const ContactSet* before_set = nullptr; ///< … and the set that holds it
    int at = 0;                             ///< its place among the new pairs
    int point = 0;                          ///< its first point's place among the new points
};

/// A point holding a body up, for the resting estimate (estimate_resting_impulses()).
struct Support {
    int point;               ///< which of the contacts' points it is
    int support;             ///< the body under it
    Vec3 normal;             ///< from the support to the body held
    double rise, arm1, arm2; ///< its normal's upward part, its torque arm about two horizontal axes
    double impulse;          ///< the impulse estimated (N·s)
};

/// The stages' scratch (Box2D v3's step arena, as arrays that keep their storage): what each
/// stage fills and reads within itself, grouped by the stage it serves. Nothing here carries
/// from one stage to the next.
struct StepScratch {
    // Several stages.
    std::vector<Manifold> manifolds;    ///< one pair's manifolds
    std::vector<PairKey> keys;          ///< candidate pair keys from the broadphase
    std::vector<Aabb> boxes;            ///< every body's bounds for the broadphase (grown as the stage needs)
    std::vector<unsigned char> active;  ///< per body: moves this step (for the broadphase)
    std::vector<int> found;             ///< bodies found by a query
    std::vector<unsigned char> touched; ///< per contact: pushed/arrived (begin_motion); per body: moved (correction)
    std::vector<unsigned char> arrived; ///< per contact: a gap that closed this step (tell_arrivals())
    std::vector<Vec3> before;           ///< velocities before a response (notifications)
    // Update contacts.
    ContactSet next_contacts;           ///< the update's new list
    std::vector<PairKey> kept_keys;     ///< the keys of contacts that may stay
    std::vector<PairKey> merged_keys;   ///< candidates and kept keys together
    std::vector<FrozenPlace> frozen_at; ///< on several threads: the frozen contacts' places
    std::vector<PlaceCount>
            place_blocks; ///< on several threads: per block of the walk, its counts, then its first places
    LargeVector<FoundAhead> found_ahead; ///< on several threads: per candidate key
    // Continuous.
    std::vector<PairKey> cast_pairs; ///< candidate swept pairs this step, sorted
    std::vector<PairKey> resolved;   ///< pairs solved at the current instant
    std::vector<PairKey> pressing;   ///< pairs pressing on after their impact
    std::vector<BodySim> sub_bodies; ///< an impact's bodies (local copies)
    std::vector<int> sub_index;      ///< … their global indices
    ContactSet sub_pairs;            ///< the impact's new contact, in local indices
    StepConstraints sub_constraints; ///< an impact's constraints
    // Characters.
    std::vector<int> probe; ///< bodies near a character's trial position
    // The resting estimate.
    std::vector<int> levels;          ///< per body, distance in contacts from a body that does not move
    std::vector<int> adjacency_start; ///< contact adjacency, compressed rows
    std::vector<int> adjacency;       ///< … the neighbours
    std::vector<int> fill;            ///< … the rows' fill
    std::vector<int> queue;           ///< the breadth-first walk
    std::vector<double> load;         ///< the weight a body carries (N·s)
    std::vector<Vec3> load_torque;    ///< the torque of what rests on it, about its centre (N·m·s)
    std::vector<Support> supports;    ///< one body's supporting points
    // Sleep.
    std::vector<int> island;                ///< union–find parents of the sleep islands (then each body's root)
    std::vector<double> still;              ///< per body: its still time (s), +∞ when not dynamic
    std::vector<double> island_still;       ///< an island's least still time
    std::vector<unsigned char> island_wake; ///< per island: 1 touched by something moving, 2 resting on something
};

// Notifications (world_state.cpp): each tells the listeners that want it, through w.view.

/// Tells observers that body `index` is about to move for `tau` s with acceleration `accel`.
void tell_move(const WorldState& w, int index, double tau, const Vec3& accel);
/// Tells observers that a < b touch at `time`; the manifolds' normals point from a to b.
void tell_contact(const WorldState& w, int a, int b, double time, std::span<const Manifold> manifolds);
/// Keeps the velocities of the bodies of `contacts` before a response (when observed).
void save_velocities(const WorldState& w, StepScratch& scratch, std::span<const SolverContact> contacts);
/// Tells observers of each dynamic body of `contacts` whose velocity changed since
/// save_velocities(), once, in body order.
void tell_responses(const WorldState& w, StepScratch& scratch, std::span<const SolverContact> contacts);
/// Tells observers of each speculative gap this step's solve closed (a contact arrived touching,
/// at the step's end), and marks its pair told and touching.
void tell_arrivals(WorldState& w, StepScratch& scratch);

} // namespace collide
