// The project's own sine and cosine: within 1 ulp of long double's over random arguments in
// radians and degrees (counted), exact at the angles whose sine or cosine is exactly 0, ±½ or
// ±1, √½ correctly rounded at 45°, and NaN for what is not a finite angle.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>

#include "math/trig.h"
#include "support/sample_count.h"
#include "support/skip.h"

using namespace collide;
using collide::test::sample_count;
using collide::test::skip_test;

namespace {

/// |got − reference| in units in the last place of the reference rounded to a double.
double ulps_off(double got, long double reference) {
    const double r = std::fabs(static_cast<double>(reference));
    const double ulp = std::nextafter(r, std::numeric_limits<double>::infinity()) - r;
    return static_cast<double>(std::fabs(static_cast<long double>(got) - reference)) / ulp;
}

/// A fixed-seed generator of doubles uniform in [−limit, limit) (splitmix64: the same sequence
/// on every standard library).
struct Uniform {
    std::uint64_t state;
    double operator()(double limit) {
        std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        return (static_cast<double>(z >> 11) * 0x1p-53 * 2.0 - 1.0) * limit;
    }
};

constexpr long double kPiL = 3.141592653589793238462643383279502884L;

void require_long_double_reference() {
    if (std::numeric_limits<long double>::digits < 64)
        skip_test("long double has no more precision than double here: no reference to measure against");
}

} // namespace

TEST_CASE("sin_cos is within 1 ulp of long double's sinl and cosl up to 2^20·π/2 rad", "[math][trig]") {
    require_long_double_reference();
    Uniform u{1};
    int samples = 0;
    double worst = 0;
    for (const double limit : {0.8, 10.0, 1e4, 1.6e6}) {
        for (int i = 0; i < sample_count(100000); ++i) {
            const double x = u(limit);
            const SinCos sc = sin_cos(x);
            const double off = std::max(ulps_off(sc.sin, sinl(x)), ulps_off(sc.cos, cosl(x)));
            worst = std::max(worst, off);
            if (off > 1.0) FAIL_CHECK("x = " << x << ": " << off << " ulp off");
            ++samples;
        }
    }
    CHECK(samples == 4 * sample_count(100000));
    INFO("worst: " << worst << " ulp");
    CHECK(worst < 1.0);
}

TEST_CASE("sin_cos_degrees is within 1 ulp of long double's for exactly reduced angles of any size", "[math][trig]") {
    require_long_double_reference();
    Uniform u{2};
    int samples = 0;
    for (const double limit : {90.0, 1e4, 1e12}) {
        for (int i = 0; i < sample_count(100000); ++i) {
            const double d = u(limit);
            // The reference reduces as exactly (fmod by 360, then a multiple of 90: exact in
            // double), then evaluates in long double and turns by the quadrant.
            double r = std::fmod(d, 360.0);
            const double q = std::floor(r / 90.0 + 0.5);
            r -= 90.0 * q;
            const long double s = sinl(r * kPiL / 180.0L), c = cosl(r * kPiL / 180.0L);
            const int k = static_cast<int>(q) & 3;
            const long double sin_ref = k == 0 ? s : k == 1 ? c : k == 2 ? -s : -c;
            const long double cos_ref = k == 0 ? c : k == 1 ? -s : k == 2 ? -c : s;
            const SinCos sc = sin_cos_degrees(d);
            const double off = std::max(ulps_off(sc.sin, sin_ref), ulps_off(sc.cos, cos_ref));
            if (off > 1.0) FAIL_CHECK("d = " << d << ": " << off << " ulp off");
            ++samples;
        }
    }
    CHECK(samples == 3 * sample_count(100000));
}

