#include "queries/time_of_impact.h"

#include <algorithm>
#include <cmath>
#include <optional>

#include "detection/contact_convex.h"
#include "detection/contact_mesh.h"
#include "detection/contact_plane.h"
#include "math/free_turn.h"
#include "math/trig.h"
#include "shapes/mesh.h"

namespace collide {

namespace {

/// Conservative-advancement steps before giving up (each step is safe, so the time reached is
/// never past the first touch).
constexpr int kToiMaxIterations = 100;

struct SignedSeparation {
    bool supported = true;
    double distance = 0; ///< gap (m), negative by the depth when overlapping
    Vec3 normal;         ///< unit, A → B
};

/// What a time of impact is when the shapes start `s` apart: unsupported, started inside
/// (deeper than `tolerance`, m), or nothing yet (the search goes on).
std::optional<ToiStatus> status_at_start(const SignedSeparation& s, double tolerance) {
    if (!s.supported) return ToiStatus::unsupported;
    if (s.distance < -tolerance) return ToiStatus::started_inside;
    return std::nullopt;
}

SignedSeparation signed_separation(const Shape& a, const Shape& b) {
    const auto* pa = std::get_if<Plane>(&a);
    const auto* pb = std::get_if<Plane>(&b);
    if (pa && pb) return {false, 0, {}};
    if (pa) return {true, plane_gap(*pa, b), pa->normal};
    if (pb) return {true, plane_gap(*pb, a), -pb->normal};
    const Separation s = separation_gjk_epa(a, b);
    return {true, s.distance, s.normal};
}

// The smallest τ in (0, limit] where g(τ) = g0 + r·τ + ½·q·τ² reaches 0, given g0 > 0.
std::optional<double> first_root(double g0, double r, double q, double limit) {
    double best = -1;
    auto consider = [&](double tau) {
        if (std::isfinite(tau) && tau > 0 && (best < 0 || tau < best)) best = tau;
    };
    if (q == 0) {
        if (r < 0) consider(-g0 / r);
    } else {
        const double disc = r * r - 2 * q * g0;
        if (disc >= 0) {
            // Numerically stable roots of (q/2)τ² + rτ + g0 = 0 (Numerical Recipes 5.6).
            const double h = -0.5 * (r + std::copysign(std::sqrt(disc), r));
            if (h != 0) {
                consider(h / (0.5 * q));
                consider(g0 / h);
            }
        }
    }
    if (best < 0 || best > limit) return std::nullopt;
    return best;
}

/// The bounds of `s` over its motion `m` in [0, t_max] (the end points and the turning point of
/// each axis), grown by `grow` (m).
Aabb swept_bounds(const Shape& s, const Motion& m, double t_max, double grow) {
    Aabb box = bounds_of(s);
    for (std::size_t k = 0; k < 3; ++k) {
        const double v = m.velocity[k], a = m.acceleration[k];
        const double end = v * t_max + 0.5 * a * t_max * t_max;
        double lo = std::min(0.0, end), hi = std::max(0.0, end);
        if (a != 0) {
            const double t = -v / a;
            if (t > 0 && t < t_max) {
                const double turn = v * t + 0.5 * a * t * t;
                lo = std::min(lo, turn);
                hi = std::max(hi, turn);
            }
        }
        box.min[k] += lo - grow;
        box.max[k] += hi + grow;
    }
    return box;
}

/// Shape `s` moving by `ms` against mesh `mesh` moving by `mm`: normal from s to the mesh. A
/// touch at an inactive edge or corner takes the face normal, and is no hit when the motion
/// does not go into that face (sliding over a seam of a flat floor).
Toi time_of_impact_mesh(const Shape& s, const Motion& ms, const Mesh& mesh, const Motion& mm, double t_max,
                        double tolerance) {
    Toi out;
    const ShapeKind ks = kind_of(s);
    if (ks == ShapeKind::mesh || ks == ShapeKind::plane || !mesh.data) {
        out.status = ToiStatus::unsupported;
        return out;
    }
    const TriangleMesh& m = *mesh.data;
    const Motion rel{ms.velocity - mm.velocity, ms.acceleration - mm.acceleration};
    const Aabb world_box = swept_bounds(s, rel, t_max, tolerance);
    Mat3 inverse;
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) inverse.col[c][static_cast<std::size_t>(r)] = mesh.rotation.at(c, r);
    const Aabb box = transform_bounds(world_box, inverse, mul_transpose(mesh.rotation, -mesh.position));
    const Vec3 centre = centre_of(s);
    std::optional<Toi> best;
    bool inside = false;
    for_each_triangle_near(m, box, [&](int i, const Triangle& local) {
        const Triangle t{mesh.rotation * local.a + mesh.position, mesh.rotation * local.b + mesh.position,
                         mesh.rotation * local.c + mesh.position};
        Toi hit = time_of_impact(s, rel, Shape{t}, Motion{}, t_max, tolerance);
        if (hit.status == ToiStatus::started_inside) inside = true;
        if (hit.status != ToiStatus::hit) return true;
        if (best && !(hit.time < best->time)) return true;
        const Vec3 local_n = mul_transpose(mesh.rotation, hit.normal);
        const Vec3 local_c = mul_transpose(mesh.rotation, centre + offset_at(rel, hit.time) - mesh.position);
        if (const auto face =
                    inactive_feature_normal(local, m.features[static_cast<std::size_t>(i)], -local_n, local_c)) {
            hit.normal = -(mesh.rotation * *face);
            // Sliding over a seam: the touch of the next triangle does not go into its face.
            if (!(dot(rel.velocity + rel.acceleration * hit.time, hit.normal) > 0)) return true;
        }
        best = hit;
        return true;
    });
    if (best) return *best;
    if (inside) out.status = ToiStatus::started_inside;
    return out;
}

} // namespace

