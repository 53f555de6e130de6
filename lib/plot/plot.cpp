#include "plot/plot.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <limits>
#include <set>
#include <tuple>

#include <fmt/format.h>

#include "math/overloaded.h"
#include "report/junit.h"
#include "shapes/mesh.h"

namespace collide {

namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kPanelW = 620, kPanelH = 380;     // largest plot area (px)
constexpr double kLeft = 70, kTop = 64, kGap = 90; // margins (px)
constexpr std::size_t kContactBudget = 400;        // contact marks per view
constexpr std::size_t kLabelBudget = 30;           // labels per view
constexpr std::size_t kMarkBudget = 600;           // apex / first-contact marks per view

using Pt = std::pair<double, double>;

std::vector<Pt> hull2d(std::vector<Pt> p) {
    std::sort(p.begin(), p.end());
    p.erase(std::unique(p.begin(), p.end()), p.end());
    if (p.size() < 3) return p;
    const auto cross = [](const Pt& o, const Pt& a, const Pt& b) {
        return (a.first - o.first) * (b.second - o.second) - (a.second - o.second) * (b.first - o.first);
    };
    std::vector<Pt> h(2 * p.size());
    std::size_t k = 0;
    for (const Pt& q : p) {
        while (k >= 2 && cross(h[k - 2], h[k - 1], q) <= 0) --k;
        h[k++] = q;
    }
    for (std::size_t i = p.size() - 1, t = k + 1; i-- > 0;) {
        while (k >= t && cross(h[k - 2], h[k - 1], p[i]) <= 0) --k;
        h[k++] = p[i];
    }
    h.resize(k - 1);
    return h;
}

/// Evenly spaced picks of m indices out of n (always the first and the last).
std::vector<std::size_t> picks(std::size_t n, std::size_t m) {
    std::vector<std::size_t> out;
    if (n == 0) return out;
    m = std::clamp<std::size_t>(m, 1, n);
    if (m == 1) return {n - 1};
    for (std::size_t i = 0; i < m; ++i) out.push_back((i * (n - 1) + (m - 1) / 2) / (m - 1));
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

bool finite_box(const Aabb& b) { return is_finite(b.min) && is_finite(b.max); }

/// The body's shape turned by its rotation, at its local origin.
Shape local_shape(const BodyDef& body) { return place(body.shape, {0, 0, 0}, body.rotation); }

std::pair<int, int> axes_of(PlotView view) {
    switch (view) {
    case PlotView::xz: return {0, 2};
    case PlotView::zy: return {2, 1};
    case PlotView::xy: break;
    }
    return {0, 1};
}

PlotView view_of(int a, int b) {
    if ((a == 0 && b == 1) || (a == 1 && b == 0)) return PlotView::xy;
    if ((a == 0 && b == 2) || (a == 2 && b == 0)) return PlotView::xz;
    return PlotView::zy;
}

} // namespace

const char* plot_view_name(PlotView view) {
    switch (view) {
    case PlotView::xz: return "xz";
    case PlotView::zy: return "zy";
    case PlotView::xy: break;
    }
    return "xy";
}

std::optional<PlotView> parse_plot_view(std::string_view text) {
    if (text == "xy") return PlotView::xy;
    if (text == "xz") return PlotView::xz;
    if (text == "zy") return PlotView::zy;
    return std::nullopt;
}

std::optional<PlotOptions> plot_options_for_view(std::string_view view) {
    PlotOptions options;
    if (view.empty()) return options;
    if (view == "3d") {
        options.flat = false;
        return options;
    }
    options.view = parse_plot_view(view);
    if (!options.view) return std::nullopt;
    options.view3d = false;
    return options;
}

bool turns_in(const Recording& rec, std::size_t body) {
    if (rec.frame_count() == 0 || body >= static_cast<std::size_t>(rec.body_count)) return false;
    const Quat first = rec.at(0)[body].rotation;
    for (std::size_t k = 1; k < rec.frame_count(); ++k)
        if (!(rec.at(k)[body].rotation == first)) return true;
    return false;
}

std::vector<std::size_t> apex_frames(const Scenario& sc, const Recording& rec, std::size_t body) {
    std::vector<std::size_t> out;
    const double g = length(sc.world.gravity);
    const std::size_t frames = rec.frame_count();
    if (!(g > 0) || frames <= 2 || body >= static_cast<std::size_t>(rec.body_count)) return out;
    const Vec3 up = sc.world.gravity / -g;
    const double bounce_speed = std::max(sc.world.rest_speed, g * sc.world.dt);
    bool launched = dot(rec.at(0)[body].velocity, up) > bounce_speed;
    for (std::size_t k = 1; k < frames; ++k) {
        const double before = dot(rec.at(k - 1)[body].velocity, up), after = dot(rec.at(k)[body].velocity, up);
        if (before <= 0 && after > bounce_speed) launched = true;
        if (!(launched && before > 0 && after <= 0)) continue;
        launched = false;
        out.push_back(dot(rec.at(k)[body].position, up) > dot(rec.at(k - 1)[body].position, up) ? k : k - 1);
    }
    return out;
}

std::vector<ViewMap> plan_views(const Scenario& scenario, const Recording& rec, const PlotOptions& options) {
    const std::size_t n = static_cast<std::size_t>(rec.body_count);
    // Motion (largest range of one body) and spread (range of all) per axis, dynamic bodies.
    Vec3 motion{0, 0, 0}, lo{kInf, kInf, kInf}, hi{-kInf, -kInf, -kInf};
    Aabb world{{kInf, kInf, kInf}, {-kInf, -kInf, -kInf}};
    bool any_dynamic = false;
    for (std::size_t i = 0; i < n && i < scenario.bodies.size(); ++i) {
        Aabb local = bounds_of(local_shape(scenario.bodies[i]));
        if (turns_in(rec, i)) { // any orientation: the ball its shape sweeps about its origin
            const double r = max_distance_from(scenario.bodies[i].shape, {0, 0, 0});
            local = {{-r, -r, -r}, {r, r, r}};
        }
        if (scenario.bodies[i].is_static) continue;
        any_dynamic = true;
        Vec3 blo{kInf, kInf, kInf}, bhi{-kInf, -kInf, -kInf};
        for (std::size_t k = 0; k < rec.frame_count(); ++k) {
            const Vec3 p = rec.at(k)[i].position;
            blo = min(blo, p);
            bhi = max(bhi, p);
        }
        if (rec.frame_count() == 0) blo = bhi = scenario.bodies[i].position;
        motion = max(motion, bhi - blo);
        lo = min(lo, blo);
        hi = max(hi, bhi);
        if (finite_box(local)) {
            world.min = min(world.min, blo + local.min);
            world.max = max(world.max, bhi + local.max);
        }
    }
    if (!any_dynamic || !finite_box(world)) { // only static bodies: their finite bounds
        for (const BodyDef& b : scenario.bodies) {
            const Aabb box = bounds_of(place(b.shape, b.position, b.rotation));
            if (!finite_box(box)) continue;
            world.min = min(world.min, box.min);
            world.max = max(world.max, box.max);
            lo = min(lo, box.min);
            hi = max(hi, box.max);
        }
        if (!finite_box(world)) world = {{-1, -1, -1}, {1, 1, 1}};
    }
    const Vec3 spread = finite_box(Aabb{lo, hi}) ? hi - lo : Vec3{0, 0, 0};

    std::vector<PlotView> views;
    if (options.view) {
        views.push_back(*options.view);
    } else {
        // Rank the axes by motion; ties go to the up axis (y), then to the wider spread.
        std::array<int, 3> order{1, 0, 2};
        std::stable_sort(order.begin(), order.end(), [&](int a, int b) {
            const double ma = motion[static_cast<std::size_t>(a)], mb = motion[static_cast<std::size_t>(b)];
            if (std::fabs(ma - mb) > 1e-9 * std::max(1.0, std::max(ma, mb))) return ma > mb;
            if (a == 1 || b == 1) return a == 1;
            return spread[static_cast<std::size_t>(a)] > spread[static_cast<std::size_t>(b)];
        });
        const PlotView first = view_of(order[0], order[1]);
        views.push_back(first);
        const int third = order[2];
        const PlotView second = (order[0] == 1 || order[1] == 1) ? PlotView::xz : view_of(order[0], 1);
        if (second != first && spread[static_cast<std::size_t>(third)] > 1e-6) views.push_back(second);
    }

    std::vector<ViewMap> maps;
    double x = kLeft;
    for (const PlotView view : views) {
        ViewMap m;
        m.id = options.id;
        m.view = view;
        std::tie(m.h, m.v) = axes_of(view);
        const auto h = static_cast<std::size_t>(m.h), v = static_cast<std::size_t>(m.v);
        double u0 = world.min[h], u1 = world.max[h], v0 = world.min[v], v1 = world.max[v];
        const double size = std::max({u1 - u0, v1 - v0, 0.5});
        const double pad = std::max(0.08 * size, 0.2);
        u0 -= pad, u1 += pad, v0 -= pad, v1 += pad;
        // Keep the picture no flatter than 1:4, and no narrower than square.
        const double wu = u1 - u0, wv = v1 - v0;
        if (wv < wu / 4) v0 -= (wu / 4 - wv) / 2, v1 += (wu / 4 - wv) / 2;
        if (wu < wv) u0 -= (wv - wu) / 2, u1 += (wv - wu) / 2; // no narrower than square
        m.umin = u0, m.umax = u1, m.vmin = v0, m.vmax = v1;
        m.scale = std::min(kPanelW / (u1 - u0), kPanelH / (v1 - v0));
        m.ox = x;
        m.oy = kTop;
        x += m.width() + kGap;
        maps.push_back(m);
    }
    return maps;
}

Outline outline_of(const BodyDef& body, const ViewMap& m) { return outline_of(body, m, body.rotation); }

Outline outline_of(const BodyDef& body, const ViewMap& m, const Quat& rotation) {
    Outline o;
    const auto h = static_cast<std::size_t>(m.h), v = static_cast<std::size_t>(m.v);
    const auto proj = [&](const Vec3& p) { return Pt{p[h] * m.scale, -p[v] * m.scale}; };
    std::vector<Pt> pts;
    std::visit(Overloaded{
                       [&](const Sphere& s) {
                           std::tie(o.cx, o.cy) = proj(s.centre);
                           o.radius = s.radius * m.scale; // its true size, however small
                       },
                       [&](const Aabb& b) {
                           for (int k = 0; k < 4; ++k) {
                               Vec3 c = b.min;
                               if (k & 1) c[h] = b.max[h];
                               if (k & 2) c[v] = b.max[v];
                               pts.push_back(proj(c));
                           }
                       },
                       [&](const Obb& b) {
                           for (const Vec3& c : corners_of(b)) pts.push_back(proj(c));
                       },
                       [&](const Capsule& c) {
                           const Vec3 e1 = m.h == 0 ? Vec3{1, 0, 0} : Vec3{0, 0, 1};
                           const Vec3 e2 = m.v == 1 ? Vec3{0, 1, 0} : Vec3{0, 0, 1};
                           for (int k = 0; k < 24; ++k) {
                               const double t = 2 * 3.141592653589793 * k / 24;
                               const Vec3 d = (e1 * std::cos(t) + e2 * std::sin(t)) * c.radius;
                               pts.push_back(proj(c.a + d));
                               pts.push_back(proj(c.b + d));
                           }
                       },
                       [&](const Triangle& t) {
                           pts.push_back(proj(t.a));
                           pts.push_back(proj(t.b));
                           pts.push_back(proj(t.c));
                       },
                       [&](const Hull& hl) {
                           for (int k = 0; k < hl.count(); ++k) pts.push_back(proj(hl.point(k)));
                       },
                       [&](const Plane&) {},
                       [&](const Mesh& ms) { // the outline of all its corners
                           for (const Vec3& c : ms.data->vertices) pts.push_back(proj(ms.rotation * c + ms.position));
                       },
               },
               place(body.shape, {0, 0, 0}, rotation));
    if (o.radius == 0) o.poly = hull2d(std::move(pts));
    return o;
}

double outline_size(const Outline& o) {
    if (o.radius > 0) return 2 * o.radius;
    if (o.poly.empty()) return 0;
    double x0 = o.poly[0].first, x1 = x0, y0 = o.poly[0].second, y1 = y0;
    for (const auto& [x, y] : o.poly) {
        x0 = std::min(x0, x), x1 = std::max(x1, x);
        y0 = std::min(y0, y), y1 = std::max(y1, y);
    }
    return std::max(x1 - x0, y1 - y0);
}

bool is_tiny(const Outline& o) { return (o.radius > 0 || !o.poly.empty()) && outline_size(o) < kTinyOutline; }

std::string outline_svg(const Outline& o, double x, double y, std::string_view attributes, bool mark_tiny) {
    std::string out;
    double cx = x + o.cx, cy = y + o.cy;
    if (o.radius > 0) {
        // Two decimals below 1 px: a 1 cm ball at 30 px per m is r = 0.15, not 0.1 or 0.2.
        out = o.radius < 1 ? fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{:.2f}\"{}/>", cx, cy, o.radius,
                                         attributes)
                           : fmt::format("<circle cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"{:.1f}\"{}/>", cx, cy, o.radius,
                                         attributes);
    } else {
        if (o.poly.empty()) return {};
        std::string points;
        cx = cy = 0;
        for (const Pt& p : o.poly) {
            fmt::format_to(std::back_inserter(points), "{:.1f},{:.1f} ", x + p.first, y + p.second);
            cx += (x + p.first) / static_cast<double>(o.poly.size());
            cy += (y + p.second) / static_cast<double>(o.poly.size());
        }
        points.pop_back();
        out = fmt::format("<polygon points=\"{}\"{}/>", points, attributes);
    }
    if (mark_tiny && is_tiny(o)) { // too small to see: a cross on its centre, not a larger outline
        std::string more(attributes);
        if (const std::size_t at = more.find(" class=\""); at != std::string::npos)
            more.insert(at + 8, "tiny ");
        else
            more += " class=\"tiny\"";
        out += fmt::format("<path transform=\"translate({:.1f} {:.1f})\" d=\"M-4 0h8M0 -4v8\"{}/>", cx, cy, more);
    }
    return out;
}

