#include "plot/scene3d.h"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>
#include <limits>
#include <map>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "math/overloaded.h"
#include "plot/camera3d.h"
#include "plot/plot.h"
#include "plot/script_json.h"
#include "shapes/mesh.h"

namespace collide {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// A vector for the page: its three components, each the shortest text that reads back as it.
PageJson jvec(const Vec3& v) { return PageJson::array({json_number(v.x), json_number(v.y), json_number(v.z)}); }

/// A 3×3 matrix for the page: its nine entries, column by column.
PageJson jmat(const Mat3& m) {
    PageJson out = PageJson::array();
    for (int c = 0; c < 3; ++c)
        for (int r = 0; r < 3; ++r) out.push_back(json_number(m.at(r, c)));
    return out;
}

template <class T> void append_le(std::vector<std::uint8_t>& out, T value) {
    std::uint8_t b[sizeof(T)];
    std::memcpy(b, &value, sizeof(T)); // little-endian hosts only (x86-64, AArch64), as the page assumes
    out.insert(out.end(), b, b + sizeof(T));
}

bool finite_box(const Aabb& b) { return is_finite(b.min) && is_finite(b.max); }

void put_varint(std::vector<std::uint8_t>& out, std::uint64_t v) {
    while (v >= 0x80) {
        out.push_back(static_cast<std::uint8_t>(v | 0x80));
        v >>= 7;
    }
    out.push_back(static_cast<std::uint8_t>(v));
}

std::uint64_t zigzag(std::int64_t v) {
    return v < 0 ? (static_cast<std::uint64_t>(-(v + 1)) << 1) | 1 : static_cast<std::uint64_t>(v) << 1;
}

std::int64_t unzigzag(std::uint64_t v) {
    return (v & 1) ? -static_cast<std::int64_t>(v >> 1) - 1 : static_cast<std::int64_t>(v >> 1);
}

/// Largest quantised magnitude: 2^30 keeps residuals (at most 8·2^30) and their tokens within
/// the integers a JavaScript double holds exactly.
constexpr double kMaxQuantised = 1073741824.0;

std::int64_t quantise(double v, int exponent) {
    if (!std::isfinite(v)) return 0;
    const double q = std::clamp(std::ldexp(v, -exponent), -kMaxQuantised, kMaxQuantised);
    return std::llround(q);
}

/// The smallest exponent ≥ `finest` at which every |value| stays within kMaxQuantised.
int exponent_for(double max_abs, int finest) {
    int e = finest;
    while (std::isfinite(max_abs) && std::ldexp(max_abs, -e) > kMaxQuantised && e < 60) ++e;
    return e;
}

/// The value of frame k predicted from the frames before: none (0), the last (k = 1), the line
/// through the last two (k = 2), the parabola through the last three — exact for a body that
/// stands, moves at a constant velocity or falls at a constant acceleration.
std::int64_t predict(std::size_t k, std::int64_t x1, std::int64_t x2, std::int64_t x3) {
    if (k == 0) return 0;
    if (k == 1) return x1;
    if (k == 2) return 2 * x1 - x2;
    return 3 * x1 - 3 * x2 + x3;
}

int channel_exponent(int channel, const TrackQuanta& q) {
    if (channel < 3) return q.position;
    if (channel < 6) return q.velocity;
    if (channel < 10) return q.rotation;
    return q.angular_velocity;
}

// ---------------------------------------------------------------------------------------------
// Shapes as geometry.

using Tri = std::array<Vec3, 3>;

/// The faces of the convex hull of a few points (at most kHullMaxPoints), outward, each face's
/// points ordered round it and fanned into triangles. A flat hull gives its polygon both ways.
std::vector<Tri> hull_triangles(const Hull& placed) {
    const HullPoints hull = placed_points(placed);
    const auto n = static_cast<std::size_t>(hull.count);
    std::vector<Tri> out;
    if (n < 3) return out;
    const std::span<const Vec3> p(hull.points.data(), n);
    double size = 0;
    for (const Vec3& a : p) size = std::max(size, length(a - p[0]));
    if (!(size > 0)) return out;
    const double eps = 1e-9 * size;
    std::vector<std::pair<Vec3, double>> planes; // unit outward normal, offset
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = i + 1; j < n; ++j)
            for (std::size_t k = j + 1; k < n; ++k) {
                const Vec3 c = cross(p[j] - p[i], p[k] - p[i]);
                const double len = length(c);
                if (!(len > 1e-12 * size * size)) continue;
                const Vec3 nrm = c / len;
                const double d = dot(nrm, p[i]);
                bool below = true, above = true;
                for (const Vec3& q : p) {
                    const double s = dot(nrm, q) - d;
                    below = below && s <= eps;
                    above = above && s >= -eps;
                }
                const auto add = [&](const Vec3& nn, double dd) {
                    for (const auto& [m, o] : planes)
                        if (length(m - nn) < 1e-9 && std::fabs(o - dd) <= eps) return;
                    planes.push_back({nn, dd});
                };
                if (below) add(nrm, d);
                if (above) add(-nrm, -d);
            }
    for (const auto& [nrm, d] : planes) {
        std::vector<Vec3> face;
        for (const Vec3& q : p) {
            if (std::fabs(dot(nrm, q) - d) > eps) continue;
            if (std::none_of(face.begin(), face.end(), [&](const Vec3& f) { return length(f - q) <= eps; }))
                face.push_back(q);
        }
        if (face.size() < 3) continue;
        Vec3 centre{0, 0, 0};
        for (const Vec3& q : face) centre = centre + q;
        centre = centre / static_cast<double>(face.size());
        const Vec3 u = normalize(face[0] - centre);
        const Vec3 v = cross(nrm, u);
        std::sort(face.begin(), face.end(), [&](const Vec3& a, const Vec3& b) {
            return std::atan2(dot(a - centre, v), dot(a - centre, u)) <
                   std::atan2(dot(b - centre, v), dot(b - centre, u));
        });
        for (std::size_t i = 1; i + 1 < face.size(); ++i) out.push_back({face[0], face[i], face[i + 1]});
    }
    return out;
}

