#pragma once
/// \file
/// The building blocks shared by ray casts and sphere casts: where the line
/// p(t) = origin + direction·t lies inside a box, a ball or a capsule, as a parameter interval
/// [enter, exit]. `direction` is used as given (any length, not zero), so t is in units of
/// |direction|: metres along a unit ray, seconds along a velocity. The interval is empty when
/// enter > exit. All functions are allocation-free and inline (hot paths).
///
/// Boundary policy. A line running exactly along the boundary of a slab or a cylinder (parallel
/// to it, on its surface) is ambiguous in floating point; `Boundary::closed` counts it as inside
/// (a ray grazing a face touches the closed box), `Boundary::open` as outside (a cast sliding
/// along a face at the contact distance never penetrates). Tangent lines of balls give a
/// one-point interval enter == exit in both policies; the caller decides whether that counts.

#include <algorithm>
#include <cmath>
#include <limits>

#include "math/closest.h"
#include "math/vec3.h"

namespace collide {

/// How a line lying exactly on a slab's or cylinder's surface (and parallel to it) is counted.
enum class Boundary { closed, open };

/// A parameter interval along a line; empty when enter > exit.
struct LineInterval {
    double enter = std::numeric_limits<double>::infinity(); ///< first parameter inside
    double exit = -std::numeric_limits<double>::infinity(); ///< last parameter inside
    int axis = 0; ///< for boxes: the axis (0 = x, 1 = y, 2 = z) of the slab entered last
    /// True when the interval holds at least one parameter.
    constexpr bool empty() const { return !(enter <= exit); }
};

/// The interval of the line inside the box [lo, hi] (the slab test, Kay & Kajiya 1986;
/// Ericson 5.3.3). No per-axis comparison branches (min/max and masked selects; GCC keeps one
/// never-taken jump for the NaN case): 1/0 = ±∞ handles zero direction components, and the one
/// 0·∞ = NaN case (origin exactly on a face plane of a slab it runs parallel to) is decided by
/// `boundary`. A line parallel to a slab and outside it gets an empty interval.
///
///     for each axis i: t1 = (lo_i − o_i)/d_i, t2 = (hi_i − o_i)/d_i
///                      enter = max(enter, min(t1, t2)), exit = min(exit, max(t1, t2))
namespace detail {
/// One slab of the slab test, folded into the running interval. Written as selects that
/// compile to minsd/maxsd and masks rather than data-dependent branches.
inline void clip_slab(double o, double d, double lo, double hi, double nan_near, double nan_far, int index,
                      LineInterval& out) {
    const double inv = 1.0 / d;
    const double t1 = (lo - o) * inv;
    const double t2 = (hi - o) * inv;
    // t1·t2 is NaN exactly when t1 or t2 is (0·∞ on a face plane): one unordered compare
    // decides both selects, which then compile to masks instead of branches.
    const double product = t1 * t2;
    const double near = product == product ? (t1 < t2 ? t1 : t2) : nan_near;
    const double far = product == product ? (t1 > t2 ? t1 : t2) : nan_far;
    out.axis = near > out.enter ? index : out.axis;
    out.enter = near > out.enter ? near : out.enter;
    out.exit = far < out.exit ? far : out.exit;
}
} // namespace detail

inline LineInterval slab_interval(const Vec3& origin, const Vec3& direction, const Vec3& lo, const Vec3& hi,
                                  Boundary boundary) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    const double nan_near = boundary == Boundary::closed ? -inf : inf;
    const double nan_far = boundary == Boundary::closed ? inf : -inf;
    LineInterval out{-inf, inf, 0};
    detail::clip_slab(origin.x, direction.x, lo.x, hi.x, nan_near, nan_far, 0, out);
    detail::clip_slab(origin.y, direction.y, lo.y, hi.y, nan_near, nan_far, 1, out);
    detail::clip_slab(origin.z, direction.z, lo.z, hi.z, nan_near, nan_far, 2, out);
    return out;
}

