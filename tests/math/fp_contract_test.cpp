// The floating-point contract (README, Reliability) holds in this build: no fast-math, and no
// contraction of a*b + c into a fused multiply-add — checked on inputs the compiler cannot see,
// where the fused and the unfused results differ.
#include <catch2/catch.hpp>

#include <cmath>

#if defined(__FAST_MATH__) || (defined(__FINITE_MATH_ONLY__) && __FINITE_MATH_ONLY__)
#error "the tests must not be built with -ffast-math, -Ofast or -ffinite-math-only (README, Reliability)"
#endif

namespace {
// Read through volatile so that nothing is folded at compile time.
volatile double g_a = 1.0 + 0x1p-30;
volatile double g_b = 1.0 - 0x1p-30;
volatile double g_c = -1.0;
} // namespace

TEST_CASE("a*b + c is rounded twice, never fused: (1 + 2^-30)(1 - 2^-30) - 1 is 0, not -2^-60", "[math][fp]") {
    const double a = g_a, b = g_b, c = g_c;
    // a·b = 1 − 2^−60 exactly, which rounds to 1; a fused multiply-add keeps the −2^−60.
    CHECK(std::fma(a, b, c) == -0x1p-60);
    CHECK(a * b + c == 0.0);
    const double p = a * b;
    CHECK(p + c == 0.0);
}

TEST_CASE("infinities and NaN behave as IEEE 754 says (no finite-math assumptions)", "[math][fp]") {
    const double big = g_a * 1e308 * 10.0;
    CHECK(std::isinf(big));
    const double nan = big - big;
    CHECK(std::isnan(nan));
    CHECK_FALSE(nan == nan);
}
