// Watertight mesh queries: rays, sphere casts and times of impact aimed exactly at the edges and
// corners of closed meshes — a box of 12 triangles (also turned and moved by its Mesh
// placement), an icosphere of 320 and the shipped scenarios/level.obj — never slip between
// the triangles that share them. From outside a ray must meet the surface where it was aimed
// (at the distance to that point); from inside, at the back faces, the same; a sphere must
// touch when its centre comes within its radius of the aimed point. Every sample is counted
// and the counts are asserted, so a test that checked nothing fails.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "math/quat.h"
#include "queries/cast.h"
#include "queries/raycast.h"
#include "queries/time_of_impact.h"
#include "scenario/load.h"
#include "support/meshes.h"
#include "support/sample_count.h"
#include "support/splitmix.h"

using namespace collide;
using namespace collide::test;

namespace {

/// An edge (a, b) or a corner (a == b) of a mesh, with the outward unit normals of the faces
/// that meet there (world frame).
struct Feature {
    Vec3 a, b;
    bool corner = false;
    std::vector<Vec3> normals;
};

/// Every edge and every corner of a convex closed mesh placed by `placement`, with its faces'
/// normals turned outward (away from `inside`, a point inside it).
std::vector<Feature> features_of(const Mesh& placement, const Vec3& inside) {
    const TriangleMesh& m = *placement.data;
    const auto world = [&](const Vec3& p) { return placement.rotation * p + placement.position; };
    std::map<std::pair<int, int>, Feature> edges;
    std::map<int, Feature> corners;
    for (std::size_t i = 0; i < m.triangles.size(); ++i) {
        const Triangle t = m.triangle(static_cast<int>(i));
        const Vec3 a = world(t.a), b = world(t.b), c = world(t.c);
        Vec3 n = normalize(cross(b - a, c - a));
        if (dot(n, a - inside) < 0) n = -n;
        for (int k = 0; k < 3; ++k) {
            const int p = m.triangles[i][static_cast<std::size_t>(k)];
            const int q = m.triangles[i][static_cast<std::size_t>((k + 1) % 3)];
            Feature& e = edges[std::minmax(p, q)];
            e.a = world(m.vertices[static_cast<std::size_t>(std::min(p, q))]);
            e.b = world(m.vertices[static_cast<std::size_t>(std::max(p, q))]);
            e.normals.push_back(n);
            Feature& v = corners[p];
            v.a = v.b = world(m.vertices[static_cast<std::size_t>(p)]);
            v.corner = true;
            v.normals.push_back(n);
        }
    }
    std::vector<Feature> out;
    for (auto& [key, e] : edges) out.push_back(e);
    for (auto& [key, v] : corners) out.push_back(v);
    return out;
}

/// A point on the feature: the corner itself, or on the edge at a random parameter (every
/// eighth one its midpoint, the case a diagonal through a quad's centre gives).
Vec3 aim_point(const Feature& f, SplitMix& rng, int sample) {
    if (f.corner) return f.a;
    if (sample % 8 == 0) return (f.a + f.b) * 0.5;
    return f.a + (f.b - f.a) * rng.uniform(0.001, 0.999);
}

/// A unit direction w leaving the surface at the feature: w·n > 0.05 for every face normal n
/// there, so a ray from p + s·w back along −w enters the (convex) mesh exactly at p. With
/// `in_normal_cone`, w is a positive combination of the normals, so p is also the mesh's
/// point nearest to p + s·w for every s > 0.
Vec3 leaving_direction(const Feature& f, SplitMix& rng, bool in_normal_cone) {
    for (int attempt = 0; attempt < 1000; ++attempt) {
        Vec3 w;
        for (const Vec3& n : f.normals) w += n * rng.uniform(0.05, 1.0);
        if (!in_normal_cone) w = normalize(w) + rng.direction() * 0.4;
        w = normalize(w);
        bool ok = true;
        for (const Vec3& n : f.normals) ok = ok && dot(w, n) > 0.05;
        if (ok) return w;
    }
    FAIL("no leaving direction found");
    return {};
}

/// A closed convex test mesh, where it sits, and how to draw a point strictly inside it.
struct ClosedMesh {
    std::string name;
    std::shared_ptr<const TriangleMesh> data;
    Mesh mesh;
    Vec3 inside_lo, inside_hi; ///< a box strictly inside the mesh
};

std::vector<ClosedMesh> closed_meshes() {
    const Vec3 lo{-1.3, -0.7, -0.9}, hi{0.7, 1.1, 0.45};
    const auto box = box_mesh(lo, hi);
    const auto ball = icosphere({0.3, -0.2, 0.1}, 1.5, 2);
    const Mat3 turn = to_mat3(quat_from_axis_degrees({1, 2, 3}, 37));
    const double r = 1.5;
    const Vec3 c{0.3, -0.2, 0.1};
    const double k = r * 0.5; // a cube inside the icosphere (its inscribed radius is about 0.94 r)
    const Vec3 shrink{0.05, 0.05, 0.05};
    return {
            {"box", box, Mesh{box.get(), identity3(), {}}, lo + shrink, hi - shrink},
            {"turned box", box, Mesh{box.get(), turn, {2.5, -1, 4}}, {}, {}},
            {"icosphere", ball, Mesh{ball.get(), identity3(), {}}, c - Vec3{k, k, k}, c + Vec3{k, k, k}},
    };
}

/// A point strictly inside `m` (for the turned box: inside it in its own frame, then placed).
Vec3 inside_point(const ClosedMesh& m, SplitMix& rng) {
    if (m.name == "turned box") {
        const Vec3 local = rng.point({-1.25, -0.65, -0.85}, {0.65, 1.05, 0.4});
        return m.mesh.rotation * local + m.mesh.position;
    }
    return rng.point(m.inside_lo, m.inside_hi);
}

/// Tallies of one kind of sample.
struct Tally {
    long cast = 0;   ///< rays or casts tried
    long missed = 0; ///< ones that went through, or met the surface elsewhere
};

constexpr double kDistanceTolerance = 1e-9; // m

} // namespace

