#pragma once
/// \file
/// Triangle meshes for static level geometry: the immutable mesh data (vertices, triangles,
/// which edges and corners are real features, and a bounding-volume hierarchy over the
/// triangles), built once and shared by every copy of a scenario, and the walks over its
/// hierarchy that the mesh queries use. The `Mesh` shape (shapes.h) is a small handle onto it.
///
/// **Internal edges** (Jolt's "active edges", JoltPhysics Jolt/Geometry/ActiveEdges.h): an edge
/// shared by exactly two triangles is *inactive* when the two faces are concave across it, or
/// convex by less than kMeshActiveEdgeDegrees — a floor tiled by many triangles then has no edge
/// a body can snag on. Every other edge (on the mesh's border, shared by three or more
/// triangles, or convex by more than the angle) is *active*. A corner is active when any edge
/// of the mesh that meets it is. Contacts whose normal comes from an inactive edge or corner
/// are given the triangle's face normal instead (lib/detection/contact_mesh.h).

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "shapes/shapes.h"

namespace collide {

/// Two faces meeting at a convex edge by at most this angle (degrees) make the edge inactive.
inline constexpr double kMeshActiveEdgeDegrees = 5.0;

/// The most triangles a mesh may hold (a level, not a scan: 4 M triangles is about 300 MB).
inline constexpr std::size_t kMeshMaxTriangles = 4'000'000;

/// The deepest a mesh's hierarchy can be; the walks keep a stack this size (no heap).
inline constexpr int kMeshMaxDepth = 64;

/// One node of a mesh's bounding-volume hierarchy: 32 bytes, its bounds in single precision
/// rounded outward (never tighter than the triangles' double-precision bounds). The two children
/// of a node sit side by side (left at `first`, right at `first + 1`), so a walk reads both
/// children's boxes from one or two cache lines.
struct MeshNode {
    std::array<float, 3> lo{}; ///< lower corner of the bounds of every triangle below (m, mesh frame)
    std::array<float, 3> hi{}; ///< upper corner (m, mesh frame)
    int first = 0;             ///< a leaf: first entry in TriangleMesh::order; an inner node: its left child
    int count = 0;             ///< a leaf: how many triangles (> 0); an inner node: 0

    /// The bounds in double precision (m, mesh frame).
    Aabb box() const { return Aabb{{lo[0], lo[1], lo[2]}, {hi[0], hi[1], hi[2]}}; }
};

/// Feature flags of one triangle: bit k (0…2) is set when its edge from corner k to corner
/// (k + 1) mod 3 is active; bit 3 + k when corner k is active.
using TriangleFeatures = std::uint8_t;

/// An immutable triangle mesh in its own frame (m), with its hierarchy. Built by build_mesh.
struct TriangleMesh {
    std::vector<Vec3> vertices;                ///< corner positions (m, mesh frame)
    std::vector<std::array<int, 3>> triangles; ///< corner indices of each triangle
    std::vector<TriangleFeatures> features;    ///< per triangle: which edges and corners are active
    std::vector<MeshNode> nodes;               ///< the hierarchy; nodes[0] is the root
    std::vector<int> order;                    ///< triangle indices, grouped by leaf
    std::vector<Triangle> ordered;             ///< the triangles in `order`'s order: a leaf's corners lie together
    std::string source;                        ///< where it came from (a file name, or "inline"), for messages
    Aabb box;                                  ///< bounds of every triangle (m, mesh frame), exact

