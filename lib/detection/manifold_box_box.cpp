#include "detection/manifold_box_box.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "detection/contact.h"
#include "detection/contact_capsule.h"
#include "detection/manifold_clip.h"
#include "detection/manifold_polytope.h"
#include "detection/sat.h"

namespace collide {

namespace {

constexpr std::uint32_t axis_bit(int axis) { return 4u >> axis; }

/// The next two axes after each, cyclically: (i + 1) % 3 and (i + 2) % 3 without a division.
constexpr int kNext1[3] = {1, 2, 0};
constexpr int kNext2[3] = {2, 0, 1};

/// Both boxes seen from A's frame, and the 15 axes' overlaps: the arithmetic of
/// sat_box_box.cpp (Ericson 4.4.1), so the axis of least overlap is the one contact_box_box
/// reports. Edge overlaps are made true lengths here (divided by |L|) so gaps compare too.
struct Axes {
    double R[3][3];
    double AR[3][3];
    double t[3];
    double ha[3];
    double hb[3];
    double face[6];      ///< overlap on A's u, v, w then B's (m; negative: a gap)
    double face_dist[6]; ///< centre offset along each face axis
    double edge[9];      ///< overlap on A_i × B_j, A's edge i slow: times |L| until true_edges()
    double edge_dist[9]; ///< centre offset along the unnormalised edge axis
    bool usable[9];      ///< not from nearly parallel edges

    Axes(const Obb& a, const Obb& b) : ha{a.half.x, a.half.y, a.half.z}, hb{b.half.x, b.half.y, b.half.z} {
        for (std::size_t i = 0; i < 3; ++i)
            for (std::size_t j = 0; j < 3; ++j) {
                R[i][j] = dot(a.axes.col[i], b.axes.col[j]);
                AR[i][j] = std::fabs(R[i][j]);
            }
        const Vec3 d = b.centre - a.centre;
        for (std::size_t i = 0; i < 3; ++i) t[i] = dot(d, a.axes.col[i]);
        for (int i = 0; i < 3; ++i) {
            face_dist[i] = t[i];
            face[i] = ha[i] + hb[0] * AR[i][0] + hb[1] * AR[i][1] + hb[2] * AR[i][2] - std::fabs(t[i]);
        }
        for (int j = 0; j < 3; ++j) {
            face_dist[3 + j] = t[0] * R[0][j] + t[1] * R[1][j] + t[2] * R[2][j];
            face[3 + j] = ha[0] * AR[0][j] + ha[1] * AR[1][j] + ha[2] * AR[2][j] + hb[j] - std::fabs(face_dist[3 + j]);
        }
    }

    /// The nine edge axes' overlaps times |L| and |L|², no square roots yet.
    void scaled_edges() {
        for (int i = 0; i < 3; ++i) {
            const int i1 = kNext1[i], i2 = kNext2[i];
            for (int j = 0; j < 3; ++j) {
                const int j1 = kNext1[j], j2 = kNext2[j];
                const int k = 3 * i + j;
                len2[k] = R[i1][j] * R[i1][j] + R[i2][j] * R[i2][j];
                edge_dist[k] = t[i2] * R[i1][j] - t[i1] * R[i2][j];
                usable[k] = len2[k] > kSatParallelEpsilon;
                edge[k] = ha[i1] * AR[i2][j] + ha[i2] * AR[i1][j] + hb[j1] * AR[i][j2] + hb[j2] * AR[i][j1] -
                          std::fabs(edge_dist[k]);
            }
        }
    }

    /// Whether some usable edge axis could reject the pair (true overlap ≤ keep) or beat the
    /// face axis (true overlap < beat): decided on the scaled overlaps o = true·|L|, squared,
    /// so that most pairs skip the nine square roots.
    bool edges_matter(double keep, double beat) const {
        bool matter = false;
        for (int k = 0; k < 9; ++k) {
            const double o = edge[k], l2 = len2[k];
            const bool rejects =
                    keep < 0 ? (o < 0 && o * o >= keep * keep * l2) : (o <= 0 || o * o <= keep * keep * l2);
            const bool beats = beat > 0 ? (o < 0 || o * o < beat * beat * l2) : (o < 0 && o * o > beat * beat * l2);
            matter |= usable[k] & (rejects | beats);
        }
        return matter;
    }