TEST_CASE("rays aimed at every edge and corner of closed meshes, from outside and from inside, never slip through",
          "[queries][watertight][heavy]") {
    SplitMix rng{19};
    // Per mesh: edges and corners, from outside and from inside (a tenth under AddressSanitizer).
    constexpr int kRaysPerFeatureKind = sample_count(250000);
    long total = 0;
    for (const ClosedMesh& m : closed_meshes()) {
        const Vec3 centre = inside_point(m, rng);
        const std::vector<Feature> features = features_of(m.mesh, m.name == "turned box" ? m.mesh.position : centre);
        std::vector<const Feature*> edges, corners;
        for (const Feature& f : features) (f.corner ? corners : edges).push_back(&f);
        REQUIRE(!edges.empty());
        REQUIRE(!corners.empty());
        for (const bool from_inside : {false, true}) {
            for (const auto* list : {&edges, &corners}) {
                Tally tally;
                for (int s = 0; s < kRaysPerFeatureKind; ++s) {
                    const Feature& f = *(*list)[static_cast<std::size_t>(s) % list->size()];
                    const Vec3 p = aim_point(f, rng, s);
                    Vec3 origin;
                    if (from_inside) {
                        origin = inside_point(m, rng);
                    } else {
                        // One draw a statement: operands of * are evaluated in no fixed order.
                        const Vec3 w = leaving_direction(f, rng, false);
                        origin = p + w * rng.uniform(0.2, 6.0);
                    }
                    const double expected = length(p - origin);
                    const std::optional<RayHit> hit = raycast_mesh(Ray{origin, p - origin}, m.mesh, 100.0);
                    ++tally.cast;
                    if (!hit || std::fabs(hit->distance - expected) > kDistanceTolerance) {
                        if (++tally.missed <= 3)
                            FAIL_CHECK(m.name << ": ray from (" << origin.x << ", " << origin.y << ", " << origin.z
                                              << ") at (" << p.x << ", " << p.y << ", " << p.z << "), "
                                              << (from_inside ? "inside" : "outside") << ": "
                                              << (hit ? "hit at " + std::to_string(hit->distance) : "missed")
                                              << " instead of " << expected);
                    }
                }
                INFO(m.name << (from_inside ? ", from inside, " : ", from outside, ")
                            << (list == &edges ? "edges" : "corners"));
                CHECK(tally.cast == kRaysPerFeatureKind);
                CHECK(tally.missed == 0);
                total += tally.cast;
            }
        }
    }
    CHECK(total == 3L * 4 * kRaysPerFeatureKind); // 3,000,000 rays (300,000 under AddressSanitizer)
}

