#include "engines/ode/ode_engine.h"

#include <ode/ode.h>
#include <ode/version.h>

#include <algorithm>
#include <cmath>
#include <cstdarg>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <mutex>
#include <stdexcept>

#include "engine/registry.h"
#include "math/overloaded.h"
#include "model/diagnostic.h"
#include "shapes/mass.h"
#include "shapes/mesh.h"

static_assert(sizeof(dReal) == sizeof(double), "the ODE adapter needs ODE's double precision (dDOUBLE)");

namespace collide {

namespace {

/// The one lock every ODE call of every engine holds: ODE's random generator (QuickStep's row
/// order) is process-wide, and so are its colliders' caches in a build without TLS.
std::mutex& ode_lock() {
    static std::mutex lock;
    return lock;
}

/// ODE's error and debug handlers: an exception with ODE's message instead of abort().
[[noreturn]] void throw_ode_error(int number, const char* format, va_list args) {
    std::array<char, 512> text{};
    std::vsnprintf(text.data(), text.size(), format, args);
    throw std::runtime_error(
            fmt::format("--engine ode: ODE stopped with its internal error {}: {}", number, text.data()));
}

/// dInitODE2 and the handlers once per process, and ODE's per-thread data once per thread (a
/// no-op in a build without TLS). Call with ode_lock() held.
void ready_ode() {
    static bool initialised = false;
    if (!initialised) {
        dInitODE2(0);
        dSetErrorHandler(&throw_ode_error);
        dSetDebugHandler(&throw_ode_error);
        initialised = true;
    }
    thread_local bool allocated = false;
    if (!allocated) {
        dAllocateODEDataForThread(dAllocateMaskAll);
        allocated = true;
    }
}

/// What this ODE library was built with (dCheckConfiguration), found once.
struct OdeBuild {
    bool trimesh = false; ///< ODE_EXT_trimesh: dCreateTriMesh collides
    bool opcode = false;  ///< ODE_EXT_opcode: its trimesh colliders are OPCODE's
    bool libccd = false;  ///< ODE_EXT_libccd: it has libccd's colliders (convex–trimesh among them)
};
const OdeBuild& ode_build() {
    static const OdeBuild build = [] {
        const std::lock_guard lock(ode_lock());
        ready_ode();
        return OdeBuild{dCheckConfiguration("ODE_EXT_trimesh") != 0, dCheckConfiguration("ODE_EXT_opcode") != 0,
                        dCheckConfiguration("ODE_EXT_libccd") != 0};
    }();
    return build;
}

/// A Mat3 (columns) as ODE's row-major 3×4 matrix.
void to_ode(const Mat3& m, dMatrix3 out) {
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c) out[4 * r + c] = m.at(r, c);
        out[4 * r + 3] = 0;
    }
}

/// A frame whose z axis is the unit vector `z` (ODE's capsule lies along its z).
Mat3 frame_with_z(const Vec3& z) {
    const Vec3 x = normalize(any_perpendicular(z));
    return Mat3{{x, cross(z, x), z}};
}

/// ODE's convex geom data, kept alive as long as the geom (ODE keeps pointers into it).
struct ConvexData {
    std::vector<dReal> planes;     ///< a, b, c, d per face: a·x + b·y + c·z = d on it (geom frame)
    std::vector<dReal> points;     ///< x, y, z per point (geom frame)
    std::vector<unsigned> polygon; ///< per face: its corner count, then its corner indices (CCW from outside)
};

/// ODE's trimesh data and the arrays it points into.
struct TrimeshData {
    std::vector<dReal> vertices;  ///< x, y, z per vertex (geom frame)
    std::vector<dTriIndex> index; ///< three per triangle
    dTriMeshDataID id = nullptr;
};

/// One ODE world and everything it points into; destroyed as a whole, with ode_lock() held.
struct OdeWorld {
    dWorldID world = nullptr;
    dSpaceID space = nullptr;
    dJointGroupID contacts = nullptr;
    std::deque<ConvexData> convexes; // a deque: an element keeps its address
    std::deque<TrimeshData> meshes;
    OdeWorld() {
        world = dWorldCreate();
        space = dHashSpaceCreate(nullptr);
        contacts = dJointGroupCreate(0);
    }
    OdeWorld(const OdeWorld&) = delete;
    OdeWorld& operator=(const OdeWorld&) = delete;
    ~OdeWorld() {
        dJointGroupDestroy(contacts);
        dSpaceDestroy(space); // destroys its geoms (cleanup on): before the data they point into
        for (TrimeshData& m : meshes) dGeomTriMeshDataDestroy(m.id);
        dWorldDestroy(world); // and its bodies
    }
};

