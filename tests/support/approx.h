#pragma once
/// \file
/// Approximate-equality helpers for tests. Default tolerance: 1e-9 (absolute), stated once here.

#include <catch2/catch.hpp>

#include <sstream>

#include "math/vec3.h"

namespace collide::test {

/// The default absolute tolerance of the approximate comparisons (m, m/s, or unitless).
inline constexpr double kTolerance = 1e-9;

/// Matches a Vec3 within an absolute tolerance per component.
class VecNear : public Catch::MatcherBase<Vec3> {
public:
    VecNear(Vec3 expected, double tolerance) : expected_(expected), tolerance_(tolerance) {}
    bool match(const Vec3& v) const override { return near(v, expected_, tolerance_); }
    std::string describe() const override {
        std::ostringstream os;
        os.precision(17);
        os << "is within " << tolerance_ << " of (" << expected_.x << ", " << expected_.y << ", " << expected_.z << ")";
        return os.str();
    }

private:
    Vec3 expected_;
    double tolerance_;
};

/// REQUIRE_THAT(v, near_vec({1, 2, 3})) — within kTolerance unless told otherwise.
inline VecNear near_vec(Vec3 expected, double tolerance = kTolerance) { return {expected, tolerance}; }

} // namespace collide::test

namespace Catch {
template <> struct StringMaker<collide::Vec3> {
    static std::string convert(const collide::Vec3& v) {
        std::ostringstream os;
        os.precision(17);
        os << "(" << v.x << ", " << v.y << ", " << v.z << ")";
        return os.str();
    }
};
} // namespace Catch
