#include "probes/at_start.h"

#include <optional>

#include "detection/contact_aabb_aabb.h"
#include "detection/dispatch.h"
#include "detection/sat_box_box.h"
#include "detection/sat_triangle_box.h"
#include "model/log_kinds.h"
#include "queries/raycast.h"
#include "response/response.h"

namespace collide {

namespace {
/// Writes a vector into three consecutive fields, the first `at` (a kind's x, y, z or nx, ny, nz).
void put(std::span<double> out, std::size_t at, const Vec3& v) {
    out[at] = v.x;
    out[at + 1] = v.y;
    out[at + 2] = v.z;
}

/// A box shape as a turned box, if it is one.
std::optional<Obb> as_obb(const Shape& s) {
    if (const auto* b = std::get_if<Aabb>(&s)) return to_obb(*b);
    if (const auto* b = std::get_if<Obb>(&s)) return *b;
    return std::nullopt;
}
} // namespace

void measure_axis_overlaps(const Aabb& a, const Aabb& b, std::span<double> out) {
    put(out, AxisOverlapsLog::x, axis_overlaps(a, b));
}

void measure_contact(const Shape& a, const Shape& b, std::span<double> out) {
    const ContactQuery q = contact(a, b);
    out[ContactLog::hit] = q.status == ContactStatus::overlapping ? 1 : 0;
    if (q.status != ContactStatus::overlapping) return;
    put(out, ContactLog::nx, q.contact.normal);
    out[ContactLog::depth] = q.contact.depth;
}

void measure_push_out(const Shape& a, const Shape& b, const Vec3& position, double skin, std::span<double> out) {
    const ContactQuery q = contact(a, b);
    const bool hit = q.status == ContactStatus::overlapping;
    out[PushOutLog::hit] = hit ? 1 : 0;
    put(out, PushOutLog::x, hit ? push_out(position, q.contact, skin) : position);
}

void measure_split(const Vec3& velocity, const Vec3& normal, std::span<double> out) {
    const Vec3 n = normalize(normal);
    if (length_squared(n) == 0) return;
    const Split s = split_velocity(velocity, n);
    out[SplitLog::heading_in] = s.amount < 0 ? 1 : 0;
    out[SplitLog::blocked] = length(s.blocked);
    out[SplitLog::sliding] = length(s.sliding);
    put(out, SplitLog::blocked_x, s.blocked);
    put(out, SplitLog::sliding_x, s.sliding);
}

void measure_respond(const Vec3& velocity, const Vec3& normal, double restitution, double friction,
                     std::span<double> out) {
    const Vec3 n = normalize(normal);
    if (length_squared(n) == 0) return;
    const Vec3 v = respond_velocity(velocity, n, restitution, friction);
    put(out, RespondLog::vx, v);
    out[RespondLog::speed] = length(v);
}

void measure_slope(const Vec3& normal, double limit, const Vec3& up, std::span<double> out) {
    out[SlopeLog::angle] = slope_degrees(normal, up);
    out[SlopeLog::walkable] = out[SlopeLog::angle] <= limit ? 1 : 0;
}

void measure_separating_axis(const Shape& a, const Shape& b, std::span<double> out) {
    std::optional<SatResult> r;
    const std::optional<Obb> box_a = as_obb(a), box_b = as_obb(b);
    if (box_a && box_b)
        r = sat_box_box(*box_a, *box_b);
    else if (const auto* tri = std::get_if<Triangle>(&b); box_a && tri)
        r = sat_box_triangle(*box_a, *tri);
    else if (const auto* tri2 = std::get_if<Triangle>(&a); tri2 && box_b)
        r = sat_triangle_box(*tri2, *box_b);
    if (!r) return;
    using L = SeparatingAxisLog;
    out[L::separated] = r->separated ? 1 : 0;
    out[L::axis] = r->axis.index;
    out[L::axes] = r->axis.count;
    out[L::kind] = static_cast<double>(static_cast<int>(r->axis.kind));
    out[L::i] = r->axis.i;
    out[L::j] = r->axis.j;
    out[L::gap] = r->gap;
    put(out, L::nx, r->normal);
}

void measure_raycast(const Vec3& origin, const Vec3& direction, double max_distance, std::span<const Shape> targets,
                     std::span<const int> target_ids, std::span<double> out) {
    out[RaycastLog::hit] = 0;
    out[RaycastLog::target] = -1;
    if (length_squared(direction) == 0) return;
    const std::optional<NearestHit> hit = raycast_nearest(Ray{origin, direction}, targets, max_distance);
    if (!hit || hit->index < 0 || hit->index >= static_cast<int>(target_ids.size())) return;
    out[RaycastLog::hit] = 1;
    out[RaycastLog::target] = target_ids[static_cast<std::size_t>(hit->index)];
    out[RaycastLog::distance] = hit->hit.distance;
    put(out, RaycastLog::x, hit->hit.point);
    put(out, RaycastLog::nx, hit->hit.normal);
}

} // namespace collide