// Conservative advancement for translating shapes (Mirtich 1996; Box2D's b2TimeOfImpact uses
// the same separating-axis idea). At a time t with gap d > 0 and normal n (A → B), the plane
// through the gap perpendicular to n keeps the shapes apart for as long as B's motion relative
// to A has not carried it across: that plane gap is exactly the quadratic
//     g(τ) = d + (v_rel(t)·n)·τ + ½(a_rel·n)·τ²,
// and the true distance is never below it. So no touch happens before g's first root, and
// stepping there is safe (for straight motion this is the classic d / closing speed step, with
// the closing speed along n instead of the full |v_rel|: tighter, and still a lower bound):
//     t ← 0
//     repeat at most kToiMaxIterations times:
//         (d, n) ← signed separation of A(t), B(t)
//         if d ≤ tolerance: hit at t with normal n
//         τ ← first root of g in (0, t_max − t]; none: miss (the plane separates them to t_max)
//         t ← t + τ
//     still going: hit at t (conservative, never past the real touch)
// Starting states (t = 0):
//     overlapping deeper than tolerance                 → started_inside
//     touching (|d| ≤ tolerance) and approaching (v·n < 0) → hit at 0
//     touching and not approaching (v·n ≥ 0): not a hit. The gap plane at t = 0 keeps them
//       apart while g(τ) > 0. If a·n ≥ 0 or v·n = 0 the shapes never get apart from that plane
//       and come back (they leave for good, or slide/press along it): miss. Otherwise
//       (leaving, pulled back) advancement restarts from the top of g, τ = −(v·n)/(a·n), and
//       reports the next approach-touch, e.g. a ball tossed up off a floor landing again.
Toi time_of_impact(const Shape& a, const Motion& ma, const Shape& b, const Motion& mb, double t_max, double tolerance) {
    if (const auto* mesh = std::get_if<Mesh>(&b)) return time_of_impact_mesh(a, ma, *mesh, mb, t_max, tolerance);
    if (const auto* mesh = std::get_if<Mesh>(&a)) {
        Toi t = time_of_impact_mesh(b, mb, *mesh, ma, t_max, tolerance);
        t.normal = -t.normal;
        return t;
    }
    const Vec3 v0 = mb.velocity - ma.velocity;
    const Vec3 acc = mb.acceleration - ma.acceleration;
    Shape at_a, at_b; // the shapes at time t, written in place (no whole-variant copies)
    auto separation_at = [&](double t) {
        translate_into(at_a, a, offset_at(ma, t));
        translate_into(at_b, b, offset_at(mb, t));
        return signed_separation(at_a, at_b);
    };
    Toi out;
    SignedSeparation s = separation_at(0);
    if (const std::optional<ToiStatus> at_start = status_at_start(s, tolerance)) {
        out.status = *at_start;
        return out;
    }
    double t = 0;
    if (s.distance <= tolerance) {
        const double r = dot(v0, s.normal), q = dot(acc, s.normal);
        if (r < 0) {
            out.status = ToiStatus::hit;
            out.normal = s.normal;
            return out;
        }
        if (r == 0 || q >= 0) return out; // miss
        t = -r / q;
        if (!(t <= t_max)) return out; // miss
        s = separation_at(t);
        if (s.distance <= tolerance) return out; // never got clear of the touch: miss
    }
    for (int iteration = 0; iteration < kToiMaxIterations; ++iteration) {
        if (s.distance <= tolerance) {
            out.status = ToiStatus::hit;
            out.time = t;
            out.normal = s.normal;
            return out;
        }
        const auto tau = first_root(s.distance, dot(v0 + acc * t, s.normal), dot(acc, s.normal), t_max - t);
        if (!tau) return out; // miss
        t += *tau;
        s = separation_at(t);
    }
    out.status = ToiStatus::hit;
    out.time = t;
    out.normal = s.normal;
    return out;
}

