#include "probes/at_end.h"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <vector>

#include "detection/dispatch.h"
#include "model/log_kinds.h"
#include "world/broadphase.h"

namespace collide {

void measure_final(const EngineView& world, int body, std::span<double> out) {
    const BodyState s = world.state(body);
    out[FinalLog::x] = s.position.x;
    out[FinalLog::y] = s.position.y;
    out[FinalLog::z] = s.position.z;
    out[FinalLog::vx] = s.velocity.x;
    out[FinalLog::vy] = s.velocity.y;
    out[FinalLog::vz] = s.velocity.z;
    out[FinalLog::qw] = s.rotation.w;
    out[FinalLog::qx] = s.rotation.x;
    out[FinalLog::qy] = s.rotation.y;
    out[FinalLog::qz] = s.rotation.z;
    out[FinalLog::wx] = s.angular_velocity.x;
    out[FinalLog::wy] = s.angular_velocity.y;
    out[FinalLog::wz] = s.angular_velocity.z;
    out[FinalLog::spin] = length(s.angular_velocity);
    // The body axis nearest straight down, and its angle from it.
    const Mat3 r = to_mat3(s.rotation);
    const Vec3 down = world.up() * -1.0;
    int best = 0;
    double best_cos = -2;
    for (int k = 0; k < 6; ++k) {
        const double c = dot(r.col[k / 2], down) * (k % 2 == 0 ? 1 : -1);
        if (c > best_cos) best_cos = c, best = k;
    }
    out[FinalLog::down] = best + 1;
    out[FinalLog::tilt] = std::acos(std::clamp(best_cos, -1.0, 1.0)) * (180 / std::numbers::pi);
}

void measure_character(const EngineView& world, int body, std::span<double> out) {
    const CharacterState c = world.character_state(body);
    out[CharacterLog::grounded] = c.grounded ? 1 : 0;
    if (c.grounded) {
        out[CharacterLog::nx] = c.ground_normal.x;
        out[CharacterLog::ny] = c.ground_normal.y;
        out[CharacterLog::nz] = c.ground_normal.z;
    }
    out[CharacterLog::steps] = c.steps;
}

void measure_max_overlap(const EngineView& world, std::span<double> out) {
    double deepest = 0;
    int a = -1, b = -1;
    const int n = world.body_count();
    // The pairs i < j that are not both static and whose bounds overlap, in (i, j) order.
    std::vector<Aabb> boxes(static_cast<std::size_t>(n));
    std::vector<unsigned char> moving(static_cast<std::size_t>(n));
    for (int k = 0; k < n; ++k) {
        boxes[static_cast<std::size_t>(k)] = world.bounds(k);
        moving[static_cast<std::size_t>(k)] = world.is_static(k) ? 0 : 1;
    }
    Broadphase broad;
    broad.build(boxes, moving, 0, 0);
    std::vector<PairKey> pairs;
    broad.pairs(pairs);
    for (const PairKey key : pairs) {
        const int i = pair_first(key), j = pair_second(key);
        if (world.is_trigger(i) || world.is_trigger(j)) continue; // a trigger's overlap is its job
        if (!bounds_overlap(world.bounds(i), world.bounds(j))) continue;
        const ContactQuery q = contact(world.placed(i), world.placed(j));
        if (q.status == ContactStatus::overlapping && q.contact.depth > deepest) {
            deepest = q.contact.depth;
            a = i;
            b = j;
        }
    }
    out[MaxOverlapLog::depth] = deepest;
    out[MaxOverlapLog::a] = a;
    out[MaxOverlapLog::b] = b;
}

} // namespace collide
