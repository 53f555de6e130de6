#include "engines/box3d/box3d_engine.h"

#include <box3d/box3d.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <mutex>
#include <stdexcept>

#include "engine/registry.h"
#include "math/overloaded.h"
#include "model/diagnostic.h"
#include "shapes/mass.h"
#include "shapes/mesh.h"

static_assert(sizeof(b3Pos) == 3 * sizeof(float), "the Box3D adapter maps Box3D as it ships: single precision");

namespace collide {

namespace {

b3Vec3 to_b3(const Vec3& v) { return {static_cast<float>(v.x), static_cast<float>(v.y), static_cast<float>(v.z)}; }
Vec3 from_b3(const b3Vec3& v) { return {v.x, v.y, v.z}; }
/// Box3D's quaternions are (v, s); collide's (w, x, y, z).
b3Quat to_b3(const Quat& q) { return {to_b3(Vec3{q.x, q.y, q.z}), static_cast<float>(q.w)}; }
Quat from_b3(const b3Quat& q) { return normalize(Quat{q.s, q.v.x, q.v.y, q.v.z}); }
/// A Mat3 (columns) as Box3D's (columns cx, cy, cz).
b3Matrix3 to_b3(const Mat3& m) { return {to_b3(m.col[0]), to_b3(m.col[1]), to_b3(m.col[2])}; }

/// Box3D's log goes to stdout by default, where collide's logs go: send it to stderr.
void log_to_stderr(const char* message) { std::fprintf(stderr, "collide: box3d: %s\n", message); }

/// A pair's coefficient from its two by one rule (Box3D's mixing callbacks take no context: one
/// function per rule, for friction and restitution alike).
template <Combine Rule> float combine(float a, std::uint64_t, float b, std::uint64_t) {
    return static_cast<float>(combine_coefficients(Rule, a, b));
}
b3FrictionCallback* combine_callback(Combine rule) {
    switch (rule) {
    case Combine::max: return &combine<Combine::max>;
    case Combine::min: return &combine<Combine::min>;
    case Combine::average: return &combine<Combine::average>;
    case Combine::multiply: return &combine<Combine::multiply>;
    }
    return &combine<Combine::max>;
}

/// Box3D keeps its worlds in a fixed table of B3_MAX_WORLDS whose slots b3CreateWorld and
/// b3DestroyWorld take and free without a lock (and the first creation fills its contact
/// table): both go through here, one at a time.
std::mutex& worlds_mutex() {
    static std::mutex m;
    return m;
}
int live_worlds = 0; // guarded by worlds_mutex()

b3WorldId create_world(const b3WorldDef& def) {
    const std::lock_guard lock(worlds_mutex());
    static bool logging = (b3SetLogFcn(&log_to_stderr), true);
    (void)logging;
    if (live_worlds >= B3_MAX_WORLDS)
        throw InputError("", 0, 0,
                         fmt::format("--engine box3d: Box3D runs at most {} worlds at once; run fewer at once "
                                     "(--jobs {} or fewer)",
                                     B3_MAX_WORLDS, B3_MAX_WORLDS));
    const b3WorldId id = b3CreateWorld(&def);
    if (!b3World_IsValid(id)) throw std::runtime_error("b3CreateWorld failed");
    ++live_worlds;
    return id;
}

void destroy_world(b3WorldId id) {
    const std::lock_guard lock(worlds_mutex());
    b3DestroyWorld(id);
    --live_worlds;
}

/// Frees a mesh made by b3CreateMesh.
struct MeshFree {
    void operator()(b3MeshData* mesh) const { b3DestroyMesh(mesh); }
};
using MeshData = std::unique_ptr<b3MeshData, MeshFree>;

/// One Box3D world and the meshes its shapes point into (Box3D copies a hull but keeps a
/// pointer to a mesh); destroyed as a whole, the world first.
struct Box3dWorld {
    b3WorldId id = b3_nullWorldId;
    std::vector<MeshData> meshes;
    explicit Box3dWorld(const b3WorldDef& def) : id(create_world(def)) {}
    Box3dWorld(const Box3dWorld&) = delete;
    Box3dWorld& operator=(const Box3dWorld&) = delete;
    ~Box3dWorld() { destroy_world(id); } // before the meshes (members are destroyed after this)
};

/// A hull of `hull`'s points as they are placed in the body frame, or null when Box3D cannot
/// make one (fewer than 4 points, or none spanning a volume). The caller frees it (b3DestroyHull).
b3HullData* make_hull(const Hull& hull) {
    const HullPoints placed = placed_points(hull);
    std::vector<b3Vec3> points;
    for (int k = 0; k < placed.count; ++k) points.push_back(to_b3(placed.points[static_cast<std::size_t>(k)]));
    return b3CreateHull(points.data(), static_cast<int>(points.size()), B3_MAX_HULL_VERTICES);
}

/// A static mesh of `vertices` (the body frame) and `indices` (three a triangle, counter-clockwise
/// seen from its front, the side Box3D collides on).
MeshData make_mesh(const std::vector<b3Vec3>& vertices, const std::vector<std::int32_t>& indices, bool identify_edges) {
    b3MeshDef def{};
    def.vertices = const_cast<b3Vec3*>(vertices.data()); // read only (b3MeshDef is not const-correct)
    def.indices = const_cast<std::int32_t*>(indices.data());
    def.vertexCount = static_cast<int>(vertices.size());
    def.triangleCount = static_cast<int>(indices.size() / 3);
    def.identifyEdges = identify_edges;
    MeshData mesh(b3CreateMesh(&def, nullptr, 0));
    if (!mesh) throw std::runtime_error("b3CreateMesh failed");
    return mesh;
}

/// Creates body `d`'s shape on `body`, given in the body's frame.
void add_shape(b3BodyId body, const BodyDef& d, const b3ShapeDef& sd, Box3dWorld& bw) {
    std::visit(
            Overloaded{
                    [&](const Sphere& s) {
                        const b3Sphere sphere{to_b3(s.centre), static_cast<float>(s.radius)};
                        b3CreateSphereShape(body, &sd, &sphere);
                    },
                    [&](const Aabb& b) {
                        const Vec3 h = half_of(b);
                        const b3BoxHull box = b3MakeOffsetBoxHull(static_cast<float>(h.x), static_cast<float>(h.y),
                                                                  static_cast<float>(h.z), to_b3(centre_of(b)));
                        b3CreateHullShape(body, &sd, &box.base);
                    },
                    [&](const Obb& b) {
                        const b3Matrix3 axes = to_b3(b.axes);
                        const b3Transform frame{to_b3(b.centre), b3MakeQuatFromMatrix(&axes)};
                        const b3BoxHull box =
                                b3MakeTransformedBoxHull(static_cast<float>(b.half.x), static_cast<float>(b.half.y),
                                                         static_cast<float>(b.half.z), frame);
                        b3CreateHullShape(body, &sd, &box.base);
                    },
                    [&](const Capsule& c) {
                        const b3Capsule capsule{to_b3(c.a), to_b3(c.b), static_cast<float>(c.radius)};
                        b3CreateCapsuleShape(body, &sd, &capsule); // a sphere when shorter than Box3D's slop
                    },
                    [&](const Triangle& t) {
                        // Box3D's triangles collide on their front only: both ways round, so
                        // either side is a front, as collide's triangle has two.
                        bw.meshes.push_back(make_mesh({to_b3(t.a), to_b3(t.b), to_b3(t.c)}, {0, 1, 2, 0, 2, 1}, false));
                        b3CreateMeshShape(body, &sd, bw.meshes.back().get(), b3Vec3{1, 1, 1});
                    },
                    [&](const Hull& h) {
                        b3HullData* hull = make_hull(h);
                        if (!hull) throw std::logic_error("a hull Box3D cannot make was not refused");
                        b3CreateHullShape(body, &sd, hull); // copies it
                        b3DestroyHull(hull);
                    },
                    [&](const Plane&) { throw std::logic_error("a plane was not refused"); },
                    [&](const Mesh& m) {
                        const TriangleMesh& data = *m.data;
                        std::vector<b3Vec3> vertices;
                        vertices.reserve(data.vertices.size());
                        for (const Vec3& v : data.vertices) vertices.push_back(to_b3(m.rotation * v + m.position));
                        std::vector<std::int32_t> indices;
                        indices.reserve(3 * data.triangles.size());
                        for (const auto& t : data.triangles) indices.insert(indices.end(), {t[0], t[1], t[2]});
                        bw.meshes.push_back(make_mesh(vertices, indices, true));
                        b3CreateMeshShape(body, &sd, bw.meshes.back().get(), b3Vec3{1, 1, 1});
                    },
            },
            d.shape);
}

/// One body as the adapter keeps it.
struct Body {
    BodyKind kind = BodyKind::fixed;
    bool trigger = false;
    Shape base; ///< the shape in the body frame
    b3BodyId id = b3_nullBodyId;
    Vec3 start_position;   ///< a kinematic body's pose at t = 0
    Quat start_rotation;   ///< …
    Vec3 velocity;         ///< a kinematic body's constant velocity (m/s)
    Vec3 angular_velocity; ///< … and angular velocity (rad/s)
    bool round = false;    ///< a sphere (its turning moves no point of it)
    double reach = 0;      ///< farthest point of the shape from the point its velocity is of (m)
};

/// The adapter.
class Box3dEngine final : public Engine {
public:
    std::string_view name() const override { return "box3d"; }
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
    struct Listener {
        EngineObserver* observer = nullptr;
        unsigned events = 0;
    };
    /// A pair's contact found after a step: bodies a < b and one of its manifolds (normal from a to b).
    struct Found {
        int a = 0, b = 0;
        Manifold manifold;
    };
    WorldDef def_;
    Vec3 up_{0, 1, 0};
    std::unique_ptr<Box3dWorld> bw_; // null before the first reset and once the last frame is stepped
    std::vector<Body> bodies_;
    std::vector<BodyState> states_;
    mutable std::vector<Shape> local_, placed_;
    mutable std::vector<unsigned char> fresh_;
    std::vector<Listener> listeners_;
    unsigned wanted_ = 0;
    int frame_ = -1;
    int frames_stepped_ = 0;
    double time_ = 0;
    std::vector<Found> found_;
    std::vector<Manifold> manifolds_;
    std::vector<b3ContactData> contact_data_;
    std::vector<Vec3> before_;
    std::vector<unsigned char> pushed_; ///< per body: a contact pushed it this step

