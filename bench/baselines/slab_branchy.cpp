#include "baselines/slab_branchy.h"

#include <limits>
#include <utility>

namespace collide::baseline {

SlabResult slab_ray_aabb_branchy(const Vec3& origin, const Vec3& direction, const Aabb& box) {
    constexpr double kInf = std::numeric_limits<double>::infinity();
    double enter = -kInf, exit = kInf;
    for (std::size_t i = 0; i < 3; ++i) {
        if (direction[i] == 0.0) {
            if (origin[i] < box.min[i] || origin[i] > box.max[i]) return {false, enter, exit, false};
            continue;
        }
        const double inv = 1.0 / direction[i];
        double t1 = (box.min[i] - origin[i]) * inv;
        double t2 = (box.max[i] - origin[i]) * inv;
        if (t1 > t2) std::swap(t1, t2);
        if (t1 > enter) enter = t1;
        if (t2 < exit) exit = t2;
        if (enter > exit || exit < 0.0) return {false, enter, exit, false};
    }
    return {true, enter, exit, enter < 0.0};
}

} // namespace collide::baseline