/// A geom and where its frame is in the body frame.
struct Made {
    dGeomID geom = nullptr;
    Vec3 origin; ///< the geom frame's origin in the body frame (m)
    Mat3 axes;   ///< the geom frame's axes in the body frame
};

/// The geom of a hull (its points in the body frame, the geom frame the body frame): the corners of
/// its faces (a point inside the hull or inside a face is left out: ODE's colliders test every
/// point they are given), each face's plane and its corners counter-clockwise from outside.
dGeomID make_convex(const Hull& hull, OdeWorld& ow) {
    const HullPoints points = placed_points(hull);
    const HullFaces faces = hull_faces(points);
    ConvexData& data = ow.convexes.emplace_back();
    std::array<int, kHullMaxPoints> index{}; // a point's index among the corners, −1 when none
    index.fill(-1);
    unsigned corners = 0;
    for (int f = 0; f < faces.face_count; ++f) {
        const HullFaces::Face& face = faces.faces[static_cast<std::size_t>(f)];
        data.planes.insert(data.planes.end(), {face.normal.x, face.normal.y, face.normal.z, face.offset});
        data.polygon.push_back(static_cast<unsigned>(face.count));
        for (int c = 0; c < face.count; ++c) {
            const auto k = static_cast<std::size_t>(faces.corners[static_cast<std::size_t>(face.first + c)]);
            if (index[k] < 0) {
                index[k] = static_cast<int>(corners++);
                const Vec3& p = points.points[k];
                data.points.insert(data.points.end(), {p.x, p.y, p.z});
            }
            data.polygon.push_back(static_cast<unsigned>(index[k]));
        }
    }
    return dCreateConvex(ow.space, data.planes.data(), static_cast<unsigned>(faces.face_count), data.points.data(),
                         corners, data.polygon.data());
}

/// The trimesh geom of `triangles` over `vertices` (the geom frame).
dGeomID make_trimesh(std::span<const Vec3> vertices, std::span<const std::array<int, 3>> triangles, OdeWorld& ow) {
    TrimeshData& data = ow.meshes.emplace_back();
    for (const Vec3& v : vertices) data.vertices.insert(data.vertices.end(), {v.x, v.y, v.z});
    for (const auto& t : triangles)
        for (const int i : t) data.index.push_back(static_cast<dTriIndex>(i));
    data.id = dGeomTriMeshDataCreate();
    dGeomTriMeshDataBuildDouble(data.id, data.vertices.data(), 3 * sizeof(dReal), static_cast<int>(vertices.size()),
                                data.index.data(), static_cast<int>(data.index.size()), 3 * sizeof(dTriIndex));
    dGeomTriMeshDataPreprocess2(data.id, 1U << dTRIDATAPREPROCESS_BUILD_CONCAVE_EDGES, nullptr);
    return dCreateTriMesh(ow.space, data.id, nullptr, nullptr, nullptr);
}

