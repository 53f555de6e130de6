#include "shapes/shapes.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>

#include "math/overloaded.h"
#include "shapes/mesh.h"

namespace collide {

const char* shape_kind_name(ShapeKind kind) {
    switch (kind) {
    case ShapeKind::sphere: return "sphere";
    case ShapeKind::aabb: return "box";
    case ShapeKind::obb: return "box";
    case ShapeKind::capsule: return "capsule";
    case ShapeKind::triangle: return "triangle";
    case ShapeKind::hull: return "hull";
    case ShapeKind::plane: return "plane";
    case ShapeKind::mesh: return "mesh";
    }
    return "shape";
}

HullPoints placed_points(const Hull& hull) {
    HullPoints out;
    out.count = hull.count();
    for (int i = 0; i < out.count; ++i) out.points[static_cast<std::size_t>(i)] = hull.point(i);
    return out;
}

Obb to_obb(const Aabb& box) { return Obb{centre_of(box), identity3(), half_of(box)}; }

std::array<Vec3, 8> corners_of(const Obb& box) {
    std::array<Vec3, 8> out{};
    int n = 0;
    for (int i = -1; i <= 1; i += 2)
        for (int j = -1; j <= 1; j += 2)
            for (int k = -1; k <= 1; k += 2)
                out[static_cast<std::size_t>(n++)] = box.centre + box.axes.col[0] * (i * box.half.x) +
                                                     box.axes.col[1] * (j * box.half.y) +
                                                     box.axes.col[2] * (k * box.half.z);
    return out;
}

Vec3 centre_of(const Shape& shape) {
    return std::visit(Overloaded{
                              [](const Sphere& s) { return s.centre; },
                              [](const Aabb& b) { return centre_of(b); },
                              [](const Obb& b) { return b.centre; },
                              [](const Capsule& c) { return (c.a + c.b) * 0.5; },
                              [](const Triangle& t) { return (t.a + t.b + t.c) / 3.0; },
                              [](const Hull& h) {
                                  const int n = h.count();
                                  Vec3 sum;
                                  for (int i = 0; i < n; ++i) sum += h.data->points[static_cast<std::size_t>(i)];
                                  return n > 0 ? h.rotation * (sum / n) + h.position : h.position;
                              },
                              [](const Plane& p) { return p.normal * p.offset; },
                              [](const Mesh& m) { return m.rotation * centre_of(m.data->bounds()) + m.position; },
                      },
                      shape);
}

Aabb bounds_of(const Shape& shape) {
    return std::visit(
            Overloaded{
                    [](const Sphere& s) {
                        const Vec3 r{s.radius, s.radius, s.radius};
                        return Aabb{s.centre - r, s.centre + r};
                    },
                    [](const Aabb& b) { return b; },
                    [](const Obb& b) {
                        const Vec3 e{std::fabs(b.axes.col[0].x) * b.half.x + std::fabs(b.axes.col[1].x) * b.half.y +
                                             std::fabs(b.axes.col[2].x) * b.half.z,
                                     std::fabs(b.axes.col[0].y) * b.half.x + std::fabs(b.axes.col[1].y) * b.half.y +
                                             std::fabs(b.axes.col[2].y) * b.half.z,
                                     std::fabs(b.axes.col[0].z) * b.half.x + std::fabs(b.axes.col[1].z) * b.half.y +
                                             std::fabs(b.axes.col[2].z) * b.half.z};
                        return Aabb{b.centre - e, b.centre + e};
                    },
                    [](const Capsule& c) {
                        const Vec3 r{c.radius, c.radius, c.radius};
                        return Aabb{min(c.a, c.b) - r, max(c.a, c.b) + r};
                    },
                    [](const Triangle& t) {
                        return Aabb{min(min(t.a, t.b), t.c), max(max(t.a, t.b), t.c)};
                    },
                    [](const Hull& h) {
                        const int n = h.count();
                        if (n == 0) return Aabb{h.position, h.position};
                        const Vec3 first = h.point(0);
                        Aabb out{first, first};
                        for (int i = 1; i < n; ++i) {
                            const Vec3 p = h.point(i);
                            out.min = min(out.min, p);
                            out.max = max(out.max, p);
                        }
                        return out;
                    },
                    [](const Plane& p) {
                        constexpr double inf = std::numeric_limits<double>::infinity();
                        Aabb out{{-inf, -inf, -inf}, {inf, inf, inf}};
                        // A plane perpendicular to an axis bounds that axis from above (solid side below).
                        for (std::size_t i = 0; i < 3; ++i) {
                            if (std::fabs(p.normal[i]) == 1.0) {
                                if (p.normal[i] > 0)
                                    out.max[i] = p.offset;
                                else
                                    out.min[i] = -p.offset;
                            }
                        }
                        return out;
                    },
                    [](const Mesh& m) { return transform_bounds(m.data->bounds(), m.rotation, m.position); },
            },
            shape);
}

Shape translate(const Shape& shape, const Vec3& d) {
    return std::visit(Overloaded{
                              [&](const Sphere& s) -> Shape {
                                  return Sphere{s.centre + d, s.radius};
                              },
                              [&](const Aabb& b) -> Shape {
                                  return Aabb{b.min + d, b.max + d};
                              },
                              [&](const Obb& b) -> Shape {
                                  return Obb{b.centre + d, b.axes, b.half};
                              },
                              [&](const Capsule& c) -> Shape {
                                  return Capsule{c.a + d, c.b + d, c.radius};
                              },
                              [&](const Triangle& t) -> Shape {
                                  return Triangle{t.a + d, t.b + d, t.c + d};
                              },
                              [&](const Hull& h) -> Shape {
                                  return Hull{h.data, h.rotation, h.position + d};
                              },
                              [&](const Plane& p) -> Shape {
                                  return Plane{p.normal, p.offset + dot(p.normal, d)};
                              },
                              [&](const Mesh& m) -> Shape {
                                  return Mesh{m.data, m.rotation, m.position + d};
                              },
                      },
                      shape);
}

Shape place(const Shape& local, const Vec3& position, const Quat& rotation) {
    if (rotation == Quat{}) return translate(local, position);
    const Mat3 r = to_mat3(rotation);
    auto at = [&](const Vec3& p) { return r * p + position; };
    return std::visit(Overloaded{
                              [&](const Sphere& s) -> Shape {
                                  return Sphere{at(s.centre), s.radius};
                              },
                              [&](const Aabb& b) -> Shape {
                                  return Obb{at(centre_of(b)), r, half_of(b)};
                              },
                              [&](const Obb& b) -> Shape {
                                  return Obb{at(b.centre), r * b.axes, b.half};
                              },
                              [&](const Capsule& c) -> Shape {
                                  return Capsule{at(c.a), at(c.b), c.radius};
                              },
                              [&](const Triangle& t) -> Shape {
                                  return Triangle{at(t.a), at(t.b), at(t.c)};
                              },
                              [&](const Hull& h) -> Shape {
                                  return Hull{h.data, r * h.rotation, at(h.position)};
                              },
                              [&](const Plane& p) -> Shape {
                                  const Vec3 n = r * p.normal;
                                  return Plane{n, p.offset + dot(n, position)};
                              },
                              [&](const Mesh& m) -> Shape {
                                  return Mesh{m.data, r * m.rotation, at(m.position)};
                              },
                      },
                      local);
}

namespace {

/// The alternative T of `out`, made the active one if it is not (its old value is not kept).
template <typename T> T& alternative(Shape& out) {
    if (auto* held = std::get_if<T>(&out)) return *held;
    return out.emplace<T>();
}

} // namespace

void assign_shape(Shape& out, const Shape& shape) {
    std::visit(
            [&](const auto& s) {
                using T = std::decay_t<decltype(s)>;
                alternative<T>(out) = s;
            },
            shape);
}

void translate_into(Shape& out, const Shape& shape, const Vec3& d) {
    std::visit(Overloaded{
                       [&](const Sphere& s) {
                           alternative<Sphere>(out) = Sphere{s.centre + d, s.radius};
                       },
                       [&](const Aabb& b) {
                           alternative<Aabb>(out) = Aabb{b.min + d, b.max + d};
                       },
                       [&](const Obb& b) {
                           alternative<Obb>(out) = Obb{b.centre + d, b.axes, b.half};
                       },
                       [&](const Capsule& c) {
                           alternative<Capsule>(out) = Capsule{c.a + d, c.b + d, c.radius};
                       },
                       [&](const Triangle& t) {
                           alternative<Triangle>(out) = Triangle{t.a + d, t.b + d, t.c + d};
                       },
                       [&](const Hull& h) {
                           alternative<Hull>(out) = Hull{h.data, h.rotation, h.position + d};
                       },
                       [&](const Plane& p) {
                           alternative<Plane>(out) = Plane{p.normal, p.offset + dot(p.normal, d)};
                       },
                       [&](const Mesh& m) {
                           alternative<Mesh>(out) = Mesh{m.data, m.rotation, m.position + d};
                       },
               },
               shape);
}

void place_into(Shape& out, const Shape& local, const Vec3& position, const Quat& rotation) {
    if (rotation == Quat{}) {
        translate_into(out, local, position);
        return;
    }
    const Mat3 r = to_mat3(rotation);
    auto at = [&](const Vec3& p) { return r * p + position; };
    std::visit(Overloaded{
                       [&](const Sphere& s) {
                           alternative<Sphere>(out) = Sphere{at(s.centre), s.radius};
                       },
                       [&](const Aabb& b) {
                           alternative<Obb>(out) = Obb{at(centre_of(b)), r, half_of(b)};
                       },
                       [&](const Obb& b) {
                           alternative<Obb>(out) = Obb{at(b.centre), r * b.axes, b.half};
                       },
                       [&](const Capsule& c) {
                           alternative<Capsule>(out) = Capsule{at(c.a), at(c.b), c.radius};
                       },
                       [&](const Triangle& t) {
                           alternative<Triangle>(out) = Triangle{at(t.a), at(t.b), at(t.c)};
                       },
                       [&](const Hull& h) {
                           alternative<Hull>(out) = Hull{h.data, r * h.rotation, at(h.position)};
                       },
                       [&](const Plane& p) {
                           const Vec3 n = r * p.normal;
                           alternative<Plane>(out) = Plane{n, p.offset + dot(n, position)};
                       },
                       [&](const Mesh& m) {
                           alternative<Mesh>(out) = Mesh{m.data, r * m.rotation, at(m.position)};
                       },
               },
               local);
}

double max_distance_from(const Shape& shape, const Vec3& q) {
    auto far = [&](const Vec3& p) { return length(p - q); };
    const auto box_reach = [&](const Aabb& b) {
        const Vec3 e{std::max(std::fabs(b.min.x - q.x), std::fabs(b.max.x - q.x)),
                     std::max(std::fabs(b.min.y - q.y), std::fabs(b.max.y - q.y)),
                     std::max(std::fabs(b.min.z - q.z), std::fabs(b.max.z - q.z))};
        return length(e);
    };
    return std::visit(Overloaded{
                              [&](const Sphere& s) { return far(s.centre) + s.radius; },
                              [&](const Aabb& b) { return box_reach(b); },
                              [&](const Obb& b) {
                                  double best = 0;
                                  for (const Vec3& c : corners_of(b)) best = std::max(best, far(c));
                                  return best;
                              },
                              [&](const Capsule& c) { return std::max(far(c.a), far(c.b)) + c.radius; },
                              [&](const Triangle& t) {
                                  return std::max({far(t.a), far(t.b), far(t.c)});
                              },
                              [&](const Hull& h) {
                                  double best = 0;
                                  for (int i = 0; i < h.count(); ++i) best = std::max(best, far(h.point(i)));
                                  return best;
                              },
                              [](const Plane&) { return std::numeric_limits<double>::infinity(); },
                              [&](const Mesh& m) { return box_reach(bounds_of(Shape{m})); }, // its bounds' corners
                      },
                      shape);
}

Vec3 support(const Shape& shape, const Vec3& d) {
    return std::visit(Overloaded{
                              [&](const Sphere& s) { return s.centre + normalize(d) * s.radius; },
                              [&](const Aabb& b) {
                                  return Vec3{d.x >= 0 ? b.max.x : b.min.x, d.y >= 0 ? b.max.y : b.min.y,
                                              d.z >= 0 ? b.max.z : b.min.z};
                              },
                              [&](const Obb& b) {
                                  Vec3 p = b.centre;
                                  for (std::size_t i = 0; i < 3; ++i) {
                                      const double s = dot(b.axes.col[i], d) >= 0 ? b.half[i] : -b.half[i];
                                      p += b.axes.col[i] * s;
                                  }
                                  return p;
                              },
                              [&](const Capsule& c) {
                                  const Vec3 end = dot(c.b - c.a, d) > 0 ? c.b : c.a;
                                  return end + normalize(d) * c.radius;
                              },
                              [&](const Triangle& t) {
                                  const double da = dot(t.a, d), db = dot(t.b, d), dc = dot(t.c, d);
                                  if (da >= db && da >= dc) return t.a;
                                  return db >= dc ? t.b : t.c;
                              },
                              [&](const Hull& h) {
                                  // Searched in the hull's frame: one turn of d, not one of each point.
                                  const int n = h.count();
                                  if (n == 0) return h.position;
                                  const Vec3 local = mul_transpose(h.rotation, d);
                                  int best = 0;
                                  double best_d = dot(h.data->points[0], local);
                                  for (int i = 1; i < n; ++i) {
                                      const double v = dot(h.data->points[static_cast<std::size_t>(i)], local);
                                      if (v > best_d) {
                                          best_d = v;
                                          best = i;
                                      }
                                  }
                                  return h.point(best);
                              },
                              [&](const Plane& p) { return p.normal * p.offset; },
                              [&](const Mesh& m) {
                                  const Vec3 local = mul_transpose(m.rotation, d);
                                  std::size_t best = 0;
                                  double best_d = dot(m.data->vertices[0], local);
                                  for (std::size_t i = 1; i < m.data->vertices.size(); ++i) {
                                      const double v = dot(m.data->vertices[i], local);
                                      if (v > best_d) {
                                          best_d = v;
                                          best = i;
                                      }
                                  }
                                  return m.rotation * m.data->vertices[best] + m.position;
                              },
                      },
                      shape);
}

} // namespace collide
