#include <catch2/catch.hpp>
#include <cmath>
#include <fmt/format.h>
#include <regex>
#include <string>

#include "plot/plot.h"
#include "probes/record.h"
#include "scenario/load.h"

using namespace collide;

namespace {

Scenario shipped(const std::string& name) {
    return load_scenario(std::string(COLLIDE_SOURCE_DIR) + "/scenarios/" + name + ".yaml", {});
}

std::size_t count(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

Recording record(const Scenario& sc) {
    std::vector<double> values(layout_of(sc).fields.size());
    return simulate_recorded(sc, values);
}

} // namespace

TEST_CASE("a plot draws one path per body in each view, side and top views chosen by the motion") {
    const Scenario tunnel = shipped("tunnel");
    const Recording rec = record(tunnel);
    CHECK(rec.frame_count() == 40);
    const auto views = plan_views(tunnel, rec, {});
    REQUIRE(views.size() == 1); // moves along x only: the side view
    CHECK(views[0].view == PlotView::xy);
    const std::string svg = render_plot_svg(tunnel, rec);
    CHECK(count(svg, "<path class=\"track\"") == tunnel.bodies.size());
    CHECK(count(svg, "<circle cx=") == 40 + 3); // a ring per frame, and three in the legend
    CHECK(svg.find("x (m)") != std::string::npos);
    CHECK(svg.find("data-body=\"wall\"") != std::string::npos);

    const Scenario bouncing = shipped("bouncing");
    const Recording brec = record(bouncing);
    const auto bviews = plan_views(bouncing, brec, {});
    REQUIRE(bviews.size() == 2); // falls along y, spread along z: side and top
    CHECK(bviews[0].view == PlotView::xy);
    CHECK(bviews[1].view == PlotView::xz);
    const std::string bsvg = render_plot_svg(bouncing, brec);
    CHECK(count(bsvg, "<path class=\"track\"") == 2 * bouncing.bodies.size());
    CHECK(bsvg.find("apex 1 of ball_") != std::string::npos);
    CHECK(bsvg.find("first contact floor–ball_0_5, frame") != std::string::npos);
    CHECK(count(bsvg, "class=\"normal\"") > 0);

    const Scenario slide = shipped("wall-slide");
    const auto sviews = plan_views(slide, record(slide), {});
    REQUIRE(!sviews.empty());
    CHECK(sviews[0].view == PlotView::xz); // runs across the floor: seen from above

    PlotOptions only;
    only.view = PlotView::zy;
    const auto one = plan_views(bouncing, brec, only);
    REQUIRE(one.size() == 1);
    CHECK(one[0].view == PlotView::zy);
}

TEST_CASE("the HTML page is self-contained: inline picture, data and script, the log beside it") {
    const Scenario sc = shipped("bouncing");
    const std::string html = render_plot_html(sc, record(sc), {}, "apex heights → 1 m\n");
    CHECK(html.find("<svg") != std::string::npos);
    CHECK(html.find("id=\"frame\"") != std::string::npos);
    CHECK(html.find("id=\"play\"") != std::string::npos);
    CHECK(html.find("apex heights → 1 m") != std::string::npos);
    // Nothing to load: no element that fetches, no URL but XML namespaces (three.js names the
    // XHTML one; the browser test also fails on any request that is not the page itself).
    CHECK(std::regex_search(html, std::regex("<(script|img|link|iframe)[^>]*(src|href)=")) == false);
    CHECK(std::regex_search(html, std::regex("https?://(?!www\\.w3\\.org/)")) == false);
    CHECK(html.find("id=\"view3d\"") != std::string::npos);
    CHECK(count(html, "class=\"now\"") == 2 * 6);
}

TEST_CASE("plotting 10,000 bodies over 60 frames stays a few MB: frames and paths are decimated") {
    Scenario sc;
    sc.name = "many";
    sc.world.frames = 60;
    sc.world.gravity = {0, -9.81, 0};
    BodyDef floor;
    floor.name = "floor";
    floor.is_static = true;
    floor.shape = Aabb{{-60, -1, -60}, {60, 0, 60}};
    sc.bodies.push_back(floor);
    Recording rec;
    const int n = 10000;
    for (int i = 0; i < n; ++i) {
        BodyDef b;
        b.name = "b" + std::to_string(i);
        b.shape = Sphere{{0, 0, 0}, 0.1};
        b.position = {(i % 100) - 50.0, 5, (i / 100) - 50.0};
        sc.bodies.push_back(b);
    }
    rec.body_count = n + 1;
    for (int k = 0; k < 60; ++k) {
        rec.frames.push_back(k);
        rec.times.push_back(k / 60.0);
        rec.states.push_back({});
        for (int i = 0; i < n; ++i) {
            const double t = k / 60.0;
            const Vec3 p = sc.bodies[static_cast<std::size_t>(i + 1)].position;
            rec.states.push_back({{p.x + t, p.y - 4.905 * t * t, p.z}, {1, -9.81 * t, 0}, {}, {}});
        }
    }
    // Decimated to a bounded number of rings and path points (timing belongs to benchmarks, not
    // tests: about 0.2 s in a Release build on the project's machine).
    const std::string svg = render_plot_svg(sc, rec);
    const std::string html = render_plot_html(sc, rec, {}, "");
    INFO("svg " << svg.size() << " B, html " << html.size() << " B");
    CHECK(svg.size() < 5'000'000);
    CHECK(html.size() < 10'000'000); // with the 3D view (every body, every frame) and three.js
    CHECK(count(svg, "<path class=\"track\"") == 2 * static_cast<std::size_t>(n + 1));
    CHECK(count(html, "class=\"now\"") == 2 * kMarkerBudgetWith3d); // the 3D view moves them all
    PlotOptions flat_only;
    flat_only.view3d = false;
    CHECK(count(render_plot_html(sc, rec, flat_only, ""), "class=\"now\"") == 2 * static_cast<std::size_t>(n));
}

TEST_CASE("the 2D plots draw a turning body turned as it is at each frame: the door at two frames") {
    const Scenario door = shipped("door");
    const Recording rec = record(door);
    REQUIRE(rec.frame_count() == 60);
    PlotOptions side;
    side.view = PlotView::xy;
    const ViewMap m = plan_views(door, rec, side).front();
    const std::string svg = render_plot_svg(door, rec, side);
    // The door is the box x ∈ [0, 3], y ∈ [−0.05, 0.05] hinged at the origin, turning at
    // ω = 2 rad/s about +z: at time t its far top corner (3, 0.05) is at angle 2t.
    for (const std::size_t k : {std::size_t{0}, std::size_t{30}}) {
        const double a = 2 * rec.times[k];
        const double x = 3 * std::cos(a) - 0.05 * std::sin(a), y = 3 * std::sin(a) + 0.05 * std::cos(a);
        const std::string corner = fmt::format("{:.1f},{:.1f}", m.px(x), m.py(y));
        INFO("frame " << k << ": corner " << corner);
        CHECK(svg.find(corner) != std::string::npos);
        // The outline itself: its corners turned by 2t.
        const Outline o = outline_of(door.bodies[0], m, rec.at(k)[0].rotation);
        REQUIRE(o.poly.size() == 4);
        bool found = false; // relative to the hinge, y downwards, m.scale px per m
        for (const auto& [px, py] : o.poly)
            found = found || (std::fabs(px - x * m.scale) < 1e-9 && std::fabs(py + y * m.scale) < 1e-9);
        CHECK(found);
    }
    // Frames 0 and 30 differ by 2·(t30 − t0) = 1 rad.
    CHECK(std::fabs(2 * (rec.times[30] - rec.times[0]) - 1.0) < 1e-12);
    // The page's script gets the door's outline points and its rotation at each kept frame.
    const std::string html = render_plot_html(door, rec, side, "");
    CHECK(html.find("\"turning\":[{\"d\":0,") != std::string::npos);
}

TEST_CASE("apex marks only real bounces: a dropped ball's four, none on a resting pile") {
    // A ball dropped from 1 m (its bottom; swept, e 0.5) rebounds at e^k·√(2g·1) = 4.43·0.5^k m/s.
    // A bounce is a rebound faster than max(rest_speed, g·dt) = 9.81/60 = 0.1635 m/s (the apex
    // probe's rule): k = 1..4 are (0.277 m/s at k = 4), k = 5 (0.138 m/s) is not. All four
    // flights end by t = 1.30 s, inside the 3 s run.
    const std::string yaml = R"(name: hops
world: { rate: 60, duration: 3, gravity: [0, -9.81, 0], detection: swept }
bodies:
  floor: { static: true, box: { min: [-2, -1, -2], max: [2, 0, 2] } }
  ball:  { sphere: { radius: 0.1 }, position: [0, 1.1, 0], restitution: 0.5 }
)";
    Scenario hops = parse_scenario_template(yaml, "hops.yaml").base();
    const std::string svg = render_plot_svg(hops, record(hops));
    CHECK(count(svg, "<path class=\"apex\" d=\"M") == 4 + 1);    // and the legend's
    CHECK(count(svg, "apex 1 of ball: centre at 0.350 m") == 1); // 0.1 + 1·0.5^2 (sampled at 60 Hz)

