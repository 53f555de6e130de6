#include "engine/plugin_engine.h"

#include <collide/engine_abi.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <fmt/format.h>
#include <stdexcept>
#include <type_traits>

#include "math/overloaded.h"
#include "shapes/mass.h"
#include "shapes/mesh.h"

namespace collide {

namespace {

static_assert(std::is_standard_layout_v<Vec3> && sizeof(Vec3) == sizeof(collide_vec3),
              "a mesh's vertices are handed to the plugin in place");
static_assert(sizeof(std::array<int, 3>) == 3 * sizeof(std::int32_t), "a mesh's triangles are handed over in place");

collide_vec3 to_abi(const Vec3& v) { return {v.x, v.y, v.z}; }
collide_quat to_abi(const Quat& q) { return {q.w, q.x, q.y, q.z}; }
Vec3 from_abi(const collide_vec3& v) { return {v.x, v.y, v.z}; }
Quat from_abi(const collide_quat& q) { return {q.w, q.x, q.y, q.z}; }

bool finite(const Vec3& v) { return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z); }
bool finite(const Quat& q) {
    return std::isfinite(q.w) && std::isfinite(q.x) && std::isfinite(q.y) && std::isfinite(q.z);
}

std::string engine_name(const collide_engine& table) { return table.name; }

/// A scenario's world and bodies as the ABI's structs, with the arrays they point into.
struct PluginScene {
    collide_world_def world{};
    std::vector<collide_body_def> bodies;
    std::vector<std::vector<collide_vec3>> points; ///< hull points and moved mesh vertices (body frame)
};

/// The ABI's shape for `shape` (body frame); arrays it needs are kept in `scene`.
collide_shape shape_to_abi(const Shape& shape, PluginScene& scene) {
    collide_shape out{};
    out.rotation = to_abi(Quat{});
    std::visit(Overloaded{
                       [&](const Sphere& s) {
                           out.kind = COLLIDE_SHAPE_SPHERE;
                           out.centre = to_abi(s.centre);
                           out.radius = s.radius;
                       },
                       [&](const Aabb& b) {
                           out.kind = COLLIDE_SHAPE_BOX;
                           out.centre = to_abi(centre_of(b));
                           out.half = to_abi(half_of(b));
                       },
                       [&](const Obb& b) {
                           out.kind = COLLIDE_SHAPE_BOX;
                           out.centre = to_abi(b.centre);
                           out.half = to_abi(b.half);
                           out.rotation = to_abi(quat_from_rotation(b.axes));
                       },
                       [&](const Capsule& c) {
                           out.kind = COLLIDE_SHAPE_CAPSULE;
                           out.a = to_abi(c.a);
                           out.b = to_abi(c.b);
                           out.radius = c.radius;
                       },
                       [&](const Triangle& t) {
                           out.kind = COLLIDE_SHAPE_TRIANGLE;
                           out.a = to_abi(t.a);
                           out.b = to_abi(t.b);
                           out.c = to_abi(t.c);
                       },
                       [&](const Hull& h) {
                           out.kind = COLLIDE_SHAPE_HULL;
                           const HullPoints placed = placed_points(h);
                           auto& points = scene.points.emplace_back();
                           for (int k = 0; k < placed.count; ++k)
                               points.push_back(to_abi(placed.points[static_cast<std::size_t>(k)]));
                           out.points = points.data();
                           out.point_count = placed.count;
                       },
                       [&](const Plane& p) {
                           out.kind = COLLIDE_SHAPE_PLANE;
                           out.normal = to_abi(p.normal);
                           out.offset = p.offset;
                       },
                       [&](const Mesh& m) {
                           out.kind = COLLIDE_SHAPE_MESH;
                           const TriangleMesh& data = *m.data;
                           if (m.rotation == Mat3{} && m.position == Vec3{}) {
                               // The mesh frame is the body frame: its arrays as they are.
                               out.vertices = reinterpret_cast<const collide_vec3*>(data.vertices.data());
                           } else {
                               auto& moved = scene.points.emplace_back();
                               moved.reserve(data.vertices.size());
                               for (const Vec3& v : data.vertices) moved.push_back(to_abi(m.rotation * v + m.position));
                               out.vertices = moved.data();
                           }
                           out.vertex_count = static_cast<std::int32_t>(data.vertices.size());
                           out.triangles = reinterpret_cast<const std::int32_t*>(data.triangles.data());
                           out.triangle_count = static_cast<std::int32_t>(data.triangles.size());
                       },
               },
               shape);
    return out;
}

collide_world_def world_to_abi(const WorldDef& w) {
    collide_world_def out{};
    out.struct_size = sizeof(collide_world_def);
    out.body_def_size = sizeof(collide_body_def);
    out.dt = w.dt;
    out.frames = w.frames;
    out.phase = w.phase;
    out.gravity = to_abi(w.gravity);
    out.detection = w.detection == Detection::swept         ? COLLIDE_DETECTION_SWEPT
                    : w.detection == Detection::speculative ? COLLIDE_DETECTION_SPECULATIVE
                                                            : COLLIDE_DETECTION_DISCRETE;
    out.integrator = w.integrator == Integrator::euler ? COLLIDE_INTEGRATOR_EULER : COLLIDE_INTEGRATOR_EXACT;
    out.skin = w.skin;
    out.rest_speed = w.rest_speed;
    out.rest_time = w.rest_time;
    out.sleep = w.sleep ? 1 : 0;
    out.velocity_iterations = w.velocity_iterations;
    out.velocity_tolerance = w.velocity_tolerance;
    out.position_iterations = w.position_iterations;
    out.friction_model =
            w.friction_model == FrictionModel::per_contact ? COLLIDE_FRICTION_PER_CONTACT : COLLIDE_FRICTION_COULOMB;
    const auto combine = [](Combine c) -> std::int32_t {
        switch (c) {
        case Combine::min: return COLLIDE_COMBINE_MIN;
        case Combine::average: return COLLIDE_COMBINE_AVERAGE;
        case Combine::multiply: return COLLIDE_COMBINE_MULTIPLY;
        case Combine::max: break;
        }
        return COLLIDE_COMBINE_MAX;
    };
    out.friction_combine = combine(w.friction_combine);
    out.restitution_combine = combine(w.restitution_combine);
    return out;
}

/// The scene the plugin is given; bodies must hold no character (refused before).
PluginScene scene_of(const WorldDef& def, std::span<const BodyDef> defs) {
    PluginScene scene;
    scene.world = world_to_abi(def);
    scene.bodies.reserve(defs.size()); // (the bodies point into scene.points' inner vectors, which keep their buffers)
    for (const BodyDef& d : defs) {
        collide_body_def b{};
        b.name = d.name.c_str();
        const BodyKind kind = body_kind(d);
        b.kind = kind == BodyKind::fixed       ? COLLIDE_BODY_STATIC
                 : kind == BodyKind::kinematic ? COLLIDE_BODY_KINEMATIC
                                               : COLLIDE_BODY_DYNAMIC;
        const auto flag = [](bool on, collide_body_flag bit) { return on ? static_cast<std::uint32_t>(bit) : 0u; };
        b.flags = flag(d.trigger, COLLIDE_BODY_TRIGGER) | flag(d.fixed_rotation, COLLIDE_BODY_FIXED_ROTATION) |
                  flag(d.ccd, COLLIDE_BODY_CCD) | flag(d.speculative, COLLIDE_BODY_SPECULATIVE);
        b.shape = shape_to_abi(d.shape, scene);
        b.position = to_abi(d.position);
        b.rotation = to_abi(d.rotation);
        if (kind != BodyKind::fixed) {
            b.velocity = to_abi(d.velocity);
            b.angular_velocity = to_abi(d.angular_velocity);
        }
        if (kind == BodyKind::dynamic) {
            b.mass = mass_of(d);
            const MassProperties mp = mass_properties(d.shape, b.mass);
            b.centre_of_mass = to_abi(mp.centre);
            for (int r = 0; r < 3; ++r)
                for (int c = 0; c < 3; ++c) b.inertia[3 * r + c] = mp.inertia.at(r, c);
        }
        b.restitution = d.restitution;
        b.friction = d.friction;
        scene.bodies.push_back(b);
    }
    return scene;
}

/// The NUL-terminated text of a fixed-size buffer a plugin filled (its end when it wrote no NUL).
template <std::size_t N> std::string text_of(const char (&buffer)[N]) {
    return std::string(buffer, strnlen(buffer, N));
}

/// Refuses a character: the ABI has no character controller.
void refuse_characters(const collide_engine& table, std::span<const BodyDef> bodies, const std::string& file) {
    for (const BodyDef& b : bodies)
        if (body_kind(b) == BodyKind::character)
            throw UnsupportedError(file, b.mark.line, b.mark.column,
                                   "--engine " + engine_name(table) +
                                           " has no character controller (the engine ABI has none): body '" + b.name +
                                           "' is a character");
}

/// What `create` refused, as one message naming the body or world key at fault.
std::string refusal_message(const collide_engine& table, const collide_refusal& r, std::span<const BodyDef> bodies) {
    std::string why = text_of(r.message);
    if (why.empty()) why = "refused without saying why";
    const std::string key = text_of(r.key);
    const std::string engine = "--engine " + engine_name(table);
    if (r.body >= 0 && static_cast<std::size_t>(r.body) < bodies.size())
        return engine + " cannot run body '" + bodies[static_cast<std::size_t>(r.body)].name + "'" +
               (key.empty() ? "" : " (" + key + ")") + ": " + why;
    return engine + " cannot run " + (key.empty() ? std::string("this world") : "world." + key) + ": " + why;
}

/// An engine over a plugin's table.
class PluginEngine final : public Engine {
public:
    explicit PluginEngine(const collide_engine& table) : table_(table), name_(table.name) {}
    ~PluginEngine() override { destroy_world(); }
    PluginEngine(const PluginEngine&) = delete;
    PluginEngine& operator=(const PluginEngine&) = delete;

