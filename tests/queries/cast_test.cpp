// Sphere casts: hand-solved face, edge and corner times; near misses and early corners past a box's
// rounded edges; the tunnel of scenarios/tunnel.yaml; started-inside and touching rules; and random
// properties checked against an independent oracle (the first root of a convex distance).
#include <catch2/catch.hpp>

#include <cmath>
#include <functional>
#include <optional>
#include <random>

#include "queries/cast.h"
#include "support/approx.h"

using namespace collide;
using collide::test::near_vec;

namespace {

const Aabb kCube{{-1, -1, -1}, {1, 1, 1}};

/// Distance from a point to a box (m), 0 inside: the test's own, from the definition.
double box_distance(const Vec3& p, const Aabb& b) {
    double s = 0;
    for (std::size_t i = 0; i < 3; ++i) {
        const double d = std::max({b.min[i] - p[i], 0.0, p[i] - b.max[i]});
        s += d * d;
    }
    return std::sqrt(s);
}

double obb_distance(const Vec3& p, const Obb& b) {
    const Vec3 local = mul_transpose(b.axes, p - b.centre);
    return box_distance(local, Aabb{-b.half, b.half});
}

/// Distance from a point to a triangle by brute force: the nearest of the interior projection
/// (when it falls inside) and the three edges.
double triangle_distance(const Vec3& p, const Triangle& t) {
    const auto segment = [](const Vec3& x, const Vec3& a, const Vec3& b) {
        const double s = std::clamp(dot(x - a, b - a) / length_squared(b - a), 0.0, 1.0);
        return distance(x, a + (b - a) * s);
    };
    double best = std::min({segment(p, t.a, t.b), segment(p, t.b, t.c), segment(p, t.c, t.a)});
    const Vec3 n = normalize(cross(t.b - t.a, t.c - t.a));
    const Vec3 q = p - n * dot(n, p - t.a);
    const bool inside = dot(cross(t.b - t.a, q - t.a), n) >= 0 && dot(cross(t.c - t.b, q - t.b), n) >= 0 &&
                        dot(cross(t.a - t.c, q - t.c), n) >= 0;
    if (inside) best = std::min(best, std::fabs(dot(n, p - t.a)));
    return best;
}

/// The oracle: the distance from the moving centre to a convex obstacle is convex in t, so the
/// first touch is the root of f(t) = r left of f's minimum. Ternary search finds the minimum,
/// bisection the root. Returns the time, or nullopt when the minimum stays at or above r.
struct Oracle {
    std::optional<double> time;
    double closest = 0; ///< min over [0, t_max] of the distance
};
Oracle first_touch(const std::function<double(double)>& f, double r, double t_max) {
    double lo = 0, hi = t_max;
    for (int i = 0; i < 200; ++i) {
        const double m1 = lo + (hi - lo) / 3, m2 = hi - (hi - lo) / 3;
        if (f(m1) <= f(m2))
            hi = m2;
        else
            lo = m1;
    }
    const double t_min = 0.5 * (lo + hi);
    Oracle out{std::nullopt, f(t_min)};
    if (!(out.closest < r)) return out;
    double a = 0, b = t_min;
    for (int i = 0; i < 200; ++i) {
        const double m = 0.5 * (a + b);
        (f(m) > r ? a : b) = m;
    }
    out.time = 0.5 * (a + b);
    return out;
}

} // namespace

TEST_CASE("cast against a box face: t = gap / speed, normal toward the box, point on the face") {
    // Gap from the sphere's surface to the face: 3 − 1 − 0.5 = 1.5 m at 2 m/s.
    const auto hit = cast_sphere_box(Sphere{{-3, 0.2, 0.3}, 0.5}, {2, 0, 0}, kCube, 1.0);
    REQUIRE(hit);
    CHECK_FALSE(hit->started_inside);
    CHECK(hit->time == Approx(0.75).margin(1e-15));
    CHECK_THAT(hit->normal, near_vec({1, 0, 0}, 1e-15));
    CHECK_THAT(hit->point, near_vec({-1, 0.2, 0.3}, 1e-15));
    CHECK_FALSE(cast_sphere_box(Sphere{{-3, 0, 0}, 0.5}, {2, 0, 0}, kCube, 0.7));
}

