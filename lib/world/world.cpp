// The world's interface: reset (the tables built from the bodies' definitions), the frame
// (the stages of world/stages.h in order, then the observers), and the proof that no pair can
// meet again.
#include "world/world.h"

#include <algorithm>
#include <cmath>

#include "detection/dispatch.h"
#include "shapes/mass.h"
#include "world/character.h"
#include "world/contacts_update.h"
#include "world/resting.h"
#include "world/stages.h"

namespace collide {

void EngineObserver::on_move(const EngineView&, int, double, const Vec3&) {}
void EngineObserver::on_contact(const EngineView&, const ContactEvent&) {}
void EngineObserver::on_response(const EngineView&, int, const Vec3&, const Vec3&) {}
void EngineObserver::on_frame(const EngineView&, int, double) {}

// ---- set-up --------------------------------------------------------------------------

void reset_world(WorldState& w, StepScratch& scratch, const WorldDef& def, std::span<const BodyDef> defs) {
    w.def = def;
    w.listeners.clear();
    w.wanted = 0;
    w.frame = -1;
    w.frames_stepped = 0;
    w.frame_time = 0;
    w.step_start = 0;
    w.step = w.last_step = 0;
    const auto n = defs.size();
    // (Sized for overwrite: every body's tables are written whole below, in blocks, so a grown
    // array's pages are first touched there, on every thread.)
    w.sims.clear();
    w.bodies.clear();
    resize_for_overwrite(w.sims, n);
    resize_for_overwrite(w.bodies, n);
    w.contacts.clear();
    w.impact_pairs.clear();
    w.shape_data.clear();
    w.turning.clear();
    w.characters.clear();
    const double g = length(w.def.gravity);
    w.up = g > 0 ? w.def.gravity * (-1.0 / g) : Vec3{0, 1, 0};
    // Each body's own tables, in blocks at once (each a function of its definition alone).
    w.threads.for_blocks(static_cast<int>(n), kBodiesPerBlock, [&](int begin, int end) {
        for (auto i = static_cast<std::size_t>(begin); i < static_cast<std::size_t>(end); ++i) {
            const BodyDef& d = defs[i];
            BodySim& s = w.sims[i];
            Body& b = w.bodies[i];
            s = BodySim{}; // nothing of a run before carries over (a sweep reuses its world)
            b = Body{};
            b.kind = body_kind(d);
            b.trigger = d.trigger;
            const bool dynamic = b.kind == BodyKind::dynamic;
            b.restitution = d.restitution;
            b.friction = d.friction;
            s.rotation = normalize(d.rotation);
            if (dynamic) {
                const MassProperties mp = mass_properties(d.shape, mass_of(d));
                b.local_centre = mp.centre;
                b.inertia_local = mp.inertia;
                b.inv_inertia_local = d.fixed_rotation ? zero3() : inverse(mp.inertia);
                b.turns = !(b.inv_inertia_local == zero3());
                s.inv_mass = 1 / mp.mass;
            } else {
                b.local_centre = Vec3{};
                b.inertia_local = zero3();
                b.inv_inertia_local = b.inertia_local;
                b.turns = false;
                s.inv_mass = 0;
            }
            b.spinning = b.kind == BodyKind::kinematic && !is_zero(d.angular_velocity);
            // Turning a sphere about its own centre moves no point of it (its origin there too).
            b.round = std::holds_alternative<Sphere>(d.shape) && std::get<Sphere>(d.shape).centre == Vec3{};
            b.radius = max_distance_from(d.shape, b.local_centre);
            b.origin_offset = rotate(s.rotation, b.local_centre) * -1.0;
            s.centre = d.position - b.origin_offset;
            place_into(b.base, d.shape, Vec3{}, s.rotation);
            b.base_bounds = bounds_of(b.base);
            b.base_rotation = s.rotation;
            b.step_rotation = s.rotation;
            b.dirty = true;
            s.inv_inertia = world_inverse_inertia(s.rotation, b.inv_inertia_local);
            s.velocity = b.kind == BodyKind::fixed ? Vec3{} : d.velocity;
            s.angular_velocity = b.turns || b.spinning ? d.angular_velocity : Vec3{};
            s.start_velocity = s.velocity;
            s.start_angular = s.angular_velocity;
            s.accel = s.angular_accel = Vec3{};
            const bool driven = !dynamic;
            b.swept = !driven && !d.speculative && (d.ccd || w.def.detection == Detection::swept);
            b.speculative = !driven && !b.swept && (d.speculative || w.def.detection == Detection::speculative);
            b.asleep = false;
            b.still_time = 0;
        }
    });
    // The world's lists (shapes kept alive, shapes that turn, characters), in body order, and
    // what the bodies have between them.
    w.has_characters = false;
    w.any_swept = false;
    w.any_speculative = false;
    w.any_turning = false;
    w.any_mesh = false;
    bool any_swept_body = false;
    std::size_t pairable = 0; // bodies that can be in a swept pair: not characters, not triggers
    for (std::size_t i = 0; i < n; ++i) {
        const BodyDef& d = defs[i];
        const BodySim& s = w.sims[i];
        Body& b = w.bodies[i];
        if (d.hull_data) w.shape_data.push_back(d.hull_data);          // its Hull points into them
        if (d.mesh_data) w.shape_data.push_back(d.mesh_data);          // its Mesh too
        if ((b.kind == BodyKind::dynamic && !b.round) || b.spinning) { // its base is placed anew as it turns
            b.turning = static_cast<int>(w.turning.size());
            TurningShape& t = w.turning.emplace_back();
            assign_shape(t.local, d.shape);
            t.rotation0 = s.rotation;
            t.spin_time = 0;
        }
        const bool character = b.kind == BodyKind::character;
        if (character) {
            b.character = static_cast<int>(w.characters.size());
            CharacterBody& c = w.characters.emplace_back();
            c.desired = d.velocity;
            c.slope_limit = d.slope_limit;
            c.step_height = d.step_height;
            c.snap_distance = d.snap_distance;
            c.on_floor = true; // a character starts as if it stood on the ground: snapping may catch it
            c.floor_height = dot(d.position, w.up);
        }
        w.has_characters = w.has_characters || character;
        w.any_turning = w.any_turning || b.spinning || (b.turns && !b.round);
        any_swept_body = any_swept_body || (b.swept && !b.trigger);
        w.any_speculative = w.any_speculative || b.speculative;
        w.any_mesh = w.any_mesh || std::holds_alternative<Mesh>(d.shape);
        pairable += !character && !b.trigger ? 1 : 0;
    }
    w.any_swept = any_swept_body && pairable >= 2;
    w.reach.assign(n, 0.0);
    scratch.boxes.resize(n);
    scratch.active.resize(n);
    w.round.resize(n);
    for (std::size_t i = 0; i < n; ++i) w.round[i] = w.bodies[i].round ? 1 : 0;
    // Pairs placed within the skin of each other start in contact (a crate set on a ramp).
    const StepContext ctx = make_step_context(w.def, w.def.phase > 0 ? w.def.phase * w.def.dt : w.def.dt, w.up);
    update_reach(w, ctx.h);
    update_contacts(ctx, w, scratch, true);
    estimate_resting_impulses(ctx, w, scratch);
}

void World::reset(const WorldDef& def, std::span<const BodyDef> bodies) {
    reset_world(state_, scratch_, def, bodies);
    state_.view = this;
}

void World::add_observer(EngineObserver& observer, unsigned events) {
    state_.listeners.push_back({&observer, events});
    state_.wanted |= events;
}

namespace {

/// True when bodies i and j drift apart on some axis under their relative velocity and gravity.
bool pair_drifts_apart(const WorldState& w, int i, int j) {
    const Aabb ba = w.bounds(i), bb = w.bounds(j);
    const Vec3 dv = w.sims[static_cast<std::size_t>(j)].velocity - w.sims[static_cast<std::size_t>(i)].velocity;
    const Vec3 da = (w.is_dynamic(j) ? w.def.gravity : Vec3{}) - (w.is_dynamic(i) ? w.def.gravity : Vec3{});
    for (std::size_t k = 0; k < 3; ++k) {
        if ((bb.min[k] > ba.max[k] && dv[k] >= 0 && da[k] >= 0) || (ba.min[k] > bb.max[k] && dv[k] <= 0 && da[k] <= 0))
            return true;
    }
    return false;
}

} // namespace

bool World::no_pair_can_meet() const {
    const WorldState& w = state_;
    if (w.has_characters || w.any_turning || !w.contacts.empty()) return false;
    const int n = w.body_count();
    // The proof checks every pair: past a few hundred bodies it would cost more per frame than
    // the frames it could save, so a large world just steps on (same results, bit for bit).
    constexpr int kMostBodiesToProveApart = 256;
    if (n > kMostBodiesToProveApart) return false;
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j)
            if (w.pair_can_touch(i, j) && !pair_drifts_apart(w, i, j)) return false;
    return true;
}