    std::string_view name() const override { return name_; }
    void reset(const WorldDef& def, std::span<const BodyDef> bodies) override;
    void add_observer(EngineObserver& observer, unsigned events) override {
        listeners_.push_back({&observer, events});
        wanted_ |= events;
    }
    void step_frame() override;
    bool exact_moves() const override { return false; }

    const WorldDef& def() const override { return def_; }
    int body_count() const override { return static_cast<int>(bodies_.size()); }
    int frames_stepped() const override { return frames_stepped_; }
    int frame() const override { return frame_; }
    Vec3 up() const override { return up_; }
    BodyState state(int i) const override { return states_[static_cast<std::size_t>(i)]; }
    std::span<const BodyState> states() const override { return states_; }
    double fastest_speed(int i) const override {
        const BodyState& s = states_[static_cast<std::size_t>(i)];
        const Body& b = bodies_[static_cast<std::size_t>(i)];
        return length(s.velocity) + (b.round ? 0.0 : length(s.angular_velocity) * b.reach);
    }
    BodyKind kind(int i) const override { return bodies_[static_cast<std::size_t>(i)].kind; }
    bool is_trigger(int i) const override { return bodies_[static_cast<std::size_t>(i)].trigger; }
    const Shape& local_shape(int i) const override {
        refresh(i);
        return local_[static_cast<std::size_t>(i)];
    }
    const Shape& placed(int i) const override {
        refresh(i);
        return placed_[static_cast<std::size_t>(i)];
    }
    Aabb bounds(int i) const override { return bounds_of(placed(i)); }
    CharacterState character_state(int) const override { return {}; }

private:
    struct Body {
        BodyKind kind = BodyKind::fixed;
        bool trigger = false;
        bool round = false; ///< a sphere about its centre of mass: turning moves no point
        double reach = 0;   ///< farthest point of the shape from the point its velocity is of (m)
        Shape base;         ///< the shape in the body frame
    };
    struct Listener {
        EngineObserver* observer = nullptr;
        unsigned events = 0;
    };
    /// A pair's contact of the last step: bodies a < b and its manifold.
    struct Found {
        int a = 0, b = 0;
        Manifold manifold;
    };