TEST_CASE("cast past a box edge touches the edge cylinder at the hand-solved time") {
    // Falling past the edge x = 1, y = 1 (along z) 0.3 m out: the distance to the edge is
    // √(0.3² + (y − 1)²) = 0.5 at y = 1.4, so t = (5 − 1.4)/1 = 3.6 s.
    const Sphere s{{1.3, 5, 0}, 0.5};
    const auto exact = cast_sphere_box(s, {0, -1, 0}, kCube, 10);
    REQUIRE(exact);
    CHECK(exact->time == Approx(3.6).margin(1e-12));
    CHECK_THAT(exact->normal, near_vec({-0.6, -0.8, 0}, 1e-12));
    CHECK_THAT(exact->point, near_vec({1, 1, 0}, 1e-12));
}

TEST_CASE("cast past a box corner touches the corner ball at the hand-solved time") {
    // Offsets 0.2 in x and 0.3 in z from the corner (1, 1, 1): 0.04 + (y − 1)² + 0.09 = 0.25,
    // so y = 1 + √0.12 and t = 4 − √0.12.
    const Sphere s{{1.2, 5, 1.3}, 0.5};
    const auto hit = cast_sphere_box(s, {0, -1, 0}, kCube, 10);
    REQUIRE(hit);
    const double k = std::sqrt(0.12);
    CHECK(hit->time == Approx(4 - k).margin(1e-12));
    CHECK_THAT(hit->normal, near_vec(Vec3{-0.2, -k, -0.3} / 0.5, 1e-12));
    CHECK_THAT(hit->point, near_vec({1, 1, 1}, 1e-12));
}

TEST_CASE("near a box's vertical edge the exact cast correctly misses a sphere that never touches") {
    // 0.4 m out from the vertical edge in x and in z: √0.32 = 0.566 m > r = 0.5, never touching
    // (though inside the square corner of the box grown by r).
    const Sphere s{{1.4, 5, 1.4}, 0.5};
    const Vec3 v{0, -1, 0};
    CHECK_FALSE(cast_sphere_box(s, v, kCube, 10));
    // Dense check: the sphere never comes within its radius of the box.
    double closest = 1e9;
    for (int i = 0; i <= 100000; ++i) closest = std::min(closest, box_distance(s.centre + v * (i * 1e-4), kCube));
    CHECK(closest == Approx(std::sqrt(0.32)).margin(1e-9));
    CHECK(closest > s.radius);
}

TEST_CASE("a diagonal pass near a corner: the exact time is the first touch") {
    // Moving along (1, 0, 1) at a height y = 1.2 past the corner region of the edge y = 1, z = 1.
    const Sphere s{{-3, 1.2, -2.6}, 0.5};
    const Vec3 v{1, 0, 1};
    const auto exact = cast_sphere_box(s, v, kCube, 10);
    REQUIRE(exact);
    const auto f = [&](double t) { return box_distance(s.centre + v * t, kCube); };
    CHECK(f(exact->time) == Approx(0.5).margin(1e-12));
    for (int i = 0; i < 100000; ++i) REQUIRE(f(exact->time * i / 100000.0) >= 0.5 - 1e-12);
}

TEST_CASE("tunnel: every speed and frame offset is caught exactly one radius from the wall") {
    // scenarios/tunnel.yaml: a 10 cm wall (±2 m in y and z), a 0.3 m sphere from x = −3 at 60 Hz.
    // The offset shifts where the frames land: frame k starts at x = −3 − offset·step + k·step.
    const Aabb wall{{-0.05, -2, -2}, {0.05, 2, 2}};
    const double r = 0.3, dt = 1.0 / 60.0;
    int discrete_missed = 0, discrete_caught = 0;
    for (int speed = 30; speed <= 300; speed += 15) {
        for (int o = 0; o <= 19; ++o) {
            const double offset = 0.05 * o;
            const double step = speed * dt;
            std::optional<double> contact_x;
            bool discrete = false;
            for (int k = 0; k < 200; ++k) {
                const double x = -3 - offset * step + k * step;
                if (std::fabs(x) < 0.05 + r) discrete = true; // a frame lands inside the window
                if (contact_x) continue;
                const auto hit = cast_sphere_box(Sphere{{x, 0, 0}, r}, {double(speed), 0, 0}, wall, dt);
                if (hit) {
                    REQUIRE_FALSE(hit->started_inside);
                    REQUIRE_THAT(hit->normal, near_vec({1, 0, 0}, 0));
                    REQUIRE_THAT(hit->point, near_vec({-0.05, 0, 0}, 1e-15));
                    contact_x = x + speed * hit->time;
                }
            }
            INFO("speed " << speed << " offset " << offset);
            REQUIRE(contact_x);
            REQUIRE(*contact_x == Approx(-0.35).margin(1e-12));
            (discrete ? discrete_caught : discrete_missed) += 1;
        }
    }
    // The frame test is a coin flip; the cast never is.
    CHECK(discrete_missed > 0);
    CHECK(discrete_caught > 0);
}