PageJson tris_json(std::span<const Tri> tris, const Mat3& rotation, const Vec3& position, bool two_sided) {
    std::vector<std::uint8_t> v;
    v.reserve(tris.size() * 36);
    for (const Tri& t : tris)
        for (const Vec3& c : t)
            for (int a = 0; a < 3; ++a) append_le(v, static_cast<float>(c[static_cast<std::size_t>(a)]));
    return PageJson{{"t", "tris"},         {"n", tris.size()},    {"v", base64(v)},
                    {"m", jmat(rotation)}, {"c", jvec(position)}, {"two", two_sided ? 1 : 0}};
}

/// One shape in its body's frame as the view's geometry JSON; `stride` keeps every stride-th
/// triangle of a mesh.
PageJson geometry_json(const Shape& shape, std::size_t mesh_stride) {
    return std::visit(
            Overloaded{
                    [&](const Sphere& s) {
                        return PageJson{{"t", "sphere"}, {"c", jvec(s.centre)}, {"r", json_number(s.radius)}};
                    },
                    [&](const Aabb& b) {
                        return PageJson{{"t", "box"},
                                        {"c", jvec(centre_of(b))},
                                        {"h", jvec(half_of(b))},
                                        {"m", jmat(identity3())}};
                    },
                    [&](const Obb& b) {
                        return PageJson{{"t", "box"}, {"c", jvec(b.centre)}, {"h", jvec(b.half)}, {"m", jmat(b.axes)}};
                    },
                    [&](const Capsule& c) {
                        return PageJson{
                                {"t", "capsule"}, {"a", jvec(c.a)}, {"b", jvec(c.b)}, {"r", json_number(c.radius)}};
                    },
                    [&](const Triangle& t) {
                        const Tri tri{t.a, t.b, t.c};
                        return tris_json(std::span<const Tri>(&tri, 1), identity3(), {0, 0, 0}, true);
                    },
                    [&](const Hull& h) {
                        const std::vector<Tri> tris = hull_triangles(h);
                        return tris_json(tris, identity3(), {0, 0, 0}, false);
                    },
                    [&](const Plane& p) {
                        return PageJson{{"t", "plane"}, {"n", jvec(p.normal)}, {"d", json_number(p.offset)}};
                    },
                    [&](const Mesh& m) {
                        std::vector<Tri> tris;
                        const TriangleMesh& data = *m.data;
                        const std::size_t count = data.triangles.size();
                        tris.reserve(count / mesh_stride + 1);
                        for (std::size_t i = 0; i < count; i += mesh_stride) {
                            const Triangle t = data.triangle(static_cast<int>(i));
                            tris.push_back({t.a, t.b, t.c});
                        }
                        return tris_json(tris, m.rotation, m.position, true);
                    },
            },
            shape);
}