namespace {

/// Steps of conservative advancement against a turning body before giving up (the bound on its
/// speed is loose where the touch is near its turning point, so it needs more than kToiMaxIterations).
constexpr int kTurningMaxIterations = 2000;

Quat spin(const Vec3& w, double t) { return spin_rotation(w, t); }

} // namespace

Quat spin_rotation(const Vec3& w, double t) {
    const double rate = length(w);
    if (!(rate > 0)) return Quat{};
    const Vec3 axis = w / rate;
    const SinCos half = sin_cos(0.5 * rate * t); // the project's own (math/trig.h): the same bits on every build
    return {half.cos, axis.x * half.sin, axis.y * half.sin, axis.z * half.sin};
}

Shape turned_at(const Shape& shape, const TurningMotion& motion, double t) {
    // Rotate about the origin's start, then carry the origin: p → o(t) + R·(p − o(0)).
    Shape out;
    place_into(out, translate(shape, motion.origin * -1.0), motion.origin + motion.velocity * t,
               spin(motion.angular_velocity, t));
    return out;
}

Toi time_of_impact_turning(const Shape& a, const TurningMotion& ma, const Shape& b, const Motion& mb, double t_max,
                           double tolerance) {
    Toi out;
    const double reach = length(ma.angular_velocity) * max_distance_from(a, ma.origin); // fastest spin speed (m/s)
    Shape local_a;                                                                      // A about its turning point
    translate_into(local_a, a, ma.origin * -1.0);
    Shape at_a, at_b;
    auto separation_at = [&](double t) {
        place_into(at_a, local_a, ma.origin + ma.velocity * t, spin(ma.angular_velocity, t));
        translate_into(at_b, b, offset_at(mb, t));
        return signed_separation(at_a, at_b);
    };
    SignedSeparation s = separation_at(0);
    if (const std::optional<ToiStatus> at_start = status_at_start(s, tolerance)) {
        out.status = *at_start;
        return out;
    }
    if (s.distance <= tolerance) {
        // B's point nearest A, and A's surface velocity there.
        const Vec3 p = std::holds_alternative<Plane>(b) ? Vec3{} : support(b, s.normal * -1.0);
        const Vec3 surface = ma.velocity + cross(ma.angular_velocity, p - ma.origin);
        if (dot(mb.velocity - surface, s.normal) < 0) {
            out.status = ToiStatus::hit;
            out.normal = s.normal;
        }
        return out;
    }
    double t = 0;
    for (int iteration = 0; iteration < kTurningMaxIterations; ++iteration) {
        if (s.distance <= tolerance) break;
        const Vec3 vb = mb.velocity + mb.acceleration * t;
        const auto tau = first_root(s.distance, dot(vb - ma.velocity, s.normal) - reach, dot(mb.acceleration, s.normal),
                                    t_max - t);
        if (!tau) return out; // miss
        t += *tau;
        s = separation_at(t);
    }
    out.status = ToiStatus::hit;
    out.time = t;
    out.normal = s.normal;
    return out;
}

