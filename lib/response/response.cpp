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

Vec3 surface_normal_tilted(double degrees) {
    const double a = degrees * (std::numbers::pi / 180.0);
    return {-std::sin(a), std::cos(a), 0.0};
}

} // namespace collide