    const collide_engine& table_;
    std::string name_;
    void* world_ = nullptr;
    WorldDef def_;
    Vec3 up_{0, 1, 0};
    std::vector<Body> bodies_;
    std::vector<BodyState> states_, before_;
    std::vector<collide_body_state> read_;
    mutable std::vector<Shape> local_, placed_;
    mutable std::vector<unsigned char> fresh_;
    std::vector<unsigned char> touched_;
    std::vector<Found> found_;
    std::vector<Manifold> manifolds_;
    std::vector<Listener> listeners_;
    unsigned wanted_ = 0;
    int frame_ = -1;
    int frames_stepped_ = 0;
    double time_ = 0;

    void destroy_world() {
        if (world_) table_.destroy(world_);
        world_ = nullptr;
    }
    void refresh(int i) const {
        const auto k = static_cast<std::size_t>(i);
        if (fresh_[k]) return;
        const BodyState& s = states_[k];
        place_into(local_[k], bodies_[k].base, Vec3{}, s.rotation);
        place_into(placed_[k], bodies_[k].base, s.position, s.rotation);
        fresh_[k] = 1;
    }
    [[noreturn]] void broken(const std::string& what) const {
        throw std::runtime_error(fmt::format("engine '{}' broke the engine ABI at frame {}: {}", name_, frame_, what));
    }
    void read_states();
    void read_contacts();
    void step(double h);
    template <class F> void tell(unsigned event, F&& f) {
        for (const Listener& l : listeners_)
            if (l.events & event) f(*l.observer);
    }
};

void PluginEngine::reset(const WorldDef& def, std::span<const BodyDef> defs) {
    destroy_world();
    refuse_characters(table_, defs, "");
    def_ = def;
    const double g = length(def.gravity);
    up_ = g > 0 ? def.gravity * (-1.0 / g) : Vec3{0, 1, 0};
    listeners_.clear();
    wanted_ = 0;
    frame_ = -1;
    frames_stepped_ = 0;
    time_ = 0;
    const std::size_t n = defs.size();
    bodies_.assign(n, Body{});
    states_.assign(n, BodyState{});
    local_.assign(n, Shape{});
    placed_.assign(n, Shape{});
    fresh_.assign(n, 0);
    read_.assign(n, collide_body_state{});
    touched_.assign(n, 0);
    for (std::size_t k = 0; k < n; ++k) {
        const BodyDef& d = defs[k];
        Body& b = bodies_[k];
        b.kind = body_kind(d);
        b.trigger = d.trigger;
        b.base = d.shape;
        const Vec3 about = b.kind == BodyKind::dynamic ? mass_properties(d.shape, mass_of(d)).centre : Vec3{};
        b.round = std::holds_alternative<Sphere>(d.shape) && std::get<Sphere>(d.shape).centre == about;
        b.reach = std::holds_alternative<Plane>(d.shape) ? 0.0 : max_distance_from(d.shape, about);
        const bool moves = b.kind != BodyKind::fixed;
        states_[k] = {d.position, moves ? d.velocity : Vec3{}, d.rotation, moves ? d.angular_velocity : Vec3{}};
    }
    PluginScene scene = scene_of(def, defs);
    collide_refusal refusal{};
    refusal.body = -1;
    world_ = table_.create(&scene.world, scene.bodies.data(), static_cast<std::int32_t>(n), &refusal);
    if (!world_) throw UnsupportedError("", 0, 0, refusal_message(table_, refusal, defs));
}

void PluginEngine::read_states() {
    table_.read_states(world_, read_.data());
    for (std::size_t k = 0; k < bodies_.size(); ++k) {
        if (bodies_[k].kind == BodyKind::fixed) continue; // a static body never moves, whatever it says
        const collide_body_state& r = read_[k];
        BodyState s{from_abi(r.position), from_abi(r.velocity), from_abi(r.rotation), from_abi(r.angular_velocity)};
        if (!finite(s.position) || !finite(s.velocity) || !finite(s.rotation) || !finite(s.angular_velocity))
            broken(fmt::format("body {} has a state that is not finite", k));
        s.rotation = normalize(s.rotation);
        states_[k] = s;
        fresh_[k] = 0;
    }
}

void PluginEngine::read_contacts() {
    found_.clear();
    std::fill(touched_.begin(), touched_.end(), 0);
    const collide_contact* contacts = nullptr;
    const std::int32_t count = table_.read_contacts(world_, &contacts);
    if (count < 0 || (count > 0 && !contacts)) broken(fmt::format("read_contacts returned {} contacts", count));
    const auto n = static_cast<std::int32_t>(bodies_.size());
    for (std::int32_t c = 0; c < count; ++c) {
        const collide_contact& in = contacts[c];
        if (!(0 <= in.a && in.a < in.b && in.b < n))
            broken(fmt::format("a contact between bodies {} and {} (expected a < b < {})", in.a, in.b, n));
        if (in.point_count < 1 || in.point_count > COLLIDE_CONTACT_MAX_POINTS)
            broken(fmt::format("a contact of bodies {} and {} with {} points (expected 1 to {})", in.a, in.b,
                               in.point_count, COLLIDE_CONTACT_MAX_POINTS));
        const Vec3 normal = from_abi(in.normal);
        const double len = length(normal);
        if (!std::isfinite(len) || len <= 0)
            broken(fmt::format("a contact of bodies {} and {} without a normal", in.a, in.b));
        if (is_trigger(in.a) || is_trigger(in.b)) continue; // collide measures triggers on the poses
        Found f{in.a, in.b, {}};
        f.manifold.normal = normal / len;
        f.manifold.count = in.point_count;
        for (int p = 0; p < in.point_count; ++p) {
            const collide_contact_point& q = in.points[p];
            if (!finite(from_abi(q.point)) || !std::isfinite(q.depth))
                broken(fmt::format("a contact point of bodies {} and {} that is not finite", in.a, in.b));
            f.manifold.points[static_cast<std::size_t>(p)] = {from_abi(q.point), q.depth,
                                                              static_cast<std::uint32_t>(p)};
        }
        touched_[static_cast<std::size_t>(in.a)] = touched_[static_cast<std::size_t>(in.b)] = 1;
        found_.push_back(f);
    }
    std::stable_sort(found_.begin(), found_.end(),
                     [](const Found& x, const Found& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; });
}

void PluginEngine::step(double h) {
    before_ = states_;
    if (table_.step(world_, h) != 0) broken(fmt::format("step({:g} s) failed", h));
    time_ = (frame_ + def_.phase) * def_.dt; // the step's end: frame k's sampled time
    read_states();
    read_contacts();
    const Vec3 g = def_.gravity;
    for (std::size_t k = 0; k < bodies_.size(); ++k) {
        const Body& b = bodies_[k];
        if (b.kind == BodyKind::fixed) continue;
        const int i = static_cast<int>(k);
        const BodyState old = before_[k], now = states_[k];
        if (b.kind == BodyKind::dynamic && touched_[k] && (wanted_ & kOnResponse)) {
            const Vec3 free = old.velocity + g * h; // what gravity alone gives
            if (!(free == now.velocity)) {
                states_[k] = old;
                fresh_[k] = 0;
                tell(kOnResponse, [&](EngineObserver& o) { o.on_response(*this, i, free, now.velocity); });
            }
        }
        if (wanted_ & kOnMove) {
            // The chord from the pose before to the pose after.
            states_[k] = {old.position, (now.position - old.position) * (1 / h), old.rotation, now.angular_velocity};
            fresh_[k] = 0;
            tell(kOnMove, [&](EngineObserver& o) { o.on_move(*this, i, h, Vec3{}); });
        }
        states_[k] = now;
        fresh_[k] = 0;
    }
    if (!(wanted_ & kOnContact)) return;
    for (std::size_t s = 0; s < found_.size();) {
        std::size_t e = s;
        manifolds_.clear();
        while (e < found_.size() && found_[e].a == found_[s].a && found_[e].b == found_[s].b)
            manifolds_.push_back(found_[e++].manifold);
        const ContactEvent event{found_[s].a, found_[s].b, time_, manifolds_};
        tell(kOnContact, [&](EngineObserver& o) { o.on_contact(*this, event); });
        s = e;
    }
}

void PluginEngine::step_frame() {
    if (frames_stepped_ >= def_.frames) return;
    frame_ = frames_stepped_;
    const double h = frame_ == 0 ? def_.phase * def_.dt : def_.dt;
    if (h > 0) step(h);
    ++frames_stepped_;
    const double t = (frame_ + def_.phase) * def_.dt;
    tell(kOnFrame, [&](EngineObserver& o) { o.on_frame(*this, frame_, t); });
}

} // namespace