/// The interval where a·t² + 2·b·t + c ≤ 0 for a > 0, empty when it never is. Roots by the
/// cancellation-free pair q/a and c/q with q = −(b + sign(b)·√(b² − a·c)) (Numerical Recipes
/// 5.6), so a root near zero keeps full relative precision.
inline LineInterval quadratic_interval(double a, double b, double c) {
    const double disc = b * b - a * c;
    if (!(disc >= 0.0)) return {};
    const double q = -(b + std::copysign(std::sqrt(disc), b));
    if (q == 0.0) return {0.0, 0.0, 0}; // b = 0 and c = 0: a double root at 0
    const double r1 = q / a;
    const double r2 = c / q;
    return {std::min(r1, r2), std::max(r1, r2), 0};
}

/// The interval of the line inside the ball of `radius` around `centre`.
inline LineInterval ball_interval(const Vec3& origin, const Vec3& direction, const Vec3& centre, double radius) {
    const Vec3 m = origin - centre;
    const double a = dot(direction, direction);
    return quadratic_interval(a, dot(m, direction), dot(m, m) - radius * radius);
}

/// The interval of the line inside the capsule around segment [p, q] with `radius`: the union
/// of the two end balls and the finite cylinder between them, which is convex, so the union of
/// the three intervals is one interval.
inline LineInterval capsule_interval(const Vec3& origin, const Vec3& direction, const Vec3& p, const Vec3& q,
                                     double radius, Boundary boundary) {
    constexpr double inf = std::numeric_limits<double>::infinity();
    // Under the open policy a one-point interval is a tangent line, not inside the part; it
    // must not take part in the union (two tangent end balls would bridge into a false span).
    const auto usable = [boundary](const LineInterval& in) {
        return boundary == Boundary::closed ? !in.empty() : in.enter < in.exit;
    };
    const auto join = [](const LineInterval& a, const LineInterval& b) {
        return LineInterval{std::min(a.enter, b.enter), std::max(a.exit, b.exit), 0};
    };
    LineInterval out;
    bool any = false;
    const LineInterval end_p = ball_interval(origin, direction, p, radius);
    if (usable(end_p)) out = end_p, any = true;
    const LineInterval end_q = ball_interval(origin, direction, q, radius);
    if (usable(end_q)) out = any ? join(out, end_q) : end_q, any = true;

    const Vec3 axis = q - p;
    const double length_ = length(axis);
    if (!(length_ > 0.0)) return out;
    const Vec3 e = axis / length_;
    const Vec3 m = origin - p;
    const double m_axial = dot(m, e);
    const double d_axial = dot(direction, e);
    const Vec3 m_perp = m - e * m_axial;
    const Vec3 d_perp = direction - e * d_axial;
    const double a = dot(d_perp, d_perp);
    const double c = dot(m_perp, m_perp) - radius * radius;
    LineInterval side;
    if (a <= 1e-30 * dot(direction, direction)) {
        // Parallel to the axis: inside the infinite cylinder everywhere or nowhere.
        const bool inside = boundary == Boundary::closed ? c <= 0.0 : c < 0.0;
        side = inside ? LineInterval{-inf, inf, 0} : LineInterval{};
    } else {
        side = quadratic_interval(a, dot(m_perp, d_perp), c);
    }
    if (!usable(side)) return out;
    // Clip to the segment's extent along the axis: 0 ≤ m_axial + t·d_axial ≤ length.
    const LineInterval along =
            slab_interval({m_axial, 0, 0}, {d_axial, 1, 1}, {0, -inf, -inf}, {length_, inf, inf}, boundary);
    const LineInterval cyl{std::max(side.enter, along.enter), std::min(side.exit, along.exit), 0};
    if (!usable(cyl)) return out;
    return any ? join(out, cyl) : cyl;
}

/// The point of the box [lo, hi] nearest to p (p itself when inside).
constexpr Vec3 closest_point_on_box(const Vec3& p, const Vec3& lo, const Vec3& hi) { return clamp(p, lo, hi); }

} // namespace collide