/// Makes body `def`'s geom (a plane: placed in the world frame here, as it has no body).
Made make_geom(const BodyDef& def, OdeWorld& ow) {
    Made out;
    std::visit(Overloaded{
                       [&](const Sphere& s) {
                           out.geom = dCreateSphere(ow.space, s.radius);
                           out.origin = s.centre;
                       },
                       [&](const Aabb& b) {
                           const Vec3 size = (b.max - b.min);
                           out.geom = dCreateBox(ow.space, size.x, size.y, size.z);
                           out.origin = (b.min + b.max) * 0.5;
                       },
                       [&](const Obb& b) {
                           out.geom = dCreateBox(ow.space, 2 * b.half.x, 2 * b.half.y, 2 * b.half.z);
                           out.origin = b.centre;
                           out.axes = b.axes;
                       },
                       [&](const Capsule& c) {
                           const Vec3 axis = c.b - c.a;
                           const double height = length(axis);
                           out.origin = (c.a + c.b) * 0.5;
                           if (height <= 0) {
                               out.geom = dCreateSphere(ow.space, c.radius);
                               return;
                           }
                           out.geom = dCreateCapsule(ow.space, c.radius, height);
                           out.axes = frame_with_z(axis / height);
                       },
                       [&](const Triangle& t) {
                           const Vec3 corners[] = {t.a, t.b, t.c};
                           const std::array<int, 3> one[] = {{0, 1, 2}};
                           out.geom = make_trimesh(corners, one, ow);
                       },
                       [&](const Hull& h) { out.geom = make_convex(h, ow); },
                       [&](const Plane& p) {
                           // Static: its world plane, n_w·x = offset + n_w·position.
                           const Vec3 n = rotate(def.rotation, p.normal);
                           out.geom = dCreatePlane(ow.space, n.x, n.y, n.z, p.offset + dot(n, def.position));
                       },
                       [&](const Mesh& m) {
                           const TriangleMesh& data = *m.data;
                           out.geom = make_trimesh(data.vertices, data.triangles, ow);
                           out.origin = m.position;
                           out.axes = m.rotation;
                       },
               },
               def.shape);
    return out;
}

/// One body as the adapter keeps it.
struct Body {
    std::string name;
    BodyKind kind = BodyKind::fixed;
    bool trigger = false;
    bool fixed_rotation = false;
    Shape base;            ///< the shape in the body frame
    Vec3 centre;           ///< the ODE body's origin in the body frame: the centre of mass (dynamic), else 0 (m)
    Vec3 start_position;   ///< at t = 0 (m)
    Quat start_rotation;   ///< at t = 0
    Vec3 velocity;         ///< kinematic: constant (m/s)
    Vec3 angular_velocity; ///< kinematic: constant (rad/s)
    double reach = 0;      ///< farthest point of the shape from the ODE body's origin (m)
    bool round = false;    ///< a sphere about its centre: turning moves no point
    double friction = 0;
    double restitution = 0;
    dBodyID body = nullptr; ///< null for a static body
    dGeomID geom = nullptr;
};

/// The adapter.
class OdeEngine final : public Engine {
public:
    OdeEngine() = default;
    OdeEngine(const OdeEngine&) = delete;
    OdeEngine& operator=(const OdeEngine&) = delete;
    ~OdeEngine() override {
        const std::lock_guard lock(ode_lock());
        ow_.reset();
    }

    std::string_view name() const override { return "ode"; }
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
    WorldDef def_;
    Vec3 up_{0, 1, 0};
    std::unique_ptr<OdeWorld> ow_;
    unsigned long seed_ = kOdeSeed; ///< this run's state of ODE's random generator
    double bounce_speed_ = 0;       ///< dContactBounce's bounce_vel (m/s)
    std::vector<Body> bodies_;
    std::vector<BodyState> states_;
    mutable std::vector<Shape> local_, placed_;
    mutable std::vector<unsigned char> fresh_;
    std::vector<Listener> listeners_;
    unsigned wanted_ = 0;
    int frame_ = -1;
    int frames_stepped_ = 0;
    double time_ = 0;
    /// The pairs whose bounds touch, found by dSpaceCollide (bodies a < b).
    std::vector<std::pair<int, int>> near_;
    /// A pair's contact found before a step: bodies a < b and its manifold (normal from a to b).
    struct Found {
        int a = 0, b = 0;
        Manifold manifold;
    };
    std::vector<Found> found_;
    std::vector<unsigned char> touched_; ///< per body: it had a contact joint this step
    std::vector<Vec3> before_;
    std::array<dContact, kOdeMaxContacts> points_{};

