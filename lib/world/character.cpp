// Characters (Godot's move_and_slide, Unity's CharacterController): after the step moved
// them in a straight line, passes push each character out of every other body (the others do
// not move), then steps are climbed and the ground snapped to.
#include <algorithm>

#include "detection/dispatch.h"
#include "queries/time_of_impact.h"
#include "response/response.h"
#include "world/character.h"

namespace collide {

/// What character `c` (body `index`) standing on a kinematic body gets from it: that body's
/// velocity at the character's foot (its lowest point along −up), its turning included; nothing
/// when the body under it is not kinematic.
Vec3 carried_velocity(const WorldState& w, const Body& c, int index) {
    const int floor_body = w.characters[static_cast<std::size_t>(c.character)].floor_body;
    const Body& under = w.bodies[static_cast<std::size_t>(floor_body)];
    const BodySim& us = w.sims[static_cast<std::size_t>(floor_body)];
    if (under.kind != BodyKind::kinematic) return Vec3{};
    if (!under.spinning) return us.velocity;
    const Vec3 foot = support(translate(c.base, w.sims[static_cast<std::size_t>(index)].centre), w.up * -1.0);
    return us.velocity + cross(us.angular_velocity, foot - us.centre);
}

namespace {
void character_contact(WorldState& w, StepScratch& scratch, int index, int obstacle, const Contact& hit);
bool overlaps_any(WorldState& w, StepScratch& scratch, int index, const Shape& shape);
double drop_distance(WorldState& w, StepScratch& scratch, int index, const Shape& shape, double reach, Vec3* normal,
                     int* below = nullptr);
bool try_step(WorldState& w, StepScratch& scratch, int index, int obstacle);
void snap_to_ground(WorldState& w, StepScratch& scratch, int index);
} // namespace

void move_characters(const StepContext& ctx, WorldState& w, StepScratch& scratch) {
    w.step = ctx.h;
    const int count = static_cast<int>(w.bodies.size());
    for (CharacterBody& b : w.characters) {
        b.was_on_floor = b.on_floor || b.stepping;
        b.on_floor = b.stepping = false;
        b.floor_body = -1;
    }
    // Only characters move here: each is looked up again whenever it leaves its grown box.
    for (int k = 0; k < count; ++k) {
        scratch.boxes[static_cast<std::size_t>(k)] = w.bounds(k);
        scratch.active[static_cast<std::size_t>(k)] = w.bodies[static_cast<std::size_t>(k)].kind == BodyKind::character;
    }
    w.broad.build(scratch.boxes, scratch.active, std::max(w.def.skin, 1e-7), kBroadFraction);
    for (int pass = 0; pass < w.def.character_iterations; ++pass) {
        bool found = false;
        for (int c = 0; c < count; ++c) {
            if (!w.is_character(c) || w.body(c).trigger) continue;
            w.broad.query(w.broad.grown(c), scratch.found);
            for (std::ptrdiff_t at = 0; at < static_cast<std::ptrdiff_t>(scratch.found.size()); ++at) {
                const int o = scratch.found[static_cast<std::size_t>(at)];
                if (o == c || w.body(o).trigger || !bounds_overlap(w.bounds(o), w.bounds(c))) continue;
                const ContactQuery q = contact(w.placed(o), w.placed(c));
                if (q.status != ContactStatus::overlapping) continue;
                found = true;
                if (w.wanted & kOnContact) {
                    // One point: the character's deepest point into o, halfway back along the normal.
                    const Vec3 n = q.contact.normal; // from o to the character
                    scratch.manifolds.resize(1);
                    Manifold& m = scratch.manifolds[0];
                    m.count = 1;
                    m.key = 0;
                    m.normal = o < c ? n : n * -1.0;
                    m.points[0] = {support(w.placed(c), n * -1.0) + n * (0.5 * q.contact.depth), q.contact.depth, 0};
                    tell_contact(w, std::min(o, c), std::max(o, c), w.frame_time, scratch.manifolds);
                }
                character_contact(w, scratch, c, o, q.contact);
                if (w.broad.refit(c, w.bounds(c))) { // moved out of its grown box: look again, after o
                    w.broad.query(w.broad.grown(c), scratch.found);
                    at = (std::upper_bound(scratch.found.begin(), scratch.found.end(), o) - scratch.found.begin()) - 1;
                }
            }
        }
        if (!found) break;
    }
    for (int c = 0; c < count; ++c) {
        if (w.is_character(c) && !w.body(c).trigger && w.character(c).snap_distance > 0) {
            snap_to_ground(w, scratch, c);
            w.broad.refit(c, w.bounds(c));
        }
    }
    // A character left standing within the skin of a floor (as it starts) stands on it too:
    // carrying by a kinematic floor starts with the first step.
    for (int c = 0; c < count; ++c) {
        if (!w.is_character(c) || w.body(c).trigger) continue;
        CharacterBody& b = w.character(c);
        if (b.floor_body >= 0) continue;
        const double reach = w.def.skin + kGroundGap;
        Vec3 n;
        int below = -1;
        const double drop = drop_distance(w, scratch, c, w.placed(c), reach, &n, &below);
        if (below >= 0 && drop < reach && is_walkable(n, b.slope_limit, w.up)) b.floor_body = below;
    }
}

namespace {

/// Character `index` overlaps `obstacle`; the normal points from the obstacle to the character.
void character_contact(WorldState& w, StepScratch& scratch, int index, int obstacle, const Contact& hit) {
    Body& c = w.body(index);
    CharacterBody& ch = w.character(index);
    BodySim& cs = w.sims[static_cast<std::size_t>(index)];
    const Body& o = w.body(obstacle);
    const Vec3 n = hit.normal;
    const double rise = dot(n, w.up);
    c.dirty = true;
    if (rise > 0 && is_walkable(n, ch.slope_limit, w.up)) {
        // A floor: lift straight up until clear by the skin, so a slope holds the character.
        cs.centre += w.up * ((hit.depth + w.def.skin) / rise);
        ch.fall = Vec3{};
        cs.velocity = dot(ch.desired, n) < 0 ? slide_velocity(ch.desired, n) : ch.desired;
        ch.on_floor = true;
        ch.floor_normal = n;
        ch.floor_height = dot(cs.centre, w.up);
        ch.floor_body = obstacle;
        return;
    }
    // A wall the character walks into: a step it can climb, or a wall to slide along.
    if (ch.step_height > 0 && (ch.on_floor || ch.was_on_floor || ch.stepping) && dot(ch.desired, n) < 0 &&
        try_step(w, scratch, index, obstacle))
        return;
    // A wall: out along the normal, slide along it, friction takes its share of the travel.
    cs.centre += n * (hit.depth + w.def.skin);
    const double f = std::clamp(combine_coefficients(w.def.friction_combine, c.friction, o.friction), 0.0, 1.0);
    if (dot(cs.velocity, n) < 0) {
        cs.centre -= slide_velocity(cs.velocity, n) * (f * w.step);
        cs.velocity = respond_velocity(cs.velocity, n, 0, f);
    }
    if (dot(ch.fall, n) < 0) ch.fall = respond_velocity(ch.fall, n, 0, f);
}

/// True when `shape` (character `index` somewhere else) overlaps any other body.
bool overlaps_any(WorldState& w, StepScratch& scratch, int index, const Shape& shape) {
    const Aabb box = bounds_of(shape);
    w.broad.query(box, scratch.probe);
    for (const int o : scratch.probe) {
        if (o == index || w.bodies[static_cast<std::size_t>(o)].trigger || !bounds_overlap(w.bounds(o), box)) continue;
        if (contact(w.placed(o), shape).status == ContactStatus::overlapping) return true;
    }
    return false;
}

/// How far `shape` (character `index`) can move down, along −up, before it touches another
/// body, within `reach` (m); `reach` when nothing is in the way. `normal` receives the surface
/// normal there (pointing up at the character) when something is.
double drop_distance(WorldState& w, StepScratch& scratch, int index, const Shape& shape, double reach, Vec3* normal,
                     int* below) {
    double best = reach;
    const Motion down{w.up * -reach, Vec3{}};
    const Aabb box = bounds_of(shape);
    const Vec3 grow{reach, reach, reach};
    w.broad.query(Aabb{box.min - grow, box.max + grow}, scratch.probe);
    for (const int o : scratch.probe) {
        if (o == index || w.bodies[static_cast<std::size_t>(o)].trigger || !bounds_near(w.bounds(o), box, reach))
            continue;
        const Toi toi = time_of_impact(w.placed(o), Motion{}, shape, down, 1.0);
        if (toi.status != ToiStatus::hit || toi.time * reach >= best) continue;
        best = toi.time * reach;
        if (normal) *normal = toi.normal;
        if (below) *below = o;
    }
    return best;
}

/// Stair walking (Unity's stepOffset, Jolt's WalkStairs): when the top of `obstacle` is within
/// the step height of the floor the character last stood on, lift character `index` by its step
/// height; if it is clear there, lower it onto what is under it (a skin above it) and keep its
/// walking velocity. A rounded character reaching a step's edge lands on the edge and climbs
/// it frame by frame at its walking speed. False (nothing changed) when the lifted character
/// still overlaps something (the step is too high) or has nothing under it to land on.
bool try_step(WorldState& w, StepScratch& scratch, int index, int obstacle) {
    Body& c = w.body(index);
    CharacterBody& ch = w.character(index);
    BodySim& cs = w.sims[static_cast<std::size_t>(index)];
    const double top = dot(support(w.placed(obstacle), w.up), w.up);
    if (top - ch.floor_height > ch.step_height) return false; // too high to step onto
    const Shape lifted = translate(c.base, cs.centre + w.up * ch.step_height);
    if (overlaps_any(w, scratch, index, lifted)) return false;
    Vec3 n;
    int below = -1;
    const double drop = drop_distance(w, scratch, index, lifted, ch.step_height, &n, &below);
    if (drop >= ch.step_height) return false;
    cs.centre += w.up * (ch.step_height - drop + w.def.skin);
    c.dirty = true;
    ch.fall = Vec3{};
    cs.velocity = ch.desired;
    if (ch.last_step != obstacle) ++ch.steps; // one step however many frames climbing it takes
    ch.last_step = obstacle;
    ch.stepping = true;
    if (is_walkable(n, ch.slope_limit, w.up)) {
        ch.on_floor = true;
        ch.floor_normal = n;
        ch.floor_body = below;
    }
    return true;
}

/// A character that stood on the ground last frame and walks off it (down a step or a slope)
/// is lowered onto ground within its snap distance instead of flying off.
void snap_to_ground(WorldState& w, StepScratch& scratch, int index) {
    Body& c = w.body(index);
    CharacterBody& ch = w.character(index);
    BodySim& cs = w.sims[static_cast<std::size_t>(index)];
    if (ch.on_floor || !ch.was_on_floor || dot(cs.velocity, w.up) > 0) return;
    Vec3 n;
    int below = -1;
    const double drop = drop_distance(w, scratch, index, w.placed(index), ch.snap_distance + w.def.skin, &n, &below);
    if (drop >= ch.snap_distance + w.def.skin || !is_walkable(n, ch.slope_limit, w.up)) return;
    cs.centre -= w.up * std::max(0.0, drop - w.def.skin);
    c.dirty = true;
    ch.fall = Vec3{};
    cs.velocity = dot(ch.desired, n) < 0 ? slide_velocity(ch.desired, n) : ch.desired;
    ch.on_floor = true;
    ch.floor_normal = n;
    ch.floor_body = below;
}

} // namespace

} // namespace collide
