// The 3D view's first camera (plot/camera3d.h): principal axes worked out by hand, and the view
// across the plane the motion spans — a slide in x–y and a pyramid along x seen from +z (face
// on, up as up), a run across the floor from above, and the other side when a wall is in the way.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "plot/camera3d.h"
#include "probes/record.h"
#include "scenario/load.h"

using namespace collide;

namespace {

Scenario shipped(const std::string& name) {
    return load_scenario(std::string(COLLIDE_SOURCE_DIR) + "/scenarios/" + name + ".yaml", {});
}

Recording record(const Scenario& sc) {
    std::vector<double> values(layout_of(sc).fields.size());
    return simulate_recorded(sc, values);
}

/// A scenario of spheres (radius 0.1) and its recording: body b at frame k is at path(b, k).
template <class Path> std::pair<Scenario, Recording> run_of(int bodies, int frames, Path path) {
    Scenario sc;
    sc.world.gravity = {0, -9.81, 0};
    Recording rec;
    rec.body_count = bodies;
    for (int b = 0; b < bodies; ++b) {
        BodyDef body;
        body.name = "b" + std::to_string(b);
        body.shape = Sphere{{0, 0, 0}, 0.1};
        body.position = path(b, 0);
        sc.bodies.push_back(body);
    }
    for (int k = 0; k < frames; ++k) {
        rec.frames.push_back(k);
        rec.times.push_back(k / 60.0);
        for (int b = 0; b < bodies; ++b) {
            BodyState s;
            s.position = path(b, k);
            rec.states.push_back(s);
        }
    }
    return {sc, rec};
}

/// The eye of a view across a standing plane: its normal turned 20° about up and raised 20°.
Vec3 standing_eye(const Vec3& normal) {
    const double r = std::acos(-1.0) / 9; // 20°
    const Vec3 turned{normal.x * std::cos(r) + normal.z * std::sin(r), 0,
                      normal.z * std::cos(r) - normal.x * std::sin(r)};
    return turned * std::cos(r) + Vec3{0, std::sin(r), 0};
}

} // namespace

TEST_CASE("principal axes: the spread of a tilted rectangle of points, by hand", "[plot][camera3d]") {
    // A 4 × 1 grid of points in the plane z = 1, its long side along (1, 1, 0)/√2.
    const Vec3 u = normalize(Vec3{1, 1, 0}), v = normalize(Vec3{-1, 1, 0});
    std::vector<Vec3> points;
    for (int i = -2; i <= 2; ++i)
        for (int j = -1; j <= 1; ++j) points.push_back(u * (2.0 * i) + v * (0.5 * j) + Vec3{3, 4, 1});
    const PrincipalAxes a = principal_axes(points);
    CHECK(near(a.centre, {3, 4, 1}, 1e-12));
    // Variances: along u, 4·(4+4+0+4+4)/5 = 8 m² ... each of the 15 points: (2i)² averaged = 8;
    // along v, (0.5 j)² averaged = 1/6; across, none.
    CHECK(a.spread[0] == Approx(std::sqrt(8.0)).epsilon(1e-12));
    CHECK(a.spread[1] == Approx(std::sqrt(1.0 / 6)).epsilon(1e-12));
    CHECK(a.spread[2] == Approx(0).margin(1e-9));
    CHECK(std::fabs(dot(a.axes[0], u)) == Approx(1).epsilon(1e-12));
    CHECK(std::fabs(dot(a.axes[1], v)) == Approx(1).epsilon(1e-12));
    CHECK(std::fabs(a.axes[2].z) == Approx(1).epsilon(1e-12));
    // Each axis signed with its largest component positive.
    CHECK(a.axes[2].z > 0);
    const PrincipalAxes none = principal_axes({});
    CHECK(none.spread[0] == 0);
}