    void refresh(int i) const {
        const auto k = static_cast<std::size_t>(i);
        if (fresh_[k]) return;
        const BodyState& s = states_[k];
        place_into(local_[k], bodies_[k].base, Vec3{}, s.rotation);
        place_into(placed_[k], bodies_[k].base, s.position, s.rotation);
        fresh_[k] = 1;
    }
    /// Puts body `b`'s ODE body where collide's pose (position, rotation) says.
    static void place_body(const Body& b, const Vec3& position, const Quat& rotation) {
        const Vec3 origin = position + rotate(rotation, b.centre);
        dBodySetPosition(b.body, origin.x, origin.y, origin.z);
        const dQuaternion q = {rotation.w, rotation.x, rotation.y, rotation.z};
        dBodySetQuaternion(b.body, q);
    }
    static void near_callback(void* data, dGeomID g1, dGeomID g2) {
        auto* self = static_cast<OdeEngine*>(data);
        const auto i = static_cast<int>(reinterpret_cast<std::intptr_t>(dGeomGetData(g1)));
        const auto j = static_cast<int>(reinterpret_cast<std::intptr_t>(dGeomGetData(g2)));
        self->near_.emplace_back(std::min(i, j), std::max(i, j));
    }
    void read_pose(int i);
    void check_range() const;
    void collide_pair(int a, int b);
    void step(double h);
    template <class F> void tell(unsigned event, F&& f) {
        for (const Listener& l : listeners_)
            if (l.events & event) f(*l.observer);
    }
};

void OdeEngine::reset(const WorldDef& def, std::span<const BodyDef> defs) {
    const std::lock_guard lock(ode_lock());
    ready_ode();
    def_ = def;
    const double g = length(def.gravity);
    up_ = g > 0 ? def.gravity * (-1.0 / g) : Vec3{0, 1, 0};
    listeners_.clear();
    wanted_ = 0;
    frame_ = -1;
    frames_stepped_ = 0;
    time_ = 0;
    seed_ = kOdeSeed;
    bounce_speed_ = std::max(def.rest_speed, g * def.dt);
    ow_.reset(); // the old world first: a fresh one per run
    ow_ = std::make_unique<OdeWorld>();
    const dWorldID world = ow_->world;
    dWorldSetGravity(world, def.gravity.x, def.gravity.y, def.gravity.z);
    dWorldSetERP(world, kOdeErp);
    dWorldSetCFM(world, kOdeCfm);
    dWorldSetContactSurfaceLayer(world, kOdeSurfaceLayer);
    dWorldSetQuickStepNumIterations(world, std::max(1, def.velocity_iterations));
    // Set before the bodies are made: each body copies the world's auto-disable settings.
    dWorldSetAutoDisableFlag(world, def.sleep ? 1 : 0);
    dWorldSetAutoDisableLinearThreshold(world, def.rest_speed);
    dWorldSetAutoDisableTime(world, def.rest_time);
    dWorldSetAutoDisableSteps(world, 0);

    const std::size_t n = defs.size();
    bodies_.assign(n, Body{});
    states_.assign(n, BodyState{});
    local_.assign(n, Shape{});
    placed_.assign(n, Shape{});
    fresh_.assign(n, 0);
    touched_.assign(n, 0);
    before_.assign(n, Vec3{});
    for (std::size_t k = 0; k < n; ++k) {
        const BodyDef& d = defs[k];
        Body& b = bodies_[k];
        b.name = d.name;
        b.kind = body_kind(d);
        b.trigger = d.trigger;
        b.fixed_rotation = d.fixed_rotation && b.kind == BodyKind::dynamic;
        b.base = d.shape;
        b.start_position = d.position;
        b.start_rotation = d.rotation;
        b.velocity = d.velocity;
        b.angular_velocity = d.angular_velocity;
        b.friction = d.friction;
        b.restitution = d.restitution;
        b.round = std::holds_alternative<Sphere>(d.shape);
        const bool dynamic = b.kind == BodyKind::dynamic;
        const double mass = dynamic ? mass_of(d) : 0.0;
        const MassProperties mp = dynamic ? mass_properties(d.shape, mass) : MassProperties{};
        b.centre = dynamic ? mp.centre : Vec3{};
        const bool infinite = std::holds_alternative<Plane>(d.shape) || std::holds_alternative<Mesh>(d.shape);
        b.reach = infinite ? 0.0 : max_distance_from(d.shape, b.centre);
        const Made made = make_geom(d, *ow_);
        b.geom = made.geom;
        dGeomSetData(b.geom, reinterpret_cast<void*>(static_cast<std::intptr_t>(k)));
        dMatrix3 axes;
        if (b.kind == BodyKind::fixed) {
            if (!std::holds_alternative<Plane>(d.shape)) { // a plane was placed by make_geom
                const Vec3 p = d.position + rotate(d.rotation, made.origin);
                dGeomSetPosition(b.geom, p.x, p.y, p.z);
                to_ode(to_mat3(d.rotation) * made.axes, axes);
                dGeomSetRotation(b.geom, axes);
            }
            states_[k] = {d.position, Vec3{}, d.rotation, Vec3{}};
            continue;
        }
        b.body = dBodyCreate(world);
        dGeomSetBody(b.geom, b.body);
        const Vec3 offset = made.origin - b.centre;
        dGeomSetOffsetPosition(b.geom, offset.x, offset.y, offset.z);
        to_ode(made.axes, axes);
        dGeomSetOffsetRotation(b.geom, axes);
        place_body(b, d.position, d.rotation);
        dBodySetLinearVel(b.body, d.velocity.x, d.velocity.y, d.velocity.z);
        dBodySetAngularVel(b.body, d.angular_velocity.x, d.angular_velocity.y, d.angular_velocity.z);
        if (dynamic) {
            dMass m;
            const Mat3& I = mp.inertia; // about the centre of mass, body axes
            if (b.fixed_rotation)
                dMassSetParameters(&m, mass, 0, 0, 0, kOdeFixedRotationInertia, kOdeFixedRotationInertia,
                                   kOdeFixedRotationInertia, 0, 0, 0);
            else
                dMassSetParameters(&m, mass, 0, 0, 0, I.at(0, 0), I.at(1, 1), I.at(2, 2), I.at(0, 1), I.at(0, 2),
                                   I.at(1, 2));
            dBodySetMass(b.body, &m);
            dBodySetAutoDisableAngularThreshold(b.body, def.rest_speed / std::max(b.reach, 1e-3));
        } else {
            dBodySetKinematic(b.body);
            dBodySetAutoDisableFlag(b.body, 0);
        }
        states_[k] = {d.position, d.velocity, d.rotation, d.angular_velocity};
    }
}

