#include "world/measure.h"

#include <optional>

#include "detection/contact_aabb_aabb.h"
#include "detection/dispatch.h"
#include "detection/sat_box_box.h"
#include "detection/sat_triangle_box.h"
#include "queries/raycast.h"
#include "response/response.h"

namespace collide {

namespace {
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
    put(out, 0, axis_overlaps(a, b));
}

void measure_contact(const Shape& a, const Shape& b, std::span<double> out) {
    const ContactQuery q = contact(a, b);
    out[0] = q.status == ContactStatus::overlapping ? 1 : 0;
    if (q.status != ContactStatus::overlapping) return;
    put(out, 1, q.contact.normal);
    out[4] = q.contact.depth;
}

void measure_push_out(const Shape& a, const Shape& b, const Vec3& position, double skin, std::span<double> out) {
    const ContactQuery q = contact(a, b);
    const bool hit = q.status == ContactStatus::overlapping;
    out[0] = hit ? 1 : 0;
    put(out, 1, hit ? push_out(position, q.contact, skin) : position);
}

void measure_split(const Vec3& velocity, const Vec3& normal, std::span<double> out) {
    const Vec3 n = normalize(normal);
    if (length_squared(n) == 0) return;
    const Split s = split_velocity(velocity, n);
    out[0] = s.amount < 0 ? 1 : 0;
    out[1] = length(s.blocked);
    out[2] = length(s.sliding);
    put(out, 3, s.blocked);
    put(out, 6, s.sliding);
}

void measure_respond(const Vec3& velocity, const Vec3& normal, double restitution, double friction,
                     std::span<double> out) {
    const Vec3 n = normalize(normal);
    if (length_squared(n) == 0) return;
    const Vec3 v = respond_velocity(velocity, n, restitution, friction);
    put(out, 0, v);
    out[3] = length(v);
}

void measure_slope(const Vec3& normal, double limit, const Vec3& up, std::span<double> out) {
    out[0] = slope_degrees(normal, up);
    out[1] = out[0] <= limit ? 1 : 0;
}

void measure_separating_axis(const Shape& a, const Shape& b, std::span<double> out) {
    std::optional<SatResult> r;
    const std::optional<Obb> box_a = as_obb(a), box_b = as_obb(b);
    if (box_a && box_b) r = sat_box_box(*box_a, *box_b);
    else if (const auto* tri = std::get_if<Triangle>(&b); box_a && tri) r = sat_box_triangle(*box_a, *tri);
    else if (const auto* tri2 = std::get_if<Triangle>(&a); tri2 && box_b) r = sat_triangle_box(*tri2, *box_b);
    if (!r) return;
    out[0] = r->separated ? 1 : 0;
    out[1] = r->axis.index;
    out[2] = r->axis.count;
    out[3] = static_cast<double>(static_cast<int>(r->axis.kind));
    out[4] = r->axis.i;
    out[5] = r->axis.j;
    out[6] = r->gap;
    put(out, 7, r->normal);
}

void measure_raycast(const Vec3& origin, const Vec3& direction, double max_distance,
                     std::span<const Shape> targets, std::span<const int> target_ids, std::span<double> out) {
    out[0] = 0;
    out[1] = -1;
    if (length_squared(direction) == 0) return;
    const std::optional<NearestHit> hit = raycast_nearest(Ray{origin, direction}, targets, max_distance);
    if (!hit || hit->index < 0 || hit->index >= static_cast<int>(target_ids.size())) return;
    out[0] = 1;
    out[1] = target_ids[static_cast<std::size_t>(hit->index)];
    out[2] = hit->hit.distance;
    put(out, 3, hit->hit.point);
    put(out, 6, hit->hit.normal);
}

} // namespace collide