TEST_CASE("the first view looks across the plane of the motion, from the side where x runs right", "[plot][camera3d]") {
    SECTION("a slide down a slope in x–y, another body far off along z: seen from +z") {
        const auto [sc, rec] = run_of(2, 60, [](int b, int k) {
            return b == 0 ? Vec3{-0.05 * k, -0.06 * k, 20} : Vec3{0, 0.8, 0}; // b1 stands: no motion
        });
        const ViewChoice v = choose_view(sc, rec);
        CHECK(near(v.normal, {0, 0, 1}, 1e-9));
        CHECK(near(v.eye, standing_eye({0, 0, 1}), 1e-9));
        CHECK(v.up == Vec3{0, 1, 0});
        // What the view must show: both bodies over the run, their radius about them.
        CHECK(near(v.frame.min, {-2.95 - 0.1, -3.54 - 0.1, -0.1}, 1e-9));
        CHECK(near(v.frame.max, {0.1, 0.9, 20.1}, 1e-9));
    }
    SECTION("nothing moves: the layout decides; a pyramid along x seen from +z") {
        const auto [sc, rec] = run_of(6, 10, [](int b, int) {
            const int row = b < 3 ? 0 : b < 5 ? 1 : 2, col = b - (row == 0 ? 0 : row == 1 ? 3 : 5);
            return Vec3{col + 0.5 * row, 0.5 + row, 0};
        });
        const ViewChoice v = choose_view(sc, rec);
        CHECK(near(v.normal, {0, 0, 1}, 1e-9));
        CHECK(v.eye.z > 0.85);
    }
    SECTION("a run across the floor (x–z) is seen from above, raised 55°, across its long side") {
        const auto [sc, rec] = run_of(1, 60, [](int, int k) { return Vec3{0.1 * k, 0.5, 0.02 * k}; });
        const ViewChoice v = choose_view(sc, rec);
        // A line across the floor: its horizontal normal; the floor is no plane of the motion.
        CHECK(std::fabs(v.normal.y) < 1e-9);
        CHECK(dot(v.normal, normalize(Vec3{0.1, 0, 0.02})) == Approx(0).margin(1e-9));
        const auto [sc2, rec2] = run_of(2, 60, [](int b, int k) {
            return b == 0 ? Vec3{0.1 * k, 0.5, 0.02 * k} : Vec3{0.02 * k, 0.5, 3 - 0.05 * k};
        });
        const ViewChoice top = choose_view(sc2, rec2);
        CHECK(std::fabs(top.normal.y) == Approx(1).epsilon(1e-9));
        CHECK(top.eye.y == Approx(std::sin(55 * std::acos(-1.0) / 180)).epsilon(1e-9));
    }
    SECTION("a vertical fall: the horizontal direction the bodies spread least along") {
        const auto [sc, rec] = run_of(3, 30, [](int b, int k) { return Vec3{2.0 * b, 5 - 0.01 * k * k, 0}; });
        const ViewChoice v = choose_view(sc, rec);
        CHECK(near(v.normal, {0, 0, 1}, 1e-9));
    }
    SECTION("a wall between the scene and the eye: the other side") {
        auto [sc, rec] = run_of(1, 60, [](int, int k) { return Vec3{0.05 * k, 1 - 0.0005 * k * k, 0}; });
        BodyDef wall;
        wall.name = "wall";
        wall.is_static = true;
        wall.shape = Aabb{{-5, -1, 2}, {8, 4, 2.2}};
        sc.bodies.push_back(wall);
        ++rec.body_count;
        std::vector<BodyState> states;
        for (std::size_t k = 0; k < rec.frame_count(); ++k) {
            states.push_back(rec.states[k]);
            states.push_back(BodyState{});
        }
        rec.states = states;
        const ViewChoice v = choose_view(sc, rec);
        CHECK(v.normal.z == Approx(-1).epsilon(1e-9));
        CHECK(v.eye.z < 0);
        CHECK(v.eye.y > 0); // still from above: up is up
    }
}

TEST_CASE("the shipped slope and pyramid are seen face on, from +z", "[plot][camera3d]") {
    for (const char* name : {"slope", "pyramid", "dominoes", "tunnel"}) {
        INFO(name);
        const Scenario sc = shipped(name);
        const ViewChoice v = choose_view(sc, record(sc));
        CHECK(std::fabs(v.normal.z) == Approx(1).epsilon(1e-6));
        CHECK(v.eye.z > 0.85); // 20° off the normal each way: cos² 20° = 0.883
        CHECK(v.eye.y > 0.3);
    }
}