namespace {

/// The place of a rigidly moving body's reference point at time t.
Vec3 centre_at(const RigidMotion& m, double t) { return m.centre + m.velocity * t + m.acceleration * (0.5 * t * t); }

/// The rotation of a torque-free turn at time t of the query.
Quat free_rotation_at(const FreeTurnMotion& f, double t) {
    return f.elapsed + t > 0 ? free_turn_rotation(f.start, f.inv_inertia, f.momentum, f.elapsed + t) : f.start;
}

/// The rotation a rigidly moving body has turned by at time t; `back` undoes a torque-free
/// turn's rotation at t = 0 (conjugate(free_rotation_at(*m.free, 0)); unused without one).
Quat turn_at(const RigidMotion& m, double t, const Quat& back) {
    if (m.free) return free_rotation_at(*m.free, t) * back;
    return exp_rotation(m.angular_velocity * t + m.angular_acceleration * (0.5 * t * t));
}

/// The fastest angular speed of `m` over [t, t_max] (rad/s): |ω(t)| + |α|·(t_max − t). On a
/// torque-free turn the kinetic energy is kept, ω·Iω = Π·I⁻¹Π, and ω·Iω ≥ |ω|²/λ with λ the
/// largest eigenvalue of I⁻¹, so |ω| ≤ √(λ·Π·I⁻¹Π) whichever way Π has turned in the body
/// (λ bounded by Gershgorin's largest absolute row sum).
double spin_bound(const RigidMotion& m, double t, double t_max) {
    if (m.free) {
        const Mat3& i = m.free->inv_inertia;
        double largest = 0;
        for (int r = 0; r < 3; ++r)
            largest = std::max(largest, std::fabs(i.at(r, 0)) + std::fabs(i.at(r, 1)) + std::fabs(i.at(r, 2)));
        const Vec3& p = m.free->momentum;
        return std::sqrt(largest * std::max(0.0, dot(p, i * p)));
    }
    return length(m.angular_velocity + m.angular_acceleration * t) + length(m.angular_acceleration) * (t_max - t);
}

/// The velocity of the point p of a rigidly moving body at time t (m/s).
Vec3 point_velocity(const RigidMotion& m, double t, const Vec3& p) {
    return m.velocity + m.acceleration * t +
           cross(m.angular_velocity + m.angular_acceleration * t, p - centre_at(m, t));
}

/// The rigid time of impact of two convex shapes (neither a mesh).
Toi time_of_impact_rigid_convex(const Shape& a, const RigidMotion& ma, const Shape& b, const RigidMotion& mb,
                                double t_max, double tolerance) {
    Toi out;
    const double ra = max_distance_from(a, ma.centre), rb = max_distance_from(b, mb.centre);
    Shape local_a, local_b; // about their reference points
    translate_into(local_a, a, ma.centre * -1.0);
    translate_into(local_b, b, mb.centre * -1.0);
    Shape at_a, at_b;
    const Quat back_a = ma.free ? conjugate(free_rotation_at(*ma.free, 0)) : Quat{};
    const Quat back_b = mb.free ? conjugate(free_rotation_at(*mb.free, 0)) : Quat{};
    auto separation_at = [&](double t) {
        place_into(at_a, local_a, centre_at(ma, t), turn_at(ma, t, back_a));
        place_into(at_b, local_b, centre_at(mb, t), turn_at(mb, t, back_b));
        return signed_separation(at_a, at_b);
    };
    SignedSeparation s = separation_at(0);
    if (const std::optional<ToiStatus> at_start = status_at_start(s, tolerance)) {
        out.status = *at_start;
        return out;
    }
    // An approach too slow to close the tolerance within t_max is none: a body resting on a
    // surface, turning by rounding noise, does not hit it.
    const double creep = t_max > 0 ? tolerance / t_max : 0.0;
    double t = 0;
    if (s.distance <= tolerance) {
        // Touching: a hit when B's point nearest A comes at A's surface there.
        const Vec3 p = std::holds_alternative<Plane>(b) ? support(a, s.normal) : support(b, s.normal * -1.0);
        const double leaving = dot(point_velocity(mb, 0, p) - point_velocity(ma, 0, p), s.normal);
        if (leaving < -creep) {
            out.status = ToiStatus::hit;
            out.normal = s.normal;
            return out;
        }
        // Leaving (a box just bounced off a corner, spinning): its other corners may still come
        // down within the step. Find a time the touch is left behind — the gap grows at about
        // `leaving`, so from twice the time that takes to clear the tolerance, doubling — and
        // advance from there. One that never gets clear (resting, sliding along) is a miss.
        if (!(leaving > creep)) return out;
        double clear = 2 * tolerance / leaving, before = 0;
        for (;;) {
            if (!(clear < t_max)) return out; // still touching at the step's end: miss
            s = separation_at(clear);
            if (s.distance < -tolerance) { // another part came down meanwhile: touching by `before`
                out.status = ToiStatus::hit;
                out.time = before;
                out.normal = separation_at(before).normal;
                return out;
            }
            if (s.distance > tolerance) break;
            before = clear;
            clear *= 2;
        }
        t = clear;
    }
    const Vec3 acc = mb.acceleration - ma.acceleration;
    for (int iteration = 0; iteration < kTurningMaxIterations; ++iteration) {
        if (s.distance <= tolerance) break;
        const Vec3 v = (mb.velocity + mb.acceleration * t) - (ma.velocity + ma.acceleration * t);
        const double reach = spin_bound(ma, t, t_max) * ra + spin_bound(mb, t, t_max) * rb;
        const auto tau = first_root(s.distance, dot(v, s.normal) - reach, dot(acc, s.normal), t_max - t);
        if (!tau) return out; // miss
        t += *tau;
        s = separation_at(t);
    }
    out.status = ToiStatus::hit;
    out.time = t;
    out.normal = s.normal;
    return out;
}

} // namespace

