#pragma once
// Random convex shapes for property tests (fixed-seed generators, deterministic).
#include <cmath>
#include <random>

#include "math/quat.h"
#include "shapes/shapes.h"
#include "support/hulls.h"

namespace collide::test {

/// Draws random shapes of every convex kind around a small region so that many pairs overlap.
class ShapeGen {
public:
    explicit ShapeGen(std::uint64_t seed) : rng_(seed) {}

    double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng_); }
    Vec3 point(double extent) { return {uniform(-extent, extent), uniform(-extent, extent), uniform(-extent, extent)}; }
    Quat rotation() {
        for (;;) {
            const Quat q{uniform(-1, 1), uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)};
            const double n = std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
            if (n > 0.1 && n <= 1) return normalize(q);
        }
    }
    Obb obb() { return Obb{point(1.0), to_mat3(rotation()), {uniform(0.2, 1), uniform(0.2, 1), uniform(0.2, 1)}}; }
    Aabb aabb() {
        const Vec3 c = point(1.0), h{uniform(0.2, 1), uniform(0.2, 1), uniform(0.2, 1)};
        return Aabb{c - h, c + h};
    }
    Sphere sphere() { return Sphere{point(1.0), uniform(0.1, 1)}; }
    Capsule capsule() {
        const Vec3 c = point(1.0), half = point(1.0);
        return Capsule{c - half, c + half, uniform(0.1, 0.7)};
    }
    Triangle triangle() {
        const Vec3 c = point(1.0);
        return Triangle{c + point(1.2), c + point(1.2), c + point(1.2)};
    }
    /// A random hull (its points kept for the rest of the run).
    Hull hull() {
        HullPoints h;
        const Vec3 c = point(1.0);
        h.count = static_cast<int>(uniform(4, 13));
        for (int i = 0; i < h.count; ++i) h.points[static_cast<std::size_t>(i)] = c + point(0.8);
        return keep_hull(h);
    }
    /// A random shape of the given kind (a plane, a unit normal and an offset within 0.5 m of the
    /// origin, for a plane or a mesh).
    Shape of_kind(ShapeKind k) {
        switch (k) {
        case ShapeKind::sphere: return sphere();
        case ShapeKind::aabb: return aabb();
        case ShapeKind::obb: return obb();
        case ShapeKind::capsule: return capsule();
        case ShapeKind::triangle: return triangle();
        case ShapeKind::hull: return hull();
        case ShapeKind::plane:
        case ShapeKind::mesh: break;
        }
        return Plane{normalize(point(1.0)), uniform(-0.5, 0.5)};
    }
    /// A random shape of the given kind, a mesh being `mesh` (mesh frame = world frame) turned at
    /// random and moved by up to 0.3 m on each axis.
    Shape of_kind(ShapeKind k, const TriangleMesh& mesh) {
        if (k != ShapeKind::mesh) return of_kind(k);
        const Mat3 turn = to_mat3(rotation());
        return Mesh{&mesh, turn, point(0.3)};
    }
    /// A random shape of any convex kind (not a plane).
    Shape any() { return of_kind(static_cast<ShapeKind>(static_cast<int>(uniform(0, 6)))); }

private:
    std::mt19937_64 rng_;
};

} // namespace collide::test
