#include "report/render.h"

#include <algorithm>
#include <cmath>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "detection/sat.h"
#include "math/overloaded.h"
#include "response/response.h"

namespace collide {

namespace {

/// From this size on a logged number is printed in scientific notation (its value at full
/// precision stays in the golden's values, the CSV and JSON).
constexpr double kScientificFrom = 1e15;
/// Below this size (but not 0) too: fixed decimals would print 6.1e-7 as 0.000.
constexpr double kScientificBelow = 1e-6;

/// One rendered entry: possibly several lines (axis_overlaps has three).
struct Line {
    std::string label;
    std::string value;
    std::string note;
};

/// True when `v` prints in scientific notation: from 1e15 on, or below 1e-6 but not 0.
bool scientific(double v) {
    const double a = std::fabs(v);
    return a >= kScientificFrom || (a < kScientificBelow && a > 0);
}

/// `v` with `decimals` places in fixed notation, a value that rounds to zero without a minus sign.
std::string fixed_notation(double v, int decimals) {
    std::string s = fmt::format("{:.{}f}", v, decimals);
    if (s.front() == '-' && s.find_first_not_of("-0.") == std::string::npos) s.erase(0, 1);
    return s;
}

/// A number with a unit, with `decimals` places; a value that rounds to zero prints without a
/// minus sign. Past 1e15 fixed notation prints every digit of the integer part (1e300: 301 of
/// them), and below 1e-6 nothing but zeros: there it prints in scientific notation with
/// `decimals` places (at least 1): 1.000e+100, 6.100e-07 (0 itself stays 0.000).
std::string fixed(double v, int decimals) {
    if (std::isnan(v)) return "none";
    if (scientific(v)) return fmt::format("{:.{}e}", v, std::max(decimals, 1));
    return fixed_notation(v, decimals);
}

/// A number in its shortest exact form (for values the user wrote: 2, 0.5, 46).
std::string plain(double v) {
    if (v == 0) return "0";
    return fmt::format("{}", v);
}

/// A unitless direction component: fixed decimals with trailing zeros trimmed ("1", "0.707").
/// Never in scientific notation: a unit vector's component is read against 1, and below 1e-6
/// it is what normalising or a sine left (cos 90° = 6.1e-17), not a size worth printing.
std::string trimmed(double v, int decimals) {
    if (std::isnan(v)) return "none";
    std::string s = fixed_notation(v, decimals);
    if (s.find('.') != std::string::npos) {
        while (s.back() == '0') s.pop_back();
        if (s.back() == '.') s.pop_back();
    }
    return s;
}

/// A vector with a unit, each component as `fixed` prints it, but for a component below 1e-6
/// beside a larger one: that one is fixed (0.000), read against the vector's size as a
/// direction's components are (a resting body's x of 5.6e-7 m at (11.229, 0.498, …) is the
/// solver's noise). A vector below 1e-6 altogether prints its components in scientific notation.
std::string vec_fixed(double x, double y, double z, int d) {
    const double largest = std::max({std::fabs(x), std::fabs(y), std::fabs(z)});
    const auto component = [&](double c) {
        return std::fabs(c) < kScientificBelow && largest >= kScientificBelow ? fixed_notation(c, d) : fixed(c, d);
    };
    return "(" + component(x) + ", " + component(y) + ", " + component(z) + ")";
}
std::string vec_trimmed(double x, double y, double z, int d) {
    return "(" + trimmed(x, d) + ", " + trimmed(y, d) + ", " + trimmed(z, d) + ")";
}
std::string vec_plain(const Vec3& v) { return "(" + plain(v.x) + ", " + plain(v.y) + ", " + plain(v.z) + ")"; }
/// A direction the loader normalised (so 0.49999999999999994 stands for 0.5): 3 decimals, trimmed.
std::string vec_direction(const Vec3& v) { return vec_trimmed(v.x, v.y, v.z, 3); }

std::string ordinal(int n) {
    const int mod100 = n % 100;
    const char* suffix = "th";
    if (mod100 < 11 || mod100 > 13) {
        switch (n % 10) {
        case 1: suffix = "st"; break;
        case 2: suffix = "nd"; break;
        case 3: suffix = "rd"; break;
        default: break;
        }
    }
    return std::to_string(n) + suffix;
}

std::string body_name(const Scenario& s, double index) {
    if (std::isnan(index) || index < 0 || index >= static_cast<double>(s.bodies.size())) return "none";
    return s.bodies[static_cast<std::size_t>(index)].name;
}

std::string list_after(int n) {
    // "1, 2 and 3" for n = 3; "1" for n = 1
    std::string out;
    for (int k = 1; k <= n; ++k) {
        if (k > 1) out += (k == n) ? " and " : ", ";
        out += std::to_string(k);
    }
    return out;
}

bool truthy(double v) { return !std::isnan(v) && v != 0; }

/// The lines of one entry, with the kind's default label and note where the scenario gave none.
std::vector<Line> lines_of(const Scenario& s, const LogDef& def, const double* v, int d) {
    auto name = [&](BodyIndex i) { return s.bodies[static_cast<std::size_t>(i)].name; };
    std::vector<Line> out = std::visit(
            Overloaded{
                    [&](const ApexLog& r) {
                        const double e =
                                std::max(s.bodies[static_cast<std::size_t>(r.body)].restitution,
                                         r.floor >= 0 ? s.bodies[static_cast<std::size_t>(r.floor)].restitution : 0.0);
                        const double start = r.bounces >= 1 && e > 0 ? v[r.analytic(1)] / (e * e) : HUGE_VAL;
                        const std::string from = !std::isnan(r.drop_height) ? plain(r.drop_height) + " m"
                                                 : std::isfinite(start)     ? fixed(start, d) + " m (its start)"
                                                                            : std::string("its start");
                        Line l{fmt::format("dropped from {} with restitution {}, apex after {} bounce{}", from,
                                           plain(e), list_after(r.bounces), r.bounces == 1 ? "" : "s"),
                               "", ""};
                        bool differs = false;
                        std::string analytic;
                        for (int k = 1; k <= r.bounces; ++k) {
                            if (k > 1) {
                                l.value += ", ";
                                analytic += ", ";
                            }
                            const double measured = v[r.apex(k)], formula = v[r.analytic(k)];
                            l.value += fixed(measured, d) + (std::isnan(measured) ? "" : " m");
                            analytic += fixed(formula, d) + " m";
                            differs = differs || fixed(measured, d) != fixed(formula, d);
                        }
                        if (differs) l.note = "h·e^(2n) gives " + analytic;
                        return std::vector<Line>{l};
                    },
                    [&](const FirstContactLog& r) {
                        Line l{fmt::format("first contact of {} with {}", name(r.body), name(r.with)), "", ""};
                        using F = FirstContactLog;
                        if (truthy(v[F::hit]))
                            l.value = fmt::format("frame {} at t = {} s, centre {} m", fixed(v[F::frame], 0),
                                                  fixed(v[F::time], d), vec_fixed(v[F::x], v[F::y], v[F::z], d));
                        else
                            l.value = fmt::format("none in {} frames", s.world.frames);
                        return std::vector<Line>{l};
                    },
                    [&](const TunnelLog& r) {
                        Line l{fmt::format("{} against {}", name(r.body), name(r.wall)), "", ""};
                        using F = TunnelLog;
                        const int o = static_cast<int>(v[F::outcome]);
                        const char* ended = o == F::passed        ? "passed"
                                            : o == F::bounced     ? "bounced back"
                                            : o == F::approaching ? "still approaching"
                                                                  : "stopped";
                        if (truthy(v[F::tunneled]))
                            l.value = fmt::format("tunneled: through at frame {}, t = {} s, and {}",
                                                  fixed(v[F::frame], 0), fixed(v[F::time], d),
                                                  o == F::passed ? "ended beyond it"
                                                                 : fmt::format("came back ({})", ended));
                        else
                            l.value = fmt::format("held: {}, on its near side", ended);
                        return std::vector<Line>{l};
                    },
                    [&](const AxisOverlapsLog&) {
                        std::vector<Line> ls;
                        int shallowest = 0;
                        static_assert(AxisOverlapsLog::x == 0 && AxisOverlapsLog::y == 1 && AxisOverlapsLog::z == 2);
                        for (int i = 1; i < 3; ++i)
                            if (v[i] < v[shallowest]) shallowest = i;
                        const bool all_overlap =
                                v[AxisOverlapsLog::x] > 0 && v[AxisOverlapsLog::y] > 0 && v[AxisOverlapsLog::z] > 0;
                        for (int i = 0; i < 3; ++i)
                            ls.push_back(
                                    {fmt::format("push out along {}", "xyz"[i]), fixed(v[i], d) + " m",
                                     all_overlap && i == shallowest ? "the shallowest, so this is the way out" : ""});
                        return ls;
                    },
                    [&](const ContactLog& r) {
                        Line l{fmt::format("contact({}, {})", name(r.a), name(r.b)), "", ""};
                        using F = ContactLog;
                        l.value = truthy(v[F::hit]) ? fmt::format("normal {}, depth {} m",
                                                                  vec_trimmed(v[F::nx], v[F::ny], v[F::nz], d),
                                                                  fixed(v[F::depth], d))
                                                    : "none";
                        return std::vector<Line>{l};
                    },
                    [&](const PushOutLog& r) {
                        const Vec3 from = r.has_from ? r.from : s.bodies[static_cast<std::size_t>(r.b)].position;
                        Line l{fmt::format("push {} out of {} from {}", name(r.b), name(r.a), vec_plain(from)), "", ""};
                        using F = PushOutLog;
                        l.value = truthy(v[F::hit]) ? vec_fixed(v[F::x], v[F::y], v[F::z], d) + " m"
                                                    : "no overlap, stays put";
                        return std::vector<Line>{l};
                    },
                    [&](const SplitLog& r) {
                        Line l{fmt::format("split {} m/s against normal {}", vec_plain(r.velocity),
                                           vec_direction(r.normal)),
                               "", ""};
                        l.value = truthy(v[SplitLog::heading_in])
                                          ? fmt::format("{} m/s blocked, {} m/s slides along",
                                                        fixed(v[SplitLog::blocked], d), fixed(v[SplitLog::sliding], d))
                                          : "nothing blocked, the velocity already points away from the surface";
                        return std::vector<Line>{l};
                    },
                    [&](const RespondLog& r) {
                        Line l{fmt::format("respond {} m/s against normal {} with restitution {} and friction {}",
                                           vec_plain(r.velocity), vec_direction(r.normal), plain(r.restitution),
                                           plain(r.friction)),
                               "", ""};
                        using F = RespondLog;
                        l.value = fmt::format("{} m/s, {} m/s left", vec_fixed(v[F::vx], v[F::vy], v[F::vz], d),
                                              fixed(v[F::speed], d));
                        return std::vector<Line>{l};
                    },
                    [&](const SlopeLog& r) {
                        Line l{fmt::format("slope of a surface with normal {}", vec_direction(r.normal)), "", ""};
                        const std::string angle = fixed(v[SlopeLog::angle], d);
                        l.value = truthy(v[SlopeLog::walkable])
                                          ? fmt::format("{}°, walkable under the {}° limit", angle, plain(r.limit))
                                          : fmt::format("{}°, too steep to stand on, over the {}° limit", angle,
                                                        plain(r.limit));
                        return std::vector<Line>{l};
                    },
                    [&](const SeparatingAxisLog& r) {
                        Line l{fmt::format("separating axis of A = {} and B = {}", name(r.a), name(r.b)), "", ""};
                        using F = SeparatingAxisLog;
                        // A value not measured (NaN) must not be cast to int (undefined behaviour).
                        const auto whole = [](double x) { return std::isfinite(x) ? static_cast<int>(x) : -1; };
                        const int count = whole(v[F::axes]);
                        std::string axis;
                        const auto kind = static_cast<SatAxis::Kind>(whole(v[F::kind]));
                        const int i = whole(v[F::i]), j = whole(v[F::j]);
                        switch (kind) {
                        case SatAxis::Kind::face_a: axis = fmt::format("A's face normal {}", i); break;
                        case SatAxis::Kind::face_b: axis = fmt::format("B's face normal {}", i); break;
                        case SatAxis::Kind::edge_edge: axis = fmt::format("A's edge {} × B's edge {}", i, j); break;
                        }
                        if (truthy(v[F::separated]))
                            l.value = fmt::format("{}, the {} of {} axes, gap {} m → apart", axis,
                                                  ordinal(whole(v[F::axis])), count, fixed(v[F::gap], d));
                        else
                            l.value = fmt::format("no gap on any of {} axes → contact on {}, normal {}, depth {} m",
                                                  count, axis, vec_trimmed(v[F::nx], v[F::ny], v[F::nz], d),
                                                  fixed(v[F::gap], d));
                        return std::vector<Line>{l};
                    },
                    [&](const FinalLog& r) {
                        Line l{fmt::format("{} at the end", name(r.body)), "", ""};
                        using F = FinalLog;
                        l.value = fmt::format("position {} m, velocity {} m/s", vec_fixed(v[F::x], v[F::y], v[F::z], d),
                                              vec_fixed(v[F::vx], v[F::vy], v[F::vz], d));
                        // A dynamic body that can turn: a crate says which face is down and its
                        // tilt, a ball its spin (when it rounds to any).
                        const BodyDef& body = s.bodies[static_cast<std::size_t>(r.body)];
                        if (body_kind(body) != BodyKind::dynamic || body.fixed_rotation) return std::vector<Line>{l};
                        static constexpr const char* kFaces[] = {"+x", "−x", "+y", "−y", "+z", "−z"};
                        const int down = static_cast<int>(v[F::down]);
                        if (!std::holds_alternative<Sphere>(body.shape) && down >= 1 && down <= 6)
                            l.value +=
                                    fmt::format(", {} face down, tilted {}°", kFaces[down - 1], fixed(v[F::tilt], d));
                        if (!std::isnan(v[F::spin]) && fixed_notation(v[F::spin], d) != fixed_notation(0, d))
                            l.value += fmt::format(", spinning {} rad/s about {}", fixed(v[F::spin], d),
                                                   vec_trimmed(v[F::wx] / v[F::spin], v[F::wy] / v[F::spin],
                                                               v[F::wz] / v[F::spin], d));
                        return std::vector<Line>{l};
                    },
                    [&](const CharacterLog& r) {
                        using F = CharacterLog;
                        Line l{fmt::format("{} footing", name(r.body)), "", ""};
                        const int steps = static_cast<int>(v[F::steps]);
                        const std::string climbed = fmt::format("{} step{} climbed", steps, steps == 1 ? "" : "s");
                        l.value = truthy(v[F::grounded])
                                          ? fmt::format("grounded on normal {}, {}",
                                                        vec_trimmed(v[F::nx], v[F::ny], v[F::nz], d), climbed)
                                          : fmt::format("airborne, {}", climbed);
                        return std::vector<Line>{l};
                    },
                    [&](const TriggerLog& r) {
                        Line l{fmt::format("{} in {}", name(r.body), name(r.volume)), "", ""};
                        using F = TriggerLog;
                        if (!truthy(v[F::entered])) {
                            l.value = fmt::format("never entered in {} frames", s.world.frames);
                            return std::vector<Line>{l};
                        }
                        l.value = fmt::format("entered at frame {}, t = {} s; ", fixed(v[F::enter_frame], 0),
                                              fixed(v[F::enter_time], d));
                        l.value += truthy(v[F::exited])
                                           ? fmt::format("left at frame {}, t = {} s", fixed(v[F::exit_frame], 0),
                                                         fixed(v[F::exit_time], d))
                                           : std::string("never left");
                        if (v[F::events] > 1) l.value += fmt::format("; entered {} times", fixed(v[F::events], 0));
                        return std::vector<Line>{l};
                    },
                    [&](const AtRestLog& r) {
                        Line l{fmt::format("{} at rest", name(r.body)), "", ""};
                        using F = AtRestLog;
                        l.value = truthy(v[F::rested]) ? fmt::format("from frame {}, t = {} s", fixed(v[F::frame], 0),
                                                                     fixed(v[F::time], d))
                                                       : "never: still moving at the end";
                        return std::vector<Line>{l};
                    },
                    [&](const EnergyLog&) {
                        Line l{"energy of the dynamic bodies", "", ""};
                        using F = EnergyLog;
                        l.value = fmt::format("{} J at the start, {} J at the end (change {} J, at most {} J from the "
                                              "start at any frame)",
                                              fixed(v[F::start], d), fixed(v[F::end], d), fixed(v[F::change], d),
                                              fixed(v[F::drift], d));
                        return std::vector<Line>{l};
                    },
                    [&](const MaxOverlapLog&) {
                        Line l{"deepest overlap at the end", "", ""};
                        using F = MaxOverlapLog;
                        l.value = v[F::a] >= 0 ? fmt::format("{} m, between {} and {}", fixed(v[F::depth], d),
                                                             body_name(s, v[F::a]), body_name(s, v[F::b]))
                                               : "none";
                        return std::vector<Line>{l};
                    },
                    [&](const RaycastLog& r) {
                        Line l{fmt::format("ray from {} along {}", vec_plain(r.origin), vec_direction(r.direction)), "",
                               ""};
                        using F = RaycastLog;
                        l.value = truthy(v[F::hit]) ? fmt::format("hits {} first at {} m, point {} m, normal {}",
                                                                  body_name(s, v[F::target]), fixed(v[F::distance], d),
                                                                  vec_fixed(v[F::x], v[F::y], v[F::z], d),
                                                                  vec_trimmed(v[F::nx], v[F::ny], v[F::nz], d))
                                                    : "misses every target";
                        return std::vector<Line>{l};
                    },
            },
            def.request);
    if (!def.label.empty()) {
        if (out.size() == 1)
            out[0].label = def.label;
        else
            for (Line& l : out) l.label = def.label + " " + l.label;
    }
    if (!def.note.empty()) {
        // A user's note goes on the entry's first line (or the line the kind marks, if any).
        bool placed = false;
        for (Line& l : out)
            if (!l.note.empty()) {
                l.note = def.note;
                placed = true;
            }
        if (!placed) out[0].note = def.note;
    }
    return out;
}

int decimals_of(const Scenario& s, const LogDef& def) { return def.decimals >= 0 ? def.decimals : s.decimals; }

nlohmann::json field_json(const Scenario& s, const FieldSpec& f, double v) {
    if (std::isnan(v)) return nullptr;
    switch (f.type) {
    case FieldType::boolean: return v != 0;
    case FieldType::integer: return static_cast<long long>(v);
    case FieldType::body: return v >= 0 ? nlohmann::json(body_name(s, v)) : nlohmann::json(nullptr);
    case FieldType::number: break;
    }
    if (!std::isfinite(v)) return nullptr;
    return v;
}

} // namespace

std::string render_text(const Scenario& scenario, const Layout& layout, std::span<const double> values) {
    std::string out;
    for (const std::string& line : scenario.engine_header) out += line + '\n';
    for (std::size_t e = 0; e < scenario.log.size(); ++e) {
        const LogDef& def = scenario.log[e];
        const double* v = values.data() + layout.offset[e];
        for (const Line& l : lines_of(scenario, def, v, decimals_of(scenario, def))) {
            out += l.label;
            out += " → ";
            out += l.value;
            if (!l.note.empty()) {
                out += "  // ";
                out += l.note;
            }
            out += '\n';
        }
    }
    return out;
}

std::string render_json(const Scenario& scenario, const Layout& layout, std::span<const double> values, int indent) {
    nlohmann::ordered_json doc;
    doc["scenario"] = scenario.name;
    doc["file"] = scenario.file;
    nlohmann::ordered_json params = nlohmann::ordered_json::object();
    for (const auto& [name, value] : scenario.params) params[name] = value;
    doc["params"] = params;
    if (!scenario.engine_header.empty()) doc["engine"] = scenario.engine_header; // another engine ran it
    nlohmann::ordered_json entries = nlohmann::ordered_json::array();
    for (std::size_t e = 0; e < scenario.log.size(); ++e) {
        const LogDef& def = scenario.log[e];
        const double* v = values.data() + layout.offset[e];
        nlohmann::ordered_json entry;
        entry["id"] = def.id;
        entry["kind"] = kind_name(def.request);
        nlohmann::ordered_json lines = nlohmann::ordered_json::array();
        for (const Line& l : lines_of(scenario, def, v, decimals_of(scenario, def))) {
            nlohmann::ordered_json line{{"label", l.label}, {"value", l.value}};
            if (!l.note.empty()) line["note"] = l.note;
            lines.push_back(line);
        }
        entry["lines"] = lines;
        nlohmann::ordered_json fields = nlohmann::ordered_json::object();
        for (int i = layout.offset[e]; i < layout.offset[e + 1]; ++i) {
            const FieldSpec& f = layout.fields[static_cast<std::size_t>(i)];
            fields[f.name] = field_json(scenario, f, values[static_cast<std::size_t>(i)]);
        }
        entry["fields"] = fields;
        entries.push_back(entry);
    }
    doc["entries"] = entries;
    return doc.dump(indent) + "\n";
}

std::string render_csv(const Scenario& scenario, const Layout& layout, std::span<const double> values) {
    std::string out = "scenario,entry,field,value,unit\n";
    // A name with a comma, quote or line break is quoted, its quotes doubled (RFC 4180); one a
    // spreadsheet would read as a formula (starting with = + - @) is quoted after a `'`.
    std::string name = scenario.name;
    const bool formula = !name.empty() && std::string_view("=+-@").find(name.front()) != std::string_view::npos;
    if (formula) name = "'" + name;
    if (formula || name.find_first_of(",\"\r\n") != std::string::npos) {
        std::string quoted = "\"";
        for (const char c : name) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
        name = quoted + "\"";
    }
    for (std::size_t e = 0; e < scenario.log.size(); ++e) {
        for (int i = layout.offset[e]; i < layout.offset[e + 1]; ++i) {
            const FieldSpec& f = layout.fields[static_cast<std::size_t>(i)];
            const double v = values[static_cast<std::size_t>(i)];
            std::string cell;
            if (std::isnan(v))
                cell = "";
            else if (f.type == FieldType::boolean)
                cell = v != 0 ? "true" : "false";
            else if (f.type == FieldType::integer)
                cell = fmt::format("{}", static_cast<long long>(v));
            else if (f.type == FieldType::body)
                cell = body_name(scenario, v);
            else
                cell = fmt::format("{}", v);
            out += fmt::format("{},{},{},{},{}\n", name, scenario.log[e].id, f.name, cell, f.unit);
        }
    }
    return out;
}

} // namespace collide
