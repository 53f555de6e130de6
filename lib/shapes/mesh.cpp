#include "shapes/mesh.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <tuple>

#include "math/overloaded.h"
#include "math/trig.h"

namespace collide {

namespace {

/// An edge of a triangle, keyed by its corner indices in increasing order.
struct EdgeRef {
    int lo = 0, hi = 0; ///< corner indices, lo < hi
    int tri = 0;        ///< the triangle
    int k = 0;          ///< which of its edges: corner k to corner (k + 1) mod 3
};

/// How far the apex `p` lies above the plane of triangle `t` (unit normal `n`), as the sine of
/// its angle seen from the edge `a`–`b`: > 0 above (the faces fold up: concave), < 0 below.
double fold_sine(const Vec3& n, const Vec3& a, const Vec3& b, const Vec3& p) {
    const Vec3 e = normalize(b - a);
    const Vec3 off = (p - a) - e * dot(p - a, e); // from the edge line to p
    const double l = length(off);
    if (!(l > 0)) return 0;
    return dot(n, off) / l;
}

/// The largest float not above `x`, and the smallest not below it.
float round_down(double x) {
    float f = static_cast<float>(x);
    if (static_cast<double>(f) > x) f = std::nextafter(f, -std::numeric_limits<float>::infinity());
    return f;
}
float round_up(double x) {
    float f = static_cast<float>(x);
    if (static_cast<double>(f) < x) f = std::nextafter(f, std::numeric_limits<float>::infinity());
    return f;
}

struct Builder {
    TriangleMesh& m;
    std::vector<Vec3> centroids;
    std::vector<Aabb> boxes;

