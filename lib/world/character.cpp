// Characters (Godot's move_and_slide, Unity's CharacterController): after the step moved
// them in a straight line, passes push each character out of every other body (the others do
// not move), then steps are climbed and the ground snapped to.
#include <algorithm>

#include "detection/dispatch.h"
#include "queries/time_of_impact.h"
#include "response/response.h"
#include "world/world.h"

namespace collide {

/// What character `c` (body `index`) standing on a kinematic body gets from it: that body's
/// velocity at the character's foot (its lowest point along −up), its turning included; nothing
/// when the body under it is not kinematic.
Vec3 World::carried_velocity(const Body& c, int index) const {
    const int floor_body = characters_[static_cast<std::size_t>(c.character)].floor_body;
    const Body& under = bodies_[static_cast<std::size_t>(floor_body)];
    const BodySim& us = sims_[static_cast<std::size_t>(floor_body)];
    if (under.kind != BodyKind::kinematic) return Vec3{};
    if (!under.spinning) return us.velocity;
    const Vec3 foot = support(translate(c.base, sims_[static_cast<std::size_t>(index)].centre), up_ * -1.0);
    return us.velocity + cross(us.angular_velocity, foot - us.centre);
}

void World::character_passes(const StepContext& ctx) {
    step_ = ctx.h;
    const int count = static_cast<int>(bodies_.size());
    for (CharacterBody& b : characters_) {
        b.was_on_floor = b.on_floor || b.stepping;
        b.on_floor = b.stepping = false;
        b.floor_body = -1;
    }
    // Only characters move here: each is looked up again whenever it leaves its grown box.
    for (int k = 0; k < count; ++k) {
        boxes_[static_cast<std::size_t>(k)] = bounds(k);
        active_[static_cast<std::size_t>(k)] = bodies_[static_cast<std::size_t>(k)].kind == BodyKind::character;
    }
    broad_.build(boxes_, active_, std::max(def_.skin, 1e-7), kBroadFraction);
    for (int pass = 0; pass < def_.character_iterations; ++pass) {
        bool found = false;
        for (int c = 0; c < count; ++c) {
            if (!is_character(c) || body(c).trigger) continue;
            broad_.query(broad_.grown(c), found_);
            for (std::ptrdiff_t at = 0; at < static_cast<std::ptrdiff_t>(found_.size()); ++at) {
                const int o = found_[static_cast<std::size_t>(at)];
                if (o == c || body(o).trigger || !bounds_overlap(bounds(o), bounds(c))) continue;
                const ContactQuery q = contact(placed(o), placed(c));
                if (q.status != ContactStatus::overlapping) continue;
                found = true;
                if (wanted_ & kOnContact) {
                    // One point: the character's deepest point into o, halfway back along the normal.
                    const Vec3 n = q.contact.normal; // from o to the character
                    manifolds_.resize(1);
                    Manifold& m = manifolds_[0];
                    m.count = 1;
                    m.key = 0;
                    m.normal = o < c ? n : n * -1.0;
                    m.points[0] = {support(placed(c), n * -1.0) + n * (0.5 * q.contact.depth), q.contact.depth, 0};
                    tell_contact(std::min(o, c), std::max(o, c), frame_time_, manifolds_);
                }
                character_contact(c, o, q.contact);
                if (broad_.refit(c, bounds(c))) { // moved out of its grown box: look again, after o
                    broad_.query(broad_.grown(c), found_);
                    at = (std::upper_bound(found_.begin(), found_.end(), o) - found_.begin()) - 1;
                }
            }
        }
        if (!found) break;
    }
    for (int c = 0; c < count; ++c) {
        if (is_character(c) && !body(c).trigger && character(c).snap_distance > 0) {
            snap_to_ground(c);
            broad_.refit(c, bounds(c));
        }
    }
    // A character left standing within the skin of a floor (as it starts) stands on it too:
    // carrying by a kinematic floor starts with the first step.
    for (int c = 0; c < count; ++c) {
        if (!is_character(c) || body(c).trigger) continue;
        CharacterBody& b = character(c);
        if (b.floor_body >= 0) continue;
        const double reach = def_.skin + kGroundGap;
        Vec3 n;
        int below = -1;
        const double drop = drop_distance(c, placed(c), reach, &n, &below);
        if (below >= 0 && drop < reach && is_walkable(n, b.slope_limit, up_)) b.floor_body = below;
    }
}

/// Character `index` overlaps `o`; n points from o to the character.
inline void World::character_contact(int index, int obstacle, const Contact& hit) {
    Body& c = body(index);
    CharacterBody& ch = character(index);
    BodySim& cs = sims_[static_cast<std::size_t>(index)];
    const Body& o = body(obstacle);
    const Vec3 n = hit.normal;
    const double rise = dot(n, up_);
    c.dirty = true;
    if (rise > 0 && is_walkable(n, ch.slope_limit, up_)) {
        // A floor: lift straight up until clear by the skin, so a slope holds the character.
        cs.centre += up_ * ((hit.depth + def_.skin) / rise);
        ch.fall = Vec3{};
        cs.velocity = dot(ch.desired, n) < 0 ? slide_velocity(ch.desired, n) : ch.desired;
        ch.on_floor = true;
        ch.floor_normal = n;
        ch.floor_height = dot(cs.centre, up_);
        ch.floor_body = obstacle;
        return;
    }
    // A wall the character walks into: a step it can climb, or a wall to slide along.
    if (ch.step_height > 0 && (ch.on_floor || ch.was_on_floor || ch.stepping) && dot(ch.desired, n) < 0 &&
        try_step(index, obstacle))
        return;
    // A wall: out along the normal, slide along it, friction takes its share of the travel.
    cs.centre += n * (hit.depth + def_.skin);
    const double f = std::clamp(combine_coefficients(def_.friction_combine, c.friction, o.friction), 0.0, 1.0);
    if (dot(cs.velocity, n) < 0) {
        cs.centre -= slide_velocity(cs.velocity, n) * (f * step_);
        cs.velocity = respond_velocity(cs.velocity, n, 0, f);
    }
    if (dot(ch.fall, n) < 0) ch.fall = respond_velocity(ch.fall, n, 0, f);
}

/// True when `shape` (character `index` somewhere else) overlaps any other body.
bool World::overlaps_any(int index, const Shape& shape) const {
    const Aabb box = bounds_of(shape);
    broad_.query(box, probe_);
    for (const int o : probe_) {
        if (o == index || bodies_[static_cast<std::size_t>(o)].trigger || !bounds_overlap(bounds(o), box)) continue;
        if (contact(placed(o), shape).status == ContactStatus::overlapping) return true;
    }
    return false;
}

/// How far `shape` (character `index`) can move down, along −up, before it touches another
/// body, within `reach` (m); `reach` when nothing is in the way. `normal` receives the surface
/// normal there (pointing up at the character) when something is.
double World::drop_distance(int index, const Shape& shape, double reach, Vec3* normal, int* below) const {
    double best = reach;
    const Motion down{up_ * -reach, Vec3{}};
    const Aabb box = bounds_of(shape);
    const Vec3 grow{reach, reach, reach};
    broad_.query(Aabb{box.min - grow, box.max + grow}, probe_);
    for (const int o : probe_) {
        if (o == index || bodies_[static_cast<std::size_t>(o)].trigger || !bounds_near(bounds(o), box, reach)) continue;
        const Toi toi = time_of_impact(placed(o), Motion{}, shape, down, 1.0);
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
bool World::try_step(int index, int obstacle) {
    Body& c = body(index);
    CharacterBody& ch = character(index);
    BodySim& cs = sims_[static_cast<std::size_t>(index)];
    const double top = dot(support(placed(obstacle), up_), up_);
    if (top - ch.floor_height > ch.step_height) return false; // too high to step onto
    const Shape lifted = translate(c.base, cs.centre + up_ * ch.step_height);
    if (overlaps_any(index, lifted)) return false;
    Vec3 n;
    int below = -1;
    const double drop = drop_distance(index, lifted, ch.step_height, &n, &below);
    if (drop >= ch.step_height) return false;
    cs.centre += up_ * (ch.step_height - drop + def_.skin);
    c.dirty = true;
    ch.fall = Vec3{};
    cs.velocity = ch.desired;
    if (ch.last_step != obstacle) ++ch.steps; // one step however many frames climbing it takes
    ch.last_step = obstacle;
    ch.stepping = true;
    if (is_walkable(n, ch.slope_limit, up_)) {
        ch.on_floor = true;
        ch.floor_normal = n;
        ch.floor_body = below;
    }
    return true;
}

/// A character that stood on the ground last frame and walks off it (down a step or a slope)
/// is lowered onto ground within its snap distance instead of flying off.
void World::snap_to_ground(int index) {
    Body& c = body(index);
    CharacterBody& ch = character(index);
    BodySim& cs = sims_[static_cast<std::size_t>(index)];
    if (ch.on_floor || !ch.was_on_floor || dot(cs.velocity, up_) > 0) return;
    Vec3 n;
    int below = -1;
    const double drop = drop_distance(index, placed(index), ch.snap_distance + def_.skin, &n, &below);
    if (drop >= ch.snap_distance + def_.skin || !is_walkable(n, ch.slope_limit, up_)) return;
    cs.centre -= up_ * std::max(0.0, drop - def_.skin);
    c.dirty = true;
    ch.fall = Vec3{};
    cs.velocity = dot(ch.desired, n) < 0 ? slide_velocity(ch.desired, n) : ch.desired;
    ch.on_floor = true;
    ch.floor_normal = n;
    ch.floor_body = below;
}

} // namespace collide