void OdeEngine::read_pose(int i) {
    const auto k = static_cast<std::size_t>(i);
    const Body& b = bodies_[k];
    const dReal* q = dBodyGetQuaternion(b.body);
    const Quat rotation = normalize(Quat{q[0], q[1], q[2], q[3]});
    const dReal* p = dBodyGetPosition(b.body);
    const dReal* v = dBodyGetLinearVel(b.body);
    const dReal* w = dBodyGetAngularVel(b.body);
    states_[k] = {Vec3{p[0], p[1], p[2]} - rotate(rotation, b.centre), Vec3{v[0], v[1], v[2]}, rotation,
                  Vec3{w[0], w[1], w[2]}};
    fresh_[k] = 0;
}

void OdeEngine::collide_pair(int a, int b) {
    const Body& A = bodies_[static_cast<std::size_t>(a)];
    const Body& B = bodies_[static_cast<std::size_t>(b)];
    // A pair with no dynamic body has nothing to solve (and ODE has no trimesh–trimesh worth asking).
    // A trigger's contacts make no joint, and the probes find its overlaps on the poses.
    if ((A.kind != BodyKind::dynamic && B.kind != BodyKind::dynamic) || A.trigger || B.trigger) return;
    // Lower index first: ODE's normals then point from b to a.
    const int count = dCollide(A.geom, B.geom, kOdeMaxContacts, &points_[0].geom, sizeof(dContact));
    if (count <= 0) return;
    const double mu = combine_coefficients(def_.friction_combine, A.friction, B.friction);
    const double e = combine_coefficients(def_.restitution_combine, A.restitution, B.restitution);
    Found f;
    f.a = a;
    f.b = b;
    double deepest = -std::numeric_limits<double>::infinity();
    for (int c = 0; c < count; ++c) {
        dContact& contact = points_[static_cast<std::size_t>(c)];
        contact.surface.mode = dContactBounce | dContactApprox1;
        contact.surface.mu = mu;
        contact.surface.bounce = e;
        contact.surface.bounce_vel = bounce_speed_;
        const dJointID joint = dJointCreateContact(ow_->world, ow_->contacts, &contact);
        dJointAttach(joint, A.body, B.body);
        if (f.manifold.count < kMaxManifoldPoints) {
            const dContactGeom& g = contact.geom;
            ManifoldPoint& out = f.manifold.points[static_cast<std::size_t>(f.manifold.count++)];
            out.point = {g.pos[0], g.pos[1], g.pos[2]};
            out.depth = g.depth;
            out.id = static_cast<std::uint32_t>(c);
            if (g.depth > deepest)
                deepest = g.depth, f.manifold.normal = Vec3{-g.normal[0], -g.normal[1], -g.normal[2]};
        }
    }
    touched_[static_cast<std::size_t>(a)] = touched_[static_cast<std::size_t>(b)] = 1;
    found_.push_back(f);
}

