// A plain Bullet 3.24 program of the shipped tunnel scene (scenarios/tunnel.yaml), written as a
// Bullet user writes it, with nothing of collide: a 0.3 m ball at 60 Hz towards a 10 cm wall
// (a static box of half-size 0.05 × 2 × 2 at the origin) from x = −3 at SPEED m/s, no gravity,
// restitution and friction 0, over the README's grid (19 speeds 30:300:15 × 20 offsets
// 0:0.95:0.05), a fresh double-precision world per cell. Frame k is sampled at (k + offset)/60:
// the first step is offset/60 (none at 0), the others 1/60, one stepSimulation(h, 0, h) each,
// 40 frames. Each cell is run without CCD and with it (motion threshold 1e-7 m, swept-sphere
// radius 0.3 m). A run "catches" the ball when after some step a manifold of the pair — the
// dispatcher's or the predictive contacts of Bullet's CCD — has a point that overlaps
// (distance < 0) or that the solver pushed apart (applied impulse > 0).
// Prints `speed,offset,discrete,ccd` (1 caught, 0 not) a line, speed slowest; then on stderr
// how many cells each caught. tests/engines/bullet/plain/compare_tunnel.py compares it with
// `collide sweep --engine bullet`, cell for cell.
#include <btBulletDynamicsCommon.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

namespace {

/// btDiscreteDynamicsWorld with its predictive manifolds readable.
struct World : btDiscreteDynamicsWorld {
    using btDiscreteDynamicsWorld::btDiscreteDynamicsWorld;
    const btAlignedObjectArray<btPersistentManifold*>& predictive() const { return m_predictiveManifolds; }
};

bool acting(const btPersistentManifold& m, const btCollisionObject* a, const btCollisionObject* b) {
    if (!((m.getBody0() == a && m.getBody1() == b) || (m.getBody0() == b && m.getBody1() == a))) return false;
    for (int p = 0; p < m.getNumContacts(); ++p) {
        const btManifoldPoint& cp = m.getContactPoint(p);
        if (cp.getDistance() < 0 || cp.getAppliedImpulse() > 0) return true;
    }
    return false;
}

/// One cell: whether the wall catches the ball.
bool caught(double speed, double offset, bool ccd) {
    btDefaultCollisionConfiguration config;
    btCollisionDispatcher dispatcher(&config);
    btDbvtBroadphase broadphase;
    btSequentialImpulseConstraintSolver solver;
    World world(&dispatcher, &broadphase, &solver, &config);
    world.setGravity(btVector3(0, 0, 0));
    world.getSolverInfo().m_numIterations = 32;

    btBoxShape wall_shape(btVector3(0.05, 2, 2));
    btRigidBody::btRigidBodyConstructionInfo wall_info(0, nullptr, &wall_shape);
    wall_info.m_startWorldTransform.setIdentity();
    btRigidBody wall(wall_info);
    world.addRigidBody(&wall);

    const double r = 0.3, mass = 1;
    btSphereShape ball_shape(r);
    btRigidBody::btRigidBodyConstructionInfo ball_info(mass, nullptr, &ball_shape,
                                                       btVector3(1, 1, 1) * (0.4 * mass * r * r));
    ball_info.m_startWorldTransform.setIdentity();
    ball_info.m_startWorldTransform.setOrigin(btVector3(-3, 0, 0));
    ball_info.m_friction = 0;
    ball_info.m_restitution = 0;
    btRigidBody ball(ball_info);
    ball.setLinearVelocity(btVector3(speed, 0, 0));
    if (ccd) {
        ball.setCcdMotionThreshold(1e-7);
        ball.setCcdSweptSphereRadius(r);
    }
    world.addRigidBody(&ball);

    const double dt = 1.0 / 60;
    bool hit = false;
    for (int k = 0; k < 40 && !hit; ++k) {
        const double h = k == 0 ? offset * dt : dt;
        if (h <= 0) continue;
        world.stepSimulation(h, 0, h);
        for (int m = 0; m < dispatcher.getNumManifolds(); ++m)
            hit |= acting(*dispatcher.getManifoldByIndexInternal(m), &wall, &ball);
        for (int m = 0; m < world.predictive().size(); ++m) hit |= acting(*world.predictive()[m], &wall, &ball);
    }
    world.removeRigidBody(&ball);
    world.removeRigidBody(&wall);
    return hit;
}

} // namespace

int main() {
    int discrete_count = 0, ccd_count = 0;
    for (int s = 0; s < 19; ++s) {
        const double speed = 30 + 15 * s;
        for (int o = 0; o < 20; ++o) {
            char text[16];
            std::snprintf(text, sizeof text, "%.2f", 0.05 * o);
            const double offset = std::strtod(text, nullptr); // the grid's value: 0.05·o to 2 decimals
            const bool d = caught(speed, offset, false), c = caught(speed, offset, true);
            discrete_count += d;
            ccd_count += c;
            std::printf("%g,%s,%d,%d\n", speed, text, d ? 1 : 0, c ? 1 : 0);
        }
    }
    std::fprintf(stderr, "plain Bullet %d (%zu-byte btScalar): discrete caught %d of 380, CCD %d of 380\n",
                 btGetVersion(), sizeof(btScalar), discrete_count, ccd_count);
    return 0;
}
