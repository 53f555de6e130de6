#include "engines/bullet/bullet_engine.h"

#include <BulletCollision/CollisionDispatch/btInternalEdgeUtility.h>
#include <btBulletDynamicsCommon.h>

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <mutex>

#include "engine/registry.h"
#include "math/overloaded.h"
#include "scenario/load.h"
#include "shapes/mass.h"
#include "shapes/mesh.h"

static_assert(sizeof(btScalar) == sizeof(double),
              "the Bullet adapter needs Bullet's double precision (bullet-float64)");

namespace collide {

namespace {

btVector3 to_bt(const Vec3& v) { return {v.x, v.y, v.z}; }
Vec3 from_bt(const btVector3& v) { return {v.x(), v.y(), v.z()}; }
/// Bullet's quaternions are (x, y, z, w); collide's (w, x, y, z).
btQuaternion to_bt(const Quat& q) { return {q.x, q.y, q.z, q.w}; }
Quat from_bt(const btQuaternion& q) { return {q.w(), q.x(), q.y(), q.z()}; }
/// A Mat3 (columns) as Bullet's row-major matrix.
btMatrix3x3 to_bt(const Mat3& m) {
    return {m.col[0].x, m.col[1].x, m.col[2].x, m.col[0].y, m.col[1].y, m.col[2].y, m.col[0].z, m.col[1].z, m.col[2].z};
}
/// The rotation whose matrix is `m` (a proper rotation).
Quat quat_of(const Mat3& m) {
    btQuaternion q;
    to_bt(m).getRotation(q);
    return normalize(from_bt(q));
}

/// A body's friction and restitution with the world's rules, for the contact-added callback
/// (the body's user pointer).
struct Material {
    double friction = 0;
    double restitution = 0;
    Combine friction_rule = Combine::max;
    Combine restitution_rule = Combine::max;
};

/// The contact-added callback (process-wide, set once): the pair's coefficients by the
/// scenario's combine rules, and a mesh's contact normals fixed on its internal edges.
bool on_contact_added(btManifoldPoint& cp, const btCollisionObjectWrapper* w0, int part0, int index0,
                      const btCollisionObjectWrapper* w1, int part1, int index1) {
    // A mesh is the second body of its pairs (added last); each call returns at once unless its
    // first wrapper is a triangle of a btBvhTriangleMeshShape.
    btAdjustInternalEdgeContacts(cp, w1, w0, part1, index1);
    btAdjustInternalEdgeContacts(cp, w0, w1, part0, index0);
    const auto* m0 = static_cast<const Material*>(w0->getCollisionObject()->getUserPointer());
    const auto* m1 = static_cast<const Material*>(w1->getCollisionObject()->getUserPointer());
    if (m0 && m1) {
        cp.m_combinedFriction = combine_coefficients(m0->friction_rule, m0->friction, m1->friction);
        cp.m_combinedRestitution = combine_coefficients(m0->restitution_rule, m0->restitution, m1->restitution);
    }
    return true;
}

void set_callbacks_once() {
    static std::once_flag once;
    std::call_once(once, [] { gContactAddedCallback = &on_contact_added; });
}

/// btDiscreteDynamicsWorld with its CCD's predictive manifolds readable.
class DynamicsWorld final : public btDiscreteDynamicsWorld {
public:
    using btDiscreteDynamicsWorld::btDiscreteDynamicsWorld;
    /// The predictive contacts of the last step (CCD bodies).
    const btAlignedObjectArray<btPersistentManifold*>& predictive() const { return m_predictiveManifolds; }
};

/// One Bullet world and everything it points into; destroyed as a whole.
struct BulletWorld {
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher{&config};
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    DynamicsWorld world{&dispatcher, &broadphase, &solver, &config};
    std::vector<std::unique_ptr<btTriangleIndexVertexArray>> arrays; // before shapes: outlive them
    std::vector<std::unique_ptr<btTriangleInfoMap>> infos;
    std::vector<std::unique_ptr<btCollisionShape>> shapes;
    std::vector<std::unique_ptr<btRigidBody>> bodies; // body order
    BulletWorld() = default;
    BulletWorld(const BulletWorld&) = delete;
    BulletWorld& operator=(const BulletWorld&) = delete;
    ~BulletWorld() {
        for (auto& b : bodies)
            if (b) world.removeRigidBody(b.get());
    }
};

/// The least distance from `centre` to a face of the hull (m).
double hull_inner_radius(const Hull& hull, const Vec3& centre) {
    const HullFaces faces = hull_faces(hull);
    if (faces.flat || faces.face_count == 0) return 0;
    double r = std::numeric_limits<double>::infinity();
    for (int f = 0; f < faces.face_count; ++f) {
        const auto& face = faces.faces[static_cast<std::size_t>(f)];
        r = std::min(r, face.offset - dot(face.normal, centre));
    }
    return std::max(0.0, r);
}

/// A collision shape in its own (Bullet) frame, and where that frame is in the body's frame.
struct Made {
    std::unique_ptr<btCollisionShape> shape;
    Vec3 offset;  ///< the Bullet frame's origin in the body frame (m)
    Quat turn;    ///< its rotation from the body frame
    Vec3 inertia; ///< a dynamic body's principal moments in that frame (kg·m²)
};

/// The diagonal of R^T·I·R: the moments of `inertia` about the axes of rotation `r`.
Vec3 moments_in(const Mat3& inertia, const Quat& r) {
    const Mat3 m = to_mat3(r);
    const Mat3 local = transpose(m) * inertia * m;
    return {local.col[0].x, local.col[1].y, local.col[2].z};
}

/// Points in a frame at `offset` turned by `turn` (from the body frame), as a hull shape.
std::unique_ptr<btCollisionShape> hull_shape(std::span<const Vec3> points, const Vec3& offset, const Quat& turn) {
    auto hull = std::make_unique<btConvexHullShape>();
    for (const Vec3& p : points) hull->addPoint(to_bt(rotate_inverse(turn, p - offset)), false);
    hull->recalcLocalAabb();
    return hull;
}

/// Puts `out`'s frame at the centre of mass `mp.centre`, turned onto the principal axes of
/// `mp.inertia` (a hull's or triangle's tensor is not diagonal in the body frame).
void on_principal_axes(const MassProperties& mp, Made& out) {
    btMatrix3x3 tensor = to_bt(mp.inertia), axes;
    tensor.diagonalize(axes, 1e-12, 64);
    btQuaternion q;
    axes.getRotation(q);
    out.offset = mp.centre;
    out.turn = normalize(from_bt(q));
}

/// Makes body `def`'s shape; `dynamic`: its frame at the centre of mass on principal axes.
Made make_shape(const BodyDef& def, bool dynamic, const MassProperties& mp, BulletWorld& bw) {
    Made out;
    out.inertia = {0, 0, 0};
    std::visit(Overloaded{
                       [&](const Sphere& s) {
                           out.shape = std::make_unique<btSphereShape>(s.radius);
                           out.offset = s.centre;
                       },
                       [&](const Aabb& b) {
                           out.shape = std::make_unique<btBoxShape>(to_bt(half_of(b)));
                           out.offset = centre_of(b);
                       },
                       [&](const Obb& b) {
                           out.shape = std::make_unique<btBoxShape>(to_bt(b.half));
                           out.offset = b.centre;
                           out.turn = quat_of(b.axes);
                       },
                       [&](const Capsule& c) {
                           const Vec3 axis = c.b - c.a;
                           const double height = length(axis);
                           out.offset = (c.a + c.b) * 0.5;
                           if (height <= 0) {
                               out.shape = std::make_unique<btSphereShape>(c.radius);
                               return;
                           }
                           out.shape = std::make_unique<btCapsuleShape>(c.radius, height);
                           out.turn = normalize(from_bt(shortestArcQuat(btVector3(0, 1, 0), to_bt(axis / height))));
                       },
                       [&](const Triangle& t) {
                           const Vec3 pts[] = {t.a, t.b, t.c};
                           if (dynamic) on_principal_axes(mp, out);
                           out.shape = hull_shape(pts, out.offset, out.turn);
                       },
                       [&](const Hull& h) {
                           if (dynamic) on_principal_axes(mp, out);
                           const HullPoints points = placed_points(h); // the body frame
                           out.shape = hull_shape(
                                   std::span<const Vec3>(points.points.data(), static_cast<std::size_t>(points.count)),
                                   out.offset, out.turn);
                       },
                       [&](const Plane& p) {
                           out.shape = std::make_unique<btStaticPlaneShape>(to_bt(p.normal), p.offset);
                       },
                       [&](const Mesh& m) {
                           const TriangleMesh& data = *m.data;
                           static_assert(sizeof(Vec3) == 3 * sizeof(double));
                           auto array = std::make_unique<btTriangleIndexVertexArray>();
                           btIndexedMesh part;
                           part.m_numTriangles = static_cast<int>(data.triangles.size());
                           part.m_triangleIndexBase = reinterpret_cast<const unsigned char*>(data.triangles.data());
                           part.m_triangleIndexStride = 3 * sizeof(int);
                           part.m_numVertices = static_cast<int>(data.vertices.size());
                           part.m_vertexBase = reinterpret_cast<const unsigned char*>(data.vertices.data());
                           part.m_vertexStride = sizeof(Vec3);
                           part.m_indexType = PHY_INTEGER;
                           part.m_vertexType = PHY_DOUBLE;
                           array->addIndexedMesh(part, PHY_INTEGER);
                           auto shape = std::make_unique<btBvhTriangleMeshShape>(array.get(), true);
                           auto info = std::make_unique<btTriangleInfoMap>();
                           btGenerateInternalEdgeInfo(shape.get(), info.get());
                           out.offset = m.position;
                           out.turn = quat_of(m.rotation);
                           out.shape = std::move(shape);
                           bw.arrays.push_back(std::move(array));
                           bw.infos.push_back(std::move(info));
                       },
               },
               def.shape);
    if (dynamic) {
        // Spheres, boxes and capsules are centred on their centre of mass and their tensor is
        // diagonal in their own frame; hulls and triangles were put on their principal axes.
        out.inertia = moments_in(mp.inertia, out.turn);
    }
    return out;
}

/// One body as the adapter keeps it.
struct Body {
    BodyKind kind = BodyKind::fixed;
    bool trigger = false;
    Shape base;            ///< the shape in the body frame
    Vec3 offset;           ///< the Bullet frame's origin in the body frame (m)
    Quat turn;             ///< the Bullet frame's rotation from the body frame
    Vec3 start_position;   ///< kinematic: at t = 0 (m)
    Quat start_rotation;   ///< kinematic: at t = 0
    Vec3 velocity;         ///< kinematic: constant (m/s)
    Vec3 angular_velocity; ///< kinematic: constant (rad/s)
    double reach = 0;      ///< farthest point of the shape from the Bullet frame's origin (m)
    bool round = false;    ///< a sphere about its centre: turning moves no point
    Material material;     ///< the contact-added callback reads it (user pointer)
    btRigidBody* rigid = nullptr;
};

/// The adapter.
class BulletEngine final : public Engine {
public:
    std::string_view name() const override { return "bullet"; }
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
    std::unique_ptr<BulletWorld> bw_;
    std::vector<Body> bodies_;
    std::vector<BodyState> states_;
    mutable std::vector<Shape> local_, placed_;
    mutable std::vector<unsigned char> fresh_;
    std::vector<Listener> listeners_;
    unsigned wanted_ = 0;
    int frame_ = -1;
    int frames_stepped_ = 0;
    double time_ = 0;
    /// A pair's contact found after a step: bodies a < b and its manifold (normal from a to b).
    struct Found {
        int a = 0, b = 0;
        Manifold manifold;
    };
    std::vector<Found> found_;
    std::vector<Manifold> manifolds_;
    std::vector<Vec3> before_;

