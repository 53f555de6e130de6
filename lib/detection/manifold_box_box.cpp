#include "detection/manifold_box_box.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "detection/contact.h"
#include "detection/contact_capsule.h"
#include "detection/manifold_clip.h"
#include "detection/sat.h"

namespace collide {

namespace {

constexpr std::uint32_t axis_bit(int axis) { return 4u >> axis; }

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
    double edge[9];      ///< true overlap on A_i × B_j (m), A's edge i slow; only where usable
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

    void edges() {
        for (int i = 0; i < 3; ++i) {
            const int i1 = (i + 1) % 3, i2 = (i + 2) % 3;
            for (int j = 0; j < 3; ++j) {
                const int j1 = (j + 1) % 3, j2 = (j + 2) % 3;
                const int k = 3 * i + j;
                const double len2 = R[i1][j] * R[i1][j] + R[i2][j] * R[i2][j];
                edge_dist[k] = t[i2] * R[i1][j] - t[i1] * R[i2][j];
                usable[k] = len2 > kSatParallelEpsilon;
                const double scaled = ha[i1] * AR[i2][j] + ha[i2] * AR[i1][j] + hb[j1] * AR[i][j2] +
                                      hb[j2] * AR[i][j1] - std::fabs(edge_dist[k]);
                edge[k] = usable[k] ? scaled / std::sqrt(len2) : 0.0;
            }
        }
    }
};

/// The face of `box` on its axis `k`, on the + side when `plus` (counter-clockwise from outside).
BoxFace box_face(const Obb& box, int k, bool plus) {
    const int k1 = (k + 1) % 3, k2 = (k + 2) % 3;
    const auto uk = static_cast<std::size_t>(k), u1 = static_cast<std::size_t>(k1), u2 = static_cast<std::size_t>(k2);
    BoxFace f;
    f.normal = plus ? box.axes.col[k] : -box.axes.col[k];
    f.offset = dot(f.normal, box.centre) + box.half[uk];
    f.count = 4;
    const Vec3 mid = box.centre + f.normal * box.half[uk];
    const Vec3 e1 = box.axes.col[k1] * box.half[u1], e2 = box.axes.col[k2] * box.half[u2];
    static constexpr int s1[2][4] = {{-1, -1, 1, 1}, {-1, 1, 1, -1}};
    static constexpr int s2[2][4] = {{-1, 1, 1, -1}, {-1, -1, 1, 1}};
    const int side = plus ? 1 : 0;
    for (std::size_t c = 0; c < 4; ++c) {
        const int p = s1[side][c], q = s2[side][c];
        f.corners[c] = mid + e1 * double(p) + e2 * double(q);
        f.index[c] = (plus ? axis_bit(k) : 0u) | (p > 0 ? axis_bit(k1) : 0u) | (q > 0 ? axis_bit(k2) : 0u);
    }
    return f;
}

/// The face contact with `ref_box`'s face (axis k, + side when `plus`) as the reference,
/// `ref_owner` 0 when that box is the first shape. Points deeper than `keep` (m).
bool face_contact(const Obb& ref_box, int k, bool plus, const Obb& inc_box, int ref_owner, double keep,
                  RawManifold& out) {
    const BoxFace ref = box_face(ref_box, k, plus);
    const Vec3 n = ref.normal;
    int j = 0;
    double best = std::fabs(dot(inc_box.axes.col[0], n));
    for (int i = 1; i < 3; ++i) {
        const double v = std::fabs(dot(inc_box.axes.col[i], n));
        if (v > best) {
            best = v;
            j = i;
        }
    }
    const BoxFace inc = box_face(inc_box, j, dot(inc_box.axes.col[j], n) < 0);
    const int inc_owner = 1 - ref_owner;

    std::array<ClipVertex, 8> poly, scratch;
    int count = polygon_of(inc.view(), inc_owner, poly);
    std::span<ClipVertex> clipped;
    count = clip_polygon(ref.view(), ref_owner, poly, count, scratch, &clipped);

    std::array<RawPoint, 8> pts;
    int m = 0;
    for (int c = 0; c < count; ++c) {
        const ClipVertex& v = clipped[static_cast<std::size_t>(c)];
        const double depth = ref.offset - dot(n, v.p);
        if (!(depth > keep)) continue;
        pts[static_cast<std::size_t>(m++)] = {v.p + n * (0.5 * depth), depth, v.in, v.out};
    }
    if (m == 0) return false;

    // Points next to a corner of either face take its name, the first box's corners first (see
    // kManifoldSnapRelative). The snap moves no point: it only renames one lying that close to a
    // corner, which keeps it between the surfaces.
    std::array<Vec3, 8> corners;
    std::array<std::array<FeatureCode, 2>, 8> names;
    const BoxFace* faces[2] = {ref_owner == 0 ? &ref : &inc, ref_owner == 0 ? &inc : &ref};
    for (int f = 0; f < 2; ++f)
        for (std::size_t c = 0; c < 4; ++c) {
            const BoxFace& face = *faces[f];
            corners[4 * f + c] = face.corners[c];
            names[4 * f + c] = {edge_feature(f, face.index[(c + 3) % 4], face.index[c]),
                                edge_feature(f, face.index[c], face.index[(c + 1) % 4])};
        }
    const int j1 = (j + 1) % 3, j2 = (j + 2) % 3, k1 = (k + 1) % 3, k2 = (k + 2) % 3;
    const double shortest =
            2 *
            std::min(std::min(inc_box.half[static_cast<std::size_t>(j1)], inc_box.half[static_cast<std::size_t>(j2)]),
                     std::min(ref_box.half[static_cast<std::size_t>(k1)], ref_box.half[static_cast<std::size_t>(k2)]));
    snap_to_vertices(std::span<RawPoint>(pts.data(), static_cast<std::size_t>(m)), n, corners.data(), names.data(), 8,
                     kManifoldSnapRelative * shortest);
    m = merge_same_features(pts, m, 0.0);
    const Vec3 normal = ref_owner == 0 ? n : -n;
    reduce_points(pts, m, normal, out);
    out.normal = normal;
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
    ax.edges();
    for (int k = 0; k < 9; ++k) apart |= ax.usable[k] && ax.edge[k] <= keep;
    if (apart) return false;

    int ka = 0, kb = 3;
    for (int k = 1; k < 3; ++k)
        if (ax.face[k] < ax.face[ka]) ka = k;
    for (int k = 4; k < 6; ++k)
        if (ax.face[k] < ax.face[kb]) kb = k;
    const double tie = kManifoldTieRelative *
                       std::min(std::max({ax.ha[0], ax.ha[1], ax.ha[2]}), std::max({ax.hb[0], ax.hb[1], ax.hb[2]}));
    const int face = ax.face[kb] < ax.face[ka] - tie ? kb : ka;
    int ke = -1;
    for (int k = 0; k < 9; ++k)
        if (ax.usable[k] && (ke < 0 || ax.edge[k] < ax.edge[ke])) ke = k;

    if (ke >= 0 && ax.edge[ke] < ax.face[face] - tie && edge_contact(a, b, ax, ke, keep, out)) return true;
    const bool on_a = face < 3;
    const int k = on_a ? face : face - 3;
    // The reference face's outward normal points at the other box: along +axis when the
    // other's centre lies on that side (face_dist is B's offset from A along the axis).
    const bool plus = on_a ? ax.face_dist[face] >= 0 : ax.face_dist[face] < 0;
    if (on_a ? face_contact(a, k, plus, b, 0, keep, out) : face_contact(b, k, plus, a, 1, keep, out)) return true;
    // The face clipped to nothing within the margin: the edge pair, if it is realised.
    return ke >= 0 && edge_contact(a, b, ax, ke, keep, out);
}

} // namespace collide