Toi time_of_impact_rigid(const Shape& a, const RigidMotion& ma, const Shape& b, const RigidMotion& mb, double t_max,
                         double tolerance) {
    if (std::holds_alternative<Mesh>(a)) {
        Toi t = time_of_impact_rigid(b, mb, a, ma, t_max, tolerance);
        t.normal = -t.normal;
        return t;
    }
    const auto* mesh = std::get_if<Mesh>(&b);
    if (!mesh) return time_of_impact_rigid_convex(a, ma, b, mb, t_max, tolerance);
    Toi out;
    if (std::holds_alternative<Plane>(a) || !mesh->data) {
        out.status = ToiStatus::unsupported;
        return out;
    }
    // The triangles A can reach: a ball of its radius about its reference point, swept (the
    // mesh is static level geometry: mb does not move it).
    const double radius = max_distance_from(a, ma.centre) + tolerance;
    const Aabb start{ma.centre - Vec3{radius, radius, radius}, ma.centre + Vec3{radius, radius, radius}};
    const Aabb world_box = swept_bounds(Shape{start}, Motion{ma.velocity, ma.acceleration}, t_max, 0);
    const TriangleMesh& m = *mesh->data;
    Mat3 inverse;
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) inverse.col[c][static_cast<std::size_t>(r)] = mesh->rotation.at(c, r);
    const Aabb box = transform_bounds(world_box, inverse, mul_transpose(mesh->rotation, -mesh->position));
    std::optional<Toi> best;
    bool inside = false;
    for_each_triangle_near(m, box, [&](int i, const Triangle& local) {
        const Triangle t{mesh->rotation * local.a + mesh->position, mesh->rotation * local.b + mesh->position,
                         mesh->rotation * local.c + mesh->position};
        Toi hit = time_of_impact_rigid_convex(a, ma, Shape{t}, RigidMotion{}, t_max, tolerance);
        if (hit.status == ToiStatus::started_inside) inside = true;
        if (hit.status != ToiStatus::hit) return true;
        if (best && !(hit.time < best->time)) return true;
        const Vec3 local_n = mul_transpose(mesh->rotation, hit.normal);
        const Vec3 c = centre_at(ma, hit.time);
        const Vec3 local_c = mul_transpose(mesh->rotation, c - mesh->position);
        if (const auto face =
                    inactive_feature_normal(local, m.features[static_cast<std::size_t>(i)], -local_n, local_c)) {
            hit.normal = -(mesh->rotation * *face);
            // The touch at an inactive feature counts only when A's point there goes into the face
            // (faster than closes the tolerance within t_max: rounding noise in a resting body's
            // turn is no approach).
            const Vec3 p = support(Shape{t}, hit.normal * -1.0);
            const double creep = t_max > 0 ? tolerance / t_max : 0.0;
            if (!(dot(point_velocity(ma, hit.time, p), hit.normal) > creep)) return true;
        }
        best = hit;
        return true;
    });
    if (best) return *best;
    if (inside) out.status = ToiStatus::started_inside;
    return out;
}

} // namespace collide