    void refresh(int i) const {
        const auto k = static_cast<std::size_t>(i);
        if (fresh_[k]) return;
        const BodyState& s = states_[k];
        place_into(local_[k], bodies_[k].base, Vec3{}, s.rotation);
        place_into(placed_[k], bodies_[k].base, s.position, s.rotation);
        fresh_[k] = 1;
    }
    btTransform bullet_pose(const Body& b, const Vec3& position, const Quat& rotation) const {
        return btTransform(to_bt(rotation * b.turn), to_bt(position + rotate(rotation, b.offset)));
    }
    void read_pose(int i);
    void step(double h);
    void gather(const btPersistentManifold& m);
    template <class F> void tell(unsigned event, F&& f) {
        for (const Listener& l : listeners_)
            if (l.events & event) f(*l.observer);
    }
};

void BulletEngine::reset(const WorldDef& def, std::span<const BodyDef> defs) {
    set_callbacks_once();
    def_ = def;
    const double g = length(def.gravity);
    up_ = g > 0 ? def.gravity * (-1.0 / g) : Vec3{0, 1, 0};
    listeners_.clear();
    wanted_ = 0;
    frame_ = -1;
    frames_stepped_ = 0;
    time_ = 0;
    bw_.reset(); // the old world first: a fresh one per run
    bw_ = std::make_unique<BulletWorld>();
    btDiscreteDynamicsWorld& world = bw_->world;
    world.setGravity(to_bt(def.gravity));
    btContactSolverInfo& solver = world.getSolverInfo();
    solver.m_numIterations = std::max(1, def.velocity_iterations);
    solver.m_restitutionVelocityThreshold = std::max(def.rest_speed, g * def.dt);

    const std::size_t n = defs.size();
    bodies_.assign(n, Body{});
    states_.assign(n, BodyState{});
    local_.assign(n, Shape{});
    placed_.assign(n, Shape{});
    fresh_.assign(n, 0);
    bw_->bodies.resize(n);
    std::vector<std::size_t> meshes;
    for (std::size_t k = 0; k < n; ++k) {
        const BodyDef& d = defs[k];
        Body& b = bodies_[k];
        b.kind = body_kind(d);
        b.trigger = d.trigger;
        b.base = d.shape;
        const bool dynamic = b.kind == BodyKind::dynamic;
        const double mass = dynamic ? mass_of(d) : 0.0;
        const MassProperties mp = dynamic ? mass_properties(d.shape, mass) : MassProperties{};
        Made made = make_shape(d, dynamic, mp, *bw_);
        b.offset = made.offset;
        b.turn = made.turn;
        b.start_position = d.position;
        b.start_rotation = d.rotation;
        b.velocity = d.velocity;
        b.angular_velocity = d.angular_velocity;
        b.round = std::holds_alternative<Sphere>(d.shape);
        b.reach = std::holds_alternative<Plane>(d.shape) ? 0.0 : max_distance_from(d.shape, made.offset);
        b.material = {d.friction, d.restitution, def.friction_combine, def.restitution_combine};
        btRigidBody::btRigidBodyConstructionInfo info(mass, nullptr, made.shape.get(), to_bt(made.inertia));
        info.m_startWorldTransform = bullet_pose(b, d.position, d.rotation);
        info.m_friction = d.friction;
        info.m_restitution = d.restitution;
        auto rigid = std::make_unique<btRigidBody>(info);
        rigid->setUserIndex(static_cast<int>(k));
        rigid->setUserPointer(&b.material);
        int flags = rigid->getCollisionFlags() | btCollisionObject::CF_CUSTOM_MATERIAL_CALLBACK;
        if (d.trigger) flags |= btCollisionObject::CF_NO_CONTACT_RESPONSE;
        if (b.kind == BodyKind::kinematic) flags |= btCollisionObject::CF_KINEMATIC_OBJECT;
        rigid->setCollisionFlags(flags);
        if (b.kind == BodyKind::kinematic) rigid->setActivationState(DISABLE_DEACTIVATION);
        if (dynamic) {
            rigid->setLinearVelocity(to_bt(d.velocity));
            rigid->setAngularVelocity(to_bt(d.angular_velocity));
            if (d.fixed_rotation) rigid->setAngularFactor(0.0);
            if (d.ccd || d.speculative || def.detection != Detection::discrete) {
                rigid->setCcdMotionThreshold(kBulletCcdMotionThreshold);
                rigid->setCcdSweptSphereRadius(bullet_swept_sphere_radius(d.shape));
            }
            if (!def.sleep)
                rigid->setActivationState(DISABLE_DEACTIVATION);
            else
                rigid->setSleepingThresholds(def.rest_speed, def.rest_speed / std::max(b.reach, 1e-3));
        }
        b.rigid = rigid.get();
        bw_->shapes.push_back(std::move(made.shape));
        bw_->bodies[k] = std::move(rigid);
        if (std::holds_alternative<Mesh>(d.shape))
            meshes.push_back(k); // added last: a mesh is the second body of its pairs
        else
            world.addRigidBody(b.rigid);
        states_[k] = {d.position, b.kind == BodyKind::fixed ? Vec3{} : d.velocity, d.rotation,
                      b.kind == BodyKind::fixed ? Vec3{} : d.angular_velocity};
    }
    for (const std::size_t k : meshes) world.addRigidBody(bodies_[k].rigid);
    before_.assign(n, Vec3{});
}

void BulletEngine::read_pose(int i) {
    const auto k = static_cast<std::size_t>(i);
    const Body& b = bodies_[k];
    const btTransform& t = b.rigid->getWorldTransform();
    btQuaternion q;
    t.getBasis().getRotation(q);
    const Quat rotation = normalize(from_bt(q) * conjugate(b.turn));
    const Vec3 position = from_bt(t.getOrigin()) - rotate(rotation, b.offset);
    Vec3 velocity = from_bt(b.rigid->getLinearVelocity());
    Vec3 omega = from_bt(b.rigid->getAngularVelocity());
    if (b.kind == BodyKind::kinematic) velocity = b.velocity, omega = b.angular_velocity;
    states_[k] = {position, velocity, rotation, omega};
    fresh_[k] = 0;
}

void BulletEngine::gather(const btPersistentManifold& m) {
    const int i0 = m.getBody0()->getUserIndex(), i1 = m.getBody1()->getUserIndex();
    if (i0 < 0 || i1 < 0 || i0 == i1) return;
    if (is_trigger(i0) || is_trigger(i1)) return;
    const bool flip = i0 > i1; // collide's pair is (lower, higher); Bullet's normal points from B to A
    Found f;
    f.a = std::min(i0, i1);
    f.b = std::max(i0, i1);
    bool acting = false;
    double deepest = -std::numeric_limits<double>::infinity();
    for (int p = 0; p < m.getNumContacts() && f.manifold.count < kMaxManifoldPoints; ++p) {
        const btManifoldPoint& cp = m.getContactPoint(p);
        if (cp.getDistance() < 0 || cp.getAppliedImpulse() > 0) acting = true;
        const Vec3 normal = from_bt(cp.m_normalWorldOnB) * (flip ? 1.0 : -1.0); // from a to b
        ManifoldPoint& out = f.manifold.points[static_cast<std::size_t>(f.manifold.count++)];
        out.point = (from_bt(cp.getPositionWorldOnA()) + from_bt(cp.getPositionWorldOnB())) * 0.5;
        out.depth = -cp.getDistance();
        out.id = static_cast<std::uint32_t>(p);
        if (out.depth > deepest) deepest = out.depth, f.manifold.normal = normal;
    }
    if (acting) found_.push_back(f);
}

void BulletEngine::step(double h) {
    btDiscreteDynamicsWorld& world = bw_->world;
    const std::size_t n = bodies_.size();
    for (std::size_t k = 0; k < n; ++k) {
        Body& b = bodies_[k];
        if (b.kind == BodyKind::kinematic) {
            // Placed where it is at the step's end; Bullet takes its velocity from the move.
            const double t = time_ + h;
            const Quat q = normalize(exp_rotation(b.angular_velocity * t) * b.start_rotation);
            b.rigid->setWorldTransform(bullet_pose(b, b.start_position + b.velocity * t, q));
        }
        if (b.kind == BodyKind::dynamic) before_[k] = from_bt(b.rigid->getLinearVelocity());
    }
    world.stepSimulation(h, 0, h);
    time_ += h;
    const Vec3 g = def_.gravity;
    for (std::size_t k = 0; k < n; ++k) {
        const Body& b = bodies_[k];
        if (b.kind == BodyKind::fixed) continue;
        const int i = static_cast<int>(k);
        const BodyState old = states_[k];
        read_pose(i);
        const BodyState now = states_[k];
        if (b.kind == BodyKind::dynamic && (wanted_ & kOnResponse) && b.rigid->isActive()) {
            const Vec3 before = before_[k] + g * h; // Bullet adds gravity, then solves contacts
            if (!(before == now.velocity)) {
                states_[k] = old;
                tell(kOnResponse, [&](EngineObserver& o) { o.on_response(*this, i, before, now.velocity); });
            }
        }
        if (wanted_ & kOnMove) {
            // The chord from the pose before to the pose after: Bullet moves by p += v·h.
            states_[k] = {old.position, (now.position - old.position) * (1 / h), old.rotation, now.angular_velocity};
            fresh_[k] = 0;
            tell(kOnMove, [&](EngineObserver& o) { o.on_move(*this, i, h, Vec3{}); });
        }
        states_[k] = now;
        fresh_[k] = 0;
    }
    if (!(wanted_ & kOnContact)) return;
    found_.clear();
    btDispatcher& dispatcher = *world.getDispatcher();
    for (int m = 0; m < dispatcher.getNumManifolds(); ++m) gather(*dispatcher.getManifoldByIndexInternal(m));
    const auto& predictive = bw_->world.predictive();
    for (int m = 0; m < predictive.size(); ++m) gather(*predictive[m]);
    std::stable_sort(found_.begin(), found_.end(),
                     [](const Found& x, const Found& y) { return x.a != y.a ? x.a < y.a : x.b < y.b; });
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

void BulletEngine::step_frame() {
    if (frames_stepped_ >= def_.frames) return;
    frame_ = frames_stepped_;
    const double h = frame_ == 0 ? def_.phase * def_.dt : def_.dt;
    if (h > 0) step(h);
    ++frames_stepped_;
    const double t = (frame_ + def_.phase) * def_.dt;
    tell(kOnFrame, [&](EngineObserver& o) { o.on_frame(*this, frame_, t); });
}

std::string metres(double v) { return fmt::format("{:g} m", v); }

} // namespace

double bullet_swept_sphere_radius(const Shape& shape) {
    return std::visit(Overloaded{
                              [](const Sphere& s) { return s.radius; },
                              [](const Aabb& b) {
                                  const Vec3 h = half_of(b);
                                  return std::min({h.x, h.y, h.z});
                              },
                              [](const Obb& b) {
                                  return std::min({b.half.x, b.half.y, b.half.z});
                              },
                              [](const Capsule& c) { return c.radius; },
                              [](const Triangle&) { return 0.0; },
                              [](const Hull& h) { return hull_inner_radius(h, mass_properties(h, 1).centre); },
                              [](const Plane&) { return 0.0; },
                              [](const Mesh&) { return 0.0; },
                      },
                      shape);
}

std::string bullet_version() {
    const int v = btGetVersion();
    return fmt::format("Bullet {}.{:02}, {} precision (btGetVersion() {}, btScalar {} bytes)", v / 100, v % 100,
                       sizeof(btScalar) == 8 ? "double" : "single", v, sizeof(btScalar));
}

std::unique_ptr<Engine> make_bullet_engine() { return std::make_unique<BulletEngine>(); }

void refuse_unsupported_by_bullet(const Scenario& s) {
    const std::string file = display_name(s.file);
    for (const BodyDef& b : s.bodies)
        if (body_kind(b) == BodyKind::character)
            throw UnsupportedError(file, b.mark.line, b.mark.column,
                                   "--engine bullet has no character controller: body '" + b.name + "' is a character");
    if (s.world.friction_model == FrictionModel::per_contact)
        throw UnsupportedError(file, s.friction_model_mark.line, s.friction_model_mark.column,
                               "--engine bullet has no per-contact friction: world.friction_model is per_contact "
                               "(Bullet's friction is Coulomb's)");
}

std::vector<std::string> bullet_header(const Scenario& s) {
    const WorldDef& w = s.world;
    std::vector<std::string> lines;
    lines.push_back("engine → " + bullet_version());
    bool hull = false, box = false, mesh = false, trigger = false;
    std::vector<std::string> swept;
    std::vector<double> radii;
    for (const BodyDef& b : s.bodies) {
        hull |= std::holds_alternative<Hull>(b.shape) || std::holds_alternative<Triangle>(b.shape);
        box |= std::holds_alternative<Aabb>(b.shape) || std::holds_alternative<Obb>(b.shape);
        mesh |= std::holds_alternative<Mesh>(b.shape);
        trigger |= b.trigger;
        if (body_kind(b) == BodyKind::dynamic && (b.ccd || b.speculative || w.detection != Detection::discrete)) {
            swept.push_back(b.name);
            radii.push_back(bullet_swept_sphere_radius(b.shape));
        }
    }
    std::string approx = "one Bullet step per frame (the first phase·dt), no substeps; semi-implicit Euler";
    if (w.integrator == Integrator::exact) approx += ", not the exact integrator";
    approx += fmt::format("; {} solver iterations, split-impulse position correction; restitution above {:.3g} m/s",
                          std::max(1, w.velocity_iterations), std::max(w.rest_speed, length(w.gravity) * w.dt));
    if (box || hull) {
        approx += "; margins 0.04 m";
        if (box) approx += " (inside boxes: rounded edges)";
        if (hull) approx += box ? ", grown hulls and triangles by 0.04 m" : " (hulls and triangles grown by it)";
    }
    approx += w.sleep ? fmt::format("; bodies sleep after 2 s below {:g} m/s", w.rest_speed) : "; no sleep";
    lines.push_back("Bullet's approximations → " + approx);
    if (w.detection == Detection::speculative ||
        std::any_of(s.bodies.begin(), s.bodies.end(), [](const BodyDef& b) { return b.speculative; }))
        lines.push_back("speculative contacts → Bullet's CCD (its predictive contacts), not collide's");
    if (!swept.empty()) {
        const auto [lo, hi] = std::minmax_element(radii.begin(), radii.end());
        std::string who =
                swept.size() <= 4 ? fmt::format("{}", fmt::join(swept, ", ")) : fmt::format("{} bodies", swept.size());
        std::string r = *lo == *hi ? metres(*lo) : metres(*lo) + " to " + metres(*hi);
        lines.push_back(fmt::format("Bullet's ccd → {}: motion threshold {:g} m, swept-sphere radius {} (the shape's "
                                    "inner radius)",
                                    who, kBulletCcdMotionThreshold, r));
    }
    if (mesh) lines.push_back("meshes → btBvhTriangleMeshShape with Bullet's internal-edge fix");
    if (trigger)
        lines.push_back("triggers → no contact response in Bullet; entries and exits measured on Bullet's poses "
                        "at the sampled frames");
    if (!s.expect.empty())
        lines.push_back("expectations → not checked with --engine bullet: they state collide's answers");
    return lines;
}

void register_bullet_engine() {
    EngineSpec spec;
    spec.name = "bullet";
    spec.version = bullet_version();
    spec.make = make_bullet_engine;
    spec.refuse_unsupported = refuse_unsupported_by_bullet;
    spec.header = bullet_header;
    register_engine(std::move(spec));
}

} // namespace collide