TEST_CASE("rays aimed at every edge and corner of the shipped level mesh meet it there, from outside, from below "
          "and from inside the block",
          "[queries][watertight]") {
    const Scenario s = load_scenario(std::string(COLLIDE_SOURCE_DIR) + "/scenarios/level-mesh.yaml");
    const auto* placed = std::get_if<Mesh>(&s.bodies[0].shape);
    REQUIRE(placed);
    const TriangleMesh& m = *placed->data;
    const Mesh level{placed->data, identity3(), s.bodies[0].position};
    // level.obj: the floor's 16 quads (32 triangles at y = 0, x and z in [−4, 4]), then the
    // block's 6 (12 triangles: x in [2, 4], y in [0, 1], z in [−4, 4]), a closed box.
    REQUIRE(m.triangles.size() == 44);
    const Vec3 block_centre{3, 0.5, 0};
    // Each triangle's corners and edges with its outward normal (+y for the floor, away from the
    // block's centre for the block), merged per feature within the floor or the block. Features
    // on the floor's outer border (|x| = 4 or |z| = 4 at y = 0) are left out: the level is open
    // there, and a ray aimed exactly at an open border may pass a rounding outside it.
    const auto on_border = [](const Vec3& p) { return p.y == 0 && (std::fabs(p.x) == 4 || std::fabs(p.z) == 4); };
    std::map<std::tuple<bool, double, double, double, double, double, double>, Feature> merged;
    for (int i = 0; i < 44; ++i) {
        const bool block = i >= 32;
        const Triangle t = m.triangle(i);
        const Vec3 c[3] = {t.a + level.position, t.b + level.position, t.c + level.position};
        Vec3 n = normalize(cross(t.b - t.a, t.c - t.a));
        if (block ? dot(n, c[0] - block_centre) < 0 : n.y < 0) n = -n;
        if (block) REQUIRE((t.a.x >= 2 && t.b.x >= 2 && t.c.x >= 2));
        if (!block) REQUIRE((t.a.y == 0 && t.b.y == 0 && t.c.y == 0));
        for (int k = 0; k < 3; ++k) {
            Vec3 a = c[k], b = c[(k + 1) % 3];
            if (std::tie(b.x, b.y, b.z) < std::tie(a.x, a.y, a.z)) std::swap(a, b);
            if (!(on_border(a) && on_border(b) && (a.x == b.x || a.z == b.z))) {
                Feature& e = merged[{block, a.x, a.y, a.z, b.x, b.y, b.z}];
                e.a = a, e.b = b, e.normals.push_back(n);
            }
            if (!on_border(c[k])) {
                Feature& v = merged[{block, c[k].x, c[k].y, c[k].z, c[k].x, c[k].y, c[k].z}];
                v.a = v.b = c[k], v.corner = true;
                if (std::find_if(v.normals.begin(), v.normals.end(), [&](const Vec3& x) { return near(x, n, 0); }) ==
                    v.normals.end())
                    v.normals.push_back(n);
            }
        }
    }
    std::vector<std::pair<bool, Feature>> features;
    for (const auto& [key, f] : merged) features.emplace_back(std::get<0>(key), f);
    SplitMix rng{20};
    constexpr int kRays = sample_count(200000); // from outside; from below and inside, a share of them
    Tally outside, below, inside;
    for (int n = 0; n < kRays; ++n) {
        const auto& [block, f] = features[static_cast<std::size_t>(n) % features.size()];
        const Vec3 p = aim_point(f, rng, n);
        // From outside, entering the floor or the block exactly at p (leaving_direction): the ray
        // meets the level there, or sooner where the other part stands in the way; never later,
        // and never not at all.
        const Vec3 out = leaving_direction(f, rng, false); // one draw a statement: no unspecified order
        const Vec3 o = p + out * rng.uniform(0.2, 8.0);
        std::optional<RayHit> hit = raycast_mesh(Ray{o, p - o}, level, 100.0);
        ++outside.cast;
        if (!hit || hit->distance > length(p - o) + kDistanceTolerance) {
            if (++outside.missed <= 3) FAIL_CHECK("from outside at (" << p.x << ", " << p.y << ", " << p.z << ")");
        }
        // From below, at the back faces: a point of the floor plane is met exactly there.
        if (p.y == 0) {
            Vec3 w = rng.direction();
            w.y = std::fabs(w.y) + 0.2;
            const Vec3 ob = p - normalize(w) * rng.uniform(0.2, 8.0);
            hit = raycast_mesh(Ray{ob, p - ob}, level, 100.0);
            ++below.cast;
            if (!hit || std::fabs(hit->distance - length(p - ob)) > kDistanceTolerance) {
                if (++below.missed <= 3) FAIL_CHECK("from below at (" << p.x << ", " << p.z << ")");
            }
        }
        // From inside the block, at its back faces (its bottom lies on the floor).
        if (block) {
            const Vec3 oi = rng.point({2.05, 0.05, -3.95}, {3.95, 0.95, 3.95});
            hit = raycast_mesh(Ray{oi, p - oi}, level, 100.0);
            ++inside.cast;
            if (!hit || std::fabs(hit->distance - length(p - oi)) > kDistanceTolerance) {
                if (++inside.missed <= 3)
                    FAIL_CHECK("from inside the block at (" << p.x << ", " << p.y << ", " << p.z << ")");
            }
        }
    }
    CHECK(outside.cast == kRays);
    CHECK(outside.missed == 0);
    CHECK(below.missed == 0);
    CHECK(inside.missed == 0);
    // How many samples lay on the floor plane and on the block follows from the seed and the
    // level; both kinds must have been tried in numbers.
    CHECK(below.cast > kRays / 4);
    CHECK(inside.cast > kRays / 4);
    INFO("rays: " << outside.cast << " from outside, " << below.cast << " from below, " << inside.cast
                  << " from inside");
    CHECK(outside.cast + below.cast + inside.cast > 3 * kRays / 2); // 402,985 in full
}

