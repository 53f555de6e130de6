#include "plot/camera3d.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

#include "math/quat.h"
#include "plot/plot.h"

namespace collide {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kLineRatio = 0.15;          ///< σ₂ below this share of σ₁: the points lie along a line
constexpr double kLying = 0.64;              ///< |n·up| above this (cos 50°): the plane lies, seen from above
constexpr double kStandingRaise = 20;        ///< a standing plane is seen raised by this (degrees)
constexpr double kLyingRaise = 55;           ///< a lying plane is seen raised by this (degrees)
constexpr double kTurn = 20;                 ///< and turned about up by this (degrees)
constexpr std::size_t kMostPoints = 200'000; ///< positions of the motion's cloud (frames skipped evenly beyond)

bool finite_box(const Aabb& b) { return is_finite(b.min) && is_finite(b.max) && b.min.x <= b.max.x; }

void grow(Aabb& box, const Vec3& lo, const Vec3& hi) {
    box.min = min(box.min, lo);
    box.max = max(box.max, hi);
}

/// `v` with the sign that makes its largest component (the first of equals) positive.
Vec3 signed_by_largest(const Vec3& v) {
    std::size_t at = 0;
    for (std::size_t a = 1; a < 3; ++a)
        if (std::fabs(v[a]) > std::fabs(v[at])) at = a;
    return v[at] < 0 ? -v : v;
}

/// `v` turned about the unit `axis` by `degrees` (Rodrigues' formula).
Vec3 turned(const Vec3& v, const Vec3& axis, double degrees) {
    const double a = degrees * 3.14159265358979323846 / 180, c = std::cos(a), s = std::sin(a);
    return v * c + cross(axis, v) * s + axis * (dot(axis, v) * (1 - c));
}

/// Whether the segment from `from` along the unit `d` for `length` passes through `box`.
bool segment_hits(const Vec3& from, const Vec3& d, double length, const Aabb& box) {
    double t0 = 0, t1 = length;
    for (std::size_t a = 0; a < 3; ++a) {
        if (std::fabs(d[a]) < 1e-12) {
            if (from[a] < box.min[a] || from[a] > box.max[a]) return false;
            continue;
        }
        double ta = (box.min[a] - from[a]) / d[a], tb = (box.max[a] - from[a]) / d[a];
        if (ta > tb) std::swap(ta, tb);
        t0 = std::max(t0, ta);
        t1 = std::min(t1, tb);
        if (t0 > t1) return false;
    }
    return true;
}

bool contains(const Aabb& box, const Vec3& p) {
    return p.x >= box.min.x && p.x <= box.max.x && p.y >= box.min.y && p.y <= box.max.y && p.z >= box.min.z &&
           p.z <= box.max.z;
}

/// The points projected onto the plane across `up` (their component along up removed).
std::vector<Vec3> flattened(std::span<const Vec3> points, const Vec3& up) {
    std::vector<Vec3> out;
    out.reserve(points.size());
    for (const Vec3& p : points) out.push_back(p - up * dot(p, up));
    return out;
}

} // namespace