namespace {

/// The SVG of a plane clipped to the view: the polygon of its solid side inside the view box.
std::string plane_svg(const BodyDef& body, const ViewMap& m, std::string_view attributes) {
    const Shape placed = place(body.shape, body.position, body.rotation);
    const auto* plane = std::get_if<Plane>(&placed);
    if (!plane) return {};
    const auto h = static_cast<std::size_t>(m.h), v = static_cast<std::size_t>(m.v);
    const double nu = plane->normal[h], nv = plane->normal[v];
    if (std::hypot(nu, nv) < 1e-9) return {};
    // Sutherland–Hodgman: the view rectangle clipped by nu·u + nv·v ≤ offset.
    const std::array<Pt, 4> box{Pt{m.umin, m.vmin}, Pt{m.umax, m.vmin}, Pt{m.umax, m.vmax}, Pt{m.umin, m.vmax}};
    const auto side = [&](const Pt& p) { return nu * p.first + nv * p.second - plane->offset; };
    std::vector<Pt> out;
    for (std::size_t i = 0; i < box.size(); ++i) {
        const Pt& a = box[i];
        const Pt& b = box[(i + 1) % box.size()];
        const double sa = side(a), sb = side(b);
        if (sa <= 0) out.push_back(a);
        if ((sa < 0) != (sb < 0) && sa != sb) {
            const double t = sa / (sa - sb);
            out.push_back({a.first + (b.first - a.first) * t, a.second + (b.second - a.second) * t});
        }
    }
    if (out.size() < 3) return {};
    std::string points;
    for (const Pt& p : out) fmt::format_to(std::back_inserter(points), "{:.1f},{:.1f} ", m.px(p.first), m.py(p.second));
    points.pop_back();
    return fmt::format("<polygon points=\"{}\"{}/>", points, attributes);
}

} // namespace

