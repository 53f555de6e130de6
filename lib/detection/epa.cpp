#include "detection/epa.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace collide {

namespace {

constexpr int kMaxVertices = kEpaMaxIterations + 4;
// A closed triangulated polytope with V vertices has 2V − 4 faces; dead slots are reused.
constexpr int kMaxFaces = 2 * kMaxVertices;
constexpr int kMaxEdges = 3 * kMaxFaces;

struct Face {
    int i = 0, j = 0, k = 0;
    Vec3 n;          ///< unit outward normal (zero for a sliver, which is never the nearest)
    double dist = 0; ///< distance of the face's plane from the origin along n
    bool alive = false;
};

struct Polytope {
    std::array<SimplexVertex, kMaxVertices> v{};
    int nv = 0;
    std::array<Face, kMaxFaces> f{};
    int nf = 0;
    Vec3 interior; ///< a point strictly inside: orients every face outwards

    bool add_face(int i, int j, int k) {
        int slot = -1;
        for (int s = 0; s < nf && slot < 0; ++s)
            if (!f[static_cast<std::size_t>(s)].alive) slot = s;
        if (slot < 0) {
            if (nf == kMaxFaces) return false;
            slot = nf++;
        }
        const Vec3& a = v[static_cast<std::size_t>(i)].w;
        Vec3 n = cross(v[static_cast<std::size_t>(j)].w - a, v[static_cast<std::size_t>(k)].w - a);
        if (dot(n, a - interior) < 0) {
            std::swap(j, k);
            n = -n;
        }
        Face& face = f[static_cast<std::size_t>(slot)];
        face = Face{i, j, k, normalize(n), 0, true};
        face.dist = length_squared(face.n) > 0 ? dot(face.n, a) : std::numeric_limits<double>::infinity();
        return true;
    }
};

// A normal for a Minkowski difference with no volume: across the flat set, signed towards B.
Vec3 signed_towards(const Vec3& n, const Vec3& a_to_b) { return dot(n, a_to_b) < 0 ? -n : n; }

} // namespace

