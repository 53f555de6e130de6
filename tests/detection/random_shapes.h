#pragma once
/// \file
/// Random shapes for the detection property tests, from a caller-seeded std::mt19937_64.

#include <random>

#include "math/quat.h"
#include "shapes/shapes.h"

namespace collide::test {

/// A rotation drawn uniformly (a normalised 4D Gaussian quaternion), as a matrix.
inline Mat3 random_rotation(std::mt19937_64& rng) {
    std::normal_distribution<double> g(0.0, 1.0);
    const Quat q = normalize(Quat{g(rng), g(rng), g(rng), g(rng)});
    return to_mat3(q);
}

/// A turned box with half-sizes in [0.1, 2] m, a uniform random rotation, and its centre
/// uniform in the cube [−spread, spread]³ (m).
inline Obb random_obb(std::mt19937_64& rng, double spread) {
    std::uniform_real_distribution<double> pos(-spread, spread), size(0.1, 2.0);
    const Vec3 centre{pos(rng), pos(rng), pos(rng)};
    const Vec3 half{size(rng), size(rng), size(rng)};
    return Obb{centre, random_rotation(rng), half};
}

} // namespace collide::test