std::size_t shape_triangles(const Shape& shape) {
    if (const auto* m = std::get_if<Mesh>(&shape)) return m->data ? m->data->triangles.size() : 0;
    return 0;
}

/// What moves a body, as the page reads it: 0 static, 1 kinematic, 2 character, 3 dynamic.
std::uint8_t kind_code(const BodyDef& b) {
    if (b.is_static) return 0;
    if (b.kinematic) return 1;
    if (b.character) return 2;
    return 3;
}

Vec3 up_of(const Scenario& sc) {
    const double g = length(sc.world.gravity);
    return g > 0 ? sc.world.gravity / -g : Vec3{0, 1, 0};
}

/// Indices of the kept frames: evenly every `stride`-th, the last always kept.
std::vector<std::size_t> kept_frames(std::size_t frames, std::size_t stride) {
    std::vector<std::size_t> kept;
    for (std::size_t k = 0; k < frames; k += stride) kept.push_back(k);
    if (frames > 0 && kept.back() != frames - 1) kept.push_back(frames - 1);
    return kept;
}

} // namespace

std::vector<std::uint8_t> pack_tracks(std::span<const double> values, std::size_t frames, std::size_t bodies,
                                      const TrackQuanta& quanta) {
    std::vector<std::uint8_t> out;
    const std::size_t width = bodies * kTrackChannels;
    for (std::size_t b = 0; b < bodies; ++b)
        for (int c = 0; c < kTrackChannels; ++c) {
            const int e = channel_exponent(c, quanta);
            std::int64_t prev3 = 0, prev2 = 0, prev1 = 0;
            std::uint64_t zeros = 0;
            for (std::size_t k = 0; k < frames; ++k) {
                const std::int64_t x =
                        quantise(values[k * width + b * kTrackChannels + static_cast<std::size_t>(c)], e);
                const std::int64_t r = x - predict(k, prev1, prev2, prev3);
                prev3 = prev2;
                prev2 = prev1;
                prev1 = x;
                if (r == 0) {
                    ++zeros;
                    continue;
                }
                if (zeros) put_varint(out, 2 * (zeros - 1) + 1);
                zeros = 0;
                put_varint(out, 2 * zigzag(r));
            }
            if (zeros) put_varint(out, 2 * (zeros - 1) + 1);
        }
    return out;
}

