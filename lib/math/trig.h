#pragma once
/// \file
/// Sine, cosine and arc tangent computed by collide itself, so that every build of this source, on every
/// machine, gives the same bits (README, Reliability). The C library's sin and cos are not
/// pinned that way: their results differ by an ulp between libm versions and vendors, glibc's
/// x86-64 build picks an FMA variant at run time on CPUs that have FMA, and a compiler may fold
/// a call with constant arguments at compile time with a third implementation. These functions
/// use only IEEE 754 double +, −, ×, / and exact operations (fmod, floor, ilogb, comparisons),
/// with contraction off (CMakeLists.txt), so their results are a function of the argument alone.
///
/// Accuracy (tests/math/trig_test.cpp measures it against long double): at most 1 ulp of the
/// exact result for |x| ≤ 2^20·π/2 (about 1.6 million rad); beyond that the result is the sine
/// or cosine of an argument within 2 ulp of x (the reduction's product n·(π/2)₁ rounds), which
/// is as much as a double that large says about an angle anyway. The degree functions reduce
/// exactly (fmod by 360 and the subtraction of a multiple of 90 are exact) and are at most
/// 1 ulp off for every finite argument. Where the sine or cosine is 0, ±½ or ±1 (multiples of
/// 30° and 90°) it is exact; at odd multiples of 45° the pair is √½ rounded down for the sine of
/// 45° and rounded up (correctly) for its cosine, so that sin² + cos² = 1 and 2·sin·cos = 1
/// exactly and a quarter turn gives a rotation matrix with exact ±1 entries.

namespace collide {

/// A sine and a cosine of one angle.
struct SinCos {
    double sin = 0.0; ///< sine
    double cos = 1.0; ///< cosine
};

/// sin and cos of `radians`; NaN for both when it is not finite.
SinCos sin_cos(double radians);

/// sin and cos of `degrees` (reduced exactly to [−45°, 45°] first); NaN when it is not finite.
SinCos sin_cos_degrees(double degrees);

/// atan(x) (rad, in [−π/2, π/2]), from +, −, ×, / and the correctly rounded square root alone,
/// so the same bits on every build: above 1, π/2 − atan(1/x); then the angle halved
/// (atan x = 2·atan(x / (1 + √(1 + x²)))) until x is below 1/16, and the odd series to x¹⁵.
/// Within 5 ulp of the exact result (tests/math/trig_test.cpp); ±π/2 for ±∞, NaN for NaN.
double arc_tangent(double x);

} // namespace collide
