#include "detection/manifold_mesh.h"

#include <algorithm>
#include <array>

#include "detection/contact_mesh.h"
#include "detection/manifold_clip.h"
#include "detection/manifold_polytope.h"
#include "detection/manifold_reduce.h"

namespace collide {

namespace {

/// A feature of the triangle (owner 1, corners 0…2) renamed by the mesh's vertex indices.
FeatureCode global(FeatureCode f, const std::array<int, 3>& corners) {
    if (f == kNoFeature || owner_of(f) != 1) return f;
    const auto g = [&](std::uint32_t k) { return std::uint32_t(corners[std::min<std::uint32_t>(k, 2)]); };
    const std::uint32_t lo = g(low_vertex(f)), hi = g(high_vertex(f));
    return lo == hi ? vertex_feature(1, lo) : edge_feature(1, lo, hi);
}

struct Group {
    RawManifold m;
    std::uint32_t key = 0;
    double deepest = 0;
};

double deepest_of(const RawManifold& m) {
    double d = m.points[0].depth;
    for (int k = 1; k < m.count; ++k) d = std::max(d, m.points[static_cast<std::size_t>(k)].depth);
    return d;
}

} // namespace

int manifolds_shape_mesh(const Shape& a, const Mesh& mesh, double margin, bool mesh_first, std::span<Manifold> out) {
    const ShapeKind ka = kind_of(a);
    if (ka == ShapeKind::mesh || ka == ShapeKind::plane || !mesh.data) return -1;
    const TriangleMesh& tm = *mesh.data;
    const double keep = kTouchEpsilon - margin;
    const Shape s = to_mesh_frame(mesh, a);
    const Vec3 centre = centre_of(s);
    Aabb box = bounds_of(s);
    const Vec3 grow{margin, margin, margin};
    box.min = box.min - grow;
    box.max = box.max + grow;
    const double merge_distance = 1e-9 * manifold_scale(s);
    const int capacity = std::min<int>(static_cast<int>(out.size()), kMaxMeshManifolds);

    std::array<Group, kMaxMeshManifolds> groups;
    int count = 0;
    for_each_triangle_near(tm, box, [&](int i, const Triangle& t) {
        const Shape ts = t;
        RawManifold raw;
        if (!convex_manifold(s, ts, margin, raw)) return true;
        const Vec3 outward = -raw.normal; // from the triangle towards the shape
        if (const auto face = inactive_feature_normal(t, tm.features[static_cast<std::size_t>(i)], outward, centre)) {
            if (dot(*face, outward) < 1 - 1e-12) {
                // A normal from an inactive feature: the triangle's face is the reference.
                RawManifold forced;
                if (!face_contact(triangle_face_toward(t, *face), 1, s, keep, forced)) return true;
                raw = forced;
            } else {
                raw.normal = -*face;
            }
        }
        const auto& corners = tm.triangles[static_cast<std::size_t>(i)];
        for (int k = 0; k < raw.count; ++k) {
            RawPoint& p = raw.points[static_cast<std::size_t>(k)];
            p.f1 = global(p.f1, corners);
            p.f2 = global(p.f2, corners);
        }
        const double deepest = deepest_of(raw);
        for (int g = 0; g < count; ++g) {
            Group& grp = groups[static_cast<std::size_t>(g)];
            if (!(dot(grp.m.normal, raw.normal) >= 1 - kMeshMergeCos)) continue;
            std::array<RawPoint, 2 * kMaxManifoldPoints> pts;
            int n = 0;
            for (int k = 0; k < grp.m.count; ++k)
                pts[static_cast<std::size_t>(n++)] = grp.m.points[static_cast<std::size_t>(k)];
            for (int k = 0; k < raw.count; ++k)
                pts[static_cast<std::size_t>(n++)] = raw.points[static_cast<std::size_t>(k)];
            n = merge_same_features(pts, n, merge_distance);
            reduce_points(pts, n, grp.m.normal, grp.m, 1.0);
            grp.key = std::min(grp.key, std::uint32_t(i));
            grp.deepest = std::max(grp.deepest, deepest);
            return true;
        }
        if (count < capacity) {
            groups[static_cast<std::size_t>(count++)] = Group{raw, std::uint32_t(i), deepest};
            return true;
        }
        int shallowest = -1;
        for (int g = 0; g < count; ++g)
            if (shallowest < 0 ||
                groups[static_cast<std::size_t>(g)].deepest < groups[static_cast<std::size_t>(shallowest)].deepest)
                shallowest = g;
        if (shallowest >= 0 && deepest > groups[static_cast<std::size_t>(shallowest)].deepest)
            groups[static_cast<std::size_t>(shallowest)] = Group{raw, std::uint32_t(i), deepest};
        return true;
    });
    std::sort(groups.begin(), groups.begin() + count, [](const Group& x, const Group& y) { return x.key < y.key; });
    for (int g = 0; g < count; ++g) {
        RawManifold m = groups[static_cast<std::size_t>(g)].m;
        m.normal = mesh.rotation * m.normal;
        for (int k = 0; k < m.count; ++k) {
            RawPoint& p = m.points[static_cast<std::size_t>(k)];
            p.point = mesh.rotation * p.point + mesh.position;
        }
        if (mesh_first) m = flipped(m);
        out[static_cast<std::size_t>(g)] = finish_manifold(m, groups[static_cast<std::size_t>(g)].key);
    }
    return count;
}

} // namespace collide