namespace {

constexpr std::array<const char*, 10> kPalette{"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                               "#8c564b", "#e377c2", "#17becf", "#bcbd22", "#7f7f7f"};

template <class... Args> void put(std::string& out, fmt::format_string<Args...> format, Args&&... args) {
    fmt::format_to(std::back_inserter(out), format, std::forward<Args>(args)...);
}

std::string esc(std::string_view text) { return xml_escape(std::string(text)); }

/// Tick values for a range: about six, at 1, 2 or 5 × 10^k, and the decimals they need.
std::pair<std::vector<double>, int> nice_ticks(double lo, double hi) {
    const double raw = (hi - lo) / 6;
    const double mag = std::pow(10.0, std::floor(std::log10(raw)));
    double step = mag;
    for (const double f : {1.0, 2.0, 5.0, 10.0})
        if (f * mag >= raw) {
            step = f * mag;
            break;
        }
    std::vector<double> t;
    for (double x = std::ceil(lo / step) * step; x <= hi + 1e-9 * step; x += step)
        t.push_back(std::fabs(x) < step * 1e-9 ? 0 : x);
    return {t, std::max(0, -static_cast<int>(std::floor(std::log10(step) + 1e-9)))};
}

/// Labels that do not overlap: each tried at its place, then lower, then dropped.
class Labels {
public:
    Labels(std::size_t budget, const ViewMap& m)
            : budget_(budget), left_(m.ox), right_(m.ox + m.width()), top_(m.oy), bottom_(m.oy + m.height()) {}
    void add(std::string& out, double x, double y, std::string_view text, std::string_view cls) {
        if (placed_.size() >= budget_) return;
        const double w = 6.0 * static_cast<double>(text.size()), hgt = 13;
        if (x + w > right_) x = std::max(left_ + 2, x - w - 16); // no room on the right: to the left
        for (const double dy : {0, -14, 14, -28, 28, -42, 42}) {
            const std::array<double, 4> box{x, y + dy - hgt, x + w, y + dy + 3};
            if (box[1] < top_ || box[3] > bottom_) continue;
            const bool clash = std::any_of(placed_.begin(), placed_.end(), [&](const std::array<double, 4>& b) {
                return box[0] < b[2] && b[0] < box[2] && box[1] < b[3] && b[1] < box[3];
            });
            if (clash) continue;
            placed_.push_back(box);
            put(out, "<text class=\"{}\" x=\"{:.1f}\" y=\"{:.1f}\">{}</text>\n", cls, x, y + dy, esc(text));
            return;
        }
    }

private:
    std::size_t budget_;
    double left_, right_, top_, bottom_; ///< the plot area's edges (px)
    std::vector<std::array<double, 4>> placed_;
};

/// Each body's colour (an index into kPalette; 0 for static bodies): the moving bodies before
/// `ghosts_from` in turn, and each ghost the colour of the moving body it stands for (the k-th
/// moving ghost: the k-th moving body, counting again after the last).
std::vector<std::size_t> palette_slots(const Scenario& sc, std::size_t n, std::size_t ghosts_from) {
    std::vector<std::size_t> slots(n, 0), solid;
    for (std::size_t i = 0; i < n && i < ghosts_from; ++i)
        if (!sc.bodies[i].is_static) {
            slots[i] = solid.size() % kPalette.size();
            solid.push_back(i);
        }
    for (std::size_t i = ghosts_from, k = 0; i < n; ++i)
        if (!sc.bodies[i].is_static)
            slots[i] = solid.empty() ? k++ % kPalette.size() : slots[solid[k++ % solid.size()]];
    return slots;
}

/// One view's panel: axes, static bodies, rings, paths, contacts, marks.
void draw_view(std::string& out, const Scenario& sc, const Recording& rec, const ViewMap& m, std::size_t markers,
               std::size_t ghosts_from, bool labelled) {
    const auto n = static_cast<std::size_t>(rec.body_count);
    const std::size_t frames = rec.frame_count();
    const auto h = static_cast<std::size_t>(m.h), v = static_cast<std::size_t>(m.v);
    const char axis_names[] = {'x', 'y', 'z'};
    const std::string name = plot_view_name(m.view);
    put(out, "<g class=\"view\" data-view=\"{}\">\n", name);
    // Frame, grid and ticks.
    put(out, "<rect class=\"frame\" x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\"/>\n", m.ox, m.oy,
        m.width(), m.height());
    const auto [ut, ud] = nice_ticks(m.umin, m.umax);
    for (const double t : ut) {
        const double x = m.px(t);
        put(out, "<line class=\"grid\" x1=\"{0:.1f}\" y1=\"{1:.1f}\" x2=\"{0:.1f}\" y2=\"{2:.1f}\"/>", x, m.oy,
            m.oy + m.height());
        put(out, "<text class=\"tick\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{:.{}f}</text>\n", x,
            m.oy + m.height() + 15, t, ud);
    }
    const auto [vt, vd] = nice_ticks(m.vmin, m.vmax);
    for (const double t : vt) {
        const double y = m.py(t);
        put(out, "<line class=\"grid\" x1=\"{0:.1f}\" y1=\"{2:.1f}\" x2=\"{1:.1f}\" y2=\"{2:.1f}\"/>", m.ox,
            m.ox + m.width(), y);
        put(out, "<text class=\"tick\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"end\">{:.{}f}</text>\n", m.ox - 5, y + 4,
            t, vd);
    }
    put(out, "<text class=\"axis\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{} (m)</text>\n",
        m.ox + m.width() / 2, m.oy + m.height() + 32, axis_names[h]);
    put(out,
        "<text class=\"axis\" x=\"{0:.1f}\" y=\"{1:.1f}\" text-anchor=\"middle\" transform=\"rotate(-90 {0:.1f} "
        "{1:.1f})\">{2} (m)</text>\n",
        m.ox - 45, m.oy + m.height() / 2, axis_names[v]);
    const bool top = m.view == PlotView::xz;
    put(out, "<text class=\"viewname\" x=\"{:.1f}\" y=\"{:.1f}\">{} view ({}{})</text>\n", m.ox, m.oy - 8,
        top ? "top" : "side", axis_names[h], axis_names[v]);
    put(out,
        "<clipPath id=\"{}clip-{}\"><rect x=\"{:.1f}\" y=\"{:.1f}\" width=\"{:.1f}\" height=\"{:.1f}\"/></clipPath>\n",
        m.id, name, m.ox, m.oy, m.width(), m.height());
    put(out, "<g clip-path=\"url(#{}clip-{})\">\n", m.id, name);

    std::size_t dynamic = 0;
    for (std::size_t i = 0; i < n; ++i) dynamic += sc.bodies[i].is_static ? 0 : 1;
    const std::size_t rings_each = std::max<std::size_t>(1, kRingBudget / std::max<std::size_t>(dynamic, 1));
    const std::size_t points_each = std::max<std::size_t>(2, kPathBudget / std::max<std::size_t>(dynamic, 1));
    const std::vector<std::size_t> ring_frames = picks(frames, rings_each);
    const std::vector<std::size_t> path_frames = picks(frames, points_each);
    const auto pos = [&](std::size_t k, std::size_t i) {
        return frames ? rec.at(k)[i].position : sc.bodies[i].position;
    };

    // Static bodies first (filled), then the ghosts (another run, faint, under), then each
    // moving body: rings, path and (interactive) its marker.
    const std::vector<std::size_t> colours = palette_slots(sc, n, ghosts_from);
    std::vector<std::size_t> order;
    for (std::size_t i = 0; i < n; ++i)
        if (sc.bodies[i].is_static) order.push_back(i);
    for (std::size_t i = std::min(ghosts_from, n); i < n; ++i)
        if (!sc.bodies[i].is_static) order.push_back(i);
    for (std::size_t i = 0; i < std::min(ghosts_from, n); ++i)
        if (!sc.bodies[i].is_static) order.push_back(i);
    std::vector<std::size_t> ordinal(n, 0); // each moving body's place among the moving bodies
    for (std::size_t i = 0, k = 0; i < n; ++i)
        if (!sc.bodies[i].is_static) ordinal[i] = k++;
    std::size_t tiny_marked = 0; // moving bodies marked with a cross (kTinyBudget)
    for (const std::size_t i : order) {
        const BodyDef& b = sc.bodies[i];
        const Outline o = outline_of(b, m);
        if (b.is_static) {
            const Vec3 p = pos(0, i);
            put(out, "<g class=\"body static\" data-body=\"{}\">", esc(b.name));
            if (std::holds_alternative<Plane>(b.shape))
                out += plane_svg(b, m, " class=\"solid\"");
            else
                out += outline_svg(o, m.px(p[h]), m.py(p[v]), " class=\"solid\"");
            put(out, "<path class=\"track\" d=\"M{:.1f} {:.1f}\"/></g>\n", m.px(p[h]), m.py(p[v]));
            continue;
        }
        put(out, "<g class=\"body{} c{}\" data-body=\"{}\">", i >= ghosts_from ? " ghost" : "", colours[i],
            esc(b.name));
        const double rings = static_cast<double>(ring_frames.size());
        const bool turning = turns_in(rec, i);
        // A tiny body's cross on its last ring and its marker only (its path shows the rest).
        const bool mark = is_tiny(o) && tiny_marked < kTinyBudget;
        tiny_marked += mark ? 1 : 0;
        // Each ring turned as the body is at its frame.
        const auto outline_at = [&](std::size_t k) { return turning ? outline_of(b, m, rec.at(k)[i].rotation) : o; };
        for (std::size_t r = 0; r < ring_frames.size(); ++r) {
            const Vec3 p = pos(ring_frames[r], i);
            const double alpha = rings > 1 ? 0.12 + 0.5 * static_cast<double>(r) / (rings - 1) : 0.6;
            out += outline_svg(outline_at(ring_frames[r]), m.px(p[h]), m.py(p[v]),
                               fmt::format(" opacity=\"{:.2f}\"", alpha), mark && r + 1 == ring_frames.size());
        }
        out += "<path class=\"track\" d=\"";
        char op = 'M';
        for (const std::size_t k : path_frames) {
            const Vec3 p = pos(k, i);
            put(out, "{}{:.1f} {:.1f}", op, m.px(p[h]), m.py(p[v]));
            op = 'L';
        }
        if (frames == 0) put(out, "M{:.1f} {:.1f}", m.px(pos(0, i)[h]), m.py(pos(0, i)[v]));
        out += "\"/>";
        if (ordinal[i] < markers) { // the first `markers` moving bodies
            const Vec3 p = pos(0, i);
            put(out, "<g class=\"now\" data-index=\"{}\">{}</g>", i,
                outline_svg(frames ? outline_at(0) : o, m.px(p[h]), m.py(p[v]), " class=\"nowshape\"", mark));
        }
        out += "</g>\n";
    }

    // Contacts: a dot at the point and the normal (from the first body to the second), one
    // per pair and 6 px cell.
    std::set<std::tuple<int, int, long, long>> seen;
    std::set<std::pair<int, int>> first_seen;
    Labels labels(labelled ? kLabelBudget : 0, m);
    std::string marks;
    std::size_t drawn = 0, marked = 0;
    out += "<g class=\"contacts\">";
    for (const TraceContact& c : rec.contacts) {
        const double x = m.px(c.point[h]), y = m.py(c.point[v]);
        if (!std::isfinite(x) || !std::isfinite(y)) continue;
        const bool first = first_seen.insert({c.a, c.b}).second;
        if (first && marked < kMarkBudget) {
            ++marked;
            put(marks, "<path class=\"first\" d=\"M{:.1f} {:.1f}l5 5l-5 5l-5 -5z\"/>", x, y - 5);
            labels.add(marks, x + 8, y - 8,
                       fmt::format("first contact {}–{}, frame {} ({:.3f} s)",
                                   sc.bodies[static_cast<std::size_t>(c.a)].name,
                                   sc.bodies[static_cast<std::size_t>(c.b)].name, c.frame, c.time),
                       "label");
        }
        if (drawn >= kContactBudget) continue;
        if (!seen.insert({c.a, c.b, std::lround(x / 6), std::lround(y / 6)}).second) continue;
        ++drawn;
        const double nu = c.normal[h], nv = -c.normal[v], len = std::hypot(nu, nv);
        put(out, "<circle class=\"contact\" cx=\"{:.1f}\" cy=\"{:.1f}\" r=\"2\"/>", x, y);
        if (len > 0.2)
            put(out,
                "<line class=\"normal\" marker-end=\"url(#{}arrow)\" x1=\"{:.1f}\" y1=\"{:.1f}\" x2=\"{:.1f}\" "
                "y2=\"{:.1f}\"/>",
                m.id, x, y, x + 16 * nu / len, y + 16 * nv / len);
    }
    out += "</g>\n";

    // Apexes after real bounces (apex_frames).
    if (length(sc.world.gravity) > 0) {
        const Vec3 up = sc.world.gravity / -length(sc.world.gravity);
        for (std::size_t i = 0; i < n && i < ghosts_from && marked < kMarkBudget; ++i) {
            if (sc.bodies[i].is_static) continue;
            int count = 0;
            for (const std::size_t at : apex_frames(sc, rec, i)) {
                if (marked >= kMarkBudget) break;
                const Vec3 p = rec.at(at)[i].position;
                const double x = m.px(p[h]), y = m.py(p[v]);
                ++marked;
                ++count;
                put(marks, "<path class=\"apex\" d=\"M{:.1f} {:.1f}l5 -8h-10z\"/>", x, y - 4);
                if (count <= 4)
                    labels.add(marks, x + 7, y - 10,
                               fmt::format("apex {} of {}: centre at {} m, frame {}", count, sc.bodies[i].name,
                                           fmt::format("{:.3f}", dot(p, up)), rec.frames[at]),
                               "label");
            }
        }
    }
    out += marks;
    out += "</g>\n"; // clip
    // Static bodies named at the edge of what shows of them.
    for (std::size_t i = 0; i < n; ++i) {
        const BodyDef& b = sc.bodies[i];
        if (!b.is_static) continue;
        const Aabb box = bounds_of(place(b.shape, b.position, b.rotation));
        const double u =
                std::clamp(centre_of(Aabb{max(box.min, {-1e30, -1e30, -1e30}), min(box.max, {1e30, 1e30, 1e30})})[h],
                           m.umin, m.umax);
        const double w = std::clamp(box.max[v], m.vmin, m.vmax);
        if (box.max[h] < m.umin || box.min[h] > m.umax || box.max[v] < m.vmin || box.min[v] > m.vmax) continue;
        put(out, "<text class=\"static-name\" x=\"{:.1f}\" y=\"{:.1f}\" text-anchor=\"middle\">{}</text>\n",
            std::clamp(m.px(u), m.ox + 30, m.ox + m.width() - 30), std::min(m.py(w) + 14, m.oy + m.height() - 4),
            esc(b.name));
    }
    out += "</g>\n";
}

/// Draws the legend from (x0, y0); returns its height (px). Ghosts (bodies from `ghosts_from`
/// on) get one item, `ghost_note`; `tiny`: an item for the cross that marks a body too small to see.
double draw_legend(std::string& out, const Scenario& sc, double x0, double y0, double width, std::size_t ghosts_from,
                   const std::string& ghost_note, bool tiny) {
    std::vector<std::pair<std::string, std::string>> items; // markup, text
    std::size_t colour = 0, dynamic = 0;
    for (std::size_t i = 0; i < sc.bodies.size() && i < ghosts_from; ++i) {
        const BodyDef& b = sc.bodies[i];
        if (b.is_static) continue;
        ++dynamic;
        const char* c = kPalette[colour++ % kPalette.size()];
        if (dynamic <= 12)
            items.push_back(
                    {fmt::format("<circle cx=\"6\" cy=\"-4\" r=\"5\" fill=\"none\" stroke=\"{}\"/><line x1=\"12\" "
                                 "y1=\"-4\" x2=\"24\" y2=\"-4\" stroke=\"{}\" stroke-width=\"1.5\"/>",
                                 c, c),
                     b.name});
    }
    if (dynamic > 12) items.push_back({"", fmt::format("… and {} more bodies", dynamic - 12)});
    if (ghosts_from < sc.bodies.size())
        items.push_back({"<g class=\"ghost\"><circle cx=\"6\" cy=\"-4\" r=\"5\" fill=\"none\" stroke=\"#555\"/><line "
                         "class=\"track\" x1=\"12\" y1=\"-4\" x2=\"24\" y2=\"-4\" stroke=\"#555\"/></g>",
                         ghost_note.empty() ? std::string("faint, dashed: another run") : ghost_note});
    if (tiny)
        items.push_back({"<circle cx=\"12\" cy=\"-4\" r=\"0.6\" fill=\"none\" stroke=\"#555\"/><path d=\"M8 "
                         "-4h8M12 -8v8\" stroke=\"#555\"/>",
                         fmt::format("+ a body under {:.0f} px across, drawn at its size", kTinyOutline)});
    items.push_back({"<circle cx=\"6\" cy=\"-4\" r=\"5\" fill=\"none\" stroke=\"#555\" opacity=\"0.25\"/><circle "
                     "cx=\"16\" cy=\"-4\" r=\"5\" fill=\"none\" stroke=\"#555\" opacity=\"0.6\"/>",
                     "outline at a sampled frame (fainter: earlier)"});
    items.push_back({"<line x1=\"0\" y1=\"-4\" x2=\"24\" y2=\"-4\" stroke=\"#555\" stroke-width=\"1.5\"/>", "path"});
    items.push_back({"<rect x=\"0\" y=\"-10\" width=\"24\" height=\"12\" class=\"solid\"/>", "static body"});
    items.push_back({"<circle class=\"contact\" cx=\"4\" cy=\"-4\" r=\"2\"/><line class=\"normal\" x1=\"4\" y1=\"-4\" "
                     "x2=\"20\" y2=\"-4\"/>",
                     "contact and its normal (first body → second)"});
    items.push_back({"<path class=\"first\" d=\"M8 -10l5 5l-5 5l-5 -5z\"/>", "first contact of a pair"});
    items.push_back({"<path class=\"apex\" d=\"M8 0l5 -8h-10z\"/>", "apex (highest point between bounces)"});
    double x = x0, y = y0;
    out += "<g class=\"legend\">\n";
    for (const auto& [mark, text] : items) {
        const double w = 34 + 6.5 * static_cast<double>(text.size()) + 18;
        if (x + w > x0 + width && x > x0) x = x0, y += 20;
        put(out, "<g transform=\"translate({:.1f} {:.1f})\">{}<text x=\"32\" y=\"0\">{}</text></g>\n", x, y, mark,
            esc(text));
        x += w;
    }
    out += "</g>\n";
    return y - y0 + 20;
}

constexpr const char* kStyle =
        "<style>\n"
        "text{font-family:sans-serif;font-size:12px;fill:#222}\n"
        ".title{font-size:15px;font-weight:bold}.viewname{font-weight:bold}.tick{fill:#555;font-size:11px}\n"
        ".frame{fill:#fff;stroke:#999}.grid{stroke:#eee}\n"
        ".solid{fill:#c9c9c9;fill-opacity:0.6;stroke:#777}.static-name{fill:#444;font-style:italic}\n"
        ".body>circle,.body>polygon{fill:none;stroke-width:1}.track{fill:none;stroke-width:1.5}.static "
        ".track{stroke:none}\n"
        ".contact{fill:#000}.normal{stroke:#000;stroke-width:1.2}\n"
        ".first{fill:#d00;stroke:#fff}.apex{fill:#080;stroke:#fff}.label{font-size:11px;fill:#222;paint-order:stroke;"
        "stroke:#fff;stroke-width:3px}\n"
        ".nowshape{fill-opacity:0.35;stroke-width:2.5}\n"
        ".tiny{fill:none;stroke-width:1}.nowshape.tiny{stroke-width:1.5}\n"
        ".ghost{opacity:0.4}.ghost .track{stroke-dasharray:5 4}\n"
        "</style>\n";

constexpr const char* kArrow =
        "<defs><marker id=\"{}arrow\" viewBox=\"0 0 10 10\" refX=\"9\" refY=\"5\" markerWidth=\"6\" markerHeight=\"6\" "
        "orient=\"auto-start-reverse\"><path d=\"M0 0L10 5L0 10z\" fill=\"#000\"/></marker></defs>\n";

std::string render_svg(const Scenario& sc, const Recording& rec, const std::vector<ViewMap>& maps, std::size_t markers,
                       std::size_t ghosts_from, const std::string& ghost_note) {
    double right = 0, bottom = 0;
    for (const ViewMap& m : maps) {
        right = std::max(right, m.ox + m.width());
        bottom = std::max(bottom, m.oy + m.height());
    }
    const double width = std::max(right + 30, 700.0);
    std::string body;
    for (const ViewMap& m : maps) draw_view(body, sc, rec, m, markers, ghosts_from, &m == &maps.front()); // labels once
    bool tiny = false;
    for (const ViewMap& m : maps)
        for (const BodyDef& b : sc.bodies) tiny = tiny || is_tiny(outline_of(b, m));
    std::string legend;
    const double height =
            bottom + 62 +
            draw_legend(legend, sc, kLeft, bottom + 62, width - kLeft - 20, ghosts_from, ghost_note, tiny) + 10;
    std::string out;
    out.reserve(body.size() + legend.size() + 4096);
    put(out,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{0:.0f}\" height=\"{1:.0f}\" viewBox=\"0 0 {0:.0f} "
        "{1:.0f}\" "
        "class=\"collide-plot\">\n",
        width, height);
    out += kStyle;
    out += fmt::format(fmt::runtime(kArrow), maps.empty() ? std::string("p") : maps.front().id);
    out += "<style>";
    for (std::size_t c = 0; c < kPalette.size(); ++c) put(out, ".c{0}{{stroke:{1};fill:{1}}}", c, kPalette[c]);
    out += "</style>\n";
    put(out, "<rect width=\"100%\" height=\"100%\" fill=\"#fafafa\"/>\n");
    const std::size_t frames = rec.frame_count();
    put(out, "<text class=\"title\" x=\"{}\" y=\"24\">{} — {} detection, {} frames at {:.0f} Hz{}</text>\n", kLeft,
        esc(sc.name), sc.world.detection == Detection::swept ? "swept" : "discrete", frames, 1 / sc.world.dt,
        frames ? fmt::format(", t = {:.3f} … {:.3f} s", rec.times.front(), rec.times.back()) : "");
    if (!sc.about.empty())
        put(out, "<text x=\"{}\" y=\"42\" fill=\"#555\">{}</text>\n", kLeft, esc(sc.about.substr(0, 160)));
    out += body;
    out += legend;
    out += "</svg>\n";
    return out;
}

} // namespace

std::string render_plot_svg(const Scenario& scenario, const Recording& recording, const PlotOptions& options) {
    return render_svg(scenario, recording, plan_views(scenario, recording, options), 0, options.ghosts_from,
                      options.ghost_note);
}

std::string render_plot_svg_interactive(const Scenario& scenario, const Recording& recording,
                                        const std::vector<ViewMap>& maps, std::size_t markers,
                                        const PlotOptions& options) {
    return render_svg(scenario, recording, maps, markers, options.ghosts_from, options.ghost_note);
}

} // namespace collide
