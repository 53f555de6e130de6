#pragma once
/// \file
/// The benchmarks' random turned-box pairs: 1,000,000 pairs from one fixed seed (half extents
/// 0.1–2 m, centres in a 4 m cube, uniform rotations; about half overlap), built once per
/// program and shared by every benchmark that tests box pairs, so their times compare directly.

#include <cstddef>
#include <random>
#include <vector>

#include "math/quat.h"
#include "shapes/shapes.h"

namespace collide::bench {

/// How many pairs.
inline constexpr std::size_t kPairs = 1'000'000;

/// Pair k is (a[k], b[k]).
struct BoxPairs {
    std::vector<Obb> a; ///< first boxes
    std::vector<Obb> b; ///< second boxes
};

/// The pairs (built on first use).
inline const BoxPairs& box_pairs() {
    static const BoxPairs pairs = [] {
        BoxPairs p;
        p.a.reserve(kPairs);
        p.b.reserve(kPairs);
        std::mt19937_64 rng(20260726);
        std::normal_distribution<double> g(0.0, 1.0);
        std::uniform_real_distribution<double> pos(-2.0, 2.0), size(0.1, 2.0);
        auto box = [&] {
            const Quat q = normalize(Quat{g(rng), g(rng), g(rng), g(rng)});
            const Vec3 centre{pos(rng), pos(rng), pos(rng)};
            const Vec3 half{size(rng), size(rng), size(rng)};
            return Obb{centre, to_mat3(q), half};
        };
        for (std::size_t k = 0; k < kPairs; ++k) {
            p.a.push_back(box());
            p.b.push_back(box());
        }
        return p;
    }();
    return pairs;
}

} // namespace collide::bench
