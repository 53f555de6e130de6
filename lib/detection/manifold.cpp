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
#include "detection/pair_table.h"

namespace collide {

namespace {

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

/// A fixed order of two shapes of one kind by their data, for when their centres coincide: a
/// sphere, capsule, triangle or hull (two boxes are ordered by box_first).
int compare(const Shape& a, const Shape& b) {
    if (const auto* x = std::get_if<Sphere>(&a)) return compare(x->radius, std::get<Sphere>(b).radius);
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

/// Whether turned box `a` takes the first role against turned box `b` of the same kind (two
/// axis-aligned boxes are compared as the turned boxes equal to them): a_first's rule.
bool box_first(const Obb& a, const Obb& b) {
    return a.centre == b.centre ? compare(a, b) <= 0 : lower_first(a.centre, b.centre);
}

/// A turned box as itself; an axis-aligned box as the turned box equal to it.
const Obb& as_obb(const Obb& box) { return box; }
Obb as_obb(const Aabb& box) { return to_obb(box); }

// ---- convex_manifold(): a family per cell, for A and B of the cell's kinds ----

/// The routine of one cell of the convex table: the raw manifold of A and B (first A, then B)
/// within `margin`, false when farther apart.
using RawRoutine = bool (*)(const Shape& a, const Shape& b, double margin, RawManifold& out);

/// A kMirror cell, and the second role in a pair of one kind: the routine on (B, A), flipped
/// to (A, B) (normal negated, every feature's owner exchanged; points and depths kept).
struct SwapRaw {
    template <RawRoutine F> static bool routine(const Shape& a, const Shape& b, double margin, RawManifold& out) {
        RawManifold m;
        if (!F(b, a, margin, m)) return false;
        out = flipped(m);
        return true;
    }
};

/// Two shapes of one kind: F with the roles a_first gives them.
template <RawRoutine F> bool by_position(const Shape& a, const Shape& b, double margin, RawManifold& out) {
    return a_first(a, b) ? F(a, b, margin, out) : SwapRaw::routine<F>(a, b, margin, out);
}

bool sphere_shape(const Shape& a, const Shape& b, double margin, RawManifold& out) {
    return manifold_sphere_shape(std::get<Sphere>(a), b, margin, out);
}
/// Two boxes, A of type `A` and B of type `B` (the hot path: no copies of turned boxes).
template <class A, class B> bool boxes(const Shape& a, const Shape& b, double margin, RawManifold& out) {
    return manifold_box_box(as_obb(std::get<A>(a)), as_obb(std::get<B>(b)), margin, out);
}
/// Two boxes of one type `T`, with the roles box_first gives them.
template <class T> bool boxes_by_position(const Shape& a, const Shape& b, double margin, RawManifold& out) {
    const Obb& x = as_obb(std::get<T>(a));
    const Obb& y = as_obb(std::get<T>(b));
    if (box_first(x, y)) return manifold_box_box(x, y, margin, out);
    RawManifold m;
    if (!manifold_box_box(y, x, margin, m)) return false;
    out = flipped(m);
    return true;
}
bool polytope_capsule(const Shape& a, const Shape& b, double margin, RawManifold& out) {
    return manifold_polytope_capsule(a, std::get<Capsule>(b), margin, out);
}
bool capsules(const Shape& a, const Shape& b, double margin, RawManifold& out) {
    return manifold_capsules(std::get<Capsule>(a), std::get<Capsule>(b), margin, out);
}

/// The convex kinds, sphere … hull: the first rows and columns of ShapeKind's order.
constexpr std::size_t kConvexKinds = static_cast<std::size_t>(ShapeKind::plane);

// The convex table as written, [kind of A][kind of B], and the roles each family gives its
// shapes, so that swapping A and B computes the same thing and only flips it: a kMirror cell
// is its mirror's routine with the shapes exchanged; two shapes of one kind are ordered by
// position (a_first; two boxes by box_first):
//   sphere:   the sphere first (manifold_sphere.h)
//   boxes:    an axis-aligned box before a turned one (manifold_box_box.h)
//   capsule:  a polytope first, then the capsule (manifold_capsule.h)
//   polytope: by kind: box, triangle, hull (manifold_polytope.h)
constexpr auto mirror = kMirror;
constexpr RawRoutine spheres = by_position<sphere_shape>, aabb_obb = boxes<Aabb, Obb>, aabbs = boxes_by_position<Aabb>,
                     obbs = boxes_by_position<Obb>, poly_capsule = polytope_capsule, polys = manifold_polytopes,
                     polys_by_position = by_position<manifold_polytopes>, capsules_by_position = by_position<capsules>;
// clang-format off
constexpr WrittenTable<RawRoutine, kConvexKinds> kConvexWritten{{
    //             sphere   aabb          obb           capsule               triangle           hull
    /* sphere   */ {spheres, sphere_shape, sphere_shape, sphere_shape,         sphere_shape,      sphere_shape},
    /* aabb     */ {mirror,  aabbs,        aabb_obb,     poly_capsule,         polys,             polys},
    /* obb      */ {mirror,  mirror,       obbs,         poly_capsule,         polys,             polys},
    /* capsule  */ {mirror,  mirror,       mirror,       capsules_by_position, mirror,            mirror},
    /* triangle */ {mirror,  mirror,       mirror,       poly_capsule,         polys_by_position, polys},
    /* hull     */ {mirror,  mirror,       mirror,       poly_capsule,         mirror,            polys_by_position},
}};
// clang-format on
constexpr PairTable<RawRoutine, kConvexKinds> kConvexTable = complete_table<kConvexWritten, SwapRaw>();

// ---- manifolds(): a routine per cell ----

/// The routine of one cell of the manifolds table (margin ≥ 0).
using ManifoldRoutine = ManifoldQuery (*)(const Shape& a, const Shape& b, double margin, std::span<Manifold> out);

/// A pair that makes one manifold, by the raw routine F.
template <RawRoutine F> ManifoldQuery one(const Shape& a, const Shape& b, double margin, std::span<Manifold> out) {
    RawManifold raw;
    if (!F(a, b, margin, raw)) return {ContactStatus::separated, 0};
    if (out.empty()) return {ContactStatus::overlapping, 0};
    out[0] = finish_manifold(raw, 0);
    return {ContactStatus::overlapping, 1};
}

bool plane_family(const Shape& a, const Shape& b, double margin, RawManifold& out) {
    return manifold_plane_shape(std::get<Plane>(a), b, margin, out);
}

/// A shape and a mesh, the mesh A when `MeshFirst`: a manifold per part of the mesh touched.
template <bool MeshFirst>
ManifoldQuery with_mesh(const Shape& a, const Shape& b, double margin, std::span<Manifold> out) {
    std::array<Manifold, 1> probe; // with no room asked for, still say whether anything touches
    const std::span<Manifold> room = out.empty() ? std::span<Manifold>(probe) : out;
    const int n = manifolds_shape_mesh(MeshFirst ? b : a, std::get<Mesh>(MeshFirst ? a : b), margin, MeshFirst, room);
    if (n < 0) return {ContactStatus::unsupported, 0};
    return {n > 0 ? ContactStatus::overlapping : ContactStatus::separated, out.empty() ? 0 : n};
}

ManifoldQuery unsupported(const Shape&, const Shape&, double, std::span<Manifold>) {
    return {ContactStatus::unsupported, 0};
}

// The manifolds table, [kind of A][kind of B]: two convex shapes by the convex table
// (convex_manifold); a plane and a shape by the plane family, which takes the plane first
// (plane_a; plane_b calls it swapped); a shape and a mesh by the mesh family, which flips each
// manifold itself when the mesh is A (mesh_a); two static shapes (planes, meshes) are unsupported.
constexpr ManifoldRoutine convex = one<convex_manifold>, plane_a = one<plane_family>,
                          plane_b = one<SwapRaw::routine<plane_family>>, mesh_a = with_mesh<true>,
                          mesh_b = with_mesh<false>, none = unsupported;
// clang-format off
constexpr PairTable<ManifoldRoutine> kManifoldTable{{
    //             sphere   aabb     obb      capsule  triangle hull     plane    mesh
    /* sphere   */ {convex,  convex,  convex,  convex,  convex,  convex,  plane_b, mesh_b},
    /* aabb     */ {convex,  convex,  convex,  convex,  convex,  convex,  plane_b, mesh_b},
    /* obb      */ {convex,  convex,  convex,  convex,  convex,  convex,  plane_b, mesh_b},
    /* capsule  */ {convex,  convex,  convex,  convex,  convex,  convex,  plane_b, mesh_b},
    /* triangle */ {convex,  convex,  convex,  convex,  convex,  convex,  plane_b, mesh_b},
    /* hull     */ {convex,  convex,  convex,  convex,  convex,  convex,  plane_b, mesh_b},
    /* plane    */ {plane_a, plane_a, plane_a, plane_a, plane_a, plane_a, none,    none},
    /* mesh     */ {mesh_a,  mesh_a,  mesh_a,  mesh_a,  mesh_a,  mesh_a,  none,    none},
}};
// clang-format on

} // namespace

bool convex_manifold(const Shape& a, const Shape& b, double margin, RawManifold& out) {
    return kConvexTable[a.index()][b.index()](a, b, margin, out);
}

ManifoldQuery manifolds(const Shape& a, const Shape& b, double margin, std::span<Manifold> out) {
    margin = margin > 0 ? margin : 0.0; // a negative or NaN margin asks for overlaps only
    return kManifoldTable[a.index()][b.index()](a, b, margin, out);
}

} // namespace collide
