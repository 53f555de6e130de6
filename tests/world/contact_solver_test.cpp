// The contact solver against impulses worked out by hand: one point of impact, and a collision
// that must keep momentum, angular momentum and energy; the solver's body slots.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "shapes/mass.h"
#include "support.h"
#include "world/contact_solver.h"
#include "world/stages.h"

using namespace collide;
using namespace collide::test;
using Catch::Detail::Approx;

namespace {

/// The velocities of body `body` just after the first response the world reports for it.
struct FirstResponse : EngineObserver {
    int body = 1;
    bool seen = false;
    BodyState after;
    Vec3 before;
    void on_response(const EngineView& world, int b, const Vec3& v0, const Vec3&) override {
        if (b != body || seen) return;
        seen = true;
        before = v0;
        after = world.state(b);
    }
};

} // namespace

TEST_CASE("an impact at one point: j = −(1 + e)·v_n / (1/m + (r × n)·I⁻¹·(r × n))", "[world][rigid][solver]") {
    // A thin box (half extents 0.5, 0.05, 0.3), turned so that one corner is lowest, falls at
    // 2 m/s onto a frictionless floor with e = 0.5 (no gravity: it falls at constant speed, so
    // the speed at the touch is exactly 2 m/s). The impulse at that corner, worked out alone:
    const Quat q = normalize(quat_from_axis_degrees({0, 0, 1}, 45) * quat_from_axis_degrees({1, 0, 0}, 20));
    const Vec3 half{0.5, 0.05, 0.3};
    const double m = 2, e = 0.5, v = 2;
    WorldDef def = world_def(60, 1.0, Detection::swept, 0);
    BodyDef box = box_at({0, 1, 0}, half, q, 0, e);
    box.mass = m;
    box.velocity = {0, -v, 0};
    const std::vector<BodyDef> bodies{ground_at({0, -1, 0}, {5, 1, 5}), box};
    World world;
    world.reset(def, bodies);
    FirstResponse r;
    world.add_observer(r, kOnResponse);
    run(world);
    REQUIRE(r.seen);
    // The lowest corner, relative to the centre; its normal velocity is −v before the touch.
    const Mat3 R = to_mat3(q);
    Vec3 lowest;
    for (int k = 0; k < 8; ++k) {
        const Vec3 c = R * Vec3{(k & 1 ? 1 : -1) * half.x, (k & 2 ? 1 : -1) * half.y, (k & 4 ? 1 : -1) * half.z};
        if (k == 0 || c.y < lowest.y) lowest = c;
    }
    const Mat3 inv_i = R * inverse(mass_properties(Aabb{half * -1.0, half}, m).inertia) * transpose(R);
    const Vec3 n{0, 1, 0};
    const Vec3 rn = cross(lowest, n);
    const double j = (1 + e) * v / (1 / m + dot(rn, inv_i * rn));
    const Vec3 v_after = Vec3{0, -v, 0} + n * (j / m);
    const Vec3 w_after = inv_i * cross(lowest, n * j);
    CHECK(r.before.y == Approx(-v).margin(1e-12));
    CHECK(r.after.velocity.x == Approx(v_after.x).margin(1e-6));
    CHECK(r.after.velocity.y == Approx(v_after.y).margin(1e-6));
    CHECK(r.after.velocity.z == Approx(v_after.z).margin(1e-6));
    CHECK(r.after.angular_velocity.x == Approx(w_after.x).margin(1e-6));
    CHECK(r.after.angular_velocity.y == Approx(w_after.y).margin(1e-6));
    CHECK(r.after.angular_velocity.z == Approx(w_after.z).margin(1e-6));
    // The corner leaves at e times the speed it came in at.
    const Vec3 corner_v = r.after.velocity + cross(r.after.angular_velocity, lowest);
    CHECK(corner_v.y == Approx(e * v).margin(1e-6));
}

TEST_CASE("an elastic off-centre strike keeps momentum, angular momentum and energy", "[world][rigid][solver]") {
    // No gravity, no friction, e = 1: a ball at 3 m/s along x hits a still box 0.3 m off its
    // centre line, so the box leaves spinning about z (a principal axis: it turns without
    // wobbling, and its energy is exactly ½·I·ω²).
    WorldDef def = world_def(60, 1.0, Detection::swept, 0);
    BodyDef box = box_at({0, 0, 0}, {0.5, 0.5, 0.5}, {}, 0, 1);
    box.mass = 3;
    BodyDef b = ball_at({-2, 0.3, 0}, 0.25, 0, 1);
    b.mass = 1;
    b.velocity = {3, 0, 0};
    const std::vector<BodyDef> bodies{box, b};
    World world;
    world.reset(def, bodies);
    const auto totals = [&](Vec3& p, Vec3& l, double& energy) {
        p = Vec3{};
        l = Vec3{};
        energy = 0;
        for (int k = 0; k < 2; ++k) {
            const BodyState s = world.state(k);
            const double mass = bodies[static_cast<std::size_t>(k)].mass;
            const Mat3 R = to_mat3(s.rotation);
            const Mat3 inertia =
                    R * mass_properties(bodies[static_cast<std::size_t>(k)].shape, mass).inertia * transpose(R);
            p += s.velocity * mass;
            l += cross(s.position, s.velocity * mass) + inertia * s.angular_velocity; // about the origin
            energy += 0.5 * mass * dot(s.velocity, s.velocity) +
                      0.5 * dot(s.angular_velocity, inertia * s.angular_velocity);
        }
    };
    Vec3 p0, l0, p1, l1;
    double e0 = 0, e1 = 0;
    totals(p0, l0, e0);
    run(world);
    totals(p1, l1, e1);
    REQUIRE(length(world.state(0).angular_velocity) > 0.1); // it was struck off centre
    CHECK(length(p1 - p0) <= 1e-9 * length(p0));
    CHECK(length(l1 - l0) <= 1e-9 * length(l0));
    CHECK(std::fabs(e1 - e0) <= 1e-9 * e0);
}

