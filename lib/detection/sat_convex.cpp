#include "detection/sat_convex.h"

#include <cmath>
#include <limits>

namespace collide {

namespace {

struct Interval {
    double lo = std::numeric_limits<double>::infinity();
    double hi = -std::numeric_limits<double>::infinity();
};

Interval project(std::span<const Vec3> vertices, const Vec3& axis) {
    Interval s;
    for (const Vec3& v : vertices) {
        const double p = dot(v, axis);
        s.lo = std::fmin(s.lo, p);
        s.hi = std::fmax(s.hi, p);
    }
    return s;
}

} // namespace

// For each candidate axis n in the fixed order (skipping unusable ones):
//   project both corner sets on n → [aLo, aHi], [bLo, bHi]
//   up = aHi − bLo (push B along +n), down = bHi − aLo (push B along −n)
//   overlap = min(up, down); overlap ≤ kTouchEpsilon → separated on n, stop
//   otherwise keep the axis of least overlap (first one on a tie)
// The plain yes/no separating axis test over corner projections, extended with the depth and
// normal.
SatResult sat_convex(const ConvexView& a, const ConvexView& b) {
    const int na = static_cast<int>(a.normals.size());
    const int nb = static_cast<int>(b.normals.size());
    const int eb = static_cast<int>(b.edges.size());
    const int count = na + nb + static_cast<int>(a.edges.size()) * eb;

    SatResult best;
    best.separated = false;
    best.axis.count = count;
    best.gap = std::numeric_limits<double>::infinity();

    // Tests one axis; returns true when it separates (and then *result holds it).
    auto test = [&](const Vec3& unit, SatAxis::Kind kind, int i, int j, int index, SatResult* result) {
        const Interval sa = project(a.vertices, unit);
        const Interval sb = project(b.vertices, unit);
        const double up = sa.hi - sb.lo;
        const double down = sb.hi - sa.lo;
        const double o = std::fmin(up, down);
        const Vec3 normal = up <= down ? unit : -unit;
        if (o <= kTouchEpsilon) {
            *result = SatResult{true, SatAxis{kind, i, j, index, count}, std::fmax(-o, 0.0), normal};
            return true;
        }
        if (o < best.gap) best = SatResult{false, SatAxis{kind, i, j, index, count}, o, normal};
        return false;
    };

    SatResult gap;
    int index = 0;
    for (int k = 0; k < na; ++k) {
        ++index;
        const Vec3& n = a.normals[static_cast<std::size_t>(k)];
        const double len2 = length_squared(n);
        if (!(len2 > 0.0)) continue;
        if (test(n / std::sqrt(len2), SatAxis::Kind::face_a, k + 1, 0, index, &gap)) return gap;
    }
    for (int k = 0; k < nb; ++k) {
        ++index;
        const Vec3& n = b.normals[static_cast<std::size_t>(k)];
        const double len2 = length_squared(n);
        if (!(len2 > 0.0)) continue;
        if (test(n / std::sqrt(len2), SatAxis::Kind::face_b, k + 1, 0, index, &gap)) return gap;
    }
    for (std::size_t i = 0; i < a.edges.size(); ++i) {
        const Vec3& u = a.edges[i];
        for (std::size_t j = 0; j < b.edges.size(); ++j) {
            ++index;
            const Vec3& v = b.edges[j];
            const Vec3 c = cross(u, v);
            const double len2 = length_squared(c);
            if (len2 <= kSatParallelEpsilon * length_squared(u) * length_squared(v)) continue;
            if (test(c / std::sqrt(len2), SatAxis::Kind::edge_edge, static_cast<int>(i) + 1, static_cast<int>(j) + 1,
                     index, &gap))
                return gap;
        }
    }
    if (best.axis.index == 0) best.gap = 0; // nothing could be tested
    return best;
}

} // namespace collide
