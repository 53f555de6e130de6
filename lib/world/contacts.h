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
#include <span>
#include <vector>

#include "detection/manifold.h"
#include "io/memory.h"
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

/// One manifold of a pair; its points are `count` consecutive ContactSet::points from `first`.
struct PairManifold {
    Vec3 normal;           ///< unit, from body i to body j
    std::uint32_t key = 0; ///< the manifold's key (a mesh triangle)
    int first = 0;         ///< its first point's index in the set's points
    int count = 0;         ///< points used, 1 … kMaxManifoldPoints
};

/// A pair of bodies in contact (i < j); its manifolds are `count` consecutive
/// ContactSet::manifolds from `first`.
struct PairContact {
    int i = 0;                ///< first body
    int j = 0;                ///< second body
    int first = 0;            ///< its first manifold's index in the set's manifolds
    int count = 0;            ///< manifolds used
    double friction = 0;      ///< the pair's friction coefficient (combined)
    double restitution = 0;   ///< the pair's restitution (combined)
    bool overlapping = false; ///< some point overlaps by more than kTouchEpsilon
    bool touching = false;    ///< some point overlaps, or is within kTouchEpsilon of touching
    bool told = false;        ///< observers heard of it this frame (an arrival at the step's end)
    bool cast = false;        ///< this step: a swept pair apart at its start (no point touching), left to
                              ///< its time of impact instead of the solver

    /// The pair's key, for ordering.
    PairKey key() const { return pair_key(i, j); }
};

/// Pairs in contact with their manifolds and points, each kind in one array (a pair of spheres
/// takes one pair, one manifold and one point, not room for the most a mesh pair can have).
/// Pairs are added in order and never removed but the last; clear() keeps the storage, so a
/// set warmed up by as many contacts allocates nothing.
struct ContactSet {
    LargeVector<PairContact> pairs;      ///< the pairs, in the order added
    LargeVector<PairManifold> manifolds; ///< every pair's manifolds, a pair's together
    LargeVector<ContactPoint> points;    ///< every manifold's points, a manifold's together

    /// Empties the set (keeps the storage).
    void clear();
    /// Exchanges the contents (and storage) with `other`.
    void swap(ContactSet& other) noexcept {
        pairs.swap(other.pairs);
        manifolds.swap(other.manifolds);
        points.swap(other.points);
    }
    /// How many pairs there are.
    std::size_t size() const { return pairs.size(); }
    /// True without pairs.
    bool empty() const { return pairs.empty(); }
    /// Adds pair (i, j) with the manifolds `found` (their points' impulses zero; at most
    /// kMaxPairManifolds, empty ones left out) and returns it; overlapping and touching say
    /// what the points' depths say, the friction and restitution are 0.
    PairContact& add(int i, int j, std::span<const Manifold> found);
    /// Adds a copy of pair `pc` of set `from` (its manifolds and points too) and returns it.
    PairContact& add_copy(const ContactSet& from, const PairContact& pc);
    /// Removes the pair added last, with its manifolds and points.
    void pop_back();
    /// Pair `pc`'s manifolds.
    std::span<PairManifold> manifolds_of(const PairContact& pc) {
        return {manifolds.data() + pc.first, static_cast<std::size_t>(pc.count)};
    }
    /// Pair `pc`'s manifolds.
    std::span<const PairManifold> manifolds_of(const PairContact& pc) const {
        return {manifolds.data() + pc.first, static_cast<std::size_t>(pc.count)};
    }
    /// Manifold `m`'s points.
    std::span<ContactPoint> points_of(const PairManifold& m) {
        return {points.data() + m.first, static_cast<std::size_t>(m.count)};
    }
    /// Manifold `m`'s points.
    std::span<const ContactPoint> points_of(const PairManifold& m) const {
        return {points.data() + m.first, static_cast<std::size_t>(m.count)};
    }
    /// The deepest point's depth of pair `pc` (m); −infinity without points.
    double deepest(const PairContact& pc) const;
};

/// Raises pair `pc`'s overlapping and touching flags by the depth (m) of one of its points.
inline void note_depth(PairContact& pc, double depth) {
    pc.overlapping = pc.overlapping || depth > kTouchEpsilon;
    pc.touching = pc.touching || depth >= -kTouchEpsilon;
}

/// A new contact point whose feature id matches no old one takes the impulse of the nearest old
/// point of its manifold within this distance (m) that no other point took (Jolt matches points
/// by place alone, within 1 cm): where two edges coincide — a cube on two touching cubes — a
/// rounding decides which of them clipped the face, and the point's name changes in place.
inline constexpr double kCarryDistance = 1e-3;

/// Copies into pair `to` of set `into` the impulses of the points of pair `from` of set
/// `from_set` whose (manifold key, feature id) match — or, for a point whose id matches none,
/// of the nearest unmatched old point of the same manifold within kCarryDistance — scaled by
/// `scale` (the ratio of the new step's length to the old one's: impulses of steady forces grow
/// with the step). Points with no match keep theirs.
void carry_impulses(const ContactSet& from_set, const PairContact& from, ContactSet& into, const PairContact& to,
                    double scale);

/// carry_impulses() for one manifold: copies into `new_points` the impulses of the
/// `old_points` (the same manifold's, a step earlier) that match by feature id, or by place
/// within kCarryDistance, scaled by `scale`. Points with no match keep theirs.
void carry_point_impulses(std::span<const ContactPoint> old_points, std::span<ContactPoint> new_points, double scale);

} // namespace collide