std::vector<double> unpack_tracks(std::span<const std::uint8_t> bytes, std::size_t frames, std::size_t bodies,
                                  const TrackQuanta& quanta) {
    std::vector<double> out(frames * bodies * kTrackChannels, 0.0);
    const std::size_t width = bodies * kTrackChannels;
    std::size_t at = 0;
    const auto varint = [&] {
        std::uint64_t v = 0;
        for (int shift = 0; at < bytes.size() && shift < 64; shift += 7) {
            const std::uint8_t byte = bytes[at++];
            v |= static_cast<std::uint64_t>(byte & 0x7f) << shift;
            if (!(byte & 0x80)) break;
        }
        return v;
    };
    for (std::size_t b = 0; b < bodies; ++b)
        for (int c = 0; c < kTrackChannels; ++c) {
            const int e = channel_exponent(c, quanta);
            std::int64_t prev3 = 0, prev2 = 0, prev1 = 0;
            std::uint64_t zeros = 0;
            for (std::size_t k = 0; k < frames; ++k) {
                std::int64_t r = 0;
                if (zeros) {
                    --zeros;
                } else {
                    const std::uint64_t t = varint();
                    if (t & 1)
                        zeros = t >> 1; // this frame is the first zero of the run
                    else
                        r = unzigzag(t >> 1);
                }
                const std::int64_t x = predict(k, prev1, prev2, prev3) + r;
                prev3 = prev2;
                prev2 = prev1;
                prev1 = x;
                out[k * width + b * kTrackChannels + static_cast<std::size_t>(c)] =
                        std::ldexp(static_cast<double>(x), e);
            }
        }
    return out;
}

std::string base64(std::span<const std::uint8_t> bytes) {
    static constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    std::string out;
    out.reserve((bytes.size() + 2) / 3 * 4);
    std::size_t i = 0;
    for (; i + 2 < bytes.size(); i += 3) {
        const std::uint32_t v = (static_cast<std::uint32_t>(bytes[i]) << 16) |
                                (static_cast<std::uint32_t>(bytes[i + 1]) << 8) | bytes[i + 2];
        out += kAlphabet[(v >> 18) & 63];
        out += kAlphabet[(v >> 12) & 63];
        out += kAlphabet[(v >> 6) & 63];
        out += kAlphabet[v & 63];
    }
    if (i + 1 == bytes.size()) {
        const std::uint32_t v = static_cast<std::uint32_t>(bytes[i]) << 16;
        out += kAlphabet[(v >> 18) & 63];
        out += kAlphabet[(v >> 12) & 63];
        out += "==";
    } else if (i + 2 == bytes.size()) {
        const std::uint32_t v =
                (static_cast<std::uint32_t>(bytes[i]) << 16) | (static_cast<std::uint32_t>(bytes[i + 1]) << 8);
        out += kAlphabet[(v >> 18) & 63];
        out += kAlphabet[(v >> 12) & 63];
        out += kAlphabet[(v >> 6) & 63];
        out += '=';
    }
    return out;
}