/// Throws when a moving body is out of ODE's range (kOdeMaxMagnitude) or not finite.
void OdeEngine::check_range() const {
    const auto beyond = [](const Vec3& v) {
        return !(std::fabs(v.x) <= kOdeMaxMagnitude && std::fabs(v.y) <= kOdeMaxMagnitude &&
                 std::fabs(v.z) <= kOdeMaxMagnitude);
    };
    for (std::size_t k = 0; k < bodies_.size(); ++k) {
        if (bodies_[k].kind == BodyKind::fixed) continue;
        const BodyState& s = states_[k];
        const char* what = beyond(s.position)           ? "position"
                           : beyond(s.velocity)         ? "velocity"
                           : beyond(s.angular_velocity) ? "angular velocity"
                                                        : nullptr;
        if (what)
            throw std::runtime_error(fmt::format("--engine ode: body '{}' left ODE's range at frame {}: its {} is "
                                                 "beyond {:g} or not finite (ODE's step would overflow)",
                                                 bodies_[k].name, frame_, what, kOdeMaxMagnitude));
    }
}

void OdeEngine::step(double h) {
    const std::size_t n = bodies_.size();
    check_range();
    {
        const std::lock_guard lock(ode_lock());
        ready_ode();
        near_.clear();
        found_.clear();
        std::fill(touched_.begin(), touched_.end(), 0);
        for (std::size_t k = 0; k < n; ++k)
            if (bodies_[k].kind == BodyKind::dynamic) before_[k] = states_[k].velocity;
        // The pairs in body order (the space's own order is not the contract), then their joints.
        dSpaceCollide(ow_->space, this, &near_callback);
        std::sort(near_.begin(), near_.end());
        for (const auto& [a, b] : near_) collide_pair(a, b);
        dRandSetSeed(seed_);
        dWorldQuickStep(ow_->world, h);
        seed_ = dRandGetSeed();
        dJointGroupEmpty(ow_->contacts);
        time_ += h;
        for (std::size_t k = 0; k < n; ++k) {
            const Body& b = bodies_[k];
            if (b.kind == BodyKind::kinematic) {
                // Exactly where it is at the step's end (ODE integrated its velocity only approximately).
                const Quat q = normalize(exp_rotation(b.angular_velocity * time_) * b.start_rotation);
                place_body(b, b.start_position + b.velocity * time_, q);
                dBodySetLinearVel(b.body, b.velocity.x, b.velocity.y, b.velocity.z);
                dBodySetAngularVel(b.body, b.angular_velocity.x, b.angular_velocity.y, b.angular_velocity.z);
            } else if (b.fixed_rotation) {
                const dQuaternion q = {b.start_rotation.w, b.start_rotation.x, b.start_rotation.y, b.start_rotation.z};
                dBodySetQuaternion(b.body, q);
                dBodySetAngularVel(b.body, 0, 0, 0);
            }
        }
    }
    const Vec3 g = def_.gravity;
    for (std::size_t k = 0; k < n; ++k) {
        const Body& b = bodies_[k];
        if (b.kind == BodyKind::fixed) continue;
        const int i = static_cast<int>(k);
        const BodyState old = states_[k];
        read_pose(i);
        if (b.kind == BodyKind::kinematic)
            states_[k].velocity = b.velocity, states_[k].angular_velocity = b.angular_velocity;
        const BodyState now = states_[k];
        if (b.kind == BodyKind::dynamic && (wanted_ & kOnResponse) && touched_[k] && dBodyIsEnabled(b.body)) {
            const Vec3 before = before_[k] + g * h; // ODE adds gravity as it solves the contacts
            if (!(before == now.velocity)) {
                states_[k] = old;
                tell(kOnResponse, [&](EngineObserver& o) { o.on_response(*this, i, before, now.velocity); });
            }
        }
        if (wanted_ & kOnMove) {
            // The chord from the pose before to the pose after: ODE moves by p += v·h.
            states_[k] = {old.position, (now.position - old.position) * (1 / h), old.rotation, now.angular_velocity};
            fresh_[k] = 0;
            tell(kOnMove, [&](EngineObserver& o) { o.on_move(*this, i, h, Vec3{}); });
        }
        states_[k] = now;
        fresh_[k] = 0;
    }
    if (!(wanted_ & kOnContact)) return;
    for (const Found& f : found_) {
        const ContactEvent event{f.a, f.b, time_, std::span<const Manifold>(&f.manifold, 1)};
        tell(kOnContact, [&](EngineObserver& o) { o.on_contact(*this, event); });
    }
}