    /// Triangle `i` in the mesh frame.
    Triangle triangle(int i) const {
        const auto& t = triangles[static_cast<std::size_t>(i)];
        return Triangle{vertices[static_cast<std::size_t>(t[0])], vertices[static_cast<std::size_t>(t[1])],
                        vertices[static_cast<std::size_t>(t[2])]};
    }
    /// Bounds of the whole mesh (m, mesh frame).
    const Aabb& bounds() const { return box; }
};

/// Why a mesh could not be built.
struct MeshError {
    std::string message; ///< what is wrong, e.g. "triangle 3 has corner index 9, but there are 4 vertices"
    int triangle = -1;   ///< the triangle it concerns, −1 when none
};

/// Builds a mesh from corners and index triples: checks that every index is in range and every
/// coordinate finite, drops degenerate triangles (zero area) and fails when none is left or
/// when there are more than kMeshMaxTriangles; then finds each edge's neighbours (sorted edge
/// list: deterministic) and builds the hierarchy (median split along the longest axis of the
/// centroids, at most 4 triangles a leaf; ties broken by triangle index, so the same input
/// always gives the same tree). `source` names the mesh in messages.
std::shared_ptr<const TriangleMesh> build_mesh(std::vector<Vec3> vertices, std::vector<std::array<int, 3>> triangles,
                                               std::string source, MeshError* error);

/// A shape in another frame: `s` turned by `rotation` about the origin, then moved by `offset`
/// (a box that turns becomes a turned box). Used to bring a shape into a mesh's frame.
Shape transform_shape(const Shape& s, const Mat3& rotation, const Vec3& offset);

/// The axis-aligned bounds of `box` turned by `rotation` and moved by `offset` (m).
Aabb transform_bounds(const Aabb& box, const Mat3& rotation, const Vec3& offset);

/// A mesh's shape brought into its own frame: world → mesh frame of `mesh`.
inline Shape to_mesh_frame(const Mesh& mesh, const Shape& s) {
    Mat3 inverse;
    for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) inverse.col[c][static_cast<std::size_t>(r)] = mesh.rotation.at(c, r);
    return transform_shape(s, inverse, mul_transpose(mesh.rotation, -mesh.position));
}

/// True when the closed boxes overlap or touch.
constexpr bool boxes_touch(const Aabb& a, const Aabb& b) {
    return a.min.x <= b.max.x && b.min.x <= a.max.x && a.min.y <= b.max.y && b.min.y <= a.max.y && a.min.z <= b.max.z &&
           b.min.z <= a.max.z;
}

/// Calls `f(triangle index, triangle)` for every triangle whose bounds touch `box` (mesh frame),
/// in hierarchy order (deterministic); `f` returns false to stop the walk. No allocation.
template <class F> void for_each_triangle_near(const TriangleMesh& mesh, const Aabb& box, F&& f) {
    if (!boxes_touch(mesh.nodes[0].box(), box)) return;
    int stack[kMeshMaxDepth];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
        const MeshNode& n = mesh.nodes[static_cast<std::size_t>(stack[--top])];
        if (n.count > 0) {
            for (int k = 0; k < n.count; ++k) {
                const auto at = static_cast<std::size_t>(n.first + k);
                const Triangle& t = mesh.ordered[at];
                if (!boxes_touch(Aabb{min(min(t.a, t.b), t.c), max(max(t.a, t.b), t.c)}, box)) continue;
                if (!f(mesh.order[at], t)) return;
            }
            continue;
        }
        // Both children's boxes are tested here, side by side in memory: only touching ones are pushed.
        if (boxes_touch(mesh.nodes[static_cast<std::size_t>(n.first + 1)].box(), box)) stack[top++] = n.first + 1;
        if (boxes_touch(mesh.nodes[static_cast<std::size_t>(n.first)].box(), box)) stack[top++] = n.first;
    }
}

/// Calls `visit(node)` for the nodes a best-first-ish walk needs: `enter(box)` returns a lower
/// bound of what any triangle in the box can give (e.g. a distance or a ray's entry), and the
/// walk skips a node whose bound is above `*limit`; `leaf(index, triangle)` is called for each triangle
/// of a visited leaf and may lower `*limit`. The nearer child is walked first. No allocation.
template <class Enter, class Leaf>
void walk_mesh_nearest(const TriangleMesh& mesh, double* limit, Enter&& enter, Leaf&& leaf) {
    struct Item {
        int node;
        double bound;
    };
    Item stack[kMeshMaxDepth];
    int top = 0;
    stack[top++] = Item{0, enter(mesh.nodes[0].box())};
    while (top > 0) {
        const Item it = stack[--top];
        if (!(it.bound <= *limit)) continue;
        const MeshNode& n = mesh.nodes[static_cast<std::size_t>(it.node)];
        if (n.count > 0) {
            for (int k = 0; k < n.count; ++k) {
                const auto at = static_cast<std::size_t>(n.first + k);
                leaf(mesh.order[at], mesh.ordered[at]);
            }
            continue;
        }
        const double bl = enter(mesh.nodes[static_cast<std::size_t>(n.first)].box());
        const double br = enter(mesh.nodes[static_cast<std::size_t>(n.first + 1)].box());
        // Push the farther first so the nearer is walked first.
        if (bl <= br) {
            stack[top++] = Item{n.first + 1, br};
            stack[top++] = Item{n.first, bl};
        } else {
            stack[top++] = Item{n.first, bl};
            stack[top++] = Item{n.first + 1, br};
        }
    }
}

} // namespace collide
