#include "shapes/mass.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>

#include "math/overloaded.h"
#include "shapes/mesh.h"

namespace collide {

namespace {

constexpr double kPi = std::numbers::pi;

/// The inertia tensor (about the origin the moments are taken from) of a body whose second
/// moment per unit mass is `second` (E[x·xᵀ]), times `mass`: I = m·(tr(C)·1 − C).
Mat3 inertia_from_second_moment(const Mat3& second, double mass) {
    return mass * (trace(second) * diagonal(Vec3{1, 1, 1}) - second);
}

/// A box's inertia about its centre in its own axes: m/3·(b² + c², a² + c², a² + b²).
Mat3 box_inertia(const Vec3& half, double mass) {
    const Vec3 h2{half.x * half.x, half.y * half.y, half.z * half.z};
    return diagonal(Vec3{h2.y + h2.z, h2.x + h2.z, h2.x + h2.y} * (mass / 3));
}

/// The area-normalised second moment about the origin of the triangle a, b, c: (1/12)·(a·aᵀ +
/// b·bᵀ + c·cᵀ + s·sᵀ), s = a + b + c (the simplex moment formula for n = 2).
Mat3 triangle_second_moment(const Vec3& a, const Vec3& b, const Vec3& c) {
    const Vec3 s = a + b + c;
    return (1.0 / 12) * (outer(a, a) + outer(b, b) + outer(c, c) + outer(s, s));
}

/// A thin plate of `mass` over the triangles (corners[0], corners[k], corners[k + 1]) of a
/// convex polygon: its centre of mass and inertia about it.
MassProperties plate(const Vec3* corners, int count, double mass) {
    MassProperties out;
    out.mass = mass;
    double area = 0;
    Vec3 first;
    Mat3 second{{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}};
    for (int k = 1; k + 1 < count; ++k) {
        const Vec3 &a = corners[0], &b = corners[k], &c = corners[k + 1];
        const double w = 0.5 * length(cross(b - a, c - a));
        area += w;
        first += (a + b + c) * (w / 3);
        second = second + w * triangle_second_moment(a, b, c);
    }
    if (!(area > 0)) { // a degenerate plate: all its mass at its corners' mean
        Vec3 mean;
        for (int k = 0; k < count; ++k) mean += corners[k];
        out.centre = count > 0 ? mean / count : Vec3{};
        out.inertia = zero3();
        return out;
    }
    out.centre = first / area;
    const Mat3 about_centre = (1 / area) * second - outer(out.centre, out.centre);
    out.inertia = inertia_from_second_moment(about_centre, mass);
    return out;
}

/// A point's coordinates in the plane spanned by (u, v).
struct Planar {
    double x = 0, y = 0;
    int index = 0;
};

/// Twice the signed area of the triangle o, a, b in the plane.
double turn(const Planar& o, const Planar& a, const Planar& b) {
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

/// The convex hull of `p` (Andrew's monotone chain), counter-clockwise, collinear points
/// dropped; `p` is reordered. Returns how many of `out` it wrote.
int planar_hull(Planar* p, int n, Planar* out) {
    std::sort(p, p + n, [](const Planar& a, const Planar& b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
    if (n < 3) {
        std::copy(p, p + n, out);
        return n;
    }
    int k = 0;
    for (int i = 0; i < n; ++i) { // lower chain
        while (k >= 2 && turn(out[k - 2], out[k - 1], p[i]) <= 0) --k;
        out[k++] = p[i];
    }
    for (int i = n - 2, lower = k + 1; i >= 0; --i) { // upper chain
        while (k >= lower && turn(out[k - 2], out[k - 1], p[i]) <= 0) --k;
        out[k++] = p[i];
    }
    return k - 1; // the last point repeats the first
}

/// The points of `hull` within `tolerance` of the plane (n, d), ordered counter-clockwise
/// seen from the side n points to, interior and collinear ones dropped; written to `out`.
int face_corners(const HullPoints& hull, const Vec3& n, double d, double tolerance, int* out) {
    const Vec3 u = any_perpendicular(n);
    const Vec3 v = cross(n, u);
    std::array<Planar, kHullMaxPoints> on{};
    std::array<Planar, kHullMaxPoints + 1> ring{};
    int count = 0;
    for (int i = 0; i < hull.count; ++i) {
        const Vec3& p = hull.points[static_cast<std::size_t>(i)];
        if (std::fabs(dot(n, p) - d) <= tolerance) on[static_cast<std::size_t>(count++)] = {dot(p, u), dot(p, v), i};
    }
    const int corners = planar_hull(on.data(), count, ring.data());
    for (int k = 0; k < corners; ++k) out[k] = ring[static_cast<std::size_t>(k)].index;
    return corners;
}

} // namespace

HullFaces hull_faces(const HullPoints& hull) {
    HullFaces out;
    const int n = hull.count;
    if (n < 3) return out;
    Vec3 mean;
    for (int i = 0; i < n; ++i) mean += hull.points[static_cast<std::size_t>(i)];
    mean = mean / n;
    double scale = 0;
    for (int i = 0; i < n; ++i) scale = std::max(scale, length(hull.points[static_cast<std::size_t>(i)] - mean));
    if (!(scale > 0)) return out;
    const double tolerance = 1e-9 * scale;
    const auto add_face = [&](const Vec3& normal, double offset) {
        for (int f = 0; f < out.face_count; ++f) {
            const HullFaces::Face& g = out.faces[static_cast<std::size_t>(f)];
            if (dot(g.normal, normal) > 1 - 1e-9 && std::fabs(g.offset - offset) <= tolerance) return;
        }
        if (out.face_count == HullFaces::kMaxFaces) return;
        int* corners = out.corners.data() + out.corner_count;
        const int count = face_corners(hull, normal, offset, tolerance, corners);
        if (count < 3 || out.corner_count + count > static_cast<int>(out.corners.size())) return;
        out.faces[static_cast<std::size_t>(out.face_count++)] = {normal, offset, out.corner_count, count};
        out.corner_count += count;
    };
    bool any_plane = false;
    for (int i = 0; i < n; ++i)
        for (int j = i + 1; j < n; ++j)
            for (int k = j + 1; k < n; ++k) {
                const Vec3& a = hull.points[static_cast<std::size_t>(i)];
                const Vec3 c = cross(hull.points[static_cast<std::size_t>(j)] - a,
                                     hull.points[static_cast<std::size_t>(k)] - a);
                const double len = length(c);
                if (!(len > 1e-12 * scale * scale)) continue; // collinear
                any_plane = true;
                const Vec3 normal = c / len;
                const double offset = dot(normal, a);
                bool above = false, below = false;
                for (int m = 0; m < n && !(above && below); ++m) {
                    const double s = dot(normal, hull.points[static_cast<std::size_t>(m)]) - offset;
                    above = above || s > tolerance;
                    below = below || s < -tolerance;
                }
                if (above && below) continue; // points on both sides: not a supporting plane
                if (!above && !below) {       // every point in this plane: a flat hull, both sides
                    out.flat = true;
                    add_face(normal, offset);
                    add_face(normal * -1.0, -offset);
                    return out;
                }
                if (!above)
                    add_face(normal, offset);
                else
                    add_face(normal * -1.0, -offset);
            }
    (void)any_plane;
    return out;
}

double volume_of(const Shape& shape) {
    return std::visit(Overloaded{
                              [](const Sphere& s) { return 4.0 / 3.0 * kPi * s.radius * s.radius * s.radius; },
                              [](const Aabb& b) {
                                  const Vec3 e = b.max - b.min;
                                  return e.x * e.y * e.z;
                              },
                              [](const Obb& b) { return 8 * b.half.x * b.half.y * b.half.z; },
                              [](const Capsule& c) {
                                  const double r = c.radius;
                                  return kPi * r * r * length(c.b - c.a) + 4.0 / 3.0 * kPi * r * r * r;
                              },
                              [](const Triangle&) { return 0.0; },
                              [](const Hull& placed) {
                                  const HullPoints h = placed_points(placed);
                                  const HullFaces faces = hull_faces(h);
                                  if (faces.flat) return 0.0;
                                  double v = 0;
                                  for (int f = 0; f < faces.face_count; ++f) {
                                      const HullFaces::Face& face = faces.faces[static_cast<std::size_t>(f)];
                                      const int* c = faces.corners.data() + face.first;
                                      const Vec3& a = h.points[static_cast<std::size_t>(c[0])];
                                      for (int k = 1; k + 1 < face.count; ++k)
                                          v += dot(a, cross(h.points[static_cast<std::size_t>(c[k])],
                                                            h.points[static_cast<std::size_t>(c[k + 1])])) /
                                               6;
                                  }
                                  return v;
                              },
                              [](const Plane&) { return std::numeric_limits<double>::infinity(); },
                              [](const Mesh&) { return 0.0; },
                      },
                      shape);
}

MassProperties mass_properties(const Shape& shape, double mass) {
    MassProperties out;
    out.mass = mass;
    out.inertia = zero3();
    std::visit(Overloaded{
                       [&](const Sphere& s) {
                           out.centre = s.centre;
                           out.inertia = diagonal(Vec3{1, 1, 1} * (0.4 * mass * s.radius * s.radius));
                       },
                       [&](const Aabb& b) {
                           out.centre = centre_of(b);
                           out.inertia = box_inertia(half_of(b), mass);
                       },
                       [&](const Obb& b) {
                           out.centre = b.centre;
                           out.inertia = rotate_tensor(b.axes, box_inertia(b.half, mass));
                       },
                       [&](const Capsule& c) {
                           out.centre = (c.a + c.b) * 0.5;
                           const double r = c.radius, len = length(c.b - c.a);
                           const double cylinder = kPi * r * r * len, caps = 4.0 / 3.0 * kPi * r * r * r;
                           const double total = cylinder + caps;
                           if (!(total > 0)) return;
                           const double mc = mass * cylinder / total, mh = mass * caps / total;
                           // Along the axis: a cylinder's ½·m·r² and a sphere's 2/5·m·r². Across it, about
                           // the middle: the cylinder's m·(r²/4 + L²/12), and the two hemispheres moved
                           // out to their places: m_h·(2r²/5 + L²/4 + 3·L·r/8).
                           const double axial = mc * r * r / 2 + mh * 0.4 * r * r;
                           const double across = mc * (r * r / 4 + len * len / 12) +
                                                 mh * (0.4 * r * r + len * len / 4 + 3 * len * r / 8);
                           if (!(len > 0)) {
                               out.inertia = diagonal(Vec3{1, 1, 1} * axial);
                               return;
                           }
                           const Vec3 u = (c.b - c.a) / len;
                           out.inertia = diagonal(Vec3{1, 1, 1} * across) + (axial - across) * outer(u, u);
                       },
                       [&](const Triangle& t) {
                           const std::array<Vec3, 3> corners{t.a, t.b, t.c};
                           out = plate(corners.data(), 3, mass);
                       },
                       [&](const Hull& placed) {
                           const HullPoints h = placed_points(placed);
                           const HullFaces faces = hull_faces(h);
                           if (faces.face_count == 0) { // fewer than three distinct points, or collinear
                               out = plate(h.points.data(), h.count, mass);
                               return;
                           }
                           if (faces.flat) {
                               const HullFaces::Face& face = faces.faces[0];
                               std::array<Vec3, kHullMaxPoints> corners{};
                               for (int k = 0; k < face.count; ++k)
                                   corners[static_cast<std::size_t>(k)] = h.points[static_cast<std::size_t>(
                                           faces.corners[static_cast<std::size_t>(face.first + k)])];
                               out = plate(corners.data(), face.count, mass);
                               return;
                           }
                           // Tetrahedra from a point inside (the points' mean, for rounding) to each face
                           // triangle: volume V = a·(b × c)/6, first moment V·(a + b + c)/4 and second
                           // moment (V/20)·(Σ vᵢvᵢᵀ + s·sᵀ) (the simplex formula for n = 3, the fourth
                           // corner at the origin).
                           Vec3 mean;
                           for (int i = 0; i < h.count; ++i) mean += h.points[static_cast<std::size_t>(i)];
                           mean = mean / h.count;
                           double volume = 0;
                           Vec3 first;
                           Mat3 second{{{0, 0, 0}, {0, 0, 0}, {0, 0, 0}}};
                           for (int f = 0; f < faces.face_count; ++f) {
                               const HullFaces::Face& face = faces.faces[static_cast<std::size_t>(f)];
                               const int* c = faces.corners.data() + face.first;
                               const Vec3 a = h.points[static_cast<std::size_t>(c[0])] - mean;
                               for (int k = 1; k + 1 < face.count; ++k) {
                                   const Vec3 b = h.points[static_cast<std::size_t>(c[k])] - mean;
                                   const Vec3 d = h.points[static_cast<std::size_t>(c[k + 1])] - mean;
                                   const double v = dot(a, cross(b, d)) / 6;
                                   const Vec3 s = a + b + d;
                                   volume += v;
                                   first += s * (v / 4);
                                   second = second + (v / 20) * (outer(a, a) + outer(b, b) + outer(d, d) + outer(s, s));
                               }
                           }
                           if (!(volume > 0)) return;
                           const Vec3 g = first / volume; // relative to the mean
                           out.centre = mean + g;
                           out.inertia = inertia_from_second_moment((1 / volume) * second - outer(g, g), mass);
                       },
                       [&](const Plane& p) { out.centre = p.normal * p.offset; },
                       [&](const Mesh& m) { out.centre = centre_of(Shape{m}); },
               },
               shape);
    return out;
}

} // namespace collide