// Pseudocode (van den Bergen 2001):
//   polytope ← GJK's simplex, blown up to a tetrahedron around the origin by support points
//     along directions off its line or plane (none found: the difference is flat; answer 0
//     depth across it)
//   loop at most kEpaMaxIterations times:
//     f ← the face nearest the origin; w ← support_K(f.n)
//     if w·f.n − f.dist ≤ ε: f.dist is the core depth and f.n the normal; stop
//     remove every face w can see, keep their boundary (the horizon), fan it to w
//   depth ← core depth + radius of A + radius of B
EpaResult epa_penetration(const Shape& a, const Shape& b, const GjkSimplex& simplex) {
    const double radii = core_radius(a) + core_radius(b);
    const Vec3 a_to_b = centre_of(b) - centre_of(a);
    auto make = [&](const Vec3& d) { return support_vertex(a, b, d); };
    EpaResult out;
    auto flat_answer = [&](const Vec3& n) {
        out.flat = true;
        out.depth = radii;
        out.normal = length_squared(n) > 0 ? n : Vec3{0, 1, 0};
        return out;
    };

    Polytope p;
    p.nv = std::max(1, simplex.count);
    for (int i = 0; i < simplex.count; ++i) p.v[static_cast<std::size_t>(i)] = simplex.v[static_cast<std::size_t>(i)];
    if (simplex.count == 0) p.v[0] = make(a_to_b);
    double scale = 1.0;
    for (int i = 0; i < p.nv; ++i) scale = std::max(scale, length(p.v[static_cast<std::size_t>(i)].w));
    const double eps = 1e-12 * scale;

    // Blow a point, segment or triangle up to a tetrahedron.
    if (p.nv == 4) {
        const Vec3 o = p.v[0].w;
        const double volume = dot(cross(p.v[1].w - o, p.v[2].w - o), p.v[3].w - o);
        if (std::fabs(volume) <= eps * eps * eps) p.nv = 3;
    }
    if (p.nv == 3 && length(cross(p.v[1].w - p.v[0].w, p.v[2].w - p.v[0].w)) <= eps * scale) p.nv = 2;
    if (p.nv == 2 && length(p.v[1].w - p.v[0].w) <= eps) p.nv = 1;
    if (p.nv == 1) {
        const Vec3 axes[6] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}};
        for (const Vec3& d : axes) {
            const SimplexVertex w = make(d);
            if (length(w.w - p.v[0].w) > eps) {
                p.v[p.nv++] = w;
                break;
            }
        }
        if (p.nv == 1) return flat_answer(normalize(a_to_b));
    }
    if (p.nv == 2) {
        const Vec3 e = normalize(p.v[1].w - p.v[0].w);
        const Vec3 p1 = any_perpendicular(e), p2 = cross(e, p1);
        const Vec3 dirs[4] = {p1, -p1, p2, -p2};
        for (const Vec3& d : dirs) {
            const SimplexVertex w = make(d);
            if (length(cross(w.w - p.v[0].w, e)) > eps) {
                p.v[p.nv++] = w;
                break;
            }
        }
        if (p.nv == 2) {
            const Vec3 across = a_to_b - e * dot(a_to_b, e);
            return flat_answer(length(across) > eps ? normalize(across) : p1);
        }
    }
    if (p.nv == 3) {
        const Vec3 n = normalize(cross(p.v[1].w - p.v[0].w, p.v[2].w - p.v[0].w));
        const SimplexVertex up = make(n), down = make(-n);
        const double h_up = dot(n, up.w - p.v[0].w), h_down = -dot(n, down.w - p.v[0].w);
        if (std::max(h_up, h_down) <= eps) return flat_answer(signed_towards(n, a_to_b));
        p.v[p.nv++] = h_up >= h_down ? up : down;
    }
    p.interior = (p.v[0].w + p.v[1].w + p.v[2].w + p.v[3].w) * 0.25;
    p.add_face(0, 1, 2);
    p.add_face(0, 1, 3);
    p.add_face(0, 2, 3);
    p.add_face(1, 2, 3);

    std::array<std::array<int, 2>, kMaxEdges> horizon{};
    bool have_best = false;
    out.converged = false;
    for (int iteration = 0; iteration <= kEpaMaxIterations; ++iteration) {
        const Face* nearest = nullptr;
        for (int s = 0; s < p.nf; ++s) {
            const Face& face = p.f[static_cast<std::size_t>(s)];
            if (face.alive && (nearest == nullptr || face.dist < nearest->dist)) nearest = &face;
        }
        if (nearest == nullptr || !std::isfinite(nearest->dist)) break;
        have_best = true;
        out.iterations = iteration;
        out.depth = std::max(0.0, nearest->dist) + radii;
        out.normal = nearest->n;
        const SimplexVertex w = make(nearest->n);
        if (dot(w.w, nearest->n) - nearest->dist <= eps) {
            out.converged = true;
            break;
        }
        bool known = false;
        for (int i = 0; i < p.nv; ++i) known = known || p.v[static_cast<std::size_t>(i)].w == w.w;
        if (known || p.nv == kMaxVertices || iteration == kEpaMaxIterations) break;
        const int wi = p.nv;
        p.v[static_cast<std::size_t>(p.nv++)] = w;
        // Remove the faces w sees; an edge shared by two removed faces cancels out, the rest is
        // the horizon, fanned to w.
        int nh = 0;
        for (int s = 0; s < p.nf; ++s) {
            Face& face = p.f[static_cast<std::size_t>(s)];
            if (!face.alive || dot(face.n, w.w - p.v[static_cast<std::size_t>(face.i)].w) <= 0) continue;
            face.alive = false;
            const int edges[3][2] = {{face.i, face.j}, {face.j, face.k}, {face.k, face.i}};
            for (const auto& e : edges) {
                int found = -1;
                for (int h = 0; h < nh && found < 0; ++h) {
                    const auto& he = horizon[static_cast<std::size_t>(h)];
                    if (he[0] == e[1] && he[1] == e[0]) found = h;
                }
                if (found >= 0) {
                    horizon[static_cast<std::size_t>(found)] = horizon[static_cast<std::size_t>(--nh)];
                } else if (nh < kMaxEdges) {
                    horizon[static_cast<std::size_t>(nh++)] = {e[0], e[1]};
                }
            }
        }
        bool room = true;
        for (int h = 0; h < nh && room; ++h)
            room = p.add_face(horizon[static_cast<std::size_t>(h)][0], horizon[static_cast<std::size_t>(h)][1], wi);
        if (!room) break;
    }
    if (!have_best) out.normal = Vec3{};
    if (!is_finite(out.normal) || length_squared(out.normal) == 0 || !std::isfinite(out.depth)) {
        out.converged = false;
        out.normal = length_squared(a_to_b) > 0 ? normalize(a_to_b) : Vec3{0, 1, 0};
        out.depth = radii;
    }
    return out;
}

} // namespace collide