TEST_CASE("a ray through an edge reports one hit, on the edge, with the face normal of one of its two triangles",
          "[queries][watertight]") {
    const auto box = box_mesh({-1, -1, -1}, {1, 1, 1});
    const Mesh mesh{box.get(), identity3(), {}};
    int checked = 0;
    // Down the bisector of each of the four top edges, and of the top face's diagonal.
    const Vec3 aims[] = {{1, 1, 0.25}, {-1, 1, -0.5}, {0.125, 1, 1}, {0.3, 1, -1}, {0.5, 1, 0.5}};
    const Vec3 leaves[] = {{1, 1, 0}, {-1, 1, 0}, {0, 1, 1}, {0, 1, -1}, {0, 1, 0}};
    for (int i = 0; i < 5; ++i) {
        const Vec3 w = normalize(leaves[i]);
        const Vec3 origin = aims[i] + w * 3.0;
        const std::optional<RayHit> hit = raycast_mesh(Ray{origin, -w}, mesh, 10);
        INFO("edge " << i);
        REQUIRE(hit);
        CHECK(hit->distance == Approx(3.0).margin(1e-12));
        CHECK(near(hit->point, aims[i], 1e-12));
        // The normal is a face's: +y, or the side face's; never a blend, never −w.
        const bool top = near(hit->normal, {0, 1, 0}, 0);
        const Vec3 side{leaves[i].x, 0, leaves[i].z};
        CHECK((top || near(hit->normal, side, 0)));
        // The same query gives the same bits (the normal is chosen by the rule, not by chance).
        const std::optional<RayHit> again = raycast_mesh(Ray{origin, -w}, mesh, 10);
        REQUIRE(again);
        CHECK(again->distance == hit->distance);
        CHECK(again->normal == hit->normal);
        ++checked;
    }
    CHECK(checked == 5);
}

TEST_CASE("regression: the level's block ray through the diagonal of the block's top hits the top, not the floor",
          "[queries][watertight]") {
    // scenarios/level-mesh.yaml's block_ray: (3, 1, 0) lies on the diagonal the top's two
    // triangles share; with a*b + c fused (GCC -march=native) it passed between them and hit the
    // floor at (4, 0, 0), 5.657 m away.
    const Scenario s = load_scenario(std::string(COLLIDE_SOURCE_DIR) + "/scenarios/level-mesh.yaml");
    const Mesh& level = std::get<Mesh>(s.bodies[0].shape);
    const std::optional<RayHit> hit = raycast_mesh(Ray{{0, 4, 0}, {1, -1, 0}}, level, 100);
    REQUIRE(hit);
    CHECK(hit->distance == Approx(3 * std::sqrt(2.0)).margin(1e-12));
    CHECK(near(hit->point, {3, 1, 0}, 1e-12));
    CHECK(near(hit->normal, {0, 1, 0}, 1e-12));
}

