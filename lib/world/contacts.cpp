#include "world/contacts.h"

#include <limits>

namespace collide {

double PairContact::deepest() const {
    double d = -std::numeric_limits<double>::infinity();
    for (int m = 0; m < count; ++m)
        for (int p = 0; p < manifolds[static_cast<std::size_t>(m)].count; ++p)
            d = std::max(d, manifolds[static_cast<std::size_t>(m)].points[static_cast<std::size_t>(p)].found.depth);
    return d;
}

void set_manifolds(PairContact& out, std::span<const Manifold> found) {
    out.count = 0;
    out.overlapping = false;
    out.touching = false;
    out.told = false;
    for (const Manifold& m : found) {
        if (out.count == kMaxPairManifolds || m.count == 0) continue;
        PairManifold& pm = out.manifolds[static_cast<std::size_t>(out.count++)];
        pm.normal = m.normal;
        pm.key = m.key;
        pm.count = m.count;
        for (int p = 0; p < m.count; ++p) {
            ContactPoint& cp = pm.points[static_cast<std::size_t>(p)];
            cp.found = m.points[static_cast<std::size_t>(p)];
            cp.normal_impulse = 0;
            cp.tangent_impulse = Vec3{};
            out.overlapping = out.overlapping || cp.found.depth > kTouchEpsilon;
            out.touching = out.touching || cp.found.depth >= -kTouchEpsilon;
        }
    }
}

void carry_impulses(const PairContact& from, PairContact& to, double scale) {
    for (int m = 0; m < to.count; ++m) {
        PairManifold& nm = to.manifolds[static_cast<std::size_t>(m)];
        const PairManifold* old = nullptr;
        for (int k = 0; k < from.count && !old; ++k)
            if (from.manifolds[static_cast<std::size_t>(k)].key == nm.key)
                old = &from.manifolds[static_cast<std::size_t>(k)];
        if (!old) continue;
        for (int p = 0; p < nm.count; ++p) {
            ContactPoint& np = nm.points[static_cast<std::size_t>(p)];
            for (int q = 0; q < old->count; ++q) {
                const ContactPoint& op = old->points[static_cast<std::size_t>(q)];
                if (op.found.id != np.found.id) continue;
                np.normal_impulse = op.normal_impulse * scale;
                np.tangent_impulse = op.tangent_impulse * scale;
                break;
            }
        }
    }
}

} // namespace collide
