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
// Every overlap is judged in true length (edge overlaps divided by |L|) without square roots:
// an edge axis separates when overlap ≤ 0 or overlap² ≤ kTouchEpsilon²·|L|², and the least
// overlap is found by comparing overlap²/|L|² cross-multiplied. Unlike Ericson (who adds an
// epsilon to |R| so parallel edges cannot fake a gap) nearly parallel edge pairs are skipped
// outright: the epsilon would inflate every depth, and the answer here must be the exact minimum.
//
// The six face axes are computed together and checked with one branch, then the nine edge
// axes likewise: random pairs make per-axis branches unpredictable, and most separated pairs
// are already decided by the faces. The yes/no and the full answer share these numbers, so
// they always agree.

/// Both boxes seen from A's frame.
struct PairFrame {
    double R[3][3];
    double AR[3][3];
    double t[3];
    double ha[3];
    double hb[3];

    PairFrame(const Obb& a, const Obb& b) : ha{a.half.x, a.half.y, a.half.z}, hb{b.half.x, b.half.y, b.half.z} {
        for (std::size_t i = 0; i < 3; ++i)
            for (std::size_t j = 0; j < 3; ++j) {
                R[i][j] = dot(a.axes.col[i], b.axes.col[j]);
                AR[i][j] = std::fabs(R[i][j]);
            }
        const Vec3 d = b.centre - a.centre;
        for (std::size_t i = 0; i < 3; ++i) t[i] = dot(d, a.axes.col[i]);
    }
};

/// Overlaps (m) and centre offsets along the six face axes: A's u, v, w then B's u, v, w.
struct FaceAxes {
    double o[6];
    double dist[6];
};

inline FaceAxes face_axes(const PairFrame& f) {
    FaceAxes out;
    for (int i = 0; i < 3; ++i) {
        out.dist[i] = f.t[i];
        out.o[i] = f.ha[i] + f.hb[0] * f.AR[i][0] + f.hb[1] * f.AR[i][1] + f.hb[2] * f.AR[i][2] - std::fabs(f.t[i]);
    }
    for (int j = 0; j < 3; ++j) {
        out.dist[3 + j] = f.t[0] * f.R[0][j] + f.t[1] * f.R[1][j] + f.t[2] * f.R[2][j];
        out.o[3 + j] = f.ha[0] * f.AR[0][j] + f.ha[1] * f.AR[1][j] + f.ha[2] * f.AR[2][j] + f.hb[j] -
                       std::fabs(out.dist[3 + j]);
    }
    return out;
}

/// Overlaps scaled by |L|, |L|² and centre offsets along L for the nine edge axes, A's edge i
/// slow.
struct EdgeAxes {
    double o[9];
    double len2[9];
    double dist[9];
};

/// The centre offset along the unnormalised edge axis A_i × B_j.
template <int i, int j> inline double edge_dist(const PairFrame& f) {
    constexpr int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
    return f.t[i2] * f.R[i1][j] - f.t[i1] * f.R[i2][j];
}

/// The overlap along the unnormalised edge axis A_i × B_j (true overlap times |L|).
template <int i, int j> inline double edge_overlap(const PairFrame& f, double dist) {
    constexpr int i1 = (i + 1) % 3, i2 = (i + 2) % 3, j1 = (j + 1) % 3, j2 = (j + 2) % 3;
    return f.ha[i1] * f.AR[i2][j] + f.ha[i2] * f.AR[i1][j] + f.hb[j1] * f.AR[i][j2] + f.hb[j2] * f.AR[i][j1] -
           std::fabs(dist);
}

template <int i, int j> inline void edge_axis(const PairFrame& f, EdgeAxes& out) {
    constexpr int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
    constexpr int k = 3 * i + j;
    out.len2[k] = f.R[i1][j] * f.R[i1][j] + f.R[i2][j] * f.R[i2][j];
    out.dist[k] = edge_dist<i, j>(f);
    out.o[k] = edge_overlap<i, j>(f, out.dist[k]);
}

/// The least scaled overlap of the nine edge axes (parallel pairs included): the yes/no
/// test's cheap screen.
inline double least_edge_overlap(const PairFrame& f) {
    double m = edge_overlap<0, 0>(f, edge_dist<0, 0>(f));
    auto keep = [&m](double o) { m = o < m ? o : m; };
    keep(edge_overlap<0, 1>(f, edge_dist<0, 1>(f)));
    keep(edge_overlap<0, 2>(f, edge_dist<0, 2>(f)));
    keep(edge_overlap<1, 0>(f, edge_dist<1, 0>(f)));
    keep(edge_overlap<1, 1>(f, edge_dist<1, 1>(f)));
    keep(edge_overlap<1, 2>(f, edge_dist<1, 2>(f)));
    keep(edge_overlap<2, 0>(f, edge_dist<2, 0>(f)));
    keep(edge_overlap<2, 1>(f, edge_dist<2, 1>(f)));
    keep(edge_overlap<2, 2>(f, edge_dist<2, 2>(f)));
    return m;
}

