#pragma once
/// \file
/// A fixed-seed random generator whose sequence is the same on every standard library
/// (std::uniform_real_distribution and std::normal_distribution are not: libstdc++ and libc++
/// draw differently), for tests whose inputs must not depend on the toolchain: the determinism
/// hashes and the watertight property tests. SplitMix64 (Steele, Lea & Flood 2014).

#include <cstdint>

#include "math/vec3.h"

namespace collide::test {

/// SplitMix64 with helpers for uniform doubles and points.
struct SplitMix {
    std::uint64_t state = 0; ///< the seed, advanced by every draw

    /// The next 64 random bits.
    std::uint64_t next() {
        std::uint64_t z = (state += 0x9e3779b97f4a7c15ull);
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        return z ^ (z >> 31);
    }
    /// Uniform in [0, 1): the top 53 bits as a fraction (exact, no rounding).
    double unit() { return static_cast<double>(next() >> 11) * 0x1p-53; }
    /// Uniform in [lo, hi).
    double uniform(double lo, double hi) { return lo + (hi - lo) * unit(); }
    /// A whole number in [0, n), n > 0 (modulo bias below 2^−40 for the n used in tests).
    int below(int n) { return static_cast<int>(next() % static_cast<std::uint64_t>(n)); }
    /// A point uniform in the box [lo, hi]³ per component.
    Vec3 point(const Vec3& lo, const Vec3& hi) {
        return {uniform(lo.x, hi.x), uniform(lo.y, hi.y), uniform(lo.z, hi.z)};
    }
    /// A unit vector uniform on the sphere (rejection from the cube, no transcendental function).
    Vec3 direction() {
        for (;;) {
            const Vec3 v{uniform(-1, 1), uniform(-1, 1), uniform(-1, 1)};
            const double l2 = length_squared(v);
            if (l2 > 1e-6 && l2 <= 1.0) return v / std::sqrt(l2);
        }
    }
};

} // namespace collide::test
