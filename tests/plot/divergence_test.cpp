// The picture of where two runs part (plot/divergence.cpp): the chart puts each difference at
// its decade and marks the first frame; the scene of two runs holds A's bodies, then B's moving
// ones as ghosts, and its recording each run's states in that order.
#include <catch2/catch.hpp>

#include <regex>
#include <string>
#include <vector>

#include "plot/divergence.h"

using namespace collide;

TEST_CASE("divergence chart: one polyline per difference, points at their decades, the first frame marked",
          "[plot][divergence]") {
    // Differences of 1e-9 growing tenfold a frame to 1e-6, from frame 10 to 13.
    const std::vector<DivergencePoint> points = {{10, 10 / 60.0, 1, 1e-9, 1e-8},
                                                 {11, 11 / 60.0, 1, 1e-8, 1e-7},
                                                 {12, 12 / 60.0, 2, 1e-7, 1e-6},
                                                 {13, 13 / 60.0, 2, 1e-6, 0}};
    const std::string svg = render_divergence_svg(points, "a & b");
    CHECK_THAT(svg, Catch::Contains("a &amp; b"));
    CHECK_THAT(svg, Catch::Contains("first: frame 10, t = 0.166667 s"));
    // Decades 1e-9 … 1e-6 (velocity's 0 sits on the bottom line): the plot's 240 px between
    // y = 36 and 276, so each decade is 80 px and position's points climb by 80 a frame.
    const std::smatch m = [&] {
        std::smatch r;
        std::regex_search(svg, r, std::regex("class=\"position \\(m\\)\" points=\"([^\"]*)\""));
        return r;
    }();
    REQUIRE(m.size() == 2);
    CHECK(m[1].str() == "70.0,276.0 236.7,196.0 403.3,116.0 570.0,36.0");
    std::smatch v;
    REQUIRE(std::regex_search(svg, v, std::regex("class=\"velocity \\(m/s\\)\" points=\"([^\"]*)\"")));
    CHECK(v[1].str() == "70.0,196.0 236.7,116.0 403.3,36.0 570.0,276.0");
    for (const char* decade : {">1e-9<", ">1e-8<", ">1e-7<", ">1e-6<"}) CHECK_THAT(svg, Catch::Contains(decade));
}

TEST_CASE("the scene of two runs: A's bodies, then B's moving ones as ghosts, states in that order",
          "[plot][divergence]") {
    Scenario a;
    a.name = "drop";
    BodyDef floor, ball;
    floor.name = "floor";
    floor.is_static = true;
    ball.name = "ball";
    a.bodies = {floor, ball};
    Scenario b = a;
    const Scenario scene = scene_of_two_runs(a, b);
    REQUIRE(scene.bodies.size() == 3);
    CHECK(scene.bodies[0].name == "A: floor");
    CHECK(scene.bodies[1].name == "A: ball");
    CHECK(scene.bodies[2].name == "B: ball");
    CHECK(scene.name == "drop: A and B");
    CHECK_FALSE(scene.bodies[2].trigger); // a ghost, not a trigger: the page draws it translucent by ghosts_from

    Recording ra, rb;
    ra.body_count = rb.body_count = 2;
    for (int f = 0; f < 3; ++f) {
        ra.frames.push_back(f);
        ra.times.push_back(f / 60.0);
        rb.frames.push_back(f);
        rb.times.push_back(f / 60.0);
        for (int k = 0; k < 2; ++k) {
            BodyState sa, sb;
            sa.position = {static_cast<double>(k), static_cast<double>(f), 0};
            sb.position = {static_cast<double>(k), static_cast<double>(f), 1};
            ra.states.push_back(sa);
            rb.states.push_back(sb);
        }
    }
    const Recording both = recording_of_two_runs(b, ra, rb);
    CHECK(both.body_count == 3);
    REQUIRE(both.frame_count() == 3);
    const auto frame2 = both.at(2);
    CHECK(frame2[0].position.z == 0); // A's floor
    CHECK(frame2[1].position.y == 2); // A's ball
    CHECK(frame2[1].position.z == 0);
    CHECK(frame2[2].position.x == 1); // B's ball
    CHECK(frame2[2].position.z == 1);
}

TEST_CASE("the scene of several runs: the first run's bodies, then each other's moving ones, labelled",
          "[plot][divergence]") {
    Scenario a;
    a.name = "drop";
    BodyDef floor, ball, other;
    floor.name = "floor";
    floor.is_static = true;
    ball.name = "ball";
    other.name = "other";
    a.bodies = {floor, ball, other};
    const std::vector<Scenario> runs{a, a, a};
    const std::vector<std::string> labels{"collide", "bullet", "ode"};
    const Scenario scene = scene_of_runs(runs, labels);
    CHECK(scene.name == "drop: collide, bullet and ode");
    std::vector<std::string> names;
    for (const BodyDef& b : scene.bodies) names.push_back(b.name);
    CHECK(names == std::vector<std::string>{"collide: floor", "collide: ball", "collide: other", "bullet: ball",
                                            "bullet: other", "ode: ball", "ode: other"});
    std::vector<Recording> recs(3);
    for (int r = 0; r < 3; ++r) {
        recs[static_cast<std::size_t>(r)].body_count = 3;
        for (int f = 0; f < 2 + r; ++f) { // 2, 3 and 4 frames: the scene has the 2 all have
            recs[static_cast<std::size_t>(r)].frames.push_back(f);
            recs[static_cast<std::size_t>(r)].times.push_back(f / 60.0);
            for (int k = 0; k < 3; ++k) {
                BodyState s;
                s.position = {static_cast<double>(r), static_cast<double>(f), static_cast<double>(k)};
                recs[static_cast<std::size_t>(r)].states.push_back(s);
            }
        }
    }
    const std::vector<const Recording*> pointers{&recs[0], &recs[1], &recs[2]};
    const Recording all = recording_of_runs(runs, pointers);
    CHECK(all.body_count == 7);
    REQUIRE(all.frame_count() == 2);
    const auto frame1 = all.at(1);
    const std::vector<Vec3> want{{0, 1, 0}, {0, 1, 1}, {0, 1, 2}, {1, 1, 1}, {1, 1, 2}, {2, 1, 1}, {2, 1, 2}};
    for (std::size_t i = 0; i < want.size(); ++i) CHECK(frame1[i].position == want[i]);
    CHECK_THROWS_AS(scene_of_runs(runs, std::vector<std::string>{"one"}), std::invalid_argument);
}
