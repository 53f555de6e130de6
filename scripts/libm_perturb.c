/* A stand-in for another C library's transcendental functions, for scripts/libm-perturb.sh:
 * preloaded (LD_PRELOAD), it answers sin, cos, tan, their inverses, exp, log, pow and the rest
 * with the system libm's result moved by COLLIDE_LIBM_ULPS units in the last place — "+1" or
 * "-2" (always up, always down) or "h2" (up or down by 2, chosen by a hash of the argument, as a
 * different implementation's errors would fall). Zeros, infinities and NaN are left alone.
 * With COLLIDE_LIBM_REPORT=1 it prints how many results it moved when the program exits. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static long moved = 0;

static double nudge(double x, double r) {
    const char* mode = getenv("COLLIDE_LIBM_ULPS");
    if (!mode || !isfinite(r) || r == 0.0) return r;
    int hashed = mode[0] == 'h';
    long n = strtol(mode + hashed, NULL, 10);
    if (hashed) {
        uint64_t bits;
        memcpy(&bits, &x, sizeof bits);
        bits ^= bits >> 33;
        bits *= 0xff51afd7ed558ccdull;
        bits ^= bits >> 33;
        if (bits & 1) n = -n;
    }
    /* Finite doubles of one sign are ordered as their bit patterns: n ulps up is n added to the
     * magnitude's bits for a positive result, taken from them for a negative one. A result
     * moved past zero or infinity stops at the smallest or largest magnitude of its sign. */
    uint64_t bits;
    memcpy(&bits, &r, sizeof bits);
    const uint64_t sign = bits & 0x8000000000000000ull, mag = bits & ~0x8000000000000000ull;
    const long up = sign ? -n : n; /* change of the magnitude's bits */
    const uint64_t max_finite = 0x7fefffffffffffffull;
    uint64_t m;
    if (up >= 0) m = (uint64_t)up > max_finite - mag ? max_finite : mag + (uint64_t)up;
    else m = (uint64_t)(-up) >= mag ? 1 : mag - (uint64_t)(-up);
    bits = sign | m;
    memcpy(&r, &bits, sizeof r);
    ++moved;
    return r;
}

static void* real(const char* name) {
    void* f = dlsym(RTLD_NEXT, name);
    if (!f) {
        fprintf(stderr, "libm_perturb: no %s\n", name);
        abort();
    }
    return f;
}

#define WRAP1(name)                                                                                                    \
    double name(double x) {                                                                                            \
        static double (*f)(double);                                                                                    \
        if (!f) f = (double (*)(double))real(#name);                                                                   \
        return nudge(x, f(x));                                                                                         \
    }
#define WRAP2(name)                                                                                                    \
    double name(double x, double y) {                                                                                  \
        static double (*f)(double, double);                                                                            \
        if (!f) f = (double (*)(double, double))real(#name);                                                           \
        return nudge(x + y, f(x, y));                                                                                  \
    }

WRAP1(sin)
WRAP1(cos)
WRAP1(tan)
WRAP1(asin)
WRAP1(acos)
WRAP1(atan)
WRAP1(sinh)
WRAP1(cosh)
WRAP1(tanh)
WRAP1(asinh)
WRAP1(acosh)
WRAP1(atanh)
WRAP1(exp)
WRAP1(exp2)
WRAP1(expm1)
WRAP1(log)
WRAP1(log2)
WRAP1(log10)
WRAP1(log1p)
WRAP1(cbrt)
WRAP2(atan2)
WRAP2(pow)
WRAP2(hypot)

/* A compiler may fuse sin(x) and cos(x) into one sincos call: move both halves. (The real ones
 * are called through dlsym, so this cannot become a call to itself.) */
void sincos(double x, double* s, double* c) {
    static double (*real_sin)(double), (*real_cos)(double);
    if (!real_sin) real_sin = (double (*)(double))real("sin");
    if (!real_cos) real_cos = (double (*)(double))real("cos");
    *s = nudge(x, real_sin(x));
    *c = nudge(x, real_cos(x));
}

__attribute__((destructor)) static void report(void) {
    const char* r = getenv("COLLIDE_LIBM_REPORT");
    if (r && r[0] == '1') fprintf(stderr, "libm_perturb: moved %ld results by %s ulp\n", moved, getenv("COLLIDE_LIBM_ULPS"));
}