/// The least overlap of the six face axes.
inline double least_face_overlap(const FaceAxes& fa) {
    double m = fa.o[0];
    for (int k = 1; k < 6; ++k) m = fa.o[k] < m ? fa.o[k] : m;
    return m;
}

inline EdgeAxes edge_axes(const PairFrame& f) {
    EdgeAxes out;
    edge_axis<0, 0>(f, out);
    edge_axis<0, 1>(f, out);
    edge_axis<0, 2>(f, out);
    edge_axis<1, 0>(f, out);
    edge_axis<1, 1>(f, out);
    edge_axis<1, 2>(f, out);
    edge_axis<2, 0>(f, out);
    edge_axis<2, 1>(f, out);
    edge_axis<2, 2>(f, out);
    return out;
}

inline bool face_separates(double o) { return o <= kTouchEpsilon; }

/// An edge axis separates when it is usable (not from nearly parallel edges) and its true
/// overlap o/|L| is at most kTouchEpsilon.
inline bool edge_separates(double o, double len2) {
    constexpr double touch2 = kTouchEpsilon * kTouchEpsilon;
    return (len2 > kSatParallelEpsilon) & ((o <= 0.0) | (o * o <= touch2 * len2));
}

inline bool any_face_separates(const FaceAxes& fa) {
    bool sep = false;
    for (int k = 0; k < 6; ++k) sep |= face_separates(fa.o[k]);
    return sep;
}

inline bool any_edge_separates(const EdgeAxes& ea) {
    // Since |L| ≤ 1, an axis can only separate when its scaled overlap is ≤ kTouchEpsilon: check
    // that cheaply first, and the exact rule (with |L|²) only when some axis comes that close.
    bool close = false;
    for (int k = 0; k < 9; ++k) close |= ea.o[k] <= kTouchEpsilon;
    if (!close) return false;
    bool sep = false;
    for (int k = 0; k < 9; ++k) sep |= edge_separates(ea.o[k], ea.len2[k]);
    return sep;
}

Candidate face_candidate(const FaceAxes& fa, int k) {
    const bool is_a = k < 3;
    return Candidate{fa.o[k],          1.0, fa.dist[k], is_a ? SatAxis::Kind::face_a : SatAxis::Kind::face_b,
                     is_a ? k : k - 3, 0,   k + 1};
}

Candidate edge_candidate(const EdgeAxes& ea, int k) {
    return Candidate{ea.o[k], ea.len2[k], ea.dist[k], SatAxis::Kind::edge_edge, k / 3, k % 3, 7 + k};
}

} // namespace

SatResult sat_box_box(const Obb& a, const Obb& b) {
    const PairFrame f(a, b);
    const FaceAxes fa = face_axes(f);
    if (any_face_separates(fa))
        for (int k = 0; k < 6; ++k)
            if (face_separates(fa.o[k])) return make_result(a, b, face_candidate(fa, k), true);
    const EdgeAxes ea = edge_axes(f);
    if (any_edge_separates(ea))
        for (int k = 0; k < 9; ++k)
            if (edge_separates(ea.o[k], ea.len2[k])) return make_result(a, b, edge_candidate(ea, k), true);
    // Overlapping on every axis: the least overlap, the earliest on a tie (strict <).
    int best_face = 0;
    for (int k = 1; k < 6; ++k)
        if (fa.o[k] < fa.o[best_face]) best_face = k;
    Candidate best = face_candidate(fa, best_face);
    for (int k = 0; k < 9; ++k) {
        if (!(ea.len2[k] > kSatParallelEpsilon)) continue; // parallel edges: no axis (keeps its number)
        if (ea.o[k] * ea.o[k] * best.len2 < best.o * best.o * ea.len2[k]) best = edge_candidate(ea, k);
    }
    return make_result(a, b, best, false);
}

bool overlap_box_box(const Obb& a, const Obb& b) {
    const PairFrame f(a, b);
    // All 15 axes without an early exit: on random pairs "did a face separate?" is a coin flip
    // the branch predictor loses, which costs more than the nine edge axes.
    const bool faces_overlap = least_face_overlap(face_axes(f)) > kTouchEpsilon;
    // |L| ≤ 1, so no edge axis can separate while every scaled overlap exceeds kTouchEpsilon;
    // only when one comes that close is the exact rule (with |L|² and the parallel skip) needed.
    const bool edges_clear = least_edge_overlap(f) > kTouchEpsilon;
    if (faces_overlap & !edges_clear) return !any_edge_separates(edge_axes(f));
    return faces_overlap & edges_clear;
}
std::optional<Contact> contact_box_box(const Obb& a, const Obb& b) {
    const SatResult r = sat_box_box(a, b);
    if (r.separated) return std::nullopt;
    return Contact{r.normal, r.gap};
}

} // namespace collide
