#include "detection/sat_box_box.h"

#include <cmath>
#include <limits>

namespace collide {

namespace {

/// The unit candidate axis (not yet oriented) in the world frame.
Vec3 world_axis(const Obb& a, const Obb& b, SatAxis::Kind kind, int i, int j) {
    switch (kind) {
    case SatAxis::Kind::face_a: return a.axes.col[i];
    case SatAxis::Kind::face_b: return b.axes.col[i];
    case SatAxis::Kind::edge_edge: break;
    }
    return normalize(cross(a.axes.col[i], b.axes.col[j]));
}

/// The axis the test stopped at (or the best one): overlap `o` measured along an axis of squared
/// length `len2` (1 for faces), `dist` = the centre offset along that (unnormalised) axis.
struct Candidate {
    double o = std::numeric_limits<double>::infinity();
    double len2 = 1.0;
    double dist = 0.0;
    SatAxis::Kind kind = SatAxis::Kind::face_a;
    int i = 0; ///< 0-based
    int j = 0; ///< 0-based
    int index = 0;
};

SatResult make_result(const Obb& a, const Obb& b, const Candidate& c, bool separated) {
    SatResult r;
    r.separated = separated;
    r.axis.kind = c.kind;
    r.axis.i = c.i + 1;
    r.axis.j = c.kind == SatAxis::Kind::edge_edge ? c.j + 1 : 0;
    r.axis.index = c.index;
    r.axis.count = 15;
    const double o = c.len2 == 1.0 ? c.o : c.o / std::sqrt(c.len2);
    r.gap = separated ? std::fmax(-o, 0.0) : o;
    const Vec3 n = world_axis(a, b, c.kind, c.i, c.j);
    r.normal = c.dist >= 0.0 ? n : -n; // from A's centre towards B's; equal centres give +
    return r;
}

// Separating axis test of two turned boxes in A's frame, after Ericson, Real-Time Collision
// Detection, 4.4.1 (OBB–OBB):
//   R = Aᵀ·B (R[i][j] = A_i·B_j), t = Aᵀ·(B.centre − A.centre)
//   face A_i:      overlap = a_i + Σ_k b_k|R[i][k]| − |t_i|
//   face B_j:      overlap = Σ_k a_k|R[k][j]| + b_j − |Σ_k t_k R[k][j]|
//   edge A_i×B_j:  L = e_i × R[:, j] in A's frame, |L|² = R[i1][j]² + R[i2][j]² (i1, i2, j1, j2
//                  the next two indices cyclically), overlap·|L| = a_i1|R[i2][j]| +
//                  a_i2|R[i1][j]| + b_j1|R[i][j2]| + b_j2|R[i][j1]| − |t_i2 R[i1][j] − t_i1 R[i2][j]|
// Every overlap is compared in true length (edge overlaps divided by |L|), without square
// roots: separated when overlap ≤ 0 or overlap² ≤ kTouchEpsilon²·|L|², and the least overlap is
// kept by comparing overlap²/|L|² cross-multiplied. Unlike Ericson (who adds an epsilon to
// |R| so parallel edges cannot fake a gap) nearly parallel edge pairs are skipped outright:
// the epsilon would inflate every depth, and the answer here must be the exact minimum.
//
// kFull = false: stop at the first gap and answer only "separated?".
// kFull = true: also track the axis of least overlap and fill *out.
template <bool kFull> inline bool box_box_separated(const Obb& a, const Obb& b, SatResult* out) {
    const Vec3 d = b.centre - a.centre;
    double R[3][3];
    double AR[3][3];
    for (std::size_t i = 0; i < 3; ++i)
        for (std::size_t j = 0; j < 3; ++j) {
            R[i][j] = dot(a.axes.col[i], b.axes.col[j]);
            AR[i][j] = std::fabs(R[i][j]);
        }
    const double t[3] = {dot(d, a.axes.col[0]), dot(d, a.axes.col[1]), dot(d, a.axes.col[2])};
    const double ha[3] = {a.half.x, a.half.y, a.half.z};
    const double hb[3] = {b.half.x, b.half.y, b.half.z};

    Candidate best;
    // Records the first gap (kFull) and reports separation.
    auto gap_at = [&](double o, double len2, double dist, SatAxis::Kind kind, int i, int j, int index) {
        if constexpr (kFull) *out = make_result(a, b, Candidate{o, len2, dist, kind, i, j, index}, true);
        return true;
    };

    for (int i = 0; i < 3; ++i) {
        const double o = ha[i] + hb[0] * AR[i][0] + hb[1] * AR[i][1] + hb[2] * AR[i][2] - std::fabs(t[i]);
        if (o <= kTouchEpsilon) return gap_at(o, 1.0, t[i], SatAxis::Kind::face_a, i, 0, i + 1);
        if constexpr (kFull)
            if (o < best.o) best = Candidate{o, 1.0, t[i], SatAxis::Kind::face_a, i, 0, i + 1};
    }
    for (int j = 0; j < 3; ++j) {
        const double dist = t[0] * R[0][j] + t[1] * R[1][j] + t[2] * R[2][j];
        const double o = ha[0] * AR[0][j] + ha[1] * AR[1][j] + ha[2] * AR[2][j] + hb[j] - std::fabs(dist);
        if (o <= kTouchEpsilon) return gap_at(o, 1.0, dist, SatAxis::Kind::face_b, j, 0, 4 + j);
        if constexpr (kFull)
            if (o < best.o) best = Candidate{o, 1.0, dist, SatAxis::Kind::face_b, j, 0, 4 + j};
    }
    constexpr double touch2 = kTouchEpsilon * kTouchEpsilon;
    for (int i = 0; i < 3; ++i) {
        const int i1 = i == 2 ? 0 : i + 1;
        const int i2 = i == 0 ? 2 : i - 1;
        for (int j = 0; j < 3; ++j) {
            const int j1 = j == 2 ? 0 : j + 1;
            const int j2 = j == 0 ? 2 : j - 1;
            const double len2 = R[i1][j] * R[i1][j] + R[i2][j] * R[i2][j];
            if (len2 <= kSatParallelEpsilon) continue; // parallel edges: no axis (keeps its number)
            const double dist = t[i2] * R[i1][j] - t[i1] * R[i2][j];
            const double o = ha[i1] * AR[i2][j] + ha[i2] * AR[i1][j] + hb[j1] * AR[i][j2] + hb[j2] * AR[i][j1] -
                             std::fabs(dist);
            if (o <= 0.0 || o * o <= touch2 * len2)
                return gap_at(o, len2, dist, SatAxis::Kind::edge_edge, i, j, 7 + 3 * i + j);
            if constexpr (kFull)
                if (o * o * best.len2 < best.o * best.o * len2)
                    best = Candidate{o, len2, dist, SatAxis::Kind::edge_edge, i, j, 7 + 3 * i + j};
        }
    }
    if constexpr (kFull) *out = make_result(a, b, best, false);
    return false;
}

} // namespace

SatResult sat_box_box(const Obb& a, const Obb& b) {
    SatResult r;
    box_box_separated<true>(a, b, &r);
    return r;
}

bool overlap_box_box(const Obb& a, const Obb& b) { return !box_box_separated<false>(a, b, nullptr); }

std::optional<Contact> contact_box_box(const Obb& a, const Obb& b) {
    const SatResult r = sat_box_box(a, b);
    if (r.separated) return std::nullopt;
    return Contact{r.normal, r.gap};
}

void overlap_box_box_batch(std::span<const Obb> a, std::span<const Obb> b, std::span<std::uint8_t> out) {
    std::size_t n = a.size();
    if (b.size() < n) n = b.size();
    if (out.size() < n) n = out.size();
    for (std::size_t k = 0; k < n; ++k) out[k] = box_box_separated<false>(a[k], b[k], nullptr) ? 0 : 1;
}

} // namespace collide