TEST_CASE("a sphere already overlapping a box is reported as started inside") {
    // Centre inside a 2 × 4 × 6 box, nearest to the +x face: push out along +x, so the normal
    // (sphere toward box) is −x.
    const Aabb box{{-1, -2, -3}, {1, 2, 3}};
    const auto inside = cast_sphere_box(Sphere{{0.5, 0, 0}, 0.3}, {0, 0, 1}, box, 1);
    REQUIRE(inside);
    CHECK(inside->started_inside);
    CHECK(inside->time == 0.0);
    CHECK_THAT(inside->normal, near_vec({-1, 0, 0}));
    CHECK_THAT(inside->point, near_vec({1, 0, 0}));

    const auto poking = cast_sphere_box(Sphere{{1.2, 0.5, 0}, 0.3}, {5, 0, 0}, box, 1);
    REQUIRE(poking);
    CHECK(poking->started_inside);
    CHECK_THAT(poking->normal, near_vec({-1, 0, 0}));
    CHECK_THAT(poking->point, near_vec({1, 0.5, 0}));

    const auto still = cast_sphere_box(Sphere{{1.2, 0.5, 0}, 0.3}, {0, 0, 0}, box, 1);
    REQUIRE(still);
    CHECK(still->started_inside);
}

TEST_CASE("touching a box at t = 0: moving away or sliding along it is no hit, moving in is a hit at 0") {
    const Sphere touching{{1.5, 0, 0}, 0.5}; // exactly 0.5 from the +x face
    CHECK_FALSE(cast_sphere_box(touching, {1, 0, 0}, kCube, 1));
    CHECK_FALSE(cast_sphere_box(touching, {0, 1, 0.5}, kCube, 1)); // tangential: never overlaps
    CHECK_FALSE(cast_sphere_box(touching, {0, 0, 0}, kCube, 1));
    const auto in = cast_sphere_box(touching, {-1, 0.3, 0}, kCube, 1);
    REQUIRE(in);
    CHECK_FALSE(in->started_inside);
    CHECK(in->time == 0.0);
    CHECK_THAT(in->normal, near_vec({-1, 0, 0}));
}

TEST_CASE("sliding past a box edge exactly at the radius is no hit") {
    // Parallel to the edge x = 1, y = 1, offset (3/8, 4/8) from it: exactly 5/8 = r away in
    // binary, so the sphere touches the edge all along but never overlaps the box.
    CHECK_FALSE(cast_sphere_box(Sphere{{1.375, 1.5, -5}, 0.625}, {0, 0, 1}, kCube, 10));
    // A hair closer and it hits, on the edge cylinder.
    const auto hit = cast_sphere_box(Sphere{{1.375, 1.4999, -5}, 0.625}, {0, 0, 1}, kCube, 10);
    REQUIRE(hit);
    CHECK(hit->point.x == 1.0);
    CHECK(hit->point.y == 1.0);
}

TEST_CASE("cast against a turned box hits its face along its own axis") {
    const Mat3 turn = to_mat3(quat_from_euler_degrees({30, 45, 60}));
    const Obb box{{1, 2, 3}, turn, {1, 0.5, 2}};
    const Vec3 u = turn.col[0];
    // From 5 m out along u toward the centre at 2 m/s: gap 5 − 1 − 0.5 = 3.5 m, t = 1.75 s.
    const auto hit = cast_sphere_box(Sphere{box.centre - u * 5, 0.5}, u * 2, box, 2);
    REQUIRE(hit);
    CHECK(hit->time == Approx(1.75).margin(1e-12));
    CHECK_THAT(hit->normal, near_vec(u, 1e-12));
    CHECK_THAT(hit->point, near_vec(box.centre - u, 1e-12));
}