void OdeEngine::step_frame() {
    if (frames_stepped_ >= def_.frames) return;
    frame_ = frames_stepped_;
    const double h = frame_ == 0 ? def_.phase * def_.dt : def_.dt;
    if (h > 0) step(h);
    ++frames_stepped_;
    const double t = (frame_ + def_.phase) * def_.dt;
    tell(kOnFrame, [&](EngineObserver& o) { o.on_frame(*this, frame_, t); });
}

/// True when the body's shape is collided by ODE as a trimesh.
bool is_trimesh(const BodyDef& b) {
    return std::holds_alternative<Mesh>(b.shape) || std::holds_alternative<Triangle>(b.shape);
}

} // namespace

std::string ode_version() {
    const OdeBuild& b = ode_build();
    return fmt::format("ODE {}, {} precision (dReal {} bytes; {}, {})", dODE_VERSION,
                       sizeof(dReal) == 8 ? "double" : "single", sizeof(dReal),
                       !b.trimesh ? "no trimesh"
                       : b.opcode ? "OPCODE trimesh"
                                  : "GIMPACT trimesh",
                       b.libccd ? "libccd" : "no libccd");
}

std::unique_ptr<Engine> make_ode_engine() { return std::make_unique<OdeEngine>(); }

void refuse_unsupported_by_ode(const Scenario& s) {
    const std::string file = display_name(s.file);
    auto refuse = [&](const SourceMark& at, const std::string& message) {
        throw UnsupportedError(file, at.line, at.column, "--engine ode " + message);
    };
    for (const BodyDef& b : s.bodies)
        if (body_kind(b) == BodyKind::character)
            refuse(b.mark, "has no character controller: body '" + b.name + "' is a character");
    if (s.world.friction_model == FrictionModel::per_contact)
        refuse(s.friction_model_mark,
               "has no per-contact friction: world.friction_model is per_contact (ODE's friction is Coulomb's)");
    if (s.world.detection != Detection::discrete) {
        const std::string mode = s.world.detection == Detection::swept ? "swept" : "speculative";
        const std::string why = " (ODE collides the poses at each step's start only; use discrete)";
        if (s.detection_mark.line == 0) // not the file's: the command line's --detection
            throw UnsupportedError("", 0, 0, "--engine ode has no continuous detection: --detection " + mode + why);
        refuse(s.detection_mark, "has no continuous detection: world.detection is " + mode + why);
    }
    for (const BodyDef& b : s.bodies)
        if (b.ccd || b.speculative)
            refuse(b.ccd_mark, "has no continuous detection: body '" + b.name +
                                       "' has ccd: " + (b.ccd ? "true" : "speculative") +
                                       " (ODE collides the poses at each step's start only)");
    for (const BodyDef& b : s.bodies) {
        if (is_trimesh(b) && !ode_build().trimesh)
            refuse(b.mark, "has no trimesh (this ODE is built without it): body '" + b.name + "' is a " +
                                   (std::holds_alternative<Mesh>(b.shape) ? "mesh" : "triangle"));
        if (std::holds_alternative<Triangle>(b.shape) && body_kind(b) == BodyKind::dynamic)
            refuse(b.mark, "has no thin plate: body '" + b.name +
                                   "' is a dynamic triangle (ODE collides a triangle as a trimesh, fit for static and "
                                   "kinematic geometry)");
        if (const Hull* h = std::get_if<Hull>(&b.shape); h && hull_faces(*h).flat)
            refuse(b.mark,
                   "has no flat convex: body '" + b.name + "' is a flat hull (ODE's dCreateConvex needs a volume)");
    }
    // ODE without libccd has no convex–trimesh collider (calling it crashes): a hull must not be
    // able to meet a mesh or a triangle, which it can when one of the two is dynamic.
    if (!ode_build().libccd)
        for (const BodyDef& h : s.bodies) {
            if (!std::holds_alternative<Hull>(h.shape)) continue;
            for (const BodyDef& m : s.bodies)
                if (is_trimesh(m) && (body_kind(h) == BodyKind::dynamic || body_kind(m) == BodyKind::dynamic) &&
                    !h.trigger && !m.trigger)
                    refuse(h.mark, "has no convex–trimesh collider (this ODE is built without libccd): hull '" +
                                           h.name + "' could meet " +
                                           (std::holds_alternative<Mesh>(m.shape) ? "mesh '" : "triangle '") + m.name +
                                           "'");
        }
}

