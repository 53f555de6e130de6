#include "detection/sat_triangle_box.h"

#include <array>

#include "detection/sat_convex.h"

namespace collide {

namespace {

/// A triangle's corners, face direction and edge directions, kept alive for a ConvexView.
struct TriangleParts {
    std::array<Vec3, 3> vertices;
    std::array<Vec3, 1> normal;
    std::array<Vec3, 3> edges;

    explicit TriangleParts(const Triangle& t)
            : vertices{t.a, t.b, t.c}, normal{}, edges{t.b - t.a, t.c - t.b, t.a - t.c} {
        const Vec3 n = cross(edges[0], t.c - t.a);
        // A triangle with (nearly) collinear corners has no face direction: leave it zero so the
        // test skips that axis; its edges still carry the test.
        if (length_squared(n) > kSatParallelEpsilon * length_squared(edges[0]) * length_squared(t.c - t.a))
            normal[0] = n;
    }
    ConvexView view() const { return {vertices, normal, edges}; }
};

/// A box's corners and its axes (face and edge directions alike), kept alive for a ConvexView.
struct BoxParts {
    std::array<Vec3, 8> vertices;
    std::array<Vec3, 3> axes;

    explicit BoxParts(const Obb& b) : vertices(corners_of(b)), axes{b.axes.col[0], b.axes.col[1], b.axes.col[2]} {}
    ConvexView view() const { return {vertices, axes, axes}; }
};

} // namespace

// Both orders are the generic test of sat_convex on the two shapes' parts: its fixed order
// (A's faces, B's faces, A's edge i × B's edge j) is exactly the order each function documents.
SatResult sat_box_triangle(const Obb& box, const Triangle& tri) {
    const BoxParts b(box);
    const TriangleParts t(tri);
    return sat_convex(b.view(), t.view());
}

SatResult sat_triangle_box(const Triangle& tri, const Obb& box) {
    const TriangleParts t(tri);
    const BoxParts b(box);
    return sat_convex(t.view(), b.view());
}

std::optional<Contact> contact_box_triangle(const Obb& box, const Triangle& tri) {
    const SatResult r = sat_box_triangle(box, tri);
    if (r.separated) return std::nullopt;
    return Contact{r.normal, r.gap};
}

std::optional<Contact> contact_triangle_box(const Triangle& tri, const Obb& box) {
    const SatResult r = sat_triangle_box(tri, box);
    if (r.separated) return std::nullopt;
    return Contact{r.normal, r.gap};
}

} // namespace collide
