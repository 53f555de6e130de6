// The parameter intervals of a line inside a box, a ball and a capsule (queries/line_intervals.h),
// against intervals solved by hand, with the boundary policy for a line lying on a face, and the
// quadratic's roots kept accurate near zero.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "queries/line_intervals.h"

using namespace collide;

TEST_CASE("slab interval: entry, exit and the entered axis; parallel lines in, out and on a face", "[queries]") {
    const Vec3 lo{0, 0, 0}, hi{2, 1, 1};
    // Along (1, 0.5, 0) from (−1, 0, 0.5): x enters at t = 1, y leaves at t = 2, x at 3.
    const LineInterval in = slab_interval({-1, 0, 0.5}, {1, 0.5, 0}, lo, hi, Boundary::closed);
    CHECK(in.enter == 1);
    CHECK(in.exit == 2);
    CHECK(in.axis == 0);
    CHECK_FALSE(in.empty());
    // Parallel to z and outside the x slab: empty in both policies.
    CHECK(slab_interval({3, 0.5, -5}, {0, 0, 1}, lo, hi, Boundary::closed).empty());
    CHECK(slab_interval({3, 0.5, -5}, {0, 0, 1}, lo, hi, Boundary::open).empty());
    // Lying exactly in the face x = 0: inside the closed box, outside the open one.
    const LineInterval on = slab_interval({0, 0.5, -5}, {0, 0, 1}, lo, hi, Boundary::closed);
    CHECK(on.enter == 5);
    CHECK(on.exit == 6);
    CHECK(slab_interval({0, 0.5, -5}, {0, 0, 1}, lo, hi, Boundary::open).empty());
}

TEST_CASE("quadratic interval: the roots of t^2 + 2bt + c, a double root, none, and a root near 0", "[queries]") {
    const LineInterval two = quadratic_interval(1, -3, 5); // t² − 6t + 5 = (t − 1)(t − 5)
    CHECK(two.enter == Approx(1).epsilon(1e-15));
    CHECK(two.exit == Approx(5).epsilon(1e-15));
    const LineInterval one = quadratic_interval(1, -2, 4); // (t − 2)²
    CHECK(one.enter == 2);
    CHECK(one.exit == 2);
    CHECK(quadratic_interval(1, 0, 1).empty()); // t² + 1 > 0
    // t² − 2e8·t + 1: roots 1e8 ± √(1e16 − 1), about 2e8 and 5e−9 (their product is 1); the small
    // one to full relative precision, where 1e8 − √(1e16 − 1) would cancel to nothing.
    const LineInterval wide = quadratic_interval(1, -1e8, 1);
    CHECK(wide.enter == Approx(5e-9).epsilon(1e-15));
    CHECK(wide.exit == Approx(2e8).epsilon(1e-15));
}

TEST_CASE("ball and capsule intervals of a line, by hand", "[queries]") {
    // A ball of radius 1 at (3, 0, 0), the x axis from the origin at speed 2: inside for t in [1, 2].
    const LineInterval ball = ball_interval({0, 0, 0}, {2, 0, 0}, {3, 0, 0}, 1);
    CHECK(ball.enter == Approx(1).epsilon(1e-15));
    CHECK(ball.exit == Approx(2).epsilon(1e-15));
    // A capsule around (0, 0, 0)–(0, 4, 0) of radius 1, crossed along x at height 2: t in [−1, 1].
    const LineInterval side = capsule_interval({0, 2, 0}, {1, 0, 0}, {0, 0, 0}, {0, 4, 0}, 1, Boundary::closed);
    CHECK(side.enter == Approx(-1).epsilon(1e-15));
    CHECK(side.exit == Approx(1).epsilon(1e-15));
    // Along its axis from below: through the bottom cap at y = −1, out of the top cap at y = 5.
    const LineInterval along = capsule_interval({0, -3, 0}, {0, 1, 0}, {0, 0, 0}, {0, 4, 0}, 1, Boundary::closed);
    CHECK(along.enter == Approx(2).epsilon(1e-15));
    CHECK(along.exit == Approx(8).epsilon(1e-15));
    // Tangent to the cylinder (distance exactly 1 from the axis): the closed policy counts the
    // line along the surface as inside, the open one not.
    const LineInterval tangent = capsule_interval({1, 0, 0}, {0, 1, 0}, {0, 0, 0}, {0, 4, 0}, 1, Boundary::closed);
    CHECK_FALSE(tangent.empty());
    CHECK(capsule_interval({1, 0, 0}, {0, 1, 0}, {0, 0, 0}, {0, 4, 0}, 1, Boundary::open).empty());
    // Missing it by a millimetre.
    CHECK(capsule_interval({1.001, 2, 0}, {0, 0, 1}, {0, 0, 0}, {0, 4, 0}, 1, Boundary::closed).empty());
}
