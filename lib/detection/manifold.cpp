#include "detection/manifold.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "detection/manifold_box_box.h"
#include "detection/manifold_capsule.h"
#include "detection/manifold_mesh.h"
#include "detection/manifold_plane.h"
#include "detection/manifold_polytope.h"
#include "detection/manifold_reduce.h"
#include "detection/manifold_sphere.h"

namespace collide {

namespace {

bool is_box(ShapeKind k) { return k == ShapeKind::aabb || k == ShapeKind::obb; }

/// Whether `a` takes the first role in a pair of shapes of one family and kind: the one whose
/// centre is lower along the axis on which the centres lie farthest apart (a floor under a
/// crate, the lower of two stacked crates). Swapping the two gives the other answer (unless the
/// centres coincide), so a family's preference for its first shape's face does not depend on
/// the order it was asked in, and it holds from step to step while the bodies keep their
/// arrangement.
bool lower_first(const Vec3& a, const Vec3& b) {
    const Vec3 d = b - a;
    const double ax = std::fabs(d.x), ay = std::fabs(d.y), az = std::fabs(d.z);
    if (ay > ax && ay >= az) return d.y >= 0;
    if (az > ax && az > ay) return d.z >= 0;
    return d.x >= 0;
}

/// −1, 0 or +1 as a is lexicographically before, equal to or after b.
int compare(double a, double b) { return a < b ? -1 : (b < a ? 1 : 0); }
int compare(const Vec3& a, const Vec3& b) {
    if (const int c = compare(a.x, b.x)) return c;
    if (const int c = compare(a.y, b.y)) return c;
    return compare(a.z, b.z);
}
int compare(const Obb& a, const Obb& b) {
    if (const int c = compare(a.half, b.half)) return c;
    for (int k = 0; k < 3; ++k)
        if (const int c = compare(a.axes.col[k], b.axes.col[k])) return c;
    return compare(a.centre, b.centre);
}

/// A fixed order of two shapes of one kind by their data, for when their centres coincide.
int compare(const Shape& a, const Shape& b) {
    if (const auto* x = std::get_if<Sphere>(&a)) return compare(x->radius, std::get<Sphere>(b).radius);
    if (const auto* x = std::get_if<Aabb>(&a)) {
        const Aabb& y = std::get<Aabb>(b);
        if (const int c = compare(x->min, y.min)) return c;
        return compare(x->max, y.max);
    }
    if (const auto* x = std::get_if<Obb>(&a)) return compare(*x, std::get<Obb>(b));
    if (const auto* x = std::get_if<Capsule>(&a)) {
        const Capsule& y = std::get<Capsule>(b);
        if (const int c = compare(x->a, y.a)) return c;
        if (const int c = compare(x->b, y.b)) return c;
        return compare(x->radius, y.radius);
    }
    if (const auto* x = std::get_if<Triangle>(&a)) {
        const Triangle& y = std::get<Triangle>(b);
        if (const int c = compare(x->a, y.a)) return c;
        if (const int c = compare(x->b, y.b)) return c;
        return compare(x->c, y.c);
    }
    if (const auto* x = std::get_if<Hull>(&a)) {
        const Hull& y = std::get<Hull>(b);
        if (x->count() != y.count()) return x->count() < y.count() ? -1 : 1;
        for (int k = 0; k < x->count(); ++k)
            if (const int c = compare(x->point(k), y.point(k))) return c;
    }
    return 0;
}

/// lower_first, and where the centres coincide the data's order: either way swapping the two
/// gives the other answer, unless the shapes are the same (then no order can flip the normal).
bool a_first(const Shape& a, const Shape& b) {
    const Vec3 ca = centre_of(a), cb = centre_of(b);
    return ca == cb ? compare(a, b) <= 0 : lower_first(ca, cb);
}

/// `family(first, second)` with the pair's roles chosen, flipped back to (a, b).
template <class F> bool ordered(const Shape& a, const Shape& b, bool first_is_a, RawManifold& out, F&& family) {
    if (first_is_a) return family(a, b, out);
    RawManifold m;
    if (!family(b, a, m)) return false;
    out = flipped(m);
    return true;
}

} // namespace

// Roles, so that swapping A and B computes the same thing and only flips it:
//   sphere:   the sphere first (two spheres: a_first)
//   capsule:  a polytope first, then the capsule (two capsules: a_first)
//   boxes:    an axis-aligned box before a turned one, two of one kind by a_first
//   polytope: by kind (box, triangle, hull), two of one kind by a_first
bool convex_manifold(const Shape& a, const Shape& b, double margin, RawManifold& out) {
    const ShapeKind ka = kind_of(a), kb = kind_of(b);
    const bool same = ka == kb;
    if (is_box(ka) && is_box(kb)) { // the hot path: no copies of turned boxes, one look at each variant
        const Obb* pa = std::get_if<Obb>(&a);
        const Obb* pb = std::get_if<Obb>(&b);
        Obb ta, tb;
        if (!pa) pa = &(ta = to_obb(std::get<Aabb>(a)));
        if (!pb) pb = &(tb = to_obb(std::get<Aabb>(b)));
        const bool first = !same                      ? ka < kb
                           : pa->centre == pb->centre ? compare(*pa, *pb) <= 0
                                                      : lower_first(pa->centre, pb->centre);
        if (first) return manifold_box_box(*pa, *pb, margin, out);
        RawManifold m;
        if (!manifold_box_box(*pb, *pa, margin, m)) return false;
        out = flipped(m);
        return true;
    }
    if (ka == ShapeKind::sphere || kb == ShapeKind::sphere) {
        const bool first = ka == ShapeKind::sphere && (!same || a_first(a, b));
        return ordered(a, b, first, out, [margin](const Shape& s, const Shape& o, RawManifold& m) {
            return manifold_sphere_shape(std::get<Sphere>(s), o, margin, m);
        });
    }
    if (ka == ShapeKind::capsule || kb == ShapeKind::capsule) {
        if (same)
            return ordered(a, b, a_first(a, b), out, [margin](const Shape& x, const Shape& y, RawManifold& m) {
                return manifold_capsules(std::get<Capsule>(x), std::get<Capsule>(y), margin, m);
            });
        return ordered(a, b, kb == ShapeKind::capsule, out, [margin](const Shape& p, const Shape& c, RawManifold& m) {
            return manifold_polytope_capsule(p, std::get<Capsule>(c), margin, m);
        });
    }
    const bool first = same ? a_first(a, b) : ka < kb;
    return ordered(a, b, first, out, [margin](const Shape& x, const Shape& y, RawManifold& m) {
        return manifold_polytopes(x, y, margin, m);
    });
}

ManifoldQuery manifolds(const Shape& a, const Shape& b, double margin, std::span<Manifold> out) {
    margin = margin > 0 ? margin : 0.0; // a negative or NaN margin asks for overlaps only
    const ShapeKind ka = kind_of(a), kb = kind_of(b);
    const bool static_a = ka == ShapeKind::plane || ka == ShapeKind::mesh;
    const bool static_b = kb == ShapeKind::plane || kb == ShapeKind::mesh;
    if (static_a && static_b) return {ContactStatus::unsupported, 0};
    if (kb == ShapeKind::mesh || ka == ShapeKind::mesh) {
        const bool mesh_first = ka == ShapeKind::mesh;
        std::array<Manifold, 1> probe; // with no room asked for, still say whether anything touches
        const std::span<Manifold> room = out.empty() ? std::span<Manifold>(probe) : out;
        const int n =
                manifolds_shape_mesh(mesh_first ? b : a, std::get<Mesh>(mesh_first ? a : b), margin, mesh_first, room);
        if (n < 0) return {ContactStatus::unsupported, 0};
        return {n > 0 ? ContactStatus::overlapping : ContactStatus::separated, out.empty() ? 0 : n};
    }
    RawManifold raw;
    bool found = false;
    if (ka == ShapeKind::plane)
        found = manifold_plane_shape(std::get<Plane>(a), b, margin, raw);
    else if (kb == ShapeKind::plane)
        found = ordered(a, b, false, raw, [margin](const Shape& p, const Shape& o, RawManifold& m) {
            return manifold_plane_shape(std::get<Plane>(p), o, margin, m);
        });
    else
        found = convex_manifold(a, b, margin, raw);
    if (!found) return {ContactStatus::separated, 0};
    if (out.empty()) return {ContactStatus::overlapping, 0};
    out[0] = finish_manifold(raw, 0);
    return {ContactStatus::overlapping, 1};
}

} // namespace collide