    // The shipped pyramid rests from frame 0: its velocities jitter by ~1e-17 m/s, no bounce.
    const Scenario pyramid = shipped("pyramid");
    const std::string pile = render_plot_svg(pyramid, record(pyramid));
    CHECK(count(pile, "<path class=\"apex\" d=\"M") == 1); // the legend's alone
}

TEST_CASE("bodies are drawn at their true size at every scale; one too small to see gets a cross, not a larger disc") {
    BodyDef ball;
    ball.shape = Sphere{{0, 0, 0}, 0.05};
    ViewMap m;
    m.scale = 1; // 1 px per m: the sweep page's outlines, in metres
    CHECK(outline_of(ball, m).radius == 0.05);
    m.scale = 30;
    CHECK(outline_of(ball, m).radius == Approx(1.5));
    CHECK(is_tiny(outline_of(ball, m)));
    m.scale = 100;
    CHECK_FALSE(is_tiny(outline_of(ball, m)));
    // At 30 px per m a 5 cm ball is 3 px across: its circle at r = 1.5, a cross on its centre
    // in the same class, never a disc larger than the ball.
    m.scale = 30;
    CHECK(outline_svg(outline_of(ball, m), 10, 20, " class=\"nowshape\"") ==
          "<circle cx=\"10.0\" cy=\"20.0\" r=\"1.5\" class=\"nowshape\"/><path transform=\"translate(10.0 "
          "20.0)\" d=\"M-4 0h8M0 -4v8\" class=\"tiny nowshape\"/>");
    ball.shape = Sphere{{0, 0, 0}, 0.005};
    CHECK_THAT(outline_svg(outline_of(ball, m), 0, 0, ""),
               Catch::StartsWith("<circle cx=\"0.0\" cy=\"0.0\" r=\"0.15\"/>"));

    // A 1 cm bullet flying 6 m into a wall, at rest against it: each circle at its true size,
    // the last one ending at the wall's face, with a cross (on the last ring only).
    Scenario sc;
    sc.name = "at the wall";
    BodyDef wall, bullet;
    wall.name = "wall";
    wall.is_static = true;
    wall.shape = Aabb{{0, -6, -1}, {0.5, 6, 1}};
    bullet.name = "bullet";
    bullet.shape = Sphere{{0, 0, 0}, 0.01};
    bullet.position = {-0.01, 0, 0};
    sc.bodies = {wall, bullet};
    Recording rec;
    rec.body_count = 2;
    for (int k = 0; k < 3; ++k) {
        rec.frames.push_back(k);
        rec.times.push_back(k / 60.0);
        rec.states.push_back(BodyState{});
        BodyState s;
        s.position = bullet.position - Vec3{3.0 * (2 - k), 0, 0};
        rec.states.push_back(s);
    }
    PlotOptions xy;
    xy.view = PlotView::xy;
    const ViewMap view = plan_views(sc, rec, xy).front();
    const std::string svg = render_plot_svg(sc, rec, xy);
    const std::regex circle("<circle cx=\"([0-9.]+)\" cy=\"[0-9.]+\" r=\"([0-9.]+)\" opacity");
    std::vector<std::pair<double, double>> rings; // centre x and radius (px)
    for (auto it = std::sregex_iterator(svg.begin(), svg.end(), circle); it != std::sregex_iterator(); ++it)
        rings.push_back({std::stod((*it)[1]), std::stod((*it)[2])});
    REQUIRE(rings.size() == 3);
    CHECK(view.scale < 200); // 1 cm is 2 px at most: tiny
    for (const auto& [x, r] : rings) CHECK(r == Approx(0.01 * view.scale).margin(0.005));
    CHECK(rings.back().first + rings.back().second <= view.px(0) + 0.06); // rounded to 0.1 px
    CHECK(count(svg, "class=\"tiny\"") == 1);
    CHECK_THAT(svg, Catch::Contains("+ a body under 4 px across, drawn at its size"));
    // A scene without tiny bodies has no such legend.
    CHECK_THAT(render_plot_svg(shipped("bouncing"), record(shipped("bouncing"))), !Catch::Contains("px across"));
}

TEST_CASE("ghosts (another run of the same bodies) are drawn faint under the run, in its colours") {
    const Scenario sc = shipped("bouncing");
    const Recording rec = record(sc);
    PlotOptions options;
    options.ghosts_from = sc.bodies.size() - 2; // the last two balls stand for the first two
    options.ghost_note = "faint: the golden's run";
    const std::string svg = render_plot_svg(sc, rec, options);
    CHECK(count(svg, "<g class=\"body ghost c0\" data-body=\"" + sc.bodies[sc.bodies.size() - 2].name + "\"") == 2);
    CHECK(count(svg, "<g class=\"body ghost c1\" data-body=\"" + sc.bodies.back().name + "\"") == 2);
    // Under the run: each view draws the ghosts before the first moving body.
    const std::size_t ghost = svg.find("class=\"body ghost"), solid = svg.find("class=\"body c0\"");
    CHECK(ghost < solid);
    CHECK_THAT(svg, Catch::Contains("faint: the golden&apos;s run"));
    CHECK_THAT(svg, Catch::Contains(".ghost{opacity:0.4}"));
}