// ---- the frame -----------------------------------------------------------------------

void World::step_frame() {
    WorldState& w = state_;
    w.view = this; // (a world may have moved since its reset)
    const int k = w.frames_stepped;
    if (k >= w.def.frames) return;
    w.frame = k;
    const double h = k == 0 ? w.def.phase * w.def.dt : w.def.dt;
    w.step_start = k == 0 ? 0.0 : (k - 1 + w.def.phase) * w.def.dt;
    w.frame_time = (k + w.def.phase) * w.def.dt;
    if (h > 0) {
        step(h);
    } else { // a frame at t = 0 (phase 0): no time passes, but characters find their footing
        const StepContext ctx = make_step_context(w.def, w.def.dt, w.up);
        if (w.has_characters) move_characters(ctx, w, scratch_);
        update_contacts(ctx, w, scratch_, false);
    }
    w.frames_stepped = k + 1;
    if (!(w.wanted & kOnFrame)) return;
    w.states.resize(w.bodies.size());
    for (int i = 0; i < w.body_count(); ++i) w.states[static_cast<std::size_t>(i)] = w.state(i);
    for (const Listener& l : w.listeners)
        if (l.events & kOnFrame) l.observer->on_frame(*this, k, w.frame_time);
}

void World::step(double h) {
    WorldState& w = state_;
    w.last_step = w.step > 0 ? w.step : h;
    w.step = h;
    const StepContext ctx = make_step_context(w.def, h, w.up);
    for (const StepStage stage : kStepStages) run_stage(stage, ctx, w, scratch_);
}

} // namespace collide