TEST_CASE("sin_cos_degrees is exact where sine and cosine are 0, ±1/2 or ±1, at 45° √½ rounded down and up",
          "[math][trig]") {
    const double r3 = std::sqrt(3.0) / 2; // √3/2 correctly rounded (sqrt is, and /2 is exact)
    struct Case {
        double degrees, sin, cos;
    };
    const Case cases[] = {{0, 0, 1},           {30, 0.5, r3},      {60, r3, 0.5},    {90, 1, 0},   {120, r3, -0.5},
                          {150, 0.5, -r3},     {180, 0, -1},       {210, -0.5, -r3}, {270, -1, 0}, {300, -r3, 0.5},
                          {330, -0.5, r3},     {360, 0, 1},        {-30, -0.5, r3},  {-90, -1, 0}, {-180, 0, -1},
                          {720 + 30, 0.5, r3}, {-3600 - 90, -1, 0}};
    int checked = 0;
    for (const Case& c : cases) {
        INFO(c.degrees << "°");
        const SinCos sc = sin_cos_degrees(c.degrees);
        // √3/2 may come out an ulp off; 0, ±½ and ±1 must be exact (and 0 is +0, never −0).
        const auto same = [r3](double got, double want) {
            return std::fabs(want) == r3 ? std::fabs(got - want) <= 1.2e-16 : got == want;
        };
        CHECK(same(sc.sin, c.sin));
        CHECK(same(sc.cos, c.cos));
        if (sc.sin == 0) CHECK_FALSE(std::signbit(sc.sin));
        if (sc.cos == 0) CHECK_FALSE(std::signbit(sc.cos));
        ++checked;
    }
    CHECK(checked == 17);
    // Odd multiples of 45°: √½ rounded down and rounded up, one each, with the quadrant's signs,
    // so that sin² + cos² = 1 and |2·sin·cos| = 1 exactly.
    const double lo = 0x1.6a09e667f3bccp-1, hi = 0x1.6a09e667f3bcdp-1;
    REQUIRE(lo * lo + hi * hi == 1.0);
    REQUIRE(2 * lo * hi == 1.0);
    int diagonals = 0;
    for (const double d : {45.0, 135.0, 225.0, 315.0, -45.0, -135.0, 405.0, 7245.0}) {
        INFO(d << "°");
        const SinCos sc = sin_cos_degrees(d);
        const double m = std::fmod(std::fmod(d, 360.0) + 360.0, 360.0);
        CHECK((sc.sin > 0) == (m < 180));
        CHECK((sc.cos > 0) == (m < 90 || m > 270));
        CHECK(((std::fabs(sc.sin) == lo && std::fabs(sc.cos) == hi) ||
               (std::fabs(sc.sin) == hi && std::fabs(sc.cos) == lo)));
        CHECK(sc.sin * sc.sin + sc.cos * sc.cos == 1.0);
        CHECK(std::fabs(2 * sc.sin * sc.cos) == 1.0);
        ++diagonals;
    }
    CHECK(diagonals == 8);
}

TEST_CASE("sin_cos and sin_cos_degrees agree with the identities sin² + cos² = 1 and odd/even symmetry",
          "[math][trig]") {
    Uniform u{3};
    int samples = 0;
    for (int i = 0; i < sample_count(100000); ++i) {
        const double x = u(100.0);
        const SinCos a = sin_cos(x), b = sin_cos(-x);
        CHECK(b.sin == -a.sin); // odd: the reduction works on |x|, so bit for bit
        CHECK(b.cos == a.cos);  // even
        CHECK(std::fabs(a.sin * a.sin + a.cos * a.cos - 1.0) < 4e-16);
        ++samples;
    }
    CHECK(samples == sample_count(100000));
}

TEST_CASE("angles that are not finite give NaN", "[math][trig]") {
    for (const double x : {std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity(),
                           std::numeric_limits<double>::quiet_NaN()}) {
        CHECK(std::isnan(sin_cos(x).sin));
        CHECK(std::isnan(sin_cos(x).cos));
        CHECK(std::isnan(sin_cos_degrees(x).sin));
        CHECK(std::isnan(sin_cos_degrees(x).cos));
    }
}

TEST_CASE("arc_tangent is within 5 ulp of long double's atanl, odd, and exact at its limits", "[math][trig]") {
    require_long_double_reference();
    Uniform u{7};
    double worst = 0;
    int samples = 0;
    // Small (the series alone), around 1 (the halvings), large (π/2 − atan(1/x)).
    for (const double limit : {0.06, 1.0, 20.0, 1e6, 1e300}) {
        for (int k = 0; k < 20000; ++k) {
            const double x = u(limit);
            worst = std::max(worst, ulps_off(arc_tangent(x), std::atan(static_cast<long double>(x))));
            CHECK(arc_tangent(-x) == -arc_tangent(x));
            ++samples;
        }
    }
    INFO("worst " << worst << " ulp over " << samples);
    CHECK(samples == 100000);
    CHECK(worst <= 5);
    CHECK(arc_tangent(0) == 0);
    CHECK(arc_tangent(std::numeric_limits<double>::infinity()) == static_cast<double>(kPiL / 2));
    CHECK(arc_tangent(-std::numeric_limits<double>::infinity()) == -static_cast<double>(kPiL / 2));
    CHECK(std::isnan(arc_tangent(std::nan(""))));
    CHECK(ulps_off(arc_tangent(1), kPiL / 4) <= 1);
}
