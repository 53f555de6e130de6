// A plain Bullet 3.24 program of the shipped bounce and ramp scenes (scenarios/bouncing.yaml,
// scenarios/ramp.yaml), written as a Bullet user writes it, with nothing of collide, and with the
// settings the `--engine bullet` log's header states: double precision, one stepSimulation(dt, 0,
// dt) per frame at 60 Hz (frame 0 is t = 0: no step), 32 solver iterations, restitution only
// above max(rest speed 0.01, g·dt) m/s, sleeping below 0.01 m/s (and 0.01/r rad/s, r the body's
// reach), CCD (motion threshold 1e-7 m, swept-sphere radius the shape's inner radius) on the
// bodies the scenes make swept. Bullet multiplies a pair's coefficients where the scenes take the
// larger: each static body's restitution and friction is 1, so the product is the moving body's.
//
// It prints `SCENE ID.FIELD VALUE` a line, for the values the scenes' expectations name:
// - bouncing: each swept ball's apex heights 1–3, its lowest point above the floor's top at the
//   highest sampled frame between one bounce (vertical velocity turned from down to up faster
//   than max(0.01, 9.81/60) m/s) and the next;
// - ramp: where the ball, the block on μ 0.2 and the block on μ 0.4 are at t = 1.5 s.
// tests/engines/bullet/plain/compare_conform.py sets them beside `collide conform --engine bullet`.
#include <btBulletDynamicsCommon.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <vector>