namespace {

/// The scene part of the view's data (render_scene3d_scene).
PageJson scene_json(const Scenario& sc, const Scene3dOptions& options) {
    const std::size_t n = sc.bodies.size();
    // Meshes: every stride-th triangle when all of them together pass the budget.
    std::set<const TriangleMesh*> meshes;
    std::size_t mesh_triangles = 0;
    for (const BodyDef& b : sc.bodies)
        if (const auto* m = std::get_if<Mesh>(&b.shape); m && m->data && meshes.insert(m->data).second)
            mesh_triangles += shape_triangles(b.shape);
    const std::size_t stride = std::max<std::size_t>(1, (mesh_triangles + options.triangle_budget - 1) /
                                                                std::max<std::size_t>(options.triangle_budget, 1));
    std::size_t shown = 0;
    for (std::size_t t = 0; t < mesh_triangles; t += stride) ++shown;

    std::map<std::string, std::uint32_t> index; // each geometry once, found by its JSON text
    PageJson geometries = PageJson::array(), statics = PageJson::array();
    std::vector<std::uint8_t> kinds, triggers, ghosts, geom;
    std::string names;
    for (std::size_t i = 0; i < n; ++i) {
        const BodyDef& b = sc.bodies[i];
        PageJson g = geometry_json(b.shape, stride);
        const auto [it, fresh] = index.emplace(g.dump(), static_cast<std::uint32_t>(geometries.size()));
        if (fresh) geometries.push_back(std::move(g));
        append_le(geom, it->second);
        kinds.push_back(kind_code(b));
        triggers.push_back(b.trigger ? 1 : 0);
        ghosts.push_back(i >= options.ghosts_from && !b.is_static ? 1 : 0);
        if (i) names += '\n';
        names += b.name;
        if (b.is_static)
            statics.push_back(PageJson{{"i", i},
                                       {"p", jvec(b.position)},
                                       {"q", PageJson::array({json_number(b.rotation.w), json_number(b.rotation.x),
                                                              json_number(b.rotation.y), json_number(b.rotation.z)})}});
    }
    return PageJson{{"name", sc.name},
                    {"up", jvec(up_of(sc))},
                    {"bodies",
                     {{"n", n},
                      {"names", names},
                      {"kind", base64(kinds)},
                      {"trigger", base64(triggers)},
                      {"ghost", base64(ghosts)},
                      {"geom", base64(geom)}}},
                    {"ghost_note", options.ghost_note},
                    {"geoms", std::move(geometries)},
                    {"statics", std::move(statics)},
                    {"triangles", {{"shown", shown}, {"total", mesh_triangles}}}};
}

/// The run part of the view's data (render_scene3d_run).
PageJson run_json(const Scenario& sc, const Recording& rec, const Scene3dOptions& options) {
    const std::size_t n = static_cast<std::size_t>(rec.body_count);
    const std::size_t frames = rec.frame_count();
    std::vector<std::size_t> moving;
    for (std::size_t i = 0; i < n && i < sc.bodies.size(); ++i)
        if (!sc.bodies[i].is_static) moving.push_back(i);
    const Vec3 up = up_of(sc);
    const ViewChoice view = choose_view(sc, rec);

    // The ground: the lowest reach of the moving bodies along up over the run (each one's
    // bounds as placed at each frame), or of the whole view when nothing moves; raised to the
    // top of a static body within 5 % of the scene's size above it (a floor a ball sank into
    // at a discrete step), so that the grid lies on that floor, not hidden under it.
    const auto lowest = [&](const Aabb& box) {
        double low = kInf;
        for (int c = 0; c < 8; ++c)
            low = std::min(low, dot(Vec3{c & 1 ? box.max.x : box.min.x, c & 2 ? box.max.y : box.min.y,
                                         c & 4 ? box.max.z : box.min.z},
                                    up));
        return low;
    };
    double ground = kInf;
    for (const std::size_t i : moving)
        for (std::size_t k = 0; k < frames; ++k) {
            const BodyState& s = rec.at(k)[i];
            if (!is_finite(s.position)) continue;
            const Aabb placed = bounds_of(place(sc.bodies[i].shape, s.position, s.rotation));
            if (finite_box(placed)) ground = std::min(ground, lowest(placed));
        }
    if (!std::isfinite(ground)) ground = lowest(view.frame);
    const double reach = 0.05 * std::max(length(view.frame.max - view.frame.min), 1e-3);
    double floor_top = -kInf;
    for (const BodyDef& b : sc.bodies) {
        if (!b.is_static) continue;
        const Aabb placed = bounds_of(place(b.shape, b.position, b.rotation));
        if (!finite_box(placed)) continue;
        double top = -kInf;
        for (int c = 0; c < 8; ++c)
            top = std::max(top, dot(Vec3{c & 1 ? placed.max.x : placed.min.x, c & 2 ? placed.max.y : placed.min.y,
                                         c & 4 ? placed.max.z : placed.min.z},
                                    up));
        if (top >= ground && top <= ground + reach) floor_top = std::max(floor_top, top);
    }
    if (std::isfinite(floor_top)) ground = floor_top;
    const double size = std::max(length(view.frame.max - view.frame.min), 1e-3);

    // Quanta from the largest magnitudes.
    double max_p = 0, max_v = 0, max_w = 0;
    for (std::size_t k = 0; k < frames; ++k)
        for (const std::size_t i : moving) {
            const BodyState& s = rec.at(k)[i];
            const Vec3 w = angular_velocity_of(sc.bodies[i], s);
            for (std::size_t a = 0; a < 3; ++a) {
                if (std::isfinite(s.position[a])) max_p = std::max(max_p, std::fabs(s.position[a]));
                if (std::isfinite(s.velocity[a])) max_v = std::max(max_v, std::fabs(s.velocity[a]));
                if (std::isfinite(w[a])) max_w = std::max(max_w, std::fabs(w[a]));
            }
        }
    TrackQuanta quanta;
    quanta.position = exponent_for(max_p, -17);
    quanta.velocity = exponent_for(max_v, -17);
    quanta.angular_velocity = exponent_for(max_w, -17);

    // Pack; keep fewer frames until the tracks fit the budget.
    std::size_t stride = std::max<std::size_t>(1, (frames + options.frame_budget - 1) /
                                                          std::max<std::size_t>(options.frame_budget, 1));
    std::vector<std::size_t> kept;
    std::vector<std::uint8_t> bytes;
    std::vector<double> values;
    for (;;) {
        kept = kept_frames(frames, stride);
        values.assign(kept.size() * moving.size() * kTrackChannels, 0.0);
        for (std::size_t f = 0; f < kept.size(); ++f) {
            const auto states = rec.at(kept[f]);
            for (std::size_t m = 0; m < moving.size(); ++m) {
                const BodyState& s = states[moving[m]];
                double* v = &values[(f * moving.size() + m) * kTrackChannels];
                Quat q = s.rotation;
                if (f > 0) {
                    const double* before = v - moving.size() * kTrackChannels;
                    if (q.w * before[6] + q.x * before[7] + q.y * before[8] + q.z * before[9] < 0)
                        q = {-q.w, -q.x, -q.y, -q.z};
                }
                const Vec3 w = angular_velocity_of(sc.bodies[moving[m]], s);
                const double row[kTrackChannels] = {
                        s.position.x, s.position.y, s.position.z, s.velocity.x, s.velocity.y, s.velocity.z, q.w,
                        q.x,          q.y,          q.z,          w.x,          w.y,          w.z};
                std::copy(std::begin(row), std::end(row), v);
            }
        }
        bytes = pack_tracks(values, kept.size(), moving.size(), quanta);
        if (bytes.size() <= options.track_budget || kept.size() <= 2) break;
        stride = std::max(stride + 1,
                          static_cast<std::size_t>(static_cast<double>(stride) * static_cast<double>(bytes.size()) /
                                                   static_cast<double>(options.track_budget)));
    }

    PageJson kept_frames_json = PageJson::array(), kept_times = PageJson::array();
    for (const std::size_t k : kept) {
        kept_frames_json.push_back(rec.frames[k]);
        kept_times.push_back(json_number(rec.times[k]));
    }

    // Contacts: one per pair and cell of 1/100 of the scene, in the order found.
    const double cell = size / 100;
    std::set<std::tuple<int, int, long, long, long>> seen;
    std::vector<std::uint8_t> cp, cn, cf;
    std::size_t drawn = 0;
    PageJson marks = PageJson::array();
    std::size_t marked = 0, labelled = 0;
    std::set<std::pair<int, int>> first_seen;
    for (const TraceContact& c : rec.contacts) {
        if (!is_finite(c.point) || !is_finite(c.normal)) continue;
        if (first_seen.insert({c.a, c.b}).second && marked < options.mark_budget) {
            ++marked;
            const std::string text =
                    labelled++ < options.label_budget
                            ? fmt::format("first contact {}–{}, frame {} ({:.3f} s)",
                                          sc.bodies[static_cast<std::size_t>(c.a)].name,
                                          sc.bodies[static_cast<std::size_t>(c.b)].name, c.frame, c.time)
                            : std::string();
            marks.push_back(PageJson{{"k", "first"}, {"p", jvec(c.point)}, {"f", c.frame}, {"t", text}});
        }
        if (drawn >= options.contact_budget) continue;
        if (!seen.insert({c.a, c.b, std::lround(c.point.x / cell), std::lround(c.point.y / cell),
                          std::lround(c.point.z / cell)})
                     .second)
            continue;
        ++drawn;
        for (std::size_t a = 0; a < 3; ++a) {
            append_le(cp, static_cast<float>(c.point[a]));
            append_le(cn, static_cast<float>(c.normal[a]));
        }
        append_le(cf, static_cast<std::int32_t>(c.frame));
    }

    // Apexes after real bounces, as the 2D plot marks them (apex_frames).
    for (const std::size_t i : moving) {
        int count = 0;
        for (const std::size_t at : apex_frames(sc, rec, i)) {
            if (marked >= options.mark_budget) break;
            const Vec3 p = rec.at(at)[i].position;
            ++marked;
            ++count;
            const std::string text = count <= 4 && labelled++ < options.label_budget
                                             ? fmt::format("apex {} of {}: centre at {:.3f} m, frame {}", count,
                                                           sc.bodies[i].name, dot(p, up), rec.frames[at])
                                             : std::string();
            marks.push_back(PageJson{{"k", "apex"}, {"p", jvec(p)}, {"f", rec.frames[at]}, {"t", text}});
        }
    }
    return PageJson{
            {"frames", std::move(kept_frames_json)},
            {"times", std::move(kept_times)},
            {"stride", stride},
            {"total", frames},
            {"quanta", PageJson::array({quanta.position, quanta.velocity, quanta.rotation, quanta.angular_velocity})},
            {"tracks", base64(bytes)},
            {"bytes", bytes.size()},
            {"bounds", {{"min", jvec(view.frame.min)}, {"max", jvec(view.frame.max)}}},
            {"view", {{"eye", jvec(view.eye)}, {"up", jvec(view.up)}, {"target", jvec(view.target)}}},
            {"ground", json_number(ground)},
            {"contacts", {{"n", drawn}, {"p", base64(cp)}, {"d", base64(cn)}, {"f", base64(cf)}}},
            {"marks", std::move(marks)}};
}

} // namespace