TEST_CASE("cast against a turned box equals the AABB cast with the whole scene turned") {
    std::mt19937_64 rng(77);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    int hits = 0;
    for (int i = 0; i < 5000; ++i) {
        const Aabb box{{-0.5 - 0.4 * std::fabs(u(rng)), -0.6, -0.3}, {0.7, 0.2 + 0.5 * std::fabs(u(rng)), 0.9}};
        const Sphere s{{3 * u(rng), 3 * u(rng), 3 * u(rng)}, 0.1 + 0.4 * std::fabs(u(rng))};
        const Vec3 v = (Vec3{u(rng), u(rng), u(rng)} - s.centre) * 1.5;
        const Quat q = normalize(Quat{u(rng), u(rng), u(rng), u(rng)});
        const Mat3 m = to_mat3(q);
        const Obb turned{m * centre_of(box), m, half_of(box)};
        const auto a = cast_sphere_box(s, v, box, 1);
        const auto b = cast_sphere_box(Sphere{m * s.centre, s.radius}, m * v, turned, 1);
        REQUIRE(a.has_value() == b.has_value());
        if (!a) continue;
        ++hits;
        REQUIRE(a->started_inside == b->started_inside);
        REQUIRE(a->time == Approx(b->time).margin(1e-9));
        REQUIRE_THAT(b->normal, near_vec(m * a->normal, 1e-9));
        REQUIRE_THAT(b->point, near_vec(m * a->point, 1e-9));
    }
    CHECK(hits > 1000);
}

TEST_CASE("random box casts: first touch at distance r, clear before") {
    std::mt19937_64 rng(20240601);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    int hits = 0, misses = 0, started = 0;
    for (int i = 0; i < 12000; ++i) {
        const Vec3 half{0.1 + 0.9 * std::fabs(u(rng)), 0.1 + 0.9 * std::fabs(u(rng)), 0.1 + 0.9 * std::fabs(u(rng))};
        const Aabb box{-half, half};
        const Sphere s{{3 * u(rng), 3 * u(rng), 3 * u(rng)}, 0.05 + 0.45 * std::fabs(u(rng))};
        const Vec3 aim{1.5 * u(rng), 1.5 * u(rng), 1.5 * u(rng)};
        const Vec3 v = (aim - s.centre) * (1.0 + 0.5 * u(rng));
        const double t_max = 1.0;
        const auto f = [&](double t) { return box_distance(s.centre + v * t, box); };
        const auto exact = cast_sphere_box(s, v, box, t_max);
        INFO("case " << i);
        if (f(0) < s.radius) {
            REQUIRE(exact);
            REQUIRE(exact->started_inside);
            ++started;
            continue;
        }
        const Oracle o = first_touch(f, s.radius, t_max);
        if (std::fabs(o.closest - s.radius) < 1e-7) continue; // a graze: either answer is fair
        if (!o.time) {
            REQUIRE_FALSE(exact);
            for (int k = 0; k <= 50; ++k) REQUIRE(f(t_max * k / 50.0) >= s.radius);
            ++misses;
            continue;
        }
        REQUIRE(exact);
        REQUIRE_FALSE(exact->started_inside);
        ++hits;
        REQUIRE(exact->time == Approx(*o.time).margin(1e-9));
        const Vec3 at = s.centre + v * exact->time;
        REQUIRE(f(exact->time) == Approx(s.radius).margin(1e-9));
        for (int k = 0; k < 50; ++k) REQUIRE(f(exact->time * k / 50.0) >= s.radius - 1e-12);
        REQUIRE(length(exact->normal) == Approx(1.0).margin(1e-12));
        REQUIRE_THAT(exact->point, near_vec(at + exact->normal * s.radius, 1e-9));
        REQUIRE(box_distance(exact->point, box) < 1e-12);
    }
    CHECK(hits > 3000);
    CHECK(misses > 1000);
    CHECK(started > 100);
}