PrincipalAxes principal_axes(std::span<const Vec3> points) {
    PrincipalAxes out{{0, 0, 0}, {Vec3{1, 0, 0}, Vec3{0, 1, 0}, Vec3{0, 0, 1}}, {0, 0, 0}};
    if (points.empty()) return out;
    Vec3 mean{0, 0, 0};
    for (const Vec3& p : points) mean = mean + p;
    mean = mean / static_cast<double>(points.size());
    out.centre = mean;
    double a[3][3] = {};
    for (const Vec3& p : points) {
        const Vec3 d = p - mean;
        for (std::size_t r = 0; r < 3; ++r)
            for (std::size_t c = 0; c < 3; ++c) a[r][c] += d[r] * d[c];
    }
    for (auto& row : a)
        for (double& x : row) x /= static_cast<double>(points.size());
    // Jacobi's method: rotations that zero each off-diagonal entry in turn (Golub & Van Loan,
    // Matrix Computations, 4th ed., §8.5.2); v's columns gather the eigenvectors.
    double v[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    for (int sweep = 0; sweep < 64; ++sweep) {
        const double off = a[0][1] * a[0][1] + a[0][2] * a[0][2] + a[1][2] * a[1][2];
        const double diagonal = a[0][0] * a[0][0] + a[1][1] * a[1][1] + a[2][2] * a[2][2];
        if (!(off > 1e-32 * diagonal)) break;
        for (const auto& [p, q] : {std::pair{0, 1}, std::pair{0, 2}, std::pair{1, 2}}) {
            if (a[p][q] == 0) continue;
            const double theta = (a[q][q] - a[p][p]) / (2 * a[p][q]);
            const double t = (theta >= 0 ? 1.0 : -1.0) / (std::fabs(theta) + std::sqrt(theta * theta + 1));
            const double c = 1 / std::sqrt(t * t + 1), s = t * c;
            for (int k = 0; k < 3; ++k) { // A·J
                const double kp = a[k][p], kq = a[k][q];
                a[k][p] = c * kp - s * kq;
                a[k][q] = s * kp + c * kq;
            }
            for (int k = 0; k < 3; ++k) { // Jᵀ·(A·J)
                const double pk = a[p][k], qk = a[q][k];
                a[p][k] = c * pk - s * qk;
                a[q][k] = s * pk + c * qk;
            }
            for (int k = 0; k < 3; ++k) {
                const double kp = v[k][p], kq = v[k][q];
                v[k][p] = c * kp - s * kq;
                v[k][q] = s * kp + c * kq;
            }
        }
    }
    std::array<std::pair<double, Vec3>, 3> pairs;
    for (int k = 0; k < 3; ++k)
        pairs[static_cast<std::size_t>(k)] = {a[k][k], signed_by_largest(normalize(Vec3{v[0][k], v[1][k], v[2][k]}))};
    std::stable_sort(pairs.begin(), pairs.end(), [](const auto& x, const auto& y) { return x.first > y.first; });
    for (std::size_t k = 0; k < 3; ++k) {
        out.axes[k] = pairs[k].second;
        out.spread[k] = std::sqrt(std::max(pairs[k].first, 0.0));
    }
    return out;
}

ViewChoice choose_view(const Scenario& sc, const Recording& rec) {
    ViewChoice view;
    const double g = length(sc.world.gravity);
    view.up = g > 0 ? sc.world.gravity / -g : Vec3{0, 1, 0};
    const Vec3 up = view.up;
    const std::size_t n = std::min(static_cast<std::size_t>(rec.body_count), sc.bodies.size());
    const std::size_t frames = rec.frame_count();

    // What must be seen, the motion's cloud and the layout (each moving body's mean position).
    Aabb frame{{kInf, kInf, kInf}, {-kInf, -kInf, -kInf}};
    std::vector<Vec3> motion, layout;
    std::size_t moving = 0;
    for (std::size_t i = 0; i < n; ++i) moving += sc.bodies[i].is_static ? 0 : 1;
    const std::size_t step = std::max<std::size_t>(1, frames * moving / kMostPoints);
    for (std::size_t i = 0; i < n; ++i) {
        const BodyDef& b = sc.bodies[i];
        if (b.is_static) continue;
        Aabb local = bounds_of(place(b.shape, {0, 0, 0}, frames ? rec.at(0)[i].rotation : b.rotation));
        if (turns_in(rec, i)) {
            const double reach = max_distance_from(b.shape, {0, 0, 0});
            local = {{-reach, -reach, -reach}, {reach, reach, reach}};
        }
        if (!finite_box(local)) local = {{0, 0, 0}, {0, 0, 0}};
        Vec3 sum{0, 0, 0};
        std::size_t count = 0;
        const auto at = [&](std::size_t k) { return frames ? rec.at(k)[i].position : b.position; };
        for (std::size_t k = 0; k < std::max<std::size_t>(frames, 1); ++k) {
            const Vec3 p = at(k);
            if (!is_finite(p)) continue;
            grow(frame, p + local.min, p + local.max);
            sum = sum + p;
            ++count;
        }
        if (count == 0) continue;
        const Vec3 mean = sum / static_cast<double>(count);
        layout.push_back(mean);
        for (std::size_t k = 0; k < frames; k += step)
            if (is_finite(at(k))) motion.push_back(at(k) - mean);
    }
    std::vector<Aabb> obstacles; // the static bodies of finite size
    for (std::size_t i = 0; i < sc.bodies.size(); ++i) {
        const BodyDef& b = sc.bodies[i];
        if (!b.is_static) continue;
        const Aabb placed = bounds_of(place(b.shape, b.position, b.rotation));
        if (!finite_box(placed)) continue;
        obstacles.push_back(placed);
    }
    if (!finite_box(frame)) { // nothing moves: the static bodies' bounds, laid out by their centres
        for (const Aabb& o : obstacles) {
            grow(frame, o.min, o.max);
            layout.push_back(centre_of(o));
        }
    } else {
        for (const Aabb& o : obstacles) grow(frame, centre_of(o), centre_of(o));
    }
    if (!finite_box(frame)) frame = {{-1, -1, -1}, {1, 1, 1}};
    view.frame = frame;
    view.target = centre_of(frame);
    const double size = std::max(length(frame.max - frame.min), 1e-3);
    const double still = 1e-4 * size; // a spread below this is none (a resting body's jitter)

    // The thinnest horizontal extent of the frame: the world axis across up (the last of equals).
    const auto thinnest = [&] {
        std::size_t up_axis = 0;
        for (std::size_t a = 1; a < 3; ++a)
            if (std::fabs(up[a]) > std::fabs(up[up_axis])) up_axis = a;
        std::size_t best = up_axis == 2 ? 1 : 2;
        for (std::size_t a = 0; a < 3; ++a)
            if (a != up_axis && frame.max[a] - frame.min[a] < frame.max[best] - frame.min[best]) best = a;
        Vec3 axis{0, 0, 0};
        axis[best] = 1;
        return axis;
    };
    // A normal across a vertical line: the horizontal direction the layout spreads least along.
    const auto across_vertical = [&] {
        const std::vector<Vec3> flat = flattened(layout, up);
        const PrincipalAxes h = principal_axes(flat);
        if (h.spread[0] > still) return normalize(cross(up, h.axes[0]));
        return thinnest();
    };
    // The normal of the plane `a`'s points span, and the axis they spread most along; false
    // when they do not spread.
    Vec3 normal = thinnest(), across = any_perpendicular(normal);
    const auto plane_of = [&](const PrincipalAxes& a) {
        if (!(a.spread[0] > still)) return false;
        across = a.axes[0];
        if (a.spread[1] >= kLineRatio * a.spread[0]) {
            normal = a.axes[2];
            return true;
        }
        const Vec3 h = cross(a.axes[0], up);
        normal = length(h) >= 0.3 ? normalize(h) : across_vertical();
        return true;
    };
    if (!plane_of(principal_axes(motion)) && !plane_of(principal_axes(layout))) {
        normal = thinnest();
        across = normalize(cross(up, normal));
    }

    // The eye's heading across up, on the side where the screen's right runs along +axis.
    const bool lying = std::fabs(dot(normal, up)) > kLying;
    Vec3 heading = lying ? cross(up, across) : normal - up * dot(normal, up);
    if (length(heading) < 1e-6) heading = any_perpendicular(up);
    heading = normalize(heading);
    const Vec3 right = cross(up, heading);
    if (!(dot(right, signed_by_largest(right)) > 0)) heading = -heading;
    const double raise = lying ? kLyingRaise : kStandingRaise;
    const double reach = 3 * std::max(size / 2, 0.25);
    const auto eye_of = [&](double side, double turn) {
        const Vec3 h = turned(heading * side, up, turn);
        const double r = raise * 3.14159265358979323846 / 180;
        return normalize(h * std::cos(r) + up * std::sin(r));
    };
    const std::array<std::pair<double, double>, 4> tries{std::pair{1.0, kTurn}, std::pair{1.0, -kTurn},
                                                         std::pair{-1.0, kTurn}, std::pair{-1.0, -kTurn}};
    view.eye = eye_of(1, kTurn);
    for (const auto& [side, turn] : tries) {
        const Vec3 eye = eye_of(side, turn);
        const bool blocked = std::any_of(obstacles.begin(), obstacles.end(), [&](const Aabb& o) {
            return !contains(o, view.target) && segment_hits(view.target, eye, reach, o);
        });
        if (blocked) continue;
        view.eye = eye;
        break;
    }
    view.normal = dot(normal, view.eye) < 0 ? -normal : normal;
    return view;
}

} // namespace collide