TEST_CASE("a column of balls is solved in one pass: each contact holds exactly the weight above it",
          "[world][rigid][solver][stages]") {
    // Eight balls of masses 1..8 kg stacked touching on the floor, the carried impulses cleared:
    // one pass of one point at a time would leave the upper balls falling (each contact learns
    // of the weight above only a pass later); the chain's rows solved together (a tridiagonal
    // system) stop every ball in one pass, with the contact under ball k pushing g·h·Σ_{j≥k} m_j.
    constexpr int n = 8;
    std::vector<BodyDef> bodies{ground_at({0, -1, 0}, {5, 1, 5})};
    for (int k = 0; k < n; ++k) {
        bodies.push_back(ball_at({0, 0.5 + k, 0}, 0.5));
        bodies.back().mass = 1.0 + k;
    }
    WorldDef def = world_def(60, 1.0);
    def.velocity_iterations = 1;
    WorldState w;
    StepScratch scratch;
    reset_world(w, scratch, def, bodies);
    for (ContactPoint& cp : w.contacts.points) {
        cp.normal_impulse = 0;
        cp.tangent_impulse = Vec3{};
    }
    const double h = def.dt;
    w.last_step = w.step = h; // (World::step_frame's bookkeeping: no rescaling of carried impulses)
    const StepContext ctx = make_step_context(w.def, h, w.up);
    REQUIRE(ctx.velocity_iterations == 1);
    for (const StepStage stage :
         {StepStage::prepare, StepStage::impacts, StepStage::integrate_velocities, StepStage::solve})
        run_stage(stage, ctx, w, scratch);
    REQUIRE(w.constraints.contacts.size() == static_cast<std::size_t>(n));
    REQUIRE(w.constraints.islands.islands.size() == 1);
    CHECK(w.constraints.islands.islands[0].chain_first >= 0); // solved as a chain
    for (int k = 1; k <= n; ++k) {
        INFO("ball " << k);
        CHECK(std::fabs(w.sims[static_cast<std::size_t>(k)].velocity.y) < 1e-12);
    }
    // The contacts' bodies, as the passes kept them (SolverBody): one slot each, floor included.
    CHECK(w.constraints.bodies.state.size() == static_cast<std::size_t>(n + 1));
    for (const SolverContact& c : w.constraints.contacts) {
        const int upper = std::max(c.a, c.b); // the ball above the contact
        double above = 0;
        for (int j = upper; j <= n; ++j) above += 1.0 + (j - 1);
        const double impulse = w.constraints.points[static_cast<std::size_t>(c.first)].normal_impulse;
        INFO("contact under ball " << upper);
        CHECK(impulse == Approx(kG * h * above).epsilon(1e-12));
    }
}

TEST_CASE("gathering gives each body of the contacts one slot, in the order of the bodies, on any thread count",
          "[world][solver][threads]") {
    // 10,000 bodies; contacts between scattered pairs, many sharing a body, a few bodies in none.
    std::vector<BodySim> bodies(10000);
    for (std::size_t i = 0; i < bodies.size(); ++i) {
        bodies[i].velocity = Vec3{static_cast<double>(i), 0, 0};
        bodies[i].inv_mass = i % 7 == 0 ? 0.0 : 1.0;
    }
    std::vector<std::pair<int, int>> pairs;
    for (int k = 0; k < 6000; ++k) pairs.emplace_back((k * 7919) % 9000, 9000 + (k * 31) % 1000);
    for (const int threads : {1, 2, 3}) {
        StepThreads pool;
        pool.set_threads(threads);
        StepConstraints set;
        for (const auto& [a, b] : pairs) {
            SolverContact& c = set.contacts.emplace_back();
            c.a = a;
            c.b = b;
        }
        gather_solver_bodies(set, bodies, pool);
        std::vector<int> named; // every body some contact names, ascending
        for (const auto& [a, b] : pairs) named.insert(named.end(), {a, b});
        std::sort(named.begin(), named.end());
        named.erase(std::unique(named.begin(), named.end()), named.end());
        INFO(threads << " threads");
        CHECK(set.bodies.body == named);
        for (const SolverContact& c : set.contacts) {
            REQUIRE(set.bodies.body[static_cast<std::size_t>(c.sa)] == c.a);
            REQUIRE(set.bodies.body[static_cast<std::size_t>(c.sb)] == c.b);
            CHECK(set.bodies.state[static_cast<std::size_t>(c.sa)].velocity.x == c.a);
        }
        for (const int slot : set.bodies.slot) REQUIRE(slot == -1); // ready for the next gather
    }
}