std::vector<std::string> ode_header(const Scenario& s) {
    const WorldDef& w = s.world;
    std::vector<std::string> lines;
    lines.push_back("engine → " + ode_version());
    bool hull = false, mesh = false, trigger = false, fixed = false, kinematic = false;
    for (const BodyDef& b : s.bodies) {
        hull |= std::holds_alternative<Hull>(b.shape);
        mesh |= is_trimesh(b);
        trigger |= b.trigger;
        fixed |= b.fixed_rotation && body_kind(b) == BodyKind::dynamic;
        kinematic |= body_kind(b) == BodyKind::kinematic;
    }
    std::string approx = fmt::format(
            "one dWorldQuickStep per frame (the first phase·dt), {} iterations (SOR 1.3), rows reordered at random "
            "from seed {}; semi-implicit Euler with ODE's implicit gyroscopic term (a free spin about an unstable axis "
            "loses speed)",
            std::max(1, w.velocity_iterations), kOdeSeed);
    if (w.integrator == Integrator::exact) approx += ", not the exact integrator";
    approx += fmt::format("; ERP {:g}, CFM {:g}, contact surface layer {:g} m (skin not used); restitution "
                          "(dContactBounce) above {:.3g} m/s; friction pyramid (dContactApprox1)",
                          kOdeErp, kOdeCfm, kOdeSurfaceLayer, std::max(w.rest_speed, length(w.gravity) * w.dt));
    approx += w.sleep ? fmt::format("; bodies auto-disable after {:g} s below {:g} m/s", w.rest_time, w.rest_speed)
                      : "; no sleep";
    approx += "; no continuous detection";
    lines.push_back("ODE's approximations → " + approx);
    if (hull)
        lines.push_back("hulls → dCreateConvex from collide's hull faces (ODE's convex colliders give one point "
                        "against a sphere, box, capsule or hull)");
    if (mesh) lines.push_back("meshes and triangles → dCreateTriMesh (OPCODE), one-sided against spheres and capsules");
    if (kinematic) lines.push_back("kinematic bodies → dBodySetKinematic, placed exactly at each step's end");
    if (fixed)
        lines.push_back(fmt::format("fixed rotation → moments of inertia {:g} kg·m² (contacts do not turn it), its "
                                    "rotation set back after each step",
                                    kOdeFixedRotationInertia));
    if (trigger)
        lines.push_back("triggers → geoms whose contacts make no joint; entries and exits measured on ODE's poses "
                        "at the sampled frames");
    if (!s.expect.empty())
        lines.push_back("expectations → not checked with --engine ode: they state collide's answers");
    return lines;
}

void register_ode_engine() {
    EngineSpec spec;
    spec.name = "ode";
    spec.version = ode_version();
    spec.make = make_ode_engine;
    spec.refuse_unsupported = refuse_unsupported_by_ode;
    spec.header = ode_header;
    register_engine(std::move(spec));
}

} // namespace collide