std::unique_ptr<Engine> make_plugin_engine(const collide_engine& table) {
    return std::make_unique<PluginEngine>(table);
}

void refuse_unsupported_by_plugin(const collide_engine& table, const Scenario& s) {
    const std::string file = display_name(s.file);
    refuse_characters(table, s.bodies, file);
    PluginScene scene = scene_of(s.world, s.bodies);
    collide_refusal refusal{};
    refusal.body = -1;
    void* world = table.create(&scene.world, scene.bodies.data(), static_cast<std::int32_t>(s.bodies.size()), &refusal);
    if (world) {
        table.destroy(world);
        return;
    }
    const std::string message = refusal_message(table, refusal, s.bodies);
    const std::string key = text_of(refusal.key);
    SourceMark at{1, 1};
    if (refusal.body >= 0 && static_cast<std::size_t>(refusal.body) < s.bodies.size()) {
        const BodyDef& b = s.bodies[static_cast<std::size_t>(refusal.body)];
        at = key == "ccd" && b.ccd_mark.line > 0 ? b.ccd_mark : b.mark;
    } else {
        const auto it = std::find_if(s.world_key_marks.begin(), s.world_key_marks.end(),
                                     [&](const auto& entry) { return entry.first == key; });
        // A detection the file does not hold is the command line's (--detection): no place in the file.
        if (key == "detection" && s.detection_mark.line == 0 &&
            (it != s.world_key_marks.end() || s.world.detection != WorldDef{}.detection))
            throw UnsupportedError("", 0, 0, message + " (world.detection as --detection sets it)");
        if (it != s.world_key_marks.end())
            at = it->second;
        else if (s.world_mark.line > 0)
            at = s.world_mark;
    }
    throw UnsupportedError(file, at.line, at.column, message);
}

std::vector<std::string> plugin_header(const collide_engine& table, const Scenario& s) {
    std::vector<std::string> lines{std::string("engine → ") + table.version};
    if (table.approximations)
        for (const char* const* line = table.approximations; *line; ++line)
            lines.push_back(engine_name(table) + "'s approximations → " + *line);
    if (!s.expect.empty())
        lines.push_back("expectations → not checked with --engine " + engine_name(table) +
                        ": they state collide's answers");
    return lines;
}

} // namespace collide