    /// The edge overlaps made true lengths (m).
    void true_edges() {
        for (int k = 0; k < 9; ++k) edge[k] = usable[k] ? edge[k] / std::sqrt(len2[k]) : 0.0;
    }

    double len2[9];
};

/// A corner of the polygon being clipped, in the reference face's frame: u, v across the face
/// (along its box's axes k1, k2), w along its outward normal, all from the reference box's
/// centre; `in` and `out` number the features of the polygon edges arriving and leaving:
/// 0…3 the incident face's edges (edge c runs from its corner c to c + 1), 4…7 the reference
/// face's sides u = −h1, u = +h1, v = −h2, v = +h2. (No initialisers: every one is written
/// before it is read.)
struct FaceVertex {
    double u, v, w;
    std::uint8_t in, out;
};

// Counter-clockwise seen from outside: (−,−), (+,−), (+,+), (−,+) in a face's (k1, k2) frame on
// its + side, whose k1 × k2 is the face's normal; reversed on the − side.
constexpr int kSign1[2][4] = {{-1, -1, 1, 1}, {-1, 1, 1, -1}};
constexpr int kSign2[2][4] = {{-1, 1, 1, -1}, {-1, -1, 1, 1}};

/// The corner of a box at signs (s, s1, s2) on axes (k, k1, k2), in corners_of numbering.
constexpr std::uint32_t corner_index(int k, int s, int k1, int s1, int k2, int s2) {
    return (s > 0 ? axis_bit(k) : 0u) | (s1 > 0 ? axis_bit(k1) : 0u) | (s2 > 0 ? axis_bit(k2) : 0u);
}

/// The face contact with `ref_box`'s face on axis k (+ side when `plus`) as the reference,
/// `ref_owner` 0 when that box is the first shape; points deeper than `keep` (m). The
/// reference face's side planes are |u| ≤ h1 and |v| ≤ h2 in its own frame, so the incident
/// face is clipped there (the 2D form of clip_polygon, with its bookkeeping), and only the
/// kept points are named and turned back to the world.
bool face_contact(const Obb& ref_box, const double* ref_half, int k, bool plus, const Obb& inc_box,
                  const double* inc_half, int ref_owner, double keep, RawManifold& out) {
    const int k1 = kNext1[k], k2 = kNext2[k];
    const Vec3 n = plus ? ref_box.axes.col[k] : -ref_box.axes.col[k];
    const Vec3 e1 = ref_box.axes.col[k1], e2 = ref_box.axes.col[k2];
    const double h = ref_half[k], h1 = ref_half[k1], h2 = ref_half[k2];
    const int inc_owner = 1 - ref_owner;

    // The incident face: the other box's face most anti-parallel to n.
    int j = 0;
    double best = std::fabs(dot(inc_box.axes.col[0], n));
    for (int i = 1; i < 3; ++i) {
        const double v = std::fabs(dot(inc_box.axes.col[i], n));
        if (v > best) {
            best = v;
            j = i;
        }
    }
    const bool inc_plus = dot(inc_box.axes.col[j], n) < 0;
    const int j1 = kNext1[j], j2 = kNext2[j];
    const Vec3 mid =
            inc_box.centre + (inc_plus ? inc_box.axes.col[j] : -inc_box.axes.col[j]) * inc_half[j] - ref_box.centre;
    const Vec3 f1 = inc_box.axes.col[j1] * inc_half[j1];
    const Vec3 f2 = inc_box.axes.col[j2] * inc_half[j2];
    const double mu = dot(mid, e1), mv = dot(mid, e2), mw = dot(mid, n);
    const double au = dot(f1, e1), av = dot(f1, e2), aw = dot(f1, n);
    const double bu = dot(f2, e1), bv = dot(f2, e2), bw = dot(f2, n);
    const int side = inc_plus ? 1 : 0;

    std::array<FaceVertex, 8> buf_a, buf_b;
    std::array<double, 8> dist;
    std::array<std::array<double, 2>, 4> inc_uv;
    for (std::size_t c = 0; c < 4; ++c) {
        const double s1 = kSign1[side][c], s2 = kSign2[side][c];
        buf_a[c] = {mu + au * s1 + bu * s2, mv + av * s1 + bv * s2, mw + aw * s1 + bw * s2, std::uint8_t((c + 3) % 4),
                    std::uint8_t(c)};
        inc_uv[c] = {buf_a[c].u, buf_a[c].v};
    }

    // Sutherland–Hodgman against the four sides (see clip_polygon's pseudocode); a side that
    // cuts nothing is skipped without copying.
    FaceVertex* in = buf_a.data();
    FaceVertex* outv = buf_b.data();
    int count = 4;
    for (int plane = 0; plane < 4 && count > 0; ++plane) {
        const bool along_u = plane < 2;
        const double sign = (plane & 1) ? 1.0 : -1.0, half = along_u ? h1 : h2;
        bool cuts = false;
        for (int c = 0; c < count; ++c) dist[static_cast<std::size_t>(c)] = sign * (along_u ? in[c].u : in[c].v) - half;
        // A corner just outside the side, on an edge along it, moves onto it (the side is as
        // long as the face is across the other way).
        settle_on_side(std::span(dist.data(), static_cast<std::size_t>(count)), kClipRelative * 2 * (along_u ? h2 : h1),
                       [&](std::size_t c) { (along_u ? in[c].u : in[c].v) = sign * half; });
        for (int c = 0; c < count; ++c) cuts |= dist[static_cast<std::size_t>(c)] > 0;
        if (!cuts) continue;
        const auto feature = std::uint8_t(4 + plane);
        int m = 0;
        int prev = count - 1;
        for (int c = 0; c < count; ++c) {
            const FaceVertex& v1 = in[prev];
            const FaceVertex& v2 = in[c];
            const double d1 = dist[static_cast<std::size_t>(prev)], d2 = dist[static_cast<std::size_t>(c)];
            if (d1 <= 0 && d2 <= 0) {
                outv[m++] = v2;
            } else if ((d1 <= 0) != (d2 <= 0)) {
                const double t = d1 / (d1 - d2);
                outv[m++] = {v1.u + (v2.u - v1.u) * t, v1.v + (v2.v - v1.v) * t, v1.w + (v2.w - v1.w) * t,
                             d1 <= 0 ? v2.in : feature, d1 <= 0 ? feature : v2.in};
                if (d2 <= 0) outv[m++] = v2;
            }
            prev = c;
        }
        std::swap(in, outv);
        count = m;
    }

    // The kept corners, compacted in place.
    int m = 0;
    for (int c = 0; c < count; ++c)
        if (h - in[c].w > keep) in[m++] = in[c];
    if (m == 0) return false;

    // Points next to a corner of either face take its name, the first box's corners first (see
    // kManifoldSnapRelative); measured across the normal, in (u, v). Renaming moves no point.
    const double tol = kManifoldSnapRelative * 2 * std::min(std::min(inc_half[j1], inc_half[j2]), std::min(h1, h2));
    bool renamed = false;
    for (int p = 0; p < m; ++p) {
        FaceVertex& x = in[p];
        for (int f = 0; f < 2; ++f) {
            bool hit = false;
            if (f == ref_owner) {
                const double cu = x.u < 0 ? -h1 : h1, cv = x.v < 0 ? -h2 : h2;
                if ((x.u - cu) * (x.u - cu) + (x.v - cv) * (x.v - cv) <= tol * tol) {
                    const auto su = std::uint8_t(x.u < 0 ? 4 : 5), sv = std::uint8_t(x.v < 0 ? 6 : 7);
                    renamed |= !((x.in == su && x.out == sv) || (x.in == sv && x.out == su));
                    x.in = su;
                    x.out = sv;
                    hit = true;
                }
            } else {
                for (std::size_t c = 0; c < 4 && !hit; ++c) {
                    const double du = x.u - inc_uv[c][0], dv = x.v - inc_uv[c][1];
                    if (du * du + dv * dv > tol * tol) continue;
                    const auto ci = std::uint8_t((c + 3) % 4), co = std::uint8_t(c);
                    renamed |= !((x.in == ci && x.out == co) || (x.in == co && x.out == ci));
                    x.in = ci;
                    x.out = co;
                    hit = true;
                }
            }
            if (hit) break;
        }
    }

    // Name the features: the incident face's edges by their corners, the reference sides by theirs.
    std::array<std::uint32_t, 4> idx;
    for (std::size_t c = 0; c < 4; ++c)
        idx[c] = corner_index(j, inc_plus ? 1 : -1, j1, kSign1[side][c], j2, kSign2[side][c]);
    const int ref_sign = plus ? 1 : -1;
    auto ref_corner = [&](int s1, int s2) { return corner_index(k, ref_sign, k1, s1, k2, s2); };
    std::array<FeatureCode, 8> code{};
    for (std::size_t c = 0; c < 4; ++c) code[c] = edge_feature(inc_owner, idx[c], idx[(c + 1) % 4]);
    code[4] = edge_feature(ref_owner, ref_corner(-1, -1), ref_corner(-1, 1));
    code[5] = edge_feature(ref_owner, ref_corner(1, -1), ref_corner(1, 1));
    code[6] = edge_feature(ref_owner, ref_corner(-1, -1), ref_corner(1, -1));
    code[7] = edge_feature(ref_owner, ref_corner(-1, 1), ref_corner(1, 1));

    std::array<RawPoint, 8> pts;
    for (int p = 0; p < m; ++p) {
        const FaceVertex& x = in[p];
        const double depth = h - x.w;
        pts[static_cast<std::size_t>(p)] = {ref_box.centre + e1 * x.u + e2 * x.v + n * (x.w + 0.5 * depth), depth,
                                            code[x.in], code[x.out]};
        canonicalize(pts[static_cast<std::size_t>(p)].f1, pts[static_cast<std::size_t>(p)].f2);
    }
    // Without renaming, the clipped corners' feature pairs are distinct (a convex polygon).
    if (renamed) m = merge_same_features(pts, m, 0.0);
    out.normal = ref_owner == 0 ? n : -n;
    if (m <= kMaxManifoldPoints) {
        out.count = m;
        for (int p = 0; p < m; ++p) out.points[static_cast<std::size_t>(p)] = pts[static_cast<std::size_t>(p)];
    } else {
        reduce_points(pts, m, out.normal, out);
    }
    return true;
}

/// The edge–edge contact on the axis A_i × B_j: one point midway between the closest points of
/// A's edge farthest along the normal and B's farthest against it; false when those closest
/// points are not inside both edges (the axis is then not made by these edges).
bool edge_contact(const Obb& a, const Obb& b, const Axes& ax, int k, double keep, RawManifold& out) {
    const int i = k / 3, j = k % 3;
    Vec3 n = normalize(cross(a.axes.col[i], b.axes.col[j]));
    if (ax.edge_dist[k] < 0) n = -n; // from A's centre towards B's, as sat_box_box orients it
    const double depth = ax.edge[k];
    if (!(depth > keep)) return false;
    auto support_edge = [](const Obb& box, int axis, const Vec3& d, Vec3& p0, Vec3& p1, std::uint32_t& c0,
                           std::uint32_t& c1) {
        Vec3 mid = box.centre;
        std::uint32_t bits = 0;
        for (int m = 0; m < 3; ++m) {
            if (m == axis) continue;
            const bool plus = dot(box.axes.col[m], d) >= 0;
            mid += box.axes.col[m] *
                   (plus ? box.half[static_cast<std::size_t>(m)] : -box.half[static_cast<std::size_t>(m)]);
            if (plus) bits |= axis_bit(m);
        }
        const Vec3 e = box.axes.col[axis] * box.half[static_cast<std::size_t>(axis)];
        p0 = mid - e;
        p1 = mid + e;
        c0 = bits;
        c1 = bits | axis_bit(axis);
    };
    Vec3 a0, a1, b0, b1;
    std::uint32_t ia0, ia1, ib0, ib1;
    support_edge(a, i, n, a0, a1, ia0, ia1);
    support_edge(b, j, -n, b0, b1, ib0, ib1);
    const SegmentClosest c = closest_points_segments(a0, a1, b0, b1);
    if (!(c.s > 0 && c.s < 1 && c.t > 0 && c.t < 1)) return false;
    out.normal = n;
    out.count = 1;
    out.points[0] = {(c.point1 + c.point2) * 0.5, depth, edge_feature(0, ia0, ia1), edge_feature(1, ib0, ib1)};
    return true;
}

} // namespace

bool manifold_box_box(const Obb& a, const Obb& b, double margin, RawManifold& out) {
    // A point is kept when deeper than −margin by more than the touching tolerance (with no
    // margin: the contact convention's "touching is not a contact").
    const double keep = kTouchEpsilon - margin;
    Axes ax(a, b);
    // Any axis with a gap of the margin or more leaves nothing to keep: most apart pairs stop
    // at the six face axes.
    bool apart = false;
    for (double o : ax.face) apart |= o <= keep;
    if (apart) return false;

    int ka = 0, kb = 3;
    for (int k = 1; k < 3; ++k)
        if (ax.face[k] < ax.face[ka]) ka = k;
    for (int k = 4; k < 6; ++k)
        if (ax.face[k] < ax.face[kb]) kb = k;
    const double tie = kManifoldTieRelative *
                       std::min(std::max({ax.ha[0], ax.ha[1], ax.ha[2]}), std::max({ax.hb[0], ax.hb[1], ax.hb[2]}));
    const int face = ax.face[kb] < ax.face[ka] - tie ? kb : ka;
    // The edge axes, in true lengths only when one could reject the pair or beat the face.
    ax.scaled_edges();
    int ke = -1;
    auto best_edge = [&ax] {
        ax.true_edges();
        int best = -1;
        for (int k = 0; k < 9; ++k)
            if (ax.usable[k] && (best < 0 || ax.edge[k] < ax.edge[best])) best = k;
        return best;
    };
    const bool exact_edges = ax.edges_matter(keep, ax.face[face] - tie);
    if (exact_edges) {
        ke = best_edge();
        if (ke >= 0 && ax.edge[ke] <= keep) return false; // an edge axis with a gap of the margin
    }

    if (ke >= 0 && ax.edge[ke] < ax.face[face] - tie && edge_contact(a, b, ax, ke, keep, out)) return true;
    const bool on_a = face < 3;
    const int k = on_a ? face : face - 3;
    // The reference face's outward normal points at the other box: along +axis when the
    // other's centre lies on that side (face_dist is B's offset from A along the axis).
    const bool plus = on_a ? ax.face_dist[face] >= 0 : ax.face_dist[face] < 0;
    if (on_a ? face_contact(a, ax.ha, k, plus, b, ax.hb, 0, keep, out)
             : face_contact(b, ax.hb, k, plus, a, ax.ha, 1, keep, out))
        return true;
    // The face clipped to nothing within the margin: the edge pair, if it is realised, else one
    // point where the boxes' support features along the face axis meet.
    if (!exact_edges) ke = best_edge();
    if (ke >= 0 && edge_contact(a, b, ax, ke, keep, out)) return true;
    const Vec3 axis = on_a ? a.axes.col[k] : b.axes.col[k];
    return single_point(a, b, ax.face_dist[face] >= 0 ? axis : -axis, ax.face[face], keep, out);
}

} // namespace collide