TEST_CASE("random turned-box casts: the first touch matches the distance oracle") {
    std::mt19937_64 rng(99);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    int hits = 0;
    for (int i = 0; i < 10000; ++i) {
        const Obb box{{u(rng), u(rng), u(rng)},
                      to_mat3(normalize(Quat{u(rng), u(rng), u(rng), u(rng)})),
                      {0.1 + 0.9 * std::fabs(u(rng)), 0.1 + 0.9 * std::fabs(u(rng)), 0.1 + 0.9 * std::fabs(u(rng))}};
        const Sphere s{{3 * u(rng), 3 * u(rng), 3 * u(rng)}, 0.05 + 0.45 * std::fabs(u(rng))};
        const Vec3 v = (box.centre + Vec3{u(rng), u(rng), u(rng)} * 1.5 - s.centre) * 1.2;
        const auto f = [&](double t) { return obb_distance(s.centre + v * t, box); };
        if (f(0) < s.radius) continue;
        const Oracle o = first_touch(f, s.radius, 1.0);
        if (std::fabs(o.closest - s.radius) < 1e-7) continue;
        const auto hit = cast_sphere_box(s, v, box, 1.0);
        INFO("case " << i);
        REQUIRE(hit.has_value() == o.time.has_value());
        if (!hit) continue;
        ++hits;
        REQUIRE(hit->time == Approx(*o.time).margin(1e-9));
        REQUIRE(f(hit->time) == Approx(s.radius).margin(1e-9));
        REQUIRE_THAT(hit->point, near_vec(s.centre + v * hit->time + hit->normal * s.radius, 1e-9));
    }
    CHECK(hits > 3000);
}

TEST_CASE("cast against a sphere: head-on, off-centre by hand, started inside, touching") {
    const auto head_on = cast_sphere_sphere(Sphere{{0, 0, 0}, 0.5}, {1, 0, 0}, Sphere{{5, 0, 0}, 1}, 10);
    REQUIRE(head_on);
    CHECK(head_on->time == Approx(3.5).margin(1e-12));
    CHECK_THAT(head_on->normal, near_vec({1, 0, 0}));
    CHECK_THAT(head_on->point, near_vec({4, 0, 0}));

    // 1.2 off the line with summed radius 1.5: touches 0.9 short of x = 5, at t = 4.1.
    const auto off = cast_sphere_sphere(Sphere{{0, 0, 0}, 0.5}, {1, 0, 0}, Sphere{{5, 1.2, 0}, 1}, 10);
    REQUIRE(off);
    CHECK(off->time == Approx(4.1).margin(1e-12));
    CHECK_THAT(off->normal, near_vec({0.6, 0.8, 0}, 1e-12));
    CHECK_THAT(off->point, near_vec({4.4, 0.4, 0}, 1e-12));

    CHECK_FALSE(cast_sphere_sphere(Sphere{{0, 0, 0}, 0.5}, {1, 0, 0}, Sphere{{5, 1.6, 0}, 1}, 10));
    CHECK_FALSE(cast_sphere_sphere(Sphere{{0, 0, 0}, 0.5}, {-1, 0, 0}, Sphere{{5, 0, 0}, 1}, 10));

    const auto inside = cast_sphere_sphere(Sphere{{4, 0, 0}, 0.5}, {0, 1, 0}, Sphere{{5, 0, 0}, 1}, 10);
    REQUIRE(inside);
    CHECK(inside->started_inside);
    CHECK_THAT(inside->normal, near_vec({1, 0, 0}));
    CHECK_THAT(inside->point, near_vec({4, 0, 0}));

    // Touching (1.5 apart) and moving away: no hit; moving in: hit at 0.
    CHECK_FALSE(cast_sphere_sphere(Sphere{{3.5, 0, 0}, 0.5}, {-1, 0, 0}, Sphere{{5, 0, 0}, 1}, 10));
    const auto in = cast_sphere_sphere(Sphere{{3.5, 0, 0}, 0.5}, {1, 0, 0}, Sphere{{5, 0, 0}, 1}, 10);
    REQUIRE(in);
    CHECK(in->time == 0.0);
    CHECK_FALSE(in->started_inside);
}