    void refresh(int i) const {
        const auto k = static_cast<std::size_t>(i);
        if (fresh_[k]) return;
        const BodyState& s = states_[k];
        place_into(local_[k], bodies_[k].base, Vec3{}, s.rotation);
        place_into(placed_[k], bodies_[k].base, s.position, s.rotation);
        fresh_[k] = 1;
    }
    int index_of(b3ShapeId shape) const {
        return static_cast<int>(reinterpret_cast<std::uintptr_t>(b3Body_GetUserData(b3Shape_GetBody(shape))));
    }
    void read_pose(int i);
    void gather();
    void step(double h);
    template <class F> void tell(unsigned event, F&& f) {
        for (const Listener& l : listeners_)
            if (l.events & event) f(*l.observer);
    }
};

/// Whether a world of these settings and bodies needs Box3D's continuous detection on.
bool needs_continuous(const WorldDef& def, std::span<const BodyDef> bodies) {
    if (def.detection != Detection::discrete) return true;
    return std::any_of(bodies.begin(), bodies.end(),
                       [](const BodyDef& b) { return body_kind(b) == BodyKind::dynamic && (b.ccd || b.speculative); });
}

/// Whether body `b` is one of Box3D's bullets: a dynamic body swept against moving ones too.
bool is_bullet(const WorldDef& def, const BodyDef& b) {
    return body_kind(b) == BodyKind::dynamic && (b.ccd || def.detection == Detection::swept);
}

/// Box3D's restitution threshold for these settings: collide's bounce speed (m/s).
double restitution_threshold(const WorldDef& def) { return std::max(def.rest_speed, length(def.gravity) * def.dt); }

void Box3dEngine::reset(const WorldDef& def, std::span<const BodyDef> defs) {
    def_ = def;
    const double g = length(def.gravity);
    up_ = g > 0 ? def.gravity * (-1.0 / g) : Vec3{0, 1, 0};
    listeners_.clear();
    wanted_ = 0;
    frame_ = -1;
    frames_stepped_ = 0;
    time_ = 0;
    bw_.reset(); // the old world first: a fresh one per run
    b3WorldDef wd = b3DefaultWorldDef();
    wd.gravity = to_b3(def.gravity);
    wd.restitutionThreshold = static_cast<float>(restitution_threshold(def));
    wd.frictionCallback = combine_callback(def.friction_combine);
    wd.restitutionCallback = combine_callback(def.restitution_combine);
    wd.enableSleep = def.sleep;
    wd.enableContinuous = needs_continuous(def, defs);
    wd.workerCount = 1;
    bw_ = std::make_unique<Box3dWorld>(wd);

    const std::size_t n = defs.size();
    bodies_.assign(n, Body{});
    states_.assign(n, BodyState{});
    local_.assign(n, Shape{});
    placed_.assign(n, Shape{});
    fresh_.assign(n, 0);
    before_.assign(n, Vec3{});
    pushed_.assign(n, 0);
    for (std::size_t k = 0; k < n; ++k) {
        const BodyDef& d = defs[k];
        Body& b = bodies_[k];
        b.kind = body_kind(d);
        b.trigger = d.trigger;
        b.base = d.shape;
        b.start_position = d.position;
        b.start_rotation = d.rotation;
        b.velocity = d.velocity;
        b.angular_velocity = d.angular_velocity;
        b.round = std::holds_alternative<Sphere>(d.shape);
        const bool dynamic = b.kind == BodyKind::dynamic;
        const MassProperties mp = dynamic ? mass_properties(d.shape, mass_of(d)) : MassProperties{};
        b.reach = std::holds_alternative<Plane>(d.shape) ? 0.0 : max_distance_from(d.shape, mp.centre);
        b3BodyDef bd = b3DefaultBodyDef();
        bd.type = b.kind == BodyKind::fixed       ? b3_staticBody
                  : b.kind == BodyKind::kinematic ? b3_kinematicBody
                                                  : b3_dynamicBody;
        bd.position = to_b3(d.position);
        bd.rotation = to_b3(d.rotation);
        bd.name = d.name.c_str(); // copied
        bd.userData = reinterpret_cast<void*>(static_cast<std::uintptr_t>(k));
        bd.sleepThreshold = static_cast<float>(def.rest_speed);
        // A kinematic body asleep ignores targets slower than its threshold: a moving one never sleeps.
        bd.enableSleep = !(b.kind == BodyKind::kinematic && (length(d.velocity) > 0 || length(d.angular_velocity) > 0));
        bd.isBullet = is_bullet(def, d);
        bd.motionLocks.angularX = bd.motionLocks.angularY = bd.motionLocks.angularZ = d.fixed_rotation;
        b.id = b3CreateBody(bw_->id, &bd);
        b3ShapeDef sd = b3DefaultShapeDef();
        sd.density = 0; // collide's mass properties are set below
        sd.baseMaterial.friction = static_cast<float>(d.friction);
        sd.baseMaterial.restitution = static_cast<float>(d.restitution);
        sd.isSensor = d.trigger;
        add_shape(b.id, d, sd, *bw_);
        if (dynamic) {
            b3Body_SetMassData(b.id, b3MassData{static_cast<float>(mp.mass), to_b3(mp.centre), to_b3(mp.inertia)});
            // Set after the mass, which moves the centre: collide's velocity is the centre's.
            b3Body_SetLinearVelocity(b.id, to_b3(d.velocity));
            b3Body_SetAngularVelocity(b.id, to_b3(d.angular_velocity));
        }
        states_[k] = {d.position, b.kind == BodyKind::fixed ? Vec3{} : d.velocity, d.rotation,
                      b.kind == BodyKind::fixed ? Vec3{} : d.angular_velocity};
    }
}

void Box3dEngine::read_pose(int i) {
    const auto k = static_cast<std::size_t>(i);
    const Body& b = bodies_[k];
    const b3WorldTransform t = b3Body_GetTransform(b.id);
    Vec3 velocity = from_b3(b3Body_GetLinearVelocity(b.id));
    Vec3 omega = from_b3(b3Body_GetAngularVelocity(b.id));
    if (b.kind == BodyKind::kinematic) velocity = b.velocity, omega = b.angular_velocity;
    states_[k] = {from_b3(t.p), velocity, from_b3(t.q), omega};
    fresh_[k] = 0;
}

void Box3dEngine::gather() {
    found_.clear();
    std::fill(pushed_.begin(), pushed_.end(), 0);
    const int n = body_count();
    for (int i = 0; i < n; ++i) {
        const Body& body = bodies_[static_cast<std::size_t>(i)];
        // A static body's contacts are its moving partners'; a sleeping body's (its whole island
        // asleep) keep what its last step left, and nothing touched it since.
        if (body.kind == BodyKind::fixed || !b3Body_IsAwake(body.id)) continue;
        contact_data_.resize(static_cast<std::size_t>(b3Body_GetContactCapacity(body.id)));
        const int count = b3Body_GetContactData(body.id, contact_data_.data(), static_cast<int>(contact_data_.size()));
        for (int c = 0; c < count; ++c) {
            const b3ContactData& data = contact_data_[static_cast<std::size_t>(c)];
            const int ia = index_of(data.shapeIdA), ib = index_of(data.shapeIdB);
            const int other = ia == i ? ib : ia;
            // A contact of two moving bodies is in both bodies' lists: taken from the lower one's.
            if (bodies_[static_cast<std::size_t>(other)].kind != BodyKind::fixed && other < i) continue;
            if (ia == ib || is_trigger(ia) || is_trigger(ib)) continue;
            const double sign = ia < ib ? 1.0 : -1.0; // Box3D's normal points from shape A to shape B
            const Vec3 centre_a = from_b3(b3Body_GetWorldCenter(b3Shape_GetBody(data.shapeIdA)));
            for (int m = 0; m < data.manifoldCount; ++m) {
                const b3Manifold& bm = data.manifolds[m];
                Found f;
                f.a = std::min(ia, ib);
                f.b = std::max(ia, ib);
                f.manifold.normal = from_b3(bm.normal) * sign;
                bool acting = false, pushed = false;
                int key = -1;
                for (int p = 0; p < bm.pointCount && f.manifold.count < kMaxManifoldPoints; ++p) {
                    const b3ManifoldPoint& bp = bm.points[p];
                    acting |= bp.separation < 0 || bp.totalNormalImpulse > 0;
                    pushed |= bp.totalNormalImpulse > 0;
                    ManifoldPoint& out = f.manifold.points[static_cast<std::size_t>(f.manifold.count++)];
                    out.point = centre_a + from_b3(bp.anchorA);
                    out.depth = -static_cast<double>(bp.separation);
                    out.id = bp.featureId;
                    if (bp.triangleIndex >= 0 && (key < 0 || bp.triangleIndex < key)) key = bp.triangleIndex;
                }
                f.manifold.key = key < 0 ? 0u : static_cast<std::uint32_t>(key);
                if (pushed) pushed_[static_cast<std::size_t>(ia)] = pushed_[static_cast<std::size_t>(ib)] = 1;
                if (acting) found_.push_back(f);
            }
        }
    }
    std::stable_sort(found_.begin(), found_.end(),
                     [](const Found& x, const Found& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; });
}

void Box3dEngine::step(double h) {
    const std::size_t n = bodies_.size();
    for (std::size_t k = 0; k < n; ++k) {
        const Body& b = bodies_[k];
        if (b.kind == BodyKind::kinematic) {
            // Driven to where it is at the step's end: Box3D takes the velocity that gets it there.
            const double t = time_ + h;
            const Quat q = normalize(exp_rotation(b.angular_velocity * t) * b.start_rotation);
            b3Body_SetTargetTransform(b.id, b3WorldTransform{to_b3(b.start_position + b.velocity * t), to_b3(q)},
                                      static_cast<float>(h), true);
        }
        if (b.kind == BodyKind::dynamic) before_[k] = states_[k].velocity;
    }
    b3World_Step(bw_->id, static_cast<float>(h), kBox3dSubsteps);
    time_ += h;
    if (wanted_ & (kOnContact | kOnResponse)) gather();
    const Vec3 g = def_.gravity;
    for (std::size_t k = 0; k < n; ++k) {
        const Body& b = bodies_[k];
        if (b.kind == BodyKind::fixed) continue;
        const int i = static_cast<int>(k);
        const BodyState old = states_[k];
        read_pose(i);
        const BodyState now = states_[k];
        if (b.kind == BodyKind::dynamic && (wanted_ & kOnResponse) && pushed_[k]) {
            const Vec3 before = before_[k] + g * h; // gravity's share, then the contacts'
            if (!(before == now.velocity)) {
                states_[k] = old;
                tell(kOnResponse, [&](EngineObserver& o) { o.on_response(*this, i, before, now.velocity); });
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

void Box3dEngine::step_frame() {
    if (frames_stepped_ >= def_.frames) return;
    frame_ = frames_stepped_;
    const double h = frame_ == 0 ? def_.phase * def_.dt : def_.dt;
    if (h > 0) step(h);
    ++frames_stepped_;
    if (frames_stepped_ >= def_.frames) bw_.reset(); // its slot is free for another run; the states stay
    const double t = (frame_ + def_.phase) * def_.dt;
    tell(kOnFrame, [&](EngineObserver& o) { o.on_frame(*this, frame_, t); });
}

std::string metres_per_second(double v) { return fmt::format("{:.3g} m/s", v); }

} // namespace

std::string box3d_version() {
    const b3Version v = b3GetVersion();
    return fmt::format("Box3D {}.{}.{} at {} ({}), {} precision, {} substeps, soft contacts", v.major, v.minor,
                       v.revision, std::string_view(COLLIDE_BOX3D_COMMIT).substr(0, 7), COLLIDE_BOX3D_DATE,
                       b3IsDoublePrecision() ? "double" : "single", kBox3dSubsteps);
}

std::unique_ptr<Engine> make_box3d_engine() { return std::make_unique<Box3dEngine>(); }

void refuse_unsupported_by_box3d(const Scenario& s) {
    const std::string file = display_name(s.file);
    const auto refuse = [&](const BodyDef& b, const std::string& what) {
        throw UnsupportedError(file, b.mark.line, b.mark.column, "--engine box3d " + what);
    };
    for (const BodyDef& b : s.bodies)
        if (body_kind(b) == BodyKind::character)
            refuse(b, "has no character controller: body '" + b.name + "' is a character");
    if (s.world.friction_model == FrictionModel::per_contact)
        throw UnsupportedError(file, s.friction_model_mark.line, s.friction_model_mark.column,
                               "--engine box3d has no per-contact friction: world.friction_model is per_contact "
                               "(Box3D's friction is Coulomb's)");
    const double huge = B3_HUGE;
    for (const BodyDef& b : s.bodies) {
        if (std::holds_alternative<Plane>(b.shape))
            refuse(b, "has no plane shape: body '" + b.name + "' is a plane (a large static box is Box3D's ground)");
        if (std::holds_alternative<Triangle>(b.shape) && body_kind(b) != BodyKind::fixed)
            refuse(b, "has static triangles only (meshes): body '" + b.name + "' is a triangle that moves");
        if (const auto* h = std::get_if<Hull>(&b.shape)) {
            b3HullData* hull = make_hull(*h);
            if (!hull)
                refuse(b, "cannot make a hull of body '" + b.name +
                                  "': Box3D's hulls need 4 or more points around a volume");
            b3DestroyHull(hull);
        }
        const Vec3& p = b.position;
        if (std::max({std::abs(p.x), std::abs(p.y), std::abs(p.z)}) > huge)
            refuse(b, fmt::format("keeps its bodies within {:g} m of the origin: body '{}' is beyond", huge, b.name));
    }
}

std::vector<std::string> box3d_header(const Scenario& s) {
    const WorldDef& w = s.world;
    std::vector<std::string> lines;
    lines.push_back("engine → " + box3d_version());
    bool mesh = false, triangle = false, trigger = false, kinematic = false, speculative = false, fast = false;
    std::vector<std::string> bullets;
    for (const BodyDef& b : s.bodies) {
        mesh |= std::holds_alternative<Mesh>(b.shape);
        triangle |= std::holds_alternative<Triangle>(b.shape);
        trigger |= b.trigger;
        kinematic |= body_kind(b) == BodyKind::kinematic;
        speculative |= b.speculative;
        fast |= body_kind(b) != BodyKind::fixed && length(b.velocity) > 400;
        if (is_bullet(w, b)) bullets.push_back(b.name);
    }
    std::string approx = fmt::format("one b3World_Step per frame (the first phase·dt) of {} substeps, single "
                                     "precision; symplectic Euler",
                                     kBox3dSubsteps);
    if (w.integrator == Integrator::exact) approx += ", not the exact integrator";
    approx += "; soft contacts (30 Hz, damping ratio 10, pushed apart at most 3 m/s), a 0.5 cm slop and a 2 cm "
              "speculative margin, not the solver's iterations; restitution above " +
              metres_per_second(restitution_threshold(w));
    approx += w.sleep ? fmt::format("; bodies sleep after Box3D's 0.5 s below {:g} m/s", w.rest_speed) : "; no sleep";
    lines.push_back("Box3D's approximations → " + approx);
    if (w.detection == Detection::speculative || speculative)
        lines.push_back("speculative contacts → Box3D's own (always on), not collide's");
    if (needs_continuous(w, s.bodies)) {
        std::string line = "Box3D's continuous detection → on for the world: every fast dynamic body swept against "
                           "static ones";
        if (!bullets.empty())
            line += fmt::format("; bullets, swept against moving bodies too: {}",
                                bullets.size() <= 4 ? fmt::format("{}", fmt::join(bullets, ", "))
                                                    : fmt::format("{} bodies", bullets.size()));
        lines.push_back(line);
    }
    if (mesh || triangle)
        lines.push_back(std::string("meshes → Box3D's one-sided triangle meshes (a shape whose centre is behind a "
                                    "triangle passes it)") +
                        (triangle ? "; a static triangle is a mesh of it both ways round" : ""));
    if (kinematic)
        lines.push_back("kinematic bodies → driven to their exact pose at each step's end (b3Body_SetTargetTransform)");
    if (trigger)
        lines.push_back("triggers → Box3D sensor shapes (no response); entries and exits measured on Box3D's poses "
                        "at the sampled frames");
    if (fast) lines.push_back("speeds → capped at Box3D's 400 m/s");
    if (!s.expect.empty())
        lines.push_back("expectations → not checked with --engine box3d: they state collide's answers");
    return lines;
}

void register_box3d_engine() {
    EngineSpec spec;
    spec.name = "box3d";
    spec.version = box3d_version();
    spec.make = make_box3d_engine;
    spec.refuse_unsupported = refuse_unsupported_by_box3d;
    spec.header = box3d_header;
    register_engine(std::move(spec));
}

} // namespace collide