    /// Fills node `index` with the triangles order[first, first + count).
    void build(int index, int first, int count) {
        Aabb box = boxes[static_cast<std::size_t>(m.order[static_cast<std::size_t>(first)])];
        Aabb cbox{centroids[static_cast<std::size_t>(m.order[static_cast<std::size_t>(first)])],
                  centroids[static_cast<std::size_t>(m.order[static_cast<std::size_t>(first)])]};
        for (int i = first + 1; i < first + count; ++i) {
            const auto t = static_cast<std::size_t>(m.order[static_cast<std::size_t>(i)]);
            box.min = min(box.min, boxes[t].min);
            box.max = max(box.max, boxes[t].max);
            cbox.min = min(cbox.min, centroids[t]);
            cbox.max = max(cbox.max, centroids[t]);
        }
        MeshNode& node = m.nodes[static_cast<std::size_t>(index)];
        for (std::size_t k = 0; k < 3; ++k) {
            node.lo[k] = round_down(box.min[k]);
            node.hi[k] = round_up(box.max[k]);
        }
        if (count <= 4) {
            node.first = first;
            node.count = count;
            return;
        }
        const Vec3 ext = cbox.max - cbox.min;
        const std::size_t axis = ext.x >= ext.y && ext.x >= ext.z ? 0 : (ext.y >= ext.z ? 1 : 2);
        const int mid = first + count / 2;
        // Median split; ties by triangle index, so the tree depends on the input only.
        std::nth_element(m.order.begin() + first, m.order.begin() + mid, m.order.begin() + first + count,
                         [&](int a, int b) {
                             const double ca = centroids[static_cast<std::size_t>(a)][axis];
                             const double cb = centroids[static_cast<std::size_t>(b)][axis];
                             return ca < cb || (ca == cb && a < b);
                         });
        const int left = static_cast<int>(m.nodes.size()); // the two children side by side
        m.nodes.emplace_back();
        m.nodes.emplace_back();
        m.nodes[static_cast<std::size_t>(index)].first = left;
        m.nodes[static_cast<std::size_t>(index)].count = 0;
        build(left, first, mid - first);
        build(left + 1, mid, first + count - mid);
    }
};

} // namespace

std::shared_ptr<const TriangleMesh> build_mesh(std::vector<Vec3> vertices, std::vector<std::array<int, 3>> triangles,
                                               std::string source, MeshError* error) {
    auto fail = [&](std::string message, int tri) -> std::shared_ptr<const TriangleMesh> {
        if (error) *error = MeshError{std::move(message), tri};
        return nullptr;
    };
    if (triangles.size() > kMeshMaxTriangles)
        return fail("a mesh holds at most " + std::to_string(kMeshMaxTriangles) + " triangles, this one " +
                            std::to_string(triangles.size()),
                    -1);
    for (std::size_t i = 0; i < vertices.size(); ++i)
        if (!std::isfinite(vertices[i].x) || !std::isfinite(vertices[i].y) || !std::isfinite(vertices[i].z))
            return fail("vertex " + std::to_string(i) + " has a coordinate that is not a finite number", -1);
    auto m = std::make_shared<TriangleMesh>();
    m->source = std::move(source);
    const auto nv = static_cast<long long>(vertices.size());
    for (std::size_t i = 0; i < triangles.size(); ++i) {
        const auto& t = triangles[i];
        for (int c : t)
            if (c < 0 || c >= nv)
                return fail("triangle " + std::to_string(i) + " has corner index " + std::to_string(c) +
                                    ", but there " +
                                    (nv == 1 ? "is 1 vertex" : "are " + std::to_string(nv) + " vertices") + " (0 to " +
                                    std::to_string(nv - 1) + ")",
                            static_cast<int>(i));
        const Vec3 a = vertices[static_cast<std::size_t>(t[0])], b = vertices[static_cast<std::size_t>(t[1])],
                   c = vertices[static_cast<std::size_t>(t[2])];
        const double longest = std::max({length_squared(b - a), length_squared(c - b), length_squared(a - c)});
        const double area2 = length(cross(b - a, c - a));
        if (t[0] == t[1] || t[1] == t[2] || t[0] == t[2] || !(area2 > 1e-12 * longest)) continue; // degenerate
        m->triangles.push_back(t);
    }
    if (m->triangles.empty())
        return fail(triangles.empty() ? "the mesh has no triangles"
                                      : "every triangle of the mesh is degenerate (zero area): nothing to collide with",
                    -1);
    m->vertices = std::move(vertices);

    // Adjacency: every edge by its sorted corner indices; an edge with exactly two triangles
    // is inactive when the faces are concave across it or convex by at most the angle.
    const std::size_t nt = m->triangles.size();
    std::vector<EdgeRef> edges;
    edges.reserve(3 * nt);
    for (std::size_t i = 0; i < nt; ++i)
        for (int k = 0; k < 3; ++k) {
            const int a = m->triangles[i][static_cast<std::size_t>(k)];
            const int b = m->triangles[i][static_cast<std::size_t>((k + 1) % 3)];
            edges.push_back(EdgeRef{std::min(a, b), std::max(a, b), static_cast<int>(i), k});
        }
    std::sort(edges.begin(), edges.end(), [](const EdgeRef& x, const EdgeRef& y) {
        return std::tie(x.lo, x.hi, x.tri, x.k) < std::tie(y.lo, y.hi, y.tri, y.k);
    });
    m->features.assign(nt, 0);
    std::vector<std::uint8_t> vertex_active(m->vertices.size(), 0);
    const double convex_sine = sin_cos_degrees(kMeshActiveEdgeDegrees).sin;
    for (std::size_t s = 0; s < edges.size();) {
        std::size_t e = s + 1;
        while (e < edges.size() && edges[e].lo == edges[s].lo && edges[e].hi == edges[s].hi) ++e;
        bool active = true;
        if (e - s == 2) {
            const EdgeRef& p = edges[s];
            const EdgeRef& q = edges[s + 1];
            const Triangle tp = m->triangle(p.tri), tq = m->triangle(q.tri);
            const Vec3 np = normalize(cross(tp.b - tp.a, tp.c - tp.a));
            const Vec3 nq = normalize(cross(tq.b - tq.a, tq.c - tq.a));
            const auto apex = [&](const EdgeRef& r) {
                const auto& t = m->triangles[static_cast<std::size_t>(r.tri)];
                return m->vertices[static_cast<std::size_t>(t[static_cast<std::size_t>((r.k + 2) % 3)])];
            };
            const Vec3 ea = m->vertices[static_cast<std::size_t>(p.lo)],
                       eb = m->vertices[static_cast<std::size_t>(p.hi)];
            const double sp = fold_sine(np, ea, eb, apex(q)); // q's apex seen from p's face
            const double sq = fold_sine(nq, ea, eb, apex(p));
            active = sp < -convex_sine || sq < -convex_sine;
        }
        for (std::size_t i = s; i < e; ++i) {
            if (!active) continue;
            m->features[static_cast<std::size_t>(edges[i].tri)] |= static_cast<TriangleFeatures>(1u << edges[i].k);
            vertex_active[static_cast<std::size_t>(edges[i].lo)] = 1;
            vertex_active[static_cast<std::size_t>(edges[i].hi)] = 1;
        }
        s = e;
    }
    for (std::size_t i = 0; i < nt; ++i)
        for (std::size_t k = 0; k < 3; ++k)
            if (vertex_active[static_cast<std::size_t>(m->triangles[i][k])])
                m->features[i] |= static_cast<TriangleFeatures>(1u << (3 + k));

    // The hierarchy.
    Builder b{*m, {}, {}};
    b.centroids.resize(nt);
    b.boxes.resize(nt);
    for (std::size_t i = 0; i < nt; ++i) {
        const Triangle t = m->triangle(static_cast<int>(i));
        b.centroids[i] = (t.a + t.b + t.c) / 3.0;
        b.boxes[i] = Aabb{min(min(t.a, t.b), t.c), max(max(t.a, t.b), t.c)};
    }
    m->order.resize(nt);
    for (std::size_t i = 0; i < nt; ++i) m->order[i] = static_cast<int>(i);
    m->nodes.reserve(nt);
    m->nodes.emplace_back();
    b.build(0, 0, static_cast<int>(nt));
    m->box = Aabb{b.boxes[0].min, b.boxes[0].max};
    for (const Aabb& tb : b.boxes) {
        m->box.min = min(m->box.min, tb.min);
        m->box.max = max(m->box.max, tb.max);
    }
    m->ordered.resize(nt);
    for (std::size_t i = 0; i < nt; ++i) m->ordered[i] = m->triangle(m->order[i]);
    return m;
}

Shape transform_shape(const Shape& s, const Mat3& r, const Vec3& t) {
    const bool turns = !(r == identity3());
    auto at = [&](const Vec3& p) { return r * p + t; };
    return std::visit(Overloaded{
                              [&](const Sphere& x) -> Shape {
                                  return Sphere{at(x.centre), x.radius};
                              },
                              [&](const Aabb& x) -> Shape {
                                  if (!turns) return Aabb{x.min + t, x.max + t};
                                  return Obb{at(centre_of(x)), r, half_of(x)};
                              },
                              [&](const Obb& x) -> Shape {
                                  return Obb{at(x.centre), r * x.axes, x.half};
                              },
                              [&](const Capsule& x) -> Shape {
                                  return Capsule{at(x.a), at(x.b), x.radius};
                              },
                              [&](const Triangle& x) -> Shape {
                                  return Triangle{at(x.a), at(x.b), at(x.c)};
                              },
                              [&](const Hull& x) -> Shape {
                                  return Hull{x.data, r * x.rotation, at(x.position)};
                              },
                              [&](const Plane& x) -> Shape {
                                  const Vec3 n = r * x.normal;
                                  return Plane{n, x.offset + dot(n, t)};
                              },
                              [&](const Mesh& x) -> Shape {
                                  return Mesh{x.data, r * x.rotation, at(x.position)};
                              },
                      },
                      s);
}

Aabb transform_bounds(const Aabb& box, const Mat3& r, const Vec3& t) {
    const Vec3 c = r * centre_of(box) + t;
    const Vec3 h = half_of(box);
    Vec3 e;
    for (int i = 0; i < 3; ++i)
        e[static_cast<std::size_t>(i)] =
                std::fabs(r.at(i, 0)) * h.x + std::fabs(r.at(i, 1)) * h.y + std::fabs(r.at(i, 2)) * h.z;
    return Aabb{c - e, c + e};
}

} // namespace collide
