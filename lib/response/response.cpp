#include "response/response.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace collide {

double slope_degrees(const Vec3& normal, const Vec3& up) {
    const double l = length(normal) * length(up);
    if (!(l > 1e-300)) return 0.0;
    const double c = std::clamp(dot(normal, up) / l, -1.0, 1.0);
    return std::acos(c) * (180.0 / std::numbers::pi);
}

bool is_walkable(const Vec3& normal, double limit_degrees, const Vec3& up) {
    return slope_degrees(normal, up) <= limit_degrees;
}

double apex_after_bounces(double height, double restitution, int bounces) {
    return height * std::pow(restitution, 2.0 * bounces);
}

Vec3 respond_coulomb(const Vec3& v, const Vec3& n, double restitution, double mu) {
    const Split s = split_velocity(v, n);
    if (s.amount >= 0) return v;
    const double j = -(1.0 + restitution) * s.amount;
    const double slide = length(s.sliding);
    const double keep = slide > 0 ? std::max(0.0, slide - std::max(0.0, mu) * j) / slide : 0.0;
    return n * (-s.amount * restitution) + s.sliding * keep;
}

Vec3 surface_normal_tilted(double degrees) {
    const double a = degrees * (std::numbers::pi / 180.0);
    return {-std::sin(a), std::cos(a), 0.0};
}

} // namespace collide
