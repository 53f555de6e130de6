#include "math/trig.h"

#include <cmath>
#include <limits>

// The floating-point contract (README, Reliability): these functions, and every result they
// feed, assume IEEE 754 arithmetic as written. Refuse a build that gives it up.
#if defined(__FAST_MATH__) || (defined(__FINITE_MATH_ONLY__) && __FINITE_MATH_ONLY__)
#error "collide must not be built with -ffast-math, -Ofast or -ffinite-math-only (README, Reliability)"
#endif

namespace collide {

namespace {

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();

// The method is fdlibm's (Sun Microsystems 1993; FreeBSD msun): e_rem_pio2.c for the reduction,
// k_sin.c and k_cos.c for the kernels. The constants below are its; they were checked against
// π to 400 bits (mpmath), and are written in hexadecimal so that no decimal conversion is involved.

// Minimax polynomials on [−π/4, π/4]: |sin(x)/x − (1 + S1·x² + … + S6·x¹²)| ≤ 2^−58 and
// |cos(x) − (1 − x²/2 + C1·x⁴ + … + C6·x¹⁴)| ≤ 2^−58 (k_sin.c, k_cos.c).
constexpr double kS1 = -0x1.5555555555549p-3;
constexpr double kS2 = 0x1.111111110f8a6p-7;
constexpr double kS3 = -0x1.a01a019c161d5p-13;
constexpr double kS4 = 0x1.71de357b1fe7dp-19;
constexpr double kS5 = -0x1.ae5e68a2b9cebp-26;
constexpr double kS6 = 0x1.5d93a5acfd57cp-33;
constexpr double kC1 = 0x1.555555555554cp-5;
constexpr double kC2 = -0x1.6c16c16c15177p-10;
constexpr double kC3 = 0x1.a01a019cb1590p-16;
constexpr double kC4 = -0x1.27e4f809c52adp-22;
constexpr double kC5 = 0x1.1ee9ebdb4b1c4p-29;
constexpr double kC6 = -0x1.8fae9be8838d4p-37;

/// sin(x + y) for |x| ≤ π/4 (a little more is fine), y the tail of the argument (|y| ≤ ½ ulp(x)).
double kernel_sin(double x, double y) {
    const double z = x * x;
    const double v = z * x;
    const double r = kS2 + z * (kS3 + z * (kS4 + z * (kS5 + z * kS6)));
    return x - ((z * (0.5 * y - v * r) - y) - v * kS1);
}

/// cos(x + y) for |x| ≤ π/4, y the tail of the argument. 1 − x²/2 is summed with its rounding
/// error carried (w + ((1 − w) − hz)), which keeps the result within an ulp near x = ±π/4.
double kernel_cos(double x, double y) {
    const double z = x * x;
    const double z2 = z * z;
    const double r = z * (kC1 + z * (kC2 + z * kC3)) + z2 * z2 * (kC4 + z * (kC5 + z * kC6));
    const double hz = 0.5 * z;
    const double w = 1.0 - hz;
    return w + (((1.0 - w) - hz) + (z * r - x * y));
}

/// An argument reduced by a multiple n of π/2: x = n·π/2 + (hi + lo), |hi + lo| ≲ π/4.
struct Reduced {
    int quadrant = 0; ///< n mod 4
    double hi = 0.0;  ///< leading part of the remainder
    double lo = 0.0;  ///< its tail
};

// π/2 in three 33-bit pieces and their tails (e_rem_pio2.c): n·kPio2_1 is exact for n < 2^20.
constexpr double kInvPio2 = 0x1.45f306dc9c883p-1; // 2/π
constexpr double kPio2_1 = 0x1.921fb54400000p+0;
constexpr double kPio2_1t = 0x1.0b4611a626331p-34; // π/2 − kPio2_1
constexpr double kPio2_2 = 0x1.0b4611a600000p-34;
constexpr double kPio2_2t = 0x1.3198a2e037073p-69; // π/2 − kPio2_1 − kPio2_2
constexpr double kPio2_3 = 0x1.3198a2e000000p-69;
constexpr double kPio2_3t = 0x1.b839a252049c1p-104; // π/2 − kPio2_1 − kPio2_2 − kPio2_3
constexpr double kPio4 = 0x1.921fb54442d18p-1;      // π/4 rounded

// Cody & Waite reduction, as e_rem_pio2.c does it for medium arguments:
//   n ← nearest integer to |x|·2/π
//   r ← |x| − n·p1 (exact), w ← n·p1t; remainder r − w, good to 85 bits
//   if the remainder lost more than 16 bits to cancellation: subtract n·p2 too (118 bits),
//   and if it lost more than 49: n·p3 (151 bits); the tail lo = (r − hi) − w carries the rest.
Reduced reduce_pio2(double x) {
    const double t = std::fabs(x);
    if (t <= kPio4) return {0, x, 0.0};
    const double fn = std::floor(t * kInvPio2 + 0.5);
    const int top = std::ilogb(t);
    const auto cancelled = [top](double y, int bits) { return y == 0.0 || top - std::ilogb(y) > bits; };
    double r = t - fn * kPio2_1;
    double w = fn * kPio2_1t;
    double hi = r - w;
    if (cancelled(hi, 16)) {
        double s = r;
        w = fn * kPio2_2;
        r = s - w;
        w = fn * kPio2_2t - ((s - r) - w);
        hi = r - w;
        if (cancelled(hi, 49)) {
            s = r;
            w = fn * kPio2_3;
            r = s - w;
            w = fn * kPio2_3t - ((s - r) - w);
            hi = r - w;
        }
    }
    const double lo = (r - hi) - w;
    int quadrant = static_cast<int>(std::fmod(fn, 4.0)); // fn is a whole number: exact
    if (x < 0) return {(4 - quadrant) & 3, -hi, -lo};
    return {quadrant, hi, lo};
}

/// sin and cos of hi + lo turned by `quadrant` quarter turns.
SinCos by_quadrant(int quadrant, double hi, double lo) {
    const double s = kernel_sin(hi, lo);
    const double c = kernel_cos(hi, lo);
    switch (quadrant & 3) {
    case 0: return {s, c};
    case 1: return {c, -s};
    case 2: return {-s, -c};
    default: return {-c, s};
    }
}

/// a·b = p + e exactly (Dekker 1971, with Veltkamp's split; no fused multiply-add, so it needs
/// contraction off). |a|, |b| ≤ 2^995 (no overflow in the split).
void two_product(double a, double b, double& p, double& e) {
    constexpr double kSplit = 134217729.0; // 2^27 + 1
    p = a * b;
    const double ca = kSplit * a, cb = kSplit * b;
    const double ah = ca - (ca - a), al = a - ah;
    const double bh = cb - (cb - b), bl = b - bh;
    e = ((ah * bh - p) + ah * bl + al * bh) + al * bl;
}

// π/180 = kDegHi + kDegLo to about 2^−115 (mpmath).
constexpr double kDegHi = 0x1.1df46a2529d39p-6;
constexpr double kDegLo = 0x1.5c1d8becdd291p-62;
// sin 45° and cos 45°: √½ rounded down and rounded up (the latter is the correct rounding), so
// that sin² + cos² = 1 and 2·sin·cos = 1 exactly; a quarter turn's quaternion (cos 45°, …, sin
// 45°) then gives a rotation matrix whose ±1 entries are exact, as the C library's sin and cos of
// π/4 (rounded below π/4) happen to give.
constexpr double kSin45 = 0x1.6a09e667f3bccp-1;
constexpr double kCos45 = 0x1.6a09e667f3bcdp-1;

} // namespace

SinCos sin_cos(double radians) {
    if (!std::isfinite(radians)) return {kNaN, kNaN};
    const Reduced r = reduce_pio2(radians);
    return by_quadrant(r.quadrant, r.hi, r.lo);
}

// Degrees reduce exactly: fmod is exact, and for |d| < 360 with q the nearest whole number to
// d/90, d − 90·q is exact (Sterbenz: 90|q| − 45 ≤ |d| ≤ 90|q| + 45 lies within a factor 2 of
// 90|q| for q ≠ 0). The remainder, at most 45° (a rounding more), goes to radians as a
// double-double product with π/180, so the kernels see the angle to about 2^−100 relative.
SinCos sin_cos_degrees(double degrees) {
    if (!std::isfinite(degrees)) return {kNaN, kNaN};
    double d = std::fmod(degrees, 360.0);
    const double q = std::floor(d / 90.0 + 0.5);
    d -= 90.0 * q;
    const int quadrant = static_cast<int>(q) & 3; // q in −4 … 4; & 3 is mod 4 in two's complement
    if (d == 0.0) {                               // a multiple of 90°: 0 and ±1 exactly (+0, never −0)
        const SinCos out = by_quadrant(quadrant, 0.0, 0.0);
        return {out.sin + 0.0, out.cos + 0.0};
    }
    if (std::fabs(d) == 45.0) {
        const SinCos base{d > 0 ? kSin45 : -kSin45, kCos45};
        switch (quadrant) {
        case 0: return base;
        case 1: return {base.cos, -base.sin};
        case 2: return {-base.sin, -base.cos};
        default: return {-base.cos, base.sin};
        }
    }
    double hi = 0, lo = 0;
    two_product(d, kDegHi, hi, lo);
    lo += d * kDegLo;
    const double sum = hi + lo; // renormalise: hi + lo as one double and its tail
    lo = lo - (sum - hi);
    hi = sum;
    SinCos out = by_quadrant(quadrant, hi, lo);
    // sin ±30° is ±½ exactly; so is what the quadrant turns it into (cos ±60°, sin ±150°, …).
    if (std::fabs(d) == 30.0) {
        const double half = d > 0 ? 0.5 : -0.5;
        switch (quadrant) {
        case 0: out.sin = half; break;
        case 1: out.cos = -half; break;
        case 2: out.sin = -half; break;
        default: out.cos = half; break;
        }
    }
    return out;
}

double arc_tangent(double x) {
    if (x != x) return x;
    if (x < 0) return -arc_tangent(-x);
    if (x > 1) return 1.5707963267948966 - arc_tangent(1 / x); // π/2 − atan(1/x) (π/2 for +∞)
    double scale = 1;
    while (x > 0.0625) { // at most 4 halvings from 1
        x = x / (1 + std::sqrt(1 + x * x));
        scale *= 2;
    }
    // atan x = x − x³/3 + x⁵/5 − …; for x ≤ 1/16 the x¹⁷ term is below 2⁻⁶⁸·x.
    // Horner from the highest term: −1/15, +1/13, −1/11, +1/9, −1/7, +1/5, −1/3.
    constexpr double kTerms[] = {1.0 / 13, -1.0 / 11, 1.0 / 9, -1.0 / 7, 1.0 / 5, -1.0 / 3};
    const double x2 = x * x;
    double sum = -1.0 / 15;
    for (const double t : kTerms) sum = t + x2 * sum;
    return scale * (x + x * x2 * sum);
}

} // namespace collide
