#pragma once
// Hulls for tests: a Hull is a handle onto points held apart (shapes/shapes.h), so a test that
// makes one keeps its points here, alive until the test program ends.
#include <deque>
#include <initializer_list>
#include <span>

#include "shapes/shapes.h"

namespace collide::test {

/// A hull of a copy of `points`, kept for the rest of the run (identity placement).
inline Hull keep_hull(const HullPoints& points) {
    static std::deque<HullPoints> store; // a deque never moves what it holds
    store.push_back(points);
    return hull_of(store.back());
}

/// A hull of these points (at most kHullMaxPoints), kept for the rest of the run.
inline Hull keep_hull(std::span<const Vec3> points) {
    HullPoints p;
    for (const Vec3& v : points)
        if (p.count < kHullMaxPoints) p.points[static_cast<std::size_t>(p.count++)] = v;
    return keep_hull(p);
}

/// A hull of these points, kept for the rest of the run.
inline Hull keep_hull(std::initializer_list<Vec3> points) {
    return keep_hull(std::span<const Vec3>(points.begin(), points.size()));
}

} // namespace collide::test
