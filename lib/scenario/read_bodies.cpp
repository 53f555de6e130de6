// The world and the bodies of a scenario: world settings, then each body with its one shape.
#include <algorithm>
#include <charconv>
#include <cmath>
#include <string_view>
#include <type_traits>
#include <utility>

#include <fmt/format.h>

#include "io/memory.h"
#include "scenario/reader_state.h"

namespace collide::reader {

using detail::component;
using detail::frames_of_duration;
using detail::kMaxFrames;

namespace {

/// The keys that name a body's shape, one per Shape alternative.
constexpr std::array<std::string_view, 7> kShapeKeys = {"sphere", "box",   "capsule", "triangle",
                                                        "hull",   "plane", "mesh"};

/// A `box:` of body `body`: min and max (an Aabb), centre and half (an Aabb), or centre, half
/// and rotation (an Obb).
void read_box(ReaderState& r, const MapView& view, int body, const What& path) {
    TemplateData& t = r.t;
    NumberReader& num = r.numbers;
    BodyDef& def = t.base.bodies[static_cast<std::size_t>(body)];
    const Entry* mn = view.find("min");
    const Entry* mx = view.find("max");
    const Entry* centre = view.find("centre");
    const Entry* half = view.find("half");
    const Entry* rotation = view.find("rotation");
    if ((mn || mx) && (centre || half || rotation)) {
        const Entry* second = centre ? centre : (half ? half : rotation);
        r.problems.error(second->key_mark,
                         path + ": write a box with min and max, or with centre, half and rotation; not both");
        return;
    }
    if (mn || mx) {
        def.shape = Aabb{};
        const Entry* a = require(r.problems, view, "min", path);
        const Entry* b = require(r.problems, view, "max", path);
        const std::size_t ops_before = t.ops.size();
        const bool ok_a = num.read_vec(a, {&Aabb::min, body}, path + ".min");
        const bool ok_b = num.read_vec(b, {&Aabb::max, body}, path + ".max");
        if (!ok_a || !ok_b) return;
        const SourceMark m = mark_of(b->value, b->key_mark);
        if (t.ops.size() != ops_before) {
            num.add_op(OpKind::check_min_max, {detail::AabbShape{}, body}, {0}, m, path);
            return;
        }
        const Aabb& box = std::get<Aabb>(def.shape);
        for (std::size_t k = 0; k < 3; ++k)
            if (!(box.min[k] < box.max[k])) {
                const char axis = "xyz"[k];
                r.problems.error(m, path + " max." + axis + " (" + detail::number_text(box.max[k]) +
                                            (box.min[k] == box.max[k] ? ") is min." : ") is below min.") + axis + " (" +
                                            detail::number_text(box.min[k]) + "): a box needs a size on every axis");
                return;
            }
        return;
    }
    const Entry* h = require(r.problems, view, "half", path);
    if (!h) return;
    std::vector<Num> c{Num{true}, Num{true}, Num{true}};
    if (centre) {
        const auto cv = num.vec3(centre->value, path + ".centre", centre->key_mark);
        if (!cv) return;
        c = *cv;
    }
    const auto hv = num.vec3(h->value, path + ".half", h->key_mark, kPositive); // a box has a size on every axis
    if (!hv) return;
    if (!rotation) {
        def.shape = Aabb{value_of(c) - value_of(*hv), value_of(c) + value_of(*hv)};
        if (any_dep(c) || any_dep(*hv))
            num.add_op(OpKind::aabb_centre_half, {detail::AabbShape{}, body},
                       {num.slot_of(c[0]), num.slot_of(c[1]), num.slot_of(c[2]), num.slot_of((*hv)[0]),
                        num.slot_of((*hv)[1]), num.slot_of((*hv)[2])},
                       mark_of(h->value, h->key_mark), path);
        return;
    }
    def.shape = Obb{};
    const SourceMark cm = centre ? mark_of(centre->value, centre->key_mark) : view.mark;
    const SourceMark hm = mark_of(h->value, h->key_mark);
    for (std::size_t k = 0; k < 3; ++k) {
        const int i = static_cast<int>(k);
        num.set(c[k], component({&Obb::centre, body}, i), path + ".centre[" + std::to_string(k) + "]", cm);
        num.set((*hv)[k], component({&Obb::half, body}, i), path + ".half[" + std::to_string(k) + "]", hm);
    }
    num.read_rotation(rotation, {&Obb::axes, body}, true, path + ".rotation");
}

/// The `points:` of a `hull:` of body `body`.
void read_hull(ReaderState& r, const MapView& view, int body, const What& path) {
    BodyDef& def = r.t.base.bodies[static_cast<std::size_t>(body)];
    def.hull_data = std::make_shared<HullPoints>();
    std::get<Hull>(def.shape).data = def.hull_data.get();
    const Entry* p = require(r.problems, view, "points", path);
    if (!p) return;
    const What what = path + ".points";
    const SourceMark m = mark_of(p->value, p->key_mark);
    if (!p->value.is_sequence()) {
        r.problems.error(m, what + ": expected a list of points [[x, y, z], ...], got " + describe(p->value));
        return;
    }
    if (p->value.size() < 3 || p->value.size() > static_cast<std::size_t>(kHullMaxPoints)) {
        r.problems.error(m, what + ": a hull needs 3 to " + std::to_string(kHullMaxPoints) + " points, got " +
                                    std::to_string(p->value.size()));
        return;
    }
    def.hull_data->count = static_cast<int>(p->value.size());
    for (std::size_t i = 0; i < p->value.size(); ++i) {
        const What pw = what.at(i);
        const Node point = p->value[i];
        const auto v = r.numbers.vec3(point, pw, m);
        if (!v) continue;
        const SourceMark pm = mark_of(point, m);
        for (std::size_t k = 0; k < 3; ++k)
            r.numbers.set((*v)[k], component({detail::HullPoint{}, body}, static_cast<int>(3 * i + k)), pw.at(k), pm);
    }
}

/// Refuses the shape of body `body`, read without errors since `errors_before`, when it has no
/// size (shape_without_size), at `m`: now, or as each copy is made when a param sets its numbers
/// (Ops added since `ops_before`; the check runs after them).
void check_shape_size(ReaderState& r, int body, const detail::Dest& dest, std::size_t errors_before,
                      std::size_t ops_before, SourceMark m, const What& path) {
    if (r.problems.diagnostics.size() != errors_before) return; // a missing or bad number: said already
    if (r.t.ops.size() != ops_before) {
        r.numbers.add_op(OpKind::check_shape_size, dest, {0}, m, path.str() + ":"); // "PATH: problem"
        return;
    }
    const std::string problem = detail::shape_without_size(r.t.base.bodies[static_cast<std::size_t>(body)].shape);
    if (!problem.empty()) r.problems.error(m, path + ": " + problem);
}

/// The shape `e` (its key names the kind) of body `body`.
void read_shape(ReaderState& r, const Entry& e, int body, const What& body_path) {
    const What path = body_path + "." + e.key;
    NumberReader& num = r.numbers;
    Shape& shape = r.t.base.bodies[static_cast<std::size_t>(body)].shape;
    const std::size_t errors_before = r.problems.diagnostics.size(), ops_before = r.t.ops.size();
    if (e.key == "sphere") {
        shape = Sphere{};
        const auto view = read_map(r.problems, e.value, path, e.key_mark, {"radius", "centre"});
        if (!view) return;
        num.read_into(require(r.problems, *view, "radius", path), {&Sphere::radius, body}, path + ".radius", kPositive);
        num.read_vec(view->find("centre"), {&Sphere::centre, body}, path + ".centre");
    } else if (e.key == "box") {
        const auto view = read_map(r.problems, e.value, path, e.key_mark, {"min", "max", "centre", "half", "rotation"});
        if (!view) return;
        read_box(r, *view, body, path);
    } else if (e.key == "capsule") {
        shape = Capsule{};
        const auto view = read_map(r.problems, e.value, path, e.key_mark, {"a", "b", "radius"});
        if (!view) return;
        num.read_vec(require(r.problems, *view, "a", path), {&Capsule::a, body}, path + ".a");
        num.read_vec(require(r.problems, *view, "b", path), {&Capsule::b, body}, path + ".b");
        num.read_into(require(r.problems, *view, "radius", path), {&Capsule::radius, body}, path + ".radius",
                      kPositive);
        check_shape_size(r, body, {&Capsule::a, body}, errors_before, ops_before, mark_of(e.value, e.key_mark), path);
    } else if (e.key == "triangle") {
        shape = Triangle{};
        const auto view = read_map(r.problems, e.value, path, e.key_mark, {"a", "b", "c"});
        if (!view) return;
        num.read_vec(require(r.problems, *view, "a", path), {&Triangle::a, body}, path + ".a");
        num.read_vec(require(r.problems, *view, "b", path), {&Triangle::b, body}, path + ".b");
        num.read_vec(require(r.problems, *view, "c", path), {&Triangle::c, body}, path + ".c");
        check_shape_size(r, body, {&Triangle::a, body}, errors_before, ops_before, mark_of(e.value, e.key_mark), path);
    } else if (e.key == "hull") {
        shape = Hull{};
        const auto view = read_map(r.problems, e.value, path, e.key_mark, {"points"});
        if (!view) return;
        read_hull(r, *view, body, path);
        check_shape_size(r, body, {detail::HullPoint{}, body, 0}, errors_before, ops_before,
                         mark_of(e.value, e.key_mark), path);
    } else if (e.key == "plane") {
        shape = Plane{};
        const auto view = read_map(r.problems, e.value, path, e.key_mark, {"normal", "offset"});
        if (!view) return;
        num.read_unit(require(r.problems, *view, "normal", path), {&Plane::normal, body}, path + ".normal");
        num.read_into(view->find("offset"), {&Plane::offset, body}, path + ".offset", kAny);
    } else if (e.key == "mesh") {
        const auto view = read_map(r.problems, e.value, path, e.key_mark, {"file", "vertices", "triangles"});
        if (!view) return;
        read_mesh(r, *view, body, path);
    }
}

/// `array:` of body `body` (read as its first copy): count [nx, ny, nz] and spacing [sx, sy,
/// sz]. Makes nx·ny·nz bodies named NAME0 … NAME(N−1) in row order (x fastest, then y, then
/// z): body k = ix + nx·(iy + ny·iz) sits at position + (ix·sx, iy·sy, iz·sz). Every number
/// of an array's body is a plain number (no params), so the copies are the same body moved.
void read_array(ReaderState& r, const Entry& a, int body, const What& path, std::size_t ops_before) {
    const std::string what = path + ".array";
    const std::string array_name = r.t.base.bodies[static_cast<std::size_t>(body)].name;
    const auto refuse = [&](std::size_t bodies) { r.refused_arrays.emplace_back(array_name, bodies); };
    const auto view = read_map(r.problems, a.value, what, a.key_mark, {"count", "spacing"});
    if (!view) return refuse(0);
    const Entry* count = require(r.problems, *view, "count", what);
    const Entry* spacing = require(r.problems, *view, "spacing", what);
    if (!count || !spacing) return refuse(0);
    const SourceMark cm = mark_of(count->value, count->key_mark);
    const auto n = r.numbers.numbers(count->value, what + ".count", count->key_mark, 3, "[nx, ny, nz]",
                                     whole(1, static_cast<double>(kMaxItems)));
    const auto d = r.numbers.vec3(spacing->value, what + ".spacing", spacing->key_mark);
    if (!n || !d || std::any_of(n->begin(), n->end(), [](const Num& x) { return !x.ok; }) ||
        std::any_of(d->begin(), d->end(), [](const Num& x) { return !x.ok; }))
        return refuse(0);
    if (any_dep(*n) || any_dep(*d) || r.t.ops.size() != ops_before) {
        r.problems.error(a.key_mark, path + ": the bodies of an array take plain numbers, not $params");
        return refuse(0);
    }
    const Vec3 counts = value_of(*n);
    const double total = counts.x * counts.y * counts.z;
    // The other bodies: those made before this one, and at least one for each entry after it.
    const std::size_t others = r.t.base.bodies.size() - 1 + r.bodies_after;
    const std::size_t room = kMaxItems - std::min(kMaxItems, others);
    if (total > static_cast<double>(room)) {
        // With the scenario's other bodies counted in the total, and what is left for this one.
        const std::string with_others =
                others == 0 ? std::string()
                            : fmt::format(", and with the scenario's {} other bod{} {}", others,
                                          others == 1 ? "y" : "ies", total + static_cast<double>(others));
        r.problems.error(cm,
                         fmt::format("{}.count: {} × {} × {} = {} bodies{}; a scenario may have at most {} bodies{}",
                                     std::string(what), counts.x, counts.y, counts.z, total, with_others, kMaxItems,
                                     others == 0 ? std::string() : fmt::format(" ({} for this array)", room)));
        return refuse(static_cast<std::size_t>(std::min(total, 1e18)));
    }
    const auto nx = static_cast<std::size_t>(counts.x), ny = static_cast<std::size_t>(counts.y);
    const auto size = static_cast<std::size_t>(total);
    const Vec3 step = value_of(*d);
    const BodyDef first = r.t.base.bodies[static_cast<std::size_t>(body)];
    r.body_index.erase(first.name);
    r.t.base.bodies.reserve(r.t.base.bodies.size() + size - 1);
    advise_huge_pages(r.t.base.bodies.data(), r.t.base.bodies.capacity() * sizeof(BodyDef));
    r.body_index.reserve(r.body_index.size() + size);
    for (std::size_t k = 0; k < size; ++k) {
        const std::string name = first.name + std::to_string(k);
        if (!r.body_index.insert(name, static_cast<std::uint32_t>(k == 0 ? body : r.t.base.bodies.size()))) {
            r.problems.error(a.key_mark, fmt::format("{}: the array's body {} is named {}, but a body of that name "
                                                     "comes before it",
                                                     std::string(path), k, name));
            return refuse(size);
        }
        const Vec3 at{static_cast<double>(k % nx), static_cast<double>((k / nx) % ny),
                      static_cast<double>(k / (nx * ny))};
        BodyDef& b = k == 0 ? r.t.base.bodies[static_cast<std::size_t>(body)] : r.t.base.bodies.emplace_back(first);
        b.name = name;
        b.position = first.position + Vec3{at.x * step.x, at.y * step.y, at.z * step.z};
    }
}

/// Body `name`, its definition `n`.
void read_body_def(ReaderState& r, const std::string& name, SourceMark name_mark, const Node& n) {
    const What path("bodies.", name);
    NumberReader& num = r.numbers;
    const std::size_t ops_before = r.t.ops.size();
    r.t.base.bodies.emplace_back();
    const int index = static_cast<int>(r.t.base.bodies.size()) - 1;
    BodyDef& b = r.t.base.bodies.back();
    b.name = name;
    b.mark = name_mark;
    r.body_index.insert(name, static_cast<std::uint32_t>(index));
    const auto view = read_map(
            r.problems, n, path, name_mark,
            {"sphere",           "box",      "capsule",   "triangle",      "hull",        "plane",         "mesh",
             "position",         "velocity", "rotation",  "restitution",   "friction",    "mass",          "static",
             "kinematic",        "ccd",      "character", "slope_limit",   "step_height", "snap_distance", "trigger",
             "angular_velocity", "array",    "density",   "fixed_rotation"});
    if (!view) return;
    const Entry* shape = nullptr;
    for (const Entry& entry : view->entries) {
        if (std::find(kShapeKeys.begin(), kShapeKeys.end(), entry.key) == kShapeKeys.end()) continue;
        if (shape) {
            r.problems.error(entry.key_mark,
                             path + ": a body has exactly one shape, but it has " + shape->key + " and " + entry.key);
            continue;
        }
        shape = &entry;
    }
    if (!shape)
        r.problems.error(view->mark,
                         path + ": no shape (give one of sphere, box, capsule, triangle, hull, plane, mesh)");
    else
        read_shape(r, *shape, index, path);
    num.read_vec(view->find("position"), {&BodyDef::position, index}, path + ".position");
    num.read_vec(view->find("velocity"), {&BodyDef::velocity, index}, path + ".velocity");
    num.read_rotation(view->find("rotation"), {&BodyDef::rotation, index}, false, path + ".rotation");
    num.read_into(view->find("restitution"), {&BodyDef::restitution, index}, path + ".restitution", kUnit);
    num.read_into(view->find("friction"), {&BodyDef::friction, index}, path + ".friction", kUnit);
    num.read_into(view->find("mass"), {&BodyDef::mass, index}, path + ".mass", kPositive);
    if (const Entry* density = view->find("density")) {
        if (view->find("mass"))
            r.problems.error(density->key_mark, path + ": give mass or density, not both");
        else if (shape && shape->key == "triangle")
            r.problems.error(density->key_mark, path + ": a triangle has no volume, so give its mass, not a density");
        else if (shape && shape->key == "hull" && r.t.ops.size() == ops_before && !(volume_of(b.shape) > 0))
            r.problems.error(density->key_mark,
                             path + ": the hull is flat (no volume), so give its mass, not a density");
        else
            num.read_into(density, {&BodyDef::density, index}, path + ".density", kPositive);
    }
    read_bool(r.problems, view->find("static"), b.is_static, path + ".static");
    read_bool(r.problems, view->find("trigger"), b.trigger, path + ".trigger");
    if (const Entry* k = view->find("kinematic"); read_bool(r.problems, k, b.kinematic, path + ".kinematic")) {
        if (b.kinematic && b.is_static)
            r.problems.error(k->key_mark, path + ": a body is static or kinematic, not both");
    }
    if (const Entry* c = view->find("ccd")) b.ccd_mark = c->key_mark;
    if (const Entry* c = view->find("ccd"); c && c->value.is_scalar() && c->value.scalar() == "speculative")
        b.speculative = true; // `ccd: speculative`: speculative contacts for this body
    else
        num.read_flag(c, {&BodyDef::ccd, index}, path + ".ccd");
    num.read_flag(view->find("character"), {&BodyDef::character, index}, path + ".character");
    num.read_into(view->find("slope_limit"), {&BodyDef::slope_limit, index}, path + ".slope_limit", Check{0, 90});
    num.read_into(view->find("step_height"), {&BodyDef::step_height, index}, path + ".step_height", kNonNegative);
    num.read_into(view->find("snap_distance"), {&BodyDef::snap_distance, index}, path + ".snap_distance", kNonNegative);
    for (const char* key : {"step_height", "snap_distance"})
        if (const Entry* k = view->find(key); k && !b.character)
            r.problems.error(k->key_mark, path + ": " + key + " is for characters (add character: true)");
    if (b.speculative && b.character)
        r.problems.error(view->find("ccd")->key_mark,
                         path + ": a character is moved by its controller, so it takes no speculative contacts");
    if (b.kinematic && b.character)
        r.problems.error(view->find("character")->key_mark,
                         path + ": a character is moved by its controller, so it cannot be kinematic too");
    const Entry* fixed = view->find("fixed_rotation");
    if (fixed && read_bool(r.problems, fixed, b.fixed_rotation, path + ".fixed_rotation") && b.fixed_rotation &&
        (b.is_static || b.kinematic))
        r.problems.error(fixed->key_mark, path + ": fixed_rotation is for dynamic bodies (a " +
                                                  (b.is_static ? "static body never moves"
                                                               : "kinematic body turns only at its angular_velocity") +
                                                  ")");
    if (const Entry* w = view->find("angular_velocity")) {
        num.read_vec(w, {&BodyDef::angular_velocity, index}, path + ".angular_velocity");
        if (b.is_static)
            r.problems.error(w->key_mark, path + ": a static body never turns, so it takes no angular_velocity");
        else if (b.character && !b.kinematic)
            r.problems.error(w->key_mark, path + ": a character never turns, so it takes no angular_velocity");
        else if (b.fixed_rotation)
            r.problems.error(w->key_mark,
                             path + ": fixed_rotation keeps it from turning, so it takes no angular_velocity");
    }
    if (shape && shape->key == "plane" && !b.is_static)
        r.problems.error(shape->key_mark, path + ": a plane is infinite, so it must be static (add static: true)");
    if (shape && shape->key == "mesh" && !b.is_static)
        r.problems.error(shape->key_mark, path + ": a mesh is level geometry, so it must be static (add static: true)");
    if (const Entry* a = view->find("array")) read_array(r, *a, index, path, ops_before);
}

/// Reads world.`key` as one of `choices` (the text, the value) into `field`; anything else is a
/// located error listing them ("world.KEY must be A, B or C, got "X"").
template <class Enum, std::size_t N>
void read_choice(ReaderState& r, const MapView& view, const char* key, Enum& field,
                 const std::type_identity_t<std::pair<const char*, Enum>> (&choices)[N]) {
    const Entry* e = view.find(key);
    std::string s;
    if (!e || !read_string(r.problems, e, s, fmt::format("world.{}", key), false)) return;
    for (const auto& [name, value] : choices) {
        if (s == name) {
            field = value;
            return;
        }
    }
    std::string names;
    for (std::size_t k = 0; k < N; ++k) {
        names += k == 0 ? "" : k + 1 == N ? " or " : ", ";
        names += choices[k].first;
    }
    r.problems.error(mark_of(e->value, e->key_mark), fmt::format("world.{} must be {}, got \"{}\"", key, names, s));
}

} // namespace

void read_world(ReaderState& r, const Entry* e) {
    if (!e) return;
    const auto view = read_map(r.problems, e->value, "world", e->key_mark,
                               {"rate", "dt", "frames", "duration", "gravity", "detection", "phase", "skin",
                                "integrator", "rest_speed", "rest_time", "character_iterations", "friction_model",
                                "friction_combine", "restitution_combine", "velocity_iterations", "velocity_tolerance",
                                "position_iterations", "sleep"});
    if (!view) return;
    r.t.base.world_mark = e->key_mark;
    for (const Entry& key : view->entries)
        r.t.base.world_key_marks.emplace_back(key.key, mark_of(key.value, key.key_mark));
    NumberReader& num = r.numbers;
    WorldDef& w = r.t.base.world;
    const Entry* rate = view->find("rate");
    const Entry* dt = view->find("dt");
    bool dt_dep = false;
    if (rate && dt) {
        r.problems.error(dt->key_mark, "world: give rate or dt, not both");
    } else if (rate) {
        const Num n = num.number(rate->value, "world.rate", rate->key_mark, kPositive);
        if (n.ok) {
            w.dt = 1.0 / n.value;
            dt_dep = n.dep;
            if (n.dep)
                num.add_op(OpKind::dt_from_rate, {&WorldDef::dt}, {n.slot}, mark_of(rate->value, rate->key_mark),
                           "world.rate");
        }
    } else if (dt) {
        const Num n = num.number(dt->value, "world.dt", dt->key_mark, kPositive);
        num.set(n, {&WorldDef::dt}, "world.dt", mark_of(dt->value, dt->key_mark));
        dt_dep = n.dep;
    }
    // The phase before the frames: a duration's frame count depends on it (below).
    bool phase_dep = false;
    if (const Entry* ph = view->find("phase")) {
        const Num n = num.number(ph->value, "world.phase", ph->key_mark, Check{0, 1, false, true});
        num.set(n, {&WorldDef::phase}, "world.phase", mark_of(ph->value, ph->key_mark));
        phase_dep = n.dep;
    }
    const Entry* frames = view->find("frames");
    const Entry* duration = view->find("duration");
    if (frames && duration) {
        r.problems.error(duration->key_mark, "world: give frames or duration, not both");
    } else if (frames) {
        num.read_into(frames, {&WorldDef::frames}, "world.frames", whole(1, kMaxFrames));
    } else if (duration) {
        const std::string what = "world.duration";
        const Num n = num.number(duration->value, what, duration->key_mark, kPositive);
        const SourceMark m = mark_of(duration->value, duration->key_mark);
        if (n.ok && (n.dep || dt_dep || phase_dep)) {
            num.add_op(OpKind::frames_from_duration, {&WorldDef::frames}, {num.slot_of(n)}, m, what);
        } else if (n.ok) {
            const double f = frames_of_duration(n.value, w.dt, w.phase);
            if (f > kMaxFrames)
                r.problems.error(m, what + " gives " + detail::number_text(f) + " frames; at most " +
                                            std::to_string(kMaxFrames));
            else
                w.frames = static_cast<int>(f);
        }
    }
    num.read_vec(view->find("gravity"), {&WorldDef::gravity}, "world.gravity");
    if (const Entry* d = view->find("detection")) r.t.base.detection_mark = d->key_mark;
    read_choice(
            r, *view, "detection", w.detection,
            {{"discrete", Detection::discrete}, {"swept", Detection::swept}, {"speculative", Detection::speculative}});
    if (const Entry* sk = view->find("skin")) {
        const Num n = num.number(sk->value, "world.skin", sk->key_mark, kNonNegative);
        num.set(n, {&WorldDef::skin}, "world.skin", mark_of(sk->value, sk->key_mark));
        r.skin_dep = n.dep;
    }
    read_choice(r, *view, "integrator", w.integrator, {{"exact", Integrator::exact}, {"euler", Integrator::euler}});
    if (const Entry* fm = view->find("friction_model")) r.t.base.friction_model_mark = mark_of(fm->value, fm->key_mark);
    read_choice(r, *view, "friction_model", w.friction_model,
                {{"coulomb", FrictionModel::coulomb}, {"per_contact", FrictionModel::per_contact}});
    constexpr std::pair<const char*, Combine> kCombines[] = {{"max", Combine::max},
                                                             {"min", Combine::min},
                                                             {"average", Combine::average},
                                                             {"multiply", Combine::multiply}};
    read_choice(r, *view, "friction_combine", w.friction_combine, kCombines);
    read_choice(r, *view, "restitution_combine", w.restitution_combine, kCombines);
    num.read_into(view->find("rest_speed"), {&WorldDef::rest_speed}, "world.rest_speed", kNonNegative);
    num.read_into(view->find("rest_time"), {&WorldDef::rest_time}, "world.rest_time", kNonNegative);
    num.read_into(view->find("character_iterations"), {&WorldDef::character_iterations}, "world.character_iterations",
                  whole(1, 16));
    num.read_into(view->find("velocity_iterations"), {&WorldDef::velocity_iterations}, "world.velocity_iterations",
                  whole(1, 1000));
    num.read_into(view->find("velocity_tolerance"), {&WorldDef::velocity_tolerance}, "world.velocity_tolerance",
                  kNonNegative);
    num.read_into(view->find("position_iterations"), {&WorldDef::position_iterations}, "world.position_iterations",
                  whole(0, 1000));
    read_bool(r.problems, view->find("sleep"), w.sleep, "world.sleep");
}

namespace {

/// The value of mapping `map`'s key `name`, or an undefined node.
Node value_of_key(const Node& map, std::string_view name) {
    for (std::size_t i = 0; i < map.size(); ++i)
        if (map.key(i).is_scalar() && map.key(i).scalar() == name) return map.value(i);
    return Node{};
}

/// The bodies `body` (a body's definition) will make: an array's count when it is three plain
/// whole numbers from 1 to kMaxItems (a glance, no errors: read_array() reads it for real),
/// else one. For reserving the list of bodies once, not once an array.
std::size_t bodies_foreseen(const Node& body) {
    if (!body.is_map()) return 1;
    const Node count = value_of_key(value_of_key(body, "array"), "count");
    if (!count.is_sequence() || count.size() != 3) return 1;
    std::size_t total = 1;
    for (std::size_t a = 0; a < 3; ++a) {
        const Node n = count[a];
        if (!n.is_scalar() || !n.is_plain()) return 1;
        const std::string_view text = n.scalar();
        std::size_t value = 0;
        const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
        if (error != std::errc{} || end != text.data() + text.size() || value < 1 || value > kMaxItems) return 1;
        total *= value;
        if (total > kMaxItems) return 1;
    }
    return total;
}

} // namespace

void read_bodies(ReaderState& r, const Entry* e) {
    if (!e) return;
    const auto view = read_open_map(r.problems, e->value, "bodies", e->key_mark);
    if (!view) return;
    if (!not_too_many(r.problems, view->entries.size(), "bodies", view->mark)) {
        r.bodies_refused = true;
        return;
    }
    // A body is 1 KiB: the list is reserved once for the bodies its arrays will make too, so it
    // is never copied as it grows (a 10,000-body rain of three arrays: 10 MB copied twice).
    // (Each body written counts one at least, so the list is never reserved short of them.)
    std::size_t foreseen = 0;
    for (const Entry& b : view->entries) foreseen = std::min(kMaxItems, foreseen + bodies_foreseen(b.value));
    r.t.base.bodies.reserve(foreseen);
    r.body_index.reserve(foreseen);
    advise_huge_pages(r.t.base.bodies.data(), r.t.base.bodies.capacity() * sizeof(BodyDef));
    for (std::size_t i = 0; i < view->entries.size(); ++i) {
        const Entry& b = view->entries[i];
        r.bodies_after = view->entries.size() - 1 - i;
        if (r.progress && i % 4096 == 0) r.progress(i, view->entries.size());
        if (b.key.empty()) {
            r.problems.error(b.key_mark, "bodies: a body needs a name");
            continue;
        }
        // A body's name becomes a CSV field, log and terminal text: letters, digits, _ . - only.
        const auto bad = std::find_if_not(b.key.begin(), b.key.end(), [](char c) {
            return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' || c == '.' ||
                   c == '-';
        });
        if (bad != b.key.end()) {
            const unsigned char c = static_cast<unsigned char>(*bad);
            r.problems.error(b.key_mark, fmt::format("bodies: a body's name may hold letters, digits, _ . and - only, "
                                                     "not {} (at character {})",
                                                     c >= 0x20 && c < 0x7f ? fmt::format("'{}'", char(c))
                                                                           : fmt::format("byte 0x{:02x}", c),
                                                     bad - b.key.begin() + 1));
            continue;
        }
        if (r.body_index.contains(b.key)) { // an array's body took the name
            r.problems.error(b.key_mark, "bodies." + b.key + ": an array before it already made a body of that name");
            continue;
        }
        read_body_def(r, b.key, b.key_mark, b.value);
    }
}

namespace {

/// True when `name` is one an array that was refused would have made: its name, then the
/// body's number as an array writes it (no leading zero), below its count when that is known.
bool made_by_refused_array(const ReaderState& r, std::string_view name) {
    for (const auto& [array, count] : r.refused_arrays) {
        if (name.size() <= array.size() || name.substr(0, array.size()) != array) continue;
        const std::string_view digits = name.substr(array.size());
        if (digits.size() > 1 && digits[0] == '0') continue;
        if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; })) continue;
        if (count == 0 || (digits.size() <= 18 && std::stoull(std::string(digits)) < count)) return true;
    }
    return false;
}

} // namespace

BodyIndex body_ref(ReaderState& r, const Entry* e, const What& what) {
    if (!e) return -2;
    const SourceMark m = mark_of(e->value, e->key_mark);
    if (!e->value.is_scalar() || e->value.is_null()) {
        r.problems.error(m, what + ": expected a body name, got " + describe(e->value));
        return -2;
    }
    const std::string name(e->value.scalar());
    if (const long found = r.body_index.find(name); found >= 0) return static_cast<BodyIndex>(found);
    if (r.bodies_refused || made_by_refused_array(r, name)) return -2; // the refusal is the error
    std::vector<std::string> names;
    for (const BodyDef& b : r.t.base.bodies) names.push_back(b.name);
    r.problems.error(m, what + ": no body named '" + name + "' (" +
                                (names.empty() ? std::string("the scenario has no bodies") : "bodies: " + join(names)) +
                                ")");
    return -2;
}

void read_body(ReaderState& r, const MapView& view, const char* key, BodyIndex& field, const What& path) {
    const BodyIndex b = body_ref(r, require(r.problems, view, key, path), path_join(path, key));
    if (b >= 0) field = b;
}

} // namespace collide::reader