TEST_CASE("cast against a triangle: face from both sides, an edge and a corner by hand") {
    const Triangle t{{0, 0, 0}, {4, 0, 0}, {0, 4, 0}};
    const auto face = cast_sphere_triangle(Sphere{{1, 1, 3}, 0.5}, {0, 0, -1}, t, 10);
    REQUIRE(face);
    CHECK(face->time == Approx(2.5).margin(1e-12));
    CHECK_THAT(face->normal, near_vec({0, 0, -1}));
    CHECK_THAT(face->point, near_vec({1, 1, 0}));

    const auto below = cast_sphere_triangle(Sphere{{1, 1, -3}, 0.5}, {0, 0, 2}, t, 10);
    REQUIRE(below);
    CHECK(below->time == Approx(1.25).margin(1e-12));
    CHECK_THAT(below->normal, near_vec({0, 0, 1}));

    // 0.3 outside the edge x = 0: √(0.09 + z²) = 0.5 at z = 0.4, t = 2.6.
    const auto edge = cast_sphere_triangle(Sphere{{-0.3, 1, 3}, 0.5}, {0, 0, -1}, t, 10);
    REQUIRE(edge);
    CHECK(edge->time == Approx(2.6).margin(1e-12));
    CHECK_THAT(edge->normal, near_vec({0.6, 0, -0.8}, 1e-12));
    CHECK_THAT(edge->point, near_vec({0, 1, 0}, 1e-12));

    // Beyond the corner (0, 0, 0) by 0.3 in x and y: √(0.18 + z²) = 0.5 at z = √0.07.
    const auto corner = cast_sphere_triangle(Sphere{{-0.3, -0.3, 3}, 0.5}, {0, 0, -1}, t, 10);
    REQUIRE(corner);
    const double z = std::sqrt(0.07);
    CHECK(corner->time == Approx(3 - z).margin(1e-12));
    CHECK_THAT(corner->normal, near_vec(Vec3{0.3, 0.3, -z} / 0.5, 1e-12));
    CHECK_THAT(corner->point, near_vec({0, 0, 0}, 1e-12));

    CHECK_FALSE(cast_sphere_triangle(Sphere{{-0.6, 1, 3}, 0.5}, {0, 0, -1}, t, 10));
    const auto started = cast_sphere_triangle(Sphere{{1, 1, 0.2}, 0.5}, {1, 0, 0}, t, 10);
    REQUIRE(started);
    CHECK(started->started_inside);
    CHECK_THAT(started->normal, near_vec({0, 0, -1}));
}

TEST_CASE("random triangle casts: the first touch matches the distance oracle") {
    std::mt19937_64 rng(4242);
    std::uniform_real_distribution<double> u(-1.0, 1.0);
    int hits = 0;
    for (int i = 0; i < 10000; ++i) {
        const Triangle t{{u(rng), u(rng), u(rng)}, {u(rng), u(rng), u(rng)}, {u(rng), u(rng), u(rng)}};
        if (length(cross(t.b - t.a, t.c - t.a)) < 0.05) continue;
        const Sphere s{{3 * u(rng), 3 * u(rng), 3 * u(rng)}, 0.05 + 0.45 * std::fabs(u(rng))};
        const Vec3 v = (Vec3{u(rng), u(rng), u(rng)} - s.centre) * 1.2;
        const auto f = [&](double time) { return triangle_distance(s.centre + v * time, t); };
        if (f(0) < s.radius) continue;
        const Oracle o = first_touch(f, s.radius, 1.0);
        if (std::fabs(o.closest - s.radius) < 1e-7) continue;
        const auto hit = cast_sphere_triangle(s, v, t, 1.0);
        INFO("case " << i);
        REQUIRE(hit.has_value() == o.time.has_value());
        if (!hit) continue;
        ++hits;
        REQUIRE(hit->time == Approx(*o.time).margin(1e-9));
        REQUIRE(f(hit->time) == Approx(s.radius).margin(1e-9));
        REQUIRE_THAT(hit->point, near_vec(s.centre + v * hit->time + hit->normal * s.radius, 1e-9));
    }
    CHECK(hits > 2000);
}
