#include "world/contacts.h"

#include <array>
#include <limits>

namespace collide {

void ContactSet::clear() {
    pairs.clear();
    manifolds.clear();
    points.clear();
}

PairContact& ContactSet::add(int i, int j, std::span<const Manifold> found) {
    PairContact& out = pairs.emplace_back();
    out.i = i;
    out.j = j;
    out.first = static_cast<int>(manifolds.size());
    for (const Manifold& m : found) {
        if (out.count == kMaxPairManifolds || m.count == 0) continue;
        ++out.count;
        PairManifold& pm = manifolds.emplace_back();
        pm.normal = m.normal;
        pm.key = m.key;
        pm.first = static_cast<int>(points.size());
        pm.count = m.count;
        for (int p = 0; p < m.count; ++p) {
            ContactPoint& cp = points.emplace_back();
            cp.found = m.points[static_cast<std::size_t>(p)];
            note_depth(out, cp.found.depth);
        }
    }
    return out;
}

PairContact& ContactSet::add_copy(const ContactSet& from, const PairContact& pc) {
    PairContact& out = pairs.emplace_back(pc);
    out.first = static_cast<int>(manifolds.size());
    for (const PairManifold& m : from.manifolds_of(pc)) {
        PairManifold& pm = manifolds.emplace_back(m);
        pm.first = static_cast<int>(points.size());
        const std::span<const ContactPoint> p = from.points_of(m);
        points.insert(points.end(), p.begin(), p.end());
    }
    return out;
}

void ContactSet::pop_back() {
    const PairContact& last = pairs.back();
    if (last.count > 0) points.resize(static_cast<std::size_t>(manifolds[static_cast<std::size_t>(last.first)].first));
    manifolds.resize(static_cast<std::size_t>(last.first));
    pairs.pop_back();
}

double ContactSet::deepest(const PairContact& pc) const {
    double d = -std::numeric_limits<double>::infinity();
    for (const PairManifold& m : manifolds_of(pc))
        for (const ContactPoint& p : points_of(m)) d = std::max(d, p.found.depth);
    return d;
}

void carry_point_impulses(std::span<const ContactPoint> old_points, std::span<ContactPoint> new_points, double scale) {
    // Which old points a new point has taken (by id first, then by place).
    std::array<bool, kMaxManifoldPoints> taken{};
    std::array<bool, kMaxManifoldPoints> matched{};
    for (std::size_t q = 0; q < new_points.size(); ++q) {
        for (std::size_t o = 0; o < old_points.size(); ++o) {
            if (taken[o] || old_points[o].found.id != new_points[q].found.id) continue;
            new_points[q].normal_impulse = old_points[o].normal_impulse * scale;
            new_points[q].tangent_impulse = old_points[o].tangent_impulse * scale;
            taken[o] = matched[q] = true;
            break;
        }
    }
    // A point whose features changed name but not place (two edges that coincide, where a
    // rounding decides which clipped the face) takes the impulse of the nearest old point
    // no other took: the closest unmatched (new, old) couple first.
    for (;;) {
        std::size_t best_new = 0, best_old = old_points.size();
        double nearest = kCarryDistance * kCarryDistance;
        for (std::size_t q = 0; q < new_points.size(); ++q) {
            if (matched[q]) continue;
            for (std::size_t o = 0; o < old_points.size(); ++o) {
                const double d2 = length_squared(old_points[o].found.point - new_points[q].found.point);
                if (taken[o] || d2 > nearest) continue;
                nearest = d2;
                best_new = q;
                best_old = o;
            }
        }
        if (best_old == old_points.size()) break;
        new_points[best_new].normal_impulse = old_points[best_old].normal_impulse * scale;
        new_points[best_new].tangent_impulse = old_points[best_old].tangent_impulse * scale;
        taken[best_old] = matched[best_new] = true;
    }
}

void carry_impulses(const ContactSet& from_set, const PairContact& from, ContactSet& into, const PairContact& to,
                    double scale) {
    const std::span<const PairManifold> old_manifolds = from_set.manifolds_of(from);
    for (const PairManifold& nm : into.manifolds_of(to)) {
        for (const PairManifold& m : old_manifolds)
            if (m.key == nm.key) {
                carry_point_impulses(from_set.points_of(m), into.points_of(nm), scale);
                break;
            }
    }
}

} // namespace collide