TEST_CASE("sphere casts aimed at every edge and corner of closed meshes touch when the centre is one radius away",
          "[queries][watertight]") {
    SplitMix rng{21};
    constexpr int kCastsPerMesh = sample_count(40000);
    long total = 0;
    for (const ClosedMesh& m : closed_meshes()) {
        const std::vector<Feature> features =
                features_of(m.mesh, m.name == "turned box" ? m.mesh.position : inside_point(m, rng));
        Tally tally;
        for (int s = 0; s < kCastsPerMesh; ++s) {
            const Feature& f = features[static_cast<std::size_t>(s) % features.size()];
            const Vec3 p = aim_point(f, rng, s);
            // w in the normal cone: p is the mesh's point nearest the centre all along the way,
            // so the sphere first touches when the centre is `radius` from p, at exactly that time.
            const Vec3 w = leaving_direction(f, rng, true);
            const double radius = rng.uniform(0.02, 0.4), gap = rng.uniform(0.05, 3.0), speed = rng.uniform(0.5, 20);
            const Sphere ball{p + w * (radius + gap), radius};
            const double t_max = (gap + 2 * radius) / speed;
            const std::optional<CastHit> hit = cast_sphere_mesh(ball, -w * speed, m.mesh, t_max);
            ++tally.cast;
            const double expected = gap / speed;
            if (!hit || hit->started_inside || std::fabs(hit->time - expected) > 1e-9 || !near(hit->normal, -w, 1e-6)) {
                if (++tally.missed <= 3)
                    FAIL_CHECK(m.name << " at (" << p.x << ", " << p.y << ", " << p.z
                                      << "): " << (hit ? "touched at " + std::to_string(hit->time) : "missed")
                                      << " instead of " << expected);
            }
        }
        INFO(m.name);
        CHECK(tally.cast == kCastsPerMesh);
        CHECK(tally.missed == 0);
        total += tally.cast;
    }
    CHECK(total == 3L * kCastsPerMesh);
}

TEST_CASE("times of impact of spheres aimed at every edge and corner of closed meshes are found, on time",
          "[queries][watertight]") {
    SplitMix rng{22};
    constexpr int kCastsPerMesh = sample_count(4000);
    long total = 0;
    for (const ClosedMesh& m : closed_meshes()) {
        const std::vector<Feature> features =
                features_of(m.mesh, m.name == "turned box" ? m.mesh.position : inside_point(m, rng));
        Tally tally;
        for (int s = 0; s < kCastsPerMesh; ++s) {
            const Feature& f = features[static_cast<std::size_t>(s) % features.size()];
            const Vec3 p = aim_point(f, rng, s);
            const Vec3 w = leaving_direction(f, rng, true);
            const double radius = rng.uniform(0.02, 0.4), gap = rng.uniform(0.05, 3.0), speed = rng.uniform(0.5, 20);
            const Shape ball = Sphere{p + w * (radius + gap), radius};
            const double t_max = (gap + 2 * radius) / speed;
            const Toi toi = time_of_impact(ball, Motion{-w * speed, {}}, Shape{m.mesh}, Motion{}, t_max);
            ++tally.cast;
            // Conservative advancement stops within its tolerance (1e-10 m) of touching.
            const double expected = gap / speed;
            if (toi.status != ToiStatus::hit || toi.time > expected + 1e-12 || toi.time < expected - 1e-9) {
                if (++tally.missed <= 3)
                    FAIL_CHECK(m.name << " at (" << p.x << ", " << p.y << ", " << p.z << "): status "
                                      << static_cast<int>(toi.status) << " time " << toi.time << " instead of "
                                      << expected);
            }
        }
        INFO(m.name);
        CHECK(tally.cast == kCastsPerMesh);
        CHECK(tally.missed == 0);
        total += tally.cast;
    }
    CHECK(total == 3L * kCastsPerMesh);
}