std::string render_scene3d_scene(const Scenario& scenario, const Scene3dOptions& options) {
    return script_json(scene_json(scenario, options));
}

std::string render_scene3d_run(const Scenario& scenario, const Recording& recording, const Scene3dOptions& options) {
    return script_json(run_json(scenario, recording, options));
}

std::string render_scene3d_json(const Scenario& scenario, const Recording& recording, const Scene3dOptions& options) {
    return script_json(
            PageJson{{"scene", scene_json(scenario, options)}, {"run", run_json(scenario, recording, options)}});
}

void Scene3dRuns::add(const Scenario& scenario, const Recording& recording) {
    PageJson scene = scene_json(scenario, options_);
    const auto found = std::find(scenes_.begin(), scenes_.end(), scene);
    const std::size_t index = static_cast<std::size_t>(found - scenes_.begin());
    if (found == scenes_.end()) scenes_.push_back(std::move(scene));
    runs_.push_back(PageJson{{"s", index}, {"run", run_json(scenario, recording, options_)}});
}

std::string Scene3dRuns::json() const {
    PageJson scenes = PageJson::array(), runs = PageJson::array();
    for (const PageJson& s : scenes_) scenes.push_back(s);
    for (const PageJson& r : runs_) runs.push_back(r);
    return script_json(PageJson{{"scenes", std::move(scenes)}, {"runs", std::move(runs)}});
}

} // namespace collide
