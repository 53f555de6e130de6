#pragma once
/// \file
/// Contacts that persist from step to step (Box2D's b2Contact with its b2ManifoldPoints): for
/// every pair of bodies in contact, its manifolds (detection/manifold.h) with, per point, the
/// impulses the solver accumulated at it in the last step. A new step's points are matched to
/// the last step's by (manifold key, feature id), so the solver starts from the impulses that
/// held them (warm starting).
///
/// A pair is in contact when it comes into contact — it overlaps at a step's end (discrete
/// detection), it is found touching at a time of impact (swept detection), or its gap is within
/// the distance its motion can close in the next step (speculative contacts) — and stays in
/// contact while some point of it is within the skin, plus the distance its motion can close,
/// of touching. The hysteresis is what lets discrete detection miss what a sampled frame misses
/// (a new pair needs an overlap) while a resting body never loses its floor.

#include <array>
#include <cstdint>
#include <vector>

#include "detection/manifold.h"
#include "world/broadphase.h"

namespace collide {

/// The most manifolds one pair keeps (a body on a mesh touches several triangles).
inline constexpr int kMaxPairManifolds = 4;

/// One manifold point as the world keeps it between steps.
struct ContactPoint {
    ManifoldPoint found;       ///< point, depth and feature id, as the last update found them
    double normal_impulse = 0; ///< accumulated by the last step's solve (N·s), for warm starting
    Vec3 tangent_impulse;      ///< the friction impulse accumulated there (N·s, world frame)
};

/// One manifold of a pair with its points' impulses.
struct PairManifold {
    Vec3 normal;           ///< unit, from body i to body j
    std::uint32_t key = 0; ///< the manifold's key (a mesh triangle)
    int count = 0;         ///< points used
    std::array<ContactPoint, kMaxManifoldPoints> points{};
};

/// A pair of bodies in contact (i < j).
struct PairContact {
    int i = 0;                ///< first body
    int j = 0;                ///< second body
    int count = 0;            ///< manifolds used
    double friction = 0;      ///< the pair's friction coefficient (combined)
    double restitution = 0;   ///< the pair's restitution (combined)
    bool overlapping = false; ///< some point overlaps by more than kTouchEpsilon
    bool touching = false;    ///< some point overlaps, or is within kTouchEpsilon of touching
    bool told = false;        ///< observers heard of it this frame (an arrival at the step's end)
    std::array<PairManifold, kMaxPairManifolds> manifolds{};

    /// The pair's key, for ordering.
    PairKey key() const { return pair_key(i, j); }
    /// The deepest point's depth (m); −infinity without points.
    double deepest() const;
};

/// Copies into `to` the impulses of `from`'s points whose (manifold key, feature id) match,
/// scaled by `scale` (the ratio of the new step's length to the old one's: impulses of steady
/// forces grow with the step). Points with no match start from zero.
void carry_impulses(const PairContact& from, PairContact& to, double scale);

/// Fills `out` from the manifolds `found` (count of them) of pair (i, j).
void set_manifolds(PairContact& out, std::span<const Manifold> found);

} // namespace collide