namespace {

constexpr double kDt = 1.0 / 60;
constexpr double kG = 9.81;
constexpr double kRestSpeed = 0.01;

struct Scene {
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher{&config};
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    btDiscreteDynamicsWorld world{&dispatcher, &broadphase, &solver, &config};
    std::vector<std::unique_ptr<btCollisionShape>> shapes;
    std::vector<std::unique_ptr<btRigidBody>> bodies;
    Scene() {
        world.setGravity(btVector3(0, -kG, 0));
        world.getSolverInfo().m_numIterations = 32;
        world.getSolverInfo().m_restitutionVelocityThreshold = std::max(kRestSpeed, kG * kDt);
    }
    ~Scene() {
        for (auto& b : bodies) world.removeRigidBody(b.get());
    }
    /// A static body: restitution and friction 1, so that a pair's product is the other body's.
    void add_static(btCollisionShape* shape, const btTransform& at) {
        shapes.emplace_back(shape);
        btRigidBody::btRigidBodyConstructionInfo info(0, nullptr, shape);
        info.m_startWorldTransform = at;
        info.m_friction = 1;
        info.m_restitution = 1;
        bodies.push_back(std::make_unique<btRigidBody>(info));
        world.addRigidBody(bodies.back().get());
    }
    /// A 1 kg body; `swept`: CCD with a swept sphere of `inner` m; it sleeps below 0.01 m/s and
    /// 0.01/reach rad/s.
    btRigidBody* add_moving(btCollisionShape* shape, const btTransform& at, double friction, double restitution,
                            bool swept, double inner, double reach) {
        shapes.emplace_back(shape);
        btVector3 inertia;
        shape->calculateLocalInertia(1, inertia);
        btRigidBody::btRigidBodyConstructionInfo info(1, nullptr, shape, inertia);
        info.m_startWorldTransform = at;
        info.m_friction = friction;
        info.m_restitution = restitution;
        bodies.push_back(std::make_unique<btRigidBody>(info));
        btRigidBody* b = bodies.back().get();
        if (swept) {
            b->setCcdMotionThreshold(1e-7);
            b->setCcdSweptSphereRadius(inner);
        }
        b->setSleepingThresholds(kRestSpeed, kRestSpeed / reach);
        world.addRigidBody(b);
        return b;
    }
};

btTransform at(const btVector3& p, const btQuaternion& q = btQuaternion::getIdentity()) { return btTransform(q, p); }

/// bouncing.yaml: 4.2 s (252 frames); a floor box [−10, −1, −10]–[10, 0, 10]; balls r 0.1 from
/// y 2.1, swept ones at z 0 with e 0.5, 0.8, 0.95, 1, discrete ones at z 5 with e 0.5, 0.8.
void bouncing() {
    Scene s;
    s.add_static(new btBoxShape(btVector3(10, 0.5, 10)), at({0, -0.5, 0}));
    struct Ball {
        const char* id;
        btRigidBody* body;
        int bounces = 0;
        double best = 0;
        double last = 0; ///< the height after the step before
        double apex[3] = {NAN, NAN, NAN};
    };
    const double r = 0.1;
    std::vector<Ball> balls;
    const struct {
        const char* id;
        double x, z, e;
        bool swept;
    } made[] = {{"swept_0_5", -3, 0, 0.5, true},     {"swept_0_8", -1, 0, 0.8, true},
                {"swept_0_95", 1, 0, 0.95, true},    {"swept_1", 3, 0, 1, true},
                {"discrete_0_5", -3, 5, 0.5, false}, {"discrete_0_8", -1, 5, 0.8, false}};
    for (const auto& m : made) {
        balls.push_back({m.id, s.add_moving(new btSphereShape(r), at({m.x, 2.1, m.z}), 0, m.e, m.swept, r, r)});
        balls.back().last = 2.1 - r;
    }
    const double bounce_speed = std::max(kRestSpeed, kG * kDt);
    for (int frame = 1; frame < 252; ++frame) {
        std::vector<double> before;
        for (const Ball& b : balls) before.push_back(b.body->getLinearVelocity().y() - kG * kDt);
        s.world.stepSimulation(kDt, 0, kDt);
        for (std::size_t k = 0; k < balls.size(); ++k) {
            Ball& b = balls[k];
            const double height = b.body->getWorldTransform().getOrigin().y() - r;
            if (before[k] < 0 && b.body->getLinearVelocity().y() > bounce_speed) { // a bounce
                if (b.bounces >= 1 && b.bounces <= 3) b.apex[b.bounces - 1] = b.best;
                ++b.bounces;
                b.best = b.last; // from the step's start: the highest point since includes it
            }
            b.best = std::max({b.best, b.last, height});
            b.last = height;
        }
    }
    for (Ball& b : balls) {
        if (b.bounces >= 1 && b.bounces <= 3) b.apex[b.bounces - 1] = b.best;
        for (int k = 0; k < 3; ++k) std::printf("bouncing %s.apex_%d %.17g\n", b.id, k + 1, b.apex[k]);
    }
}

/// ramp.yaml: 1.5 s (91 frames), swept; three 10 m × 1 m slabs turned 20° about z at z = 0, 3,
/// −3; on each, 2 m up its slope and touching it, a ball (r 0.5, μ 0.4), a block (1 m cube, μ 0.2)
/// and a block (μ 0.4), turned with it.
void ramp(const btVector3& start, const btQuaternion& turn) {
    Scene s;
    const double cube_reach = std::sqrt(3 * 0.25);
    s.add_static(new btBoxShape(btVector3(5, 0.5, 1)), at({0, 0, 0}, turn));
    btRigidBody* ball = s.add_moving(new btSphereShape(0.5), at(start), 0.4, 0, true, 0.5, 0.5);
    s.add_static(new btBoxShape(btVector3(5, 0.5, 1)), at({0, 0, 3}, turn));
    btRigidBody* block = s.add_moving(new btBoxShape(btVector3(0.5, 0.5, 0.5)), at(start + btVector3(0, 0, 3), turn),
                                      0.2, 0, true, 0.5, cube_reach);
    s.add_static(new btBoxShape(btVector3(5, 0.5, 1)), at({0, 0, -3}, turn));
    btRigidBody* held = s.add_moving(new btBoxShape(btVector3(0.5, 0.5, 0.5)), at(start + btVector3(0, 0, -3), turn),
                                     0.4, 0, true, 0.5, cube_reach);
    for (int frame = 1; frame < 91; ++frame) s.world.stepSimulation(kDt, 0, kDt);
    const auto print = [](const char* id, const btRigidBody* b) {
        const btVector3 p = b->getWorldTransform().getOrigin(), v = b->getLinearVelocity(), w = b->getAngularVelocity();
        std::printf("ramp %s.x %.17g\nramp %s.y %.17g\nramp %s.vx %.17g\nramp %s.wz %.17g\nramp %s.spin %.17g\n", id,
                    p.x(), id, p.y(), id, v.x(), id, w.z(), id, w.length());
    };
    print("rolled", ball);
    print("slid", block);
    print("held", held);
}

} // namespace

int main(int argc, char** argv) {
    // The ramp's start point and turn: 2·(cos 20°, sin 20°) + (−sin 20°, cos 20°) and 20° about z,
    // or as given (x y qw qz): the scene is chaotic at the last bit (README, Conformance).
    const double th = 20 * M_PI / 180;
    btVector3 start(2 * std::cos(th) - std::sin(th), 2 * std::sin(th) + std::cos(th), 0);
    btQuaternion turn(btVector3(0, 0, 1), th);
    if (argc == 5) {
        start = btVector3(std::strtod(argv[1], nullptr), std::strtod(argv[2], nullptr), 0);
        turn = btQuaternion(0, 0, std::strtod(argv[4], nullptr), std::strtod(argv[3], nullptr));
    }
    bouncing();
    ramp(start, turn);
    std::fprintf(stderr, "plain Bullet %d (%zu-byte btScalar)\n", btGetVersion(), sizeof(btScalar));
    return 0;
}
