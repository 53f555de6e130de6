// The manifold toolkit: feature ids (exact and order-free for convex shapes), the owner swap,
// the merge of points naming the same features, and the reduction to four points.
#include <catch2/catch.hpp>

#include <array>
#include <set>

#include "detection/manifold_reduce.h"
#include "support/approx.h"

using namespace collide;
using collide::test::near_vec;

TEST_CASE("feature ids are order-free, exact and distinct for every pair of convex features", "[manifold]") {
    std::vector<FeatureCode> f{kNoFeature};
    for (int owner = 0; owner < 2; ++owner)
        for (std::uint32_t i = 0; i < 8; ++i) {
            f.push_back(vertex_feature(owner, i));
            for (std::uint32_t j = i + 1; j < 8; ++j) f.push_back(edge_feature(owner, i, j));
        }
    std::set<std::uint32_t> ids;
    int pairs = 0;
    for (std::size_t i = 0; i < f.size(); ++i)
        for (std::size_t j = i; j < f.size(); ++j) {
            if (f[i] == kNoFeature && f[j] != kNoFeature) continue; // (none, x) is (x, none)
            const std::uint32_t id = feature_id(f[i], f[j]);
            CHECK(id == feature_id(f[j], f[i]));
            CHECK(id < (1u << 24));
            ids.insert(id);
            ++pairs;
        }
    CHECK(static_cast<int>(ids.size()) == pairs);
    CHECK(edge_feature(1, 5, 2) == edge_feature(1, 2, 5));
    CHECK(swap_owner(edge_feature(0, 2, 5)) == edge_feature(1, 2, 5));
    CHECK(feature_id(kNoFeature, kNoFeature) == 0);
    // Mesh vertex numbers past 31 hash, with bit 31 set.
    CHECK((feature_id(edge_feature(1, 1000, 2000), vertex_feature(0, 3)) & 0x80000000u) != 0);
}

TEST_CASE("flipping a raw manifold negates its normal and swaps its features' owners", "[manifold]") {
    RawManifold m;
    m.normal = {0, 1, 0};
    m.count = 1;
    m.points[0] = {{1, 2, 3}, 0.01, edge_feature(0, 1, 2), vertex_feature(1, 4)};
    const RawManifold f = flipped(m);
    CHECK_THAT(f.normal, near_vec({0, -1, 0}));
    CHECK_THAT(f.points[0].point, near_vec({1, 2, 3}));
    CHECK(f.points[0].f1 == edge_feature(1, 1, 2));
    CHECK(f.points[0].f2 == vertex_feature(0, 4));
}

TEST_CASE("points naming the same features are merged into the deeper", "[manifold]") {
    std::array<RawPoint, 4> p{RawPoint{{0, 0, 0}, 0.1, edge_feature(0, 0, 1), edge_feature(1, 2, 3)},
                              RawPoint{{1, 0, 0}, 0.2, edge_feature(1, 3, 2), edge_feature(0, 1, 0)},
                              RawPoint{{2, 0, 0}, 0.3, vertex_feature(1, 0), kNoFeature},
                              RawPoint{{3, 0, 0}, 0.4, kNoFeature, kNoFeature}};
    const int n = merge_same_features(p, 4, 0.0);
    REQUIRE(n == 3);
    CHECK_THAT(p[0].point, near_vec({1, 0, 0})); // the deeper one, in the first one's place
    CHECK(p[0].depth == 0.2);
}

TEST_CASE("reducing a square's corners and side midpoints keeps the 4 corners", "[manifold]") {
    std::vector<RawPoint> p;
    std::uint32_t k = 0;
    for (double x : {-1.0, 0.0, 1.0})
        for (double z : {-1.0, 0.0, 1.0}) p.push_back({{x, 0, z}, 0.001, vertex_feature(1, k++), kNoFeature});
    RawManifold out;
    reduce_points(p, static_cast<int>(p.size()), {0, 1, 0}, out);
    REQUIRE(out.count == 4);
    for (int i = 0; i < 4; ++i) {
        const Vec3 q = out.points[static_cast<std::size_t>(i)].point;
        CHECK(std::fabs(q.x) == 1.0);
        CHECK(std::fabs(q.z) == 1.0);
    }
}

TEST_CASE("reducing keeps the deepest where depths differ, and nothing that adds no area", "[manifold]") {
    std::vector<RawPoint> p;
    for (int i = 0; i < 8; ++i)
        p.push_back({{double(i), 0, 0}, 0.01 * i, vertex_feature(1, std::uint32_t(i)), kNoFeature});
    RawManifold out;
    reduce_points(p, 8, {0, 1, 0}, out);
    REQUIRE(out.count == 2); // all on a line: the deepest and the one farthest from it
    CHECK(out.points[0].depth == 0.07);
    CHECK_THAT(out.points[1].point, near_vec({0, 0, 0}));
}
