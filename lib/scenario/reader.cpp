// The YAML reader: scenario text → ScenarioTemplate. It walks the document once, checks every
// key against the schema (unknown and duplicate keys are errors), and records each problem as a
// Diagnostic at the node that caused it, carrying on so that one run reports them all.
//
// Numbers may be written as YAML numbers, as `$param`, or as expressions of params. Constants
// are checked here and written into the base Scenario; param-dependent numbers become Exprs
// and Ops (scenario/template_data.h) that `instantiate` replays for each set of param values.
#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <optional>
#include <set>
#include <unordered_map>

#include <yaml-cpp/yaml.h>

#include "model/log.h"
#include "response/response.h"
#include "scenario/expression.h"
#include "scenario/load.h"
#include "scenario/template_data.h"
#include "io/text_scan.h"

namespace collide {

namespace {

using detail::Check;
using detail::Dest;
using detail::Op;
using detail::OpKind;
using detail::Region;
using detail::TemplateData;

constexpr double kInf = std::numeric_limits<double>::infinity();
/// The most bodies, params, log entries or expectations a scenario may have (keeps name
/// lookups and the run itself bounded whatever the file holds).
constexpr std::size_t kMaxItems = 10000;
const Check kAny{};
const Check kNonNegative{0, kInf};
const Check kPositive{0, kInf, true};
const Check kUnit{0, 1};
Check whole(double lo, double hi) { return Check{lo, hi, false, false, true}; }

SourceMark to_mark(const YAML::Mark& m) {
    if (m.is_null()) return {};
    return {m.line + 1, m.column + 1};
}

/// "a, b, c"; long lists stop after 12 items with how many more there are.
std::string join(const std::vector<std::string>& items) {
    constexpr std::size_t kShown = 12;
    std::string s;
    for (std::size_t i = 0; i < items.size() && i < kShown; ++i) s += (i == 0 ? "" : ", ") + items[i];
    if (items.size() > kShown) s += ", ... (" + std::to_string(items.size() - kShown) + " more)";
    return s;
}

std::string path_join(const std::string& path, const std::string& key) { return path.empty() ? key : path + "." + key; }

/// A short description of what a node is, for "expected X, got Y".
std::string describe(const YAML::Node& n) {
    if (!n.IsDefined() || n.IsNull()) return "nothing";
    if (n.IsMap()) return "a mapping";
    if (n.IsSequence()) return "a list";
    std::string s = n.Scalar();
    if (s.size() > 40) s = s.substr(0, 37) + "...";
    return "\"" + s + "\"";
}

bool is_identifier(std::string_view s) {
    if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
    return std::all_of(s.begin(), s.end(), [](char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; });
}

/// One key of a mapping, as read (first occurrence).
struct Entry {
    std::string key;
    SourceMark key_mark;
    YAML::Node value;
};

/// A mapping whose keys were checked against the schema.
struct MapView {
    SourceMark mark;
    std::vector<Entry> entries;
    const Entry* find(std::string_view key) const {
        for (const Entry& e : entries)
            if (e.key == key) return &e;
        return nullptr;
    }
};

/// A number as read: a constant, or a param-dependent value with a slot.
struct Num {
    bool ok = false;    ///< read without problems
    bool dep = false;   ///< depends on params
    double value = 0;   ///< the value (at the param defaults when dep)
    int slot = -1;      ///< its slot when dep
};

const char* const kShapeKeys[] = {"sphere", "box", "capsule", "triangle", "hull", "plane"};
const char* const kLogKinds[] = {"apex",  "first_contact", "axis_overlaps", "contact", "push_out",
                                 "split", "respond",       "slope",         "separating_axis",
                                 "final", "at_rest",       "max_overlap",   "raycast"};

class Reader {
public:
    Reader(TemplateData& data) : t_(data), shown_(display_name(data.file)) {}

    std::vector<Diagnostic> diagnostics;

    void read(const YAML::Node& root);

    void error(SourceMark m, std::string message) {
        diagnostics.push_back({shown_, m.line > 0 ? m.line : 1, m.column > 0 ? m.column : 1, std::move(message)});
    }

private:
    TemplateData& t_;
    std::string shown_;
    Region region_ = Region::scenario;
    int region_index_ = 0;
    const char* region_base_ = nullptr;
    bool skin_dep_ = false;              // world.skin depends on params
    std::set<std::string> dropped_ids_;  // ids of log entries that could not be read at all
    std::unordered_map<std::string, BodyIndex> body_index_; // body name → index

    /// False (after an error at `m`) when a collection has more than kMaxItems items.
    bool not_too_many(std::size_t count, const char* what, SourceMark m) {
        if (count <= kMaxItems) return true;
        error(m, std::string(what) + ": " + std::to_string(count) + " items; a scenario may have at most " +
                     std::to_string(kMaxItems));
        return false;
    }

    // ---- helpers -------------------------------------------------------------------------

    /// Where a node was written; a missing or empty (null) value points at `fallback`, its key.
    SourceMark mark_of(const YAML::Node& n, SourceMark fallback) const {
        if (fallback.line > 0 && (!n.IsDefined() || n.IsNull())) return fallback;
        const SourceMark m = n.IsDefined() ? to_mark(n.Mark()) : SourceMark{};
        return m.line > 0 ? m : fallback;
    }

    void enter(Region region, int index, const void* base) {
        region_ = region;
        region_index_ = index;
        region_base_ = static_cast<const char*>(base);
    }
    Dest dest(const void* field) const {
        return {region_, region_index_, static_cast<std::uint32_t>(static_cast<const char*>(field) - region_base_)};
    }
    int constant_slot(double value) {
        t_.slot_init.push_back(value);
        return static_cast<int>(t_.slot_init.size()) - 1;
    }
    int slot_of(const Num& n) { return n.dep ? n.slot : constant_slot(n.value); }
    void add_op(OpKind kind, const void* field, std::initializer_list<int> in, SourceMark mark, std::string what,
                bool as_mat3 = false) {
        Op op;
        op.kind = kind;
        op.dest = dest(field);
        std::copy(in.begin(), in.end(), op.in.begin());
        op.as_mat3 = as_mat3;
        op.mark = mark;
        op.what = std::move(what);
        t_.ops.push_back(std::move(op));
    }

    /// The mapping at `n` with only `allowed` keys; null counts as an empty mapping.
    std::optional<MapView> map(const YAML::Node& n, const std::string& path, SourceMark fallback,
                               std::initializer_list<const char*> allowed) {
        return map(n, path, fallback, std::vector<const char*>(allowed));
    }
    std::optional<MapView> map(const YAML::Node& n, const std::string& path, SourceMark fallback,
                               const std::vector<const char*>& allowed) {
        MapView view;
        view.mark = mark_of(n, fallback);
        if (!n.IsDefined() || n.IsNull()) return view;
        if (!n.IsMap()) {
            error(view.mark, path + ": expected a mapping of keys, got " + describe(n));
            return std::nullopt;
        }
        std::unordered_map<std::string, std::size_t> seen; // key → index in view.entries
        for (auto it = n.begin(); it != n.end(); ++it) {
            const SourceMark key_mark = mark_of(it->first, view.mark);
            if (!it->first.IsScalar()) {
                error(key_mark, path + ": a key must be a plain name, got " + describe(it->first));
                continue;
            }
            const std::string key = it->first.Scalar();
            if (const auto first = seen.find(key); first != seen.end()) {
                error(key_mark, path + ": duplicate key '" + key + "' (first given at line " +
                                    std::to_string(view.entries[first->second].key_mark.line) + ")");
                continue;
            }
            const bool known = std::any_of(allowed.begin(), allowed.end(), [&](const char* a) { return key == a; });
            if (!known && !allowed.empty()) {
                std::vector<std::string> names(allowed.begin(), allowed.end());
                error(key_mark, path + ": unknown key '" + key + "' (expected one of: " + join(names) + ")");
                continue;
            }
            seen.emplace(key, view.entries.size());
            view.entries.push_back({key, key_mark, it->second});
        }
        return view;
    }

    const Entry* require(const MapView& view, const char* key, const std::string& path) {
        const Entry* e = view.find(key);
        if (!e) error(view.mark, path + ": missing required key '" + key + "'");
        return e;
    }

    /// A number: a YAML number, `$param` or an expression of params.
    Num number(const YAML::Node& n, const std::string& what, SourceMark fallback, const Check& check) {
        Num num;
        const SourceMark m = mark_of(n, fallback);
        if (!n.IsDefined() || !n.IsScalar()) {
            error(m, what + ": expected a number, got " + describe(n));
            return num;
        }
        if (n.IsNull()) {
            error(m, what + ": expected a number, got nothing");
            return num;
        }
        const std::string text = n.Scalar();
        const bool plain = n.Tag() == "?";
        if (plain && detail::is_yaml_nonfinite(text)) {
            error(m, what + " must be a finite number, got " + text);
            return num;
        }
        if (plain && detail::parse_plain_number(text, num.value)) {
            if (std::string problem = detail::check_problem(num.value, check); !problem.empty()) {
                error(m, what + " " + problem + ", got " + text);
                return num;
            }
            num.ok = true;
            return num;
        }
        if (plain && (text == "true" || text == "false" || text == "True" || text == "False")) {
            error(m, what + ": expected a number, got " + text);
            return num;
        }
        // An expression: every $name must be a param.
        const std::vector<detail::ParamReference> refs = detail::param_references(text);
        bool refs_ok = true;
        for (const detail::ParamReference& r : refs) {
            if (std::find(t_.param_names.begin(), t_.param_names.end(), r.name) != t_.param_names.end()) continue;
            error(m, what + ": unknown param '$" + r.name + "' (" +
                         (t_.param_names.empty() ? std::string("this scenario has no params")
                                                 : "params: " + join(t_.param_names)) +
                         ")");
            refs_ok = false;
        }
        if (!refs_ok) return num;
        std::vector<double> defaults = t_.param_defaults;
        if (defaults.empty()) defaults.push_back(0);
        try {
            num.value = detail::compile_expression(text, t_.param_names, defaults.data())->Eval();
        } catch (const mu::ParserError& e) {
            if (refs.empty() && std::none_of(text.begin(), text.end(), [](char c) { return std::strchr("+-*/^()", c); }))
                error(m, what + ": expected a number, got " + describe(n));
            else
                error(m, what + ": cannot read the expression \"" + text + "\": " + e.GetMsg());
            return num;
        }
        if (refs.empty()) { // a constant expression such as "1/3"
            if (std::string problem = detail::check_problem(num.value, check); !problem.empty()) {
                error(m, what + " " + problem + ", but \"" + text + "\" gives " + detail::number_text(num.value));
                return num;
            }
            num.ok = true;
            return num;
        }
        detail::Expr e;
        e.text = text;
        e.what = what;
        e.mark = m;
        e.check = check;
        e.slot = constant_slot(num.value);
        e.direct_param = detail::bare_param(text, t_.param_names);
        for (const detail::ParamReference& r : refs)
            t_.param_used[static_cast<std::size_t>(
                std::find(t_.param_names.begin(), t_.param_names.end(), r.name) - t_.param_names.begin())] = true;
        num.slot = e.slot;
        t_.exprs.push_back(std::move(e));
        num.dep = true;
        num.ok = true;
        return num;
    }

    /// A constant that may not depend on params (it shapes the log's fields).
    Num constant(const YAML::Node& n, const std::string& what, SourceMark fallback, const Check& check) {
        const std::size_t exprs_before = t_.exprs.size();
        Num num = number(n, what, fallback, check);
        if (num.dep) {
            t_.exprs.resize(exprs_before);
            error(mark_of(n, fallback), what + " must be a plain number, not an expression of params");
            num.ok = false;
        }
        return num;
    }

    void set(const Num& n, double& field, const std::string& what, SourceMark m) {
        if (!n.ok) return;
        field = n.value;
        if (n.dep) add_op(OpKind::set_double, &field, {n.slot}, m, what);
    }
    void set_int(const Num& n, int& field, const std::string& what, SourceMark m) {
        if (!n.ok) return;
        field = static_cast<int>(n.value);
        if (n.dep) add_op(OpKind::set_int, &field, {n.slot}, m, what);
    }
    /// Reads a number into `field` (double).
    void read_into(const Entry* e, double& field, const std::string& what, const Check& check) {
        if (!e) return;
        const Num n = number(e->value, what, e->key_mark, check);
        set(n, field, what, mark_of(e->value, e->key_mark));
    }
    void read_into(const Entry* e, int& field, const std::string& what, const Check& check) {
        if (!e) return;
        const Num n = number(e->value, what, e->key_mark, check);
        set_int(n, field, what, mark_of(e->value, e->key_mark));
    }

    /// A list of exactly `count` numbers.
    std::optional<std::vector<Num>> numbers(const YAML::Node& n, const std::string& what, SourceMark fallback,
                                            std::size_t count, const char* shape, const Check& check = kAny) {
        const SourceMark m = mark_of(n, fallback);
        if (!n.IsDefined() || !n.IsSequence()) {
            error(m, what + ": expected a list of " + std::to_string(count) + " numbers " + shape + ", got " + describe(n));
            return std::nullopt;
        }
        if (n.size() != count) {
            error(m, what + ": expected " + std::to_string(count) + " numbers " + shape + ", got " +
                         std::to_string(n.size()));
            return std::nullopt;
        }
        std::vector<Num> nums;
        bool ok = true;
        for (std::size_t i = 0; i < count; ++i) {
            nums.push_back(number(n[i], what + "[" + std::to_string(i) + "]", m, check));
            ok = ok && nums.back().ok;
        }
        if (!ok) return std::nullopt;
        return nums;
    }
    std::optional<std::vector<Num>> vec3(const YAML::Node& n, const std::string& what, SourceMark fallback,
                                         const Check& check = kAny) {
        return numbers(n, what, fallback, 3, "[x, y, z]", check);
    }
    static Vec3 value_of(const std::vector<Num>& v) { return {v[0].value, v[1].value, v[2].value}; }
    static bool any_dep(const std::vector<Num>& v) {
        return std::any_of(v.begin(), v.end(), [](const Num& n) { return n.dep; });
    }

    /// Reads a vector into `field`; true when it was read.
    bool read_vec(const Entry* e, Vec3& field, const std::string& what, const Check& check = kAny) {
        if (!e) return false;
        const auto v = vec3(e->value, what, e->key_mark, check);
        if (!v) return false;
        const SourceMark m = mark_of(e->value, e->key_mark);
        for (std::size_t i = 0; i < 3; ++i) set((*v)[i], field[i], what + "[" + std::to_string(i) + "]", m);
        return true;
    }

    /// A direction scaled to unit length; the zero vector is an error.
    bool read_unit(const Entry* e, Vec3& field, const std::string& what) {
        if (!e) return false;
        const auto v = vec3(e->value, what, e->key_mark);
        if (!v) return false;
        const SourceMark m = mark_of(e->value, e->key_mark);
        if (any_dep(*v)) {
            add_op(OpKind::unit_vector, &field, {slot_of((*v)[0]), slot_of((*v)[1]), slot_of((*v)[2])}, m, what);
            return true;
        }
        if (length_squared(value_of(*v)) == 0.0) {
            error(m, what + " must not be the zero vector");
            return false;
        }
        field = normalize(value_of(*v));
        return true;
    }

    /// `normal` or `surface_degrees` (a surface tilted that far from flat) into `field`.
    void read_surface(const MapView& view, Vec3& field, const std::string& path) {
        const Entry* n = view.find("normal");
        const Entry* d = view.find("surface_degrees");
        if (n && d) {
            error(d->key_mark, path + ": give normal or surface_degrees, not both");
            return;
        }
        if (!n && !d) {
            error(view.mark, path + ": missing required key 'normal' (or 'surface_degrees')");
            return;
        }
        if (n) {
            read_unit(n, field, path_join(path, "normal"));
            return;
        }
        const std::string what = path_join(path, "surface_degrees");
        const Num deg = number(d->value, what, d->key_mark, kAny);
        if (!deg.ok) return;
        field = surface_normal_tilted(deg.value);
        if (deg.dep) add_op(OpKind::surface_normal, &field, {deg.slot}, mark_of(d->value, d->key_mark), what);
    }

    /// A rotation into `field` (a Quat, or the Mat3 of an Obb's axes when `as_mat3`).
    void read_rotation(const Entry* e, void* field, bool as_mat3, const std::string& what) {
        if (!e) return;
        const auto view = map(e->value, what, e->key_mark, {"axis", "degrees", "quaternion", "euler"});
        if (!view) return;
        const Entry* axis = view->find("axis");
        const Entry* degrees = view->find("degrees");
        const Entry* quaternion = view->find("quaternion");
        const Entry* euler = view->find("euler");
        const int forms = int(axis || degrees) + int(quaternion != nullptr) + int(euler != nullptr);
        if (forms != 1) {
            error(view->mark, what + (forms == 0 ? ": write a rotation as { axis: [x, y, z], degrees: a }, "
                                                   "{ quaternion: [w, x, y, z] } or { euler: [x, y, z] }"
                                                 : ": give one of axis + degrees, quaternion or euler, not several"));
            return;
        }
        const auto write = [&](const Quat& q) {
            if (as_mat3) *static_cast<Mat3*>(field) = to_mat3(q);
            else *static_cast<Quat*>(field) = q;
        };
        if (axis || degrees) {
            const Entry* a = require(*view, "axis", what);
            const Entry* d = require(*view, "degrees", what);
            if (!a || !d) return;
            const auto av = vec3(a->value, what + ".axis", a->key_mark);
            const Num dv = number(d->value, what + ".degrees", d->key_mark, kAny);
            if (!av || !dv.ok) return;
            const SourceMark am = mark_of(a->value, a->key_mark);
            if (any_dep(*av) || dv.dep) {
                add_op(OpKind::quat_axis, field, {slot_of((*av)[0]), slot_of((*av)[1]), slot_of((*av)[2]), slot_of(dv)},
                       am, what + ".axis", as_mat3);
                return;
            }
            if (length_squared(value_of(*av)) == 0.0) {
                error(am, what + ".axis must not be the zero vector");
                return;
            }
            write(quat_from_axis_degrees(value_of(*av), dv.value));
        } else if (quaternion) {
            const std::string qwhat = what + ".quaternion";
            const auto qv = numbers(quaternion->value, qwhat, quaternion->key_mark, 4, "[w, x, y, z]");
            if (!qv) return;
            const SourceMark qm = mark_of(quaternion->value, quaternion->key_mark);
            if (any_dep(*qv)) {
                add_op(OpKind::quat_raw, field,
                       {slot_of((*qv)[0]), slot_of((*qv)[1]), slot_of((*qv)[2]), slot_of((*qv)[3])}, qm, qwhat, as_mat3);
                return;
            }
            const Quat q{(*qv)[0].value, (*qv)[1].value, (*qv)[2].value, (*qv)[3].value};
            if (q.w == 0 && q.x == 0 && q.y == 0 && q.z == 0) {
                error(qm, qwhat + " must not be the zero quaternion");
                return;
            }
            write(normalize(q));
        } else {
            const std::string ewhat = what + ".euler";
            const auto ev = vec3(euler->value, ewhat, euler->key_mark);
            if (!ev) return;
            if (any_dep(*ev)) {
                add_op(OpKind::quat_euler, field, {slot_of((*ev)[0]), slot_of((*ev)[1]), slot_of((*ev)[2])},
                       mark_of(euler->value, euler->key_mark), ewhat, as_mat3);
                return;
            }
            write(quat_from_euler_degrees(value_of(*ev)));
        }
    }

    bool read_bool(const Entry* e, bool& field, const std::string& what) {
        if (!e) return false;
        const SourceMark m = mark_of(e->value, e->key_mark);
        if (e->value.IsScalar() && !e->value.IsNull()) {
            const std::string& s = e->value.Scalar();
            if (s == "true" || s == "True" || s == "TRUE") { field = true; return true; }
            if (s == "false" || s == "False" || s == "FALSE") { field = false; return true; }
        }
        error(m, what + ": expected true or false, got " + describe(e->value));
        return false;
    }

    /// A string; null gives `if_null` when it is allowed, else an error.
    bool read_string(const Entry* e, std::string& field, const std::string& what, bool null_is_empty) {
        if (!e) return false;
        const SourceMark m = mark_of(e->value, e->key_mark);
        if (e->value.IsNull()) {
            if (null_is_empty) { field.clear(); return true; }
            error(m, what + " is empty");
            return false;
        }
        if (!e->value.IsScalar()) {
            error(m, what + ": expected text, got " + describe(e->value));
            return false;
        }
        field = e->value.Scalar();
        if (!null_is_empty && field.empty()) {
            error(m, what + " is empty");
            return false;
        }
        if (field.find('\n') != std::string::npos) {
            error(m, what + " must be one line");
            return false;
        }
        return true;
    }

    /// A body named by a scalar; −2 when it is not one.
    BodyIndex body_ref(const Entry* e, const std::string& what) {
        if (!e) return -2;
        const SourceMark m = mark_of(e->value, e->key_mark);
        if (!e->value.IsScalar() || e->value.IsNull()) {
            error(m, what + ": expected a body name, got " + describe(e->value));
            return -2;
        }
        const std::string& name = e->value.Scalar();
        if (const auto it = body_index_.find(name); it != body_index_.end()) return it->second;
        std::vector<std::string> names;
        for (const BodyDef& b : t_.base.bodies) names.push_back(b.name);
        error(m, what + ": no body named '" + name + "' (" +
                     (names.empty() ? std::string("the scenario has no bodies") : "bodies: " + join(names)) + ")");
        return -2;
    }
    void read_body(const MapView& view, const char* key, BodyIndex& field, const std::string& path) {
        const BodyIndex b = body_ref(require(view, key, path), path_join(path, key));
        if (b >= 0) field = b;
    }

    // ---- sections ------------------------------------------------------------------------

    void read_params(const Entry* e);
    void read_world(const Entry* e);
    void read_bodies(const Entry* e);
    void read_body_def(const std::string& name, SourceMark name_mark, const YAML::Node& n);
    void read_shape(const Entry& e, BodyDef& body, const std::string& path);
    void read_log(const Entry* e);
    void read_log_entry(const YAML::Node& n, std::size_t index, std::vector<std::pair<std::string, SourceMark>>& ids);
    void read_request(const std::string& kind, const Entry& e, LogDef& def, const std::string& path);
    void read_expect(const Entry* e);
};

// ---- top level ---------------------------------------------------------------------------

void Reader::read(const YAML::Node& root) {
    if (!root.IsMap()) {
        error(mark_of(root, {1, 1}), "a scenario must be a mapping (name:, world:, bodies:, log:, ...), got " +
                                         describe(root));
        return;
    }
    const auto top = map(root, "scenario", {1, 1},
                         {"name", "about", "decimals", "tolerance", "params", "world", "bodies", "log", "expect"});
    if (!top) return;
    Scenario& s = t_.base;
    s.file = t_.file;
    enter(Region::scenario, 0, &s);

    read_params(top->find("params"));

    if (const Entry* e = top->find("name")) {
        read_string(e, s.name, "name", false);
    } else if (t_.file == "-") {
        s.name = "stdin";
    } else {
        s.name = std::filesystem::path(t_.file).stem().string();
        if (s.name.empty()) s.name = "scenario";
    }
    read_string(top->find("about"), s.about, "about", true);
    read_into(top->find("decimals"), s.decimals, "decimals", whole(0, 12));
    if (const Entry* e = top->find("tolerance")) {
        if (const auto view = map(e->value, "tolerance", e->key_mark, {"absolute", "relative"})) {
            read_into(view->find("absolute"), s.tolerance_abs, "tolerance.absolute", kNonNegative);
            read_into(view->find("relative"), s.tolerance_rel, "tolerance.relative", kNonNegative);
        }
    }
    read_world(top->find("world"));
    read_bodies(top->find("bodies"));
    read_log(top->find("log"));
    read_expect(top->find("expect"));
}

void Reader::read_params(const Entry* e) {
    if (!e) return;
    t_.params_mark = mark_of(e->value, e->key_mark);
    const auto view = map(e->value, "params", e->key_mark, std::vector<const char*>{});
    if (!view || !not_too_many(view->entries.size(), "params", view->mark)) return;
    for (const Entry& p : view->entries) {
        const std::string what = "params." + p.key;
        if (!is_identifier(p.key)) {
            error(p.key_mark, what + ": a param name is a letter or '_' followed by letters, digits or '_'");
            continue;
        }
        const SourceMark m = mark_of(p.value, p.key_mark);
        double value = 0;
        if (!p.value.IsScalar() || p.value.IsNull() || p.value.Tag() != "?") {
            error(m, what + ": a param's default must be a plain number, got " + describe(p.value));
            continue;
        }
        if (detail::is_yaml_nonfinite(p.value.Scalar())) {
            error(m, what + " must be a finite number, got " + p.value.Scalar());
            continue;
        }
        if (!detail::parse_plain_number(p.value.Scalar(), value)) {
            error(m, what + ": a param's default must be a plain number, got " + describe(p.value));
            continue;
        }
        if (!std::isfinite(value)) {
            error(m, what + " must be a finite number, got " + p.value.Scalar());
            continue;
        }
        t_.param_names.push_back(p.key);
        t_.param_defaults.push_back(value);
        t_.param_used.push_back(false);
        t_.base.params.emplace_back(p.key, value);
    }
}

void Reader::read_world(const Entry* e) {
    if (!e) return;
    const auto view = map(e->value, "world", e->key_mark,
                          {"rate", "dt", "frames", "duration", "gravity", "detection", "phase", "skin", "integrator",
                           "rest_speed", "rest_time", "character_iterations"});
    if (!view) return;
    WorldDef& w = t_.base.world;
    const Entry* rate = view->find("rate");
    const Entry* dt = view->find("dt");
    bool dt_dep = false;
    if (rate && dt) {
        error(dt->key_mark, "world: give rate or dt, not both");
    } else if (rate) {
        const Num n = number(rate->value, "world.rate", rate->key_mark, kPositive);
        if (n.ok) {
            w.dt = 1.0 / n.value;
            dt_dep = n.dep;
            if (n.dep) add_op(OpKind::dt_from_rate, &w.dt, {n.slot}, mark_of(rate->value, rate->key_mark), "world.rate");
        }
    } else if (dt) {
        const Num n = number(dt->value, "world.dt", dt->key_mark, kPositive);
        set(n, w.dt, "world.dt", mark_of(dt->value, dt->key_mark));
        dt_dep = n.dep;
    }
    const Entry* frames = view->find("frames");
    const Entry* duration = view->find("duration");
    if (frames && duration) {
        error(duration->key_mark, "world: give frames or duration, not both");
    } else if (frames) {
        read_into(frames, w.frames, "world.frames", whole(1, 10'000'000));
    } else if (duration) {
        const std::string what = "world.duration";
        const Num n = number(duration->value, what, duration->key_mark, kPositive);
        const SourceMark m = mark_of(duration->value, duration->key_mark);
        if (n.ok && (n.dep || dt_dep)) {
            add_op(OpKind::frames_from_duration, &w.frames, {slot_of(n)}, m, what);
        } else if (n.ok) {
            const double f = std::max(1.0, std::round(n.value / w.dt));
            if (f > 10'000'000) error(m, what + " gives " + detail::number_text(f) + " frames; at most 10000000");
            else w.frames = static_cast<int>(f);
        }
    }
    read_vec(view->find("gravity"), w.gravity, "world.gravity");
    if (const Entry* d = view->find("detection")) {
        std::string s;
        if (read_string(d, s, "world.detection", false)) {
            if (s == "discrete") w.detection = Detection::discrete;
            else if (s == "swept") w.detection = Detection::swept;
            else error(mark_of(d->value, d->key_mark), "world.detection must be discrete or swept, got \"" + s + "\"");
        }
    }
    read_into(view->find("phase"), w.phase, "world.phase", Check{0, 1, false, true});
    if (const Entry* sk = view->find("skin")) {
        const Num n = number(sk->value, "world.skin", sk->key_mark, kNonNegative);
        set(n, w.skin, "world.skin", mark_of(sk->value, sk->key_mark));
        skin_dep_ = n.dep;
    }
    if (const Entry* in = view->find("integrator")) {
        std::string s;
        if (read_string(in, s, "world.integrator", false)) {
            if (s == "exact") w.integrator = Integrator::exact;
            else if (s == "euler") w.integrator = Integrator::euler;
            else error(mark_of(in->value, in->key_mark), "world.integrator must be exact or euler, got \"" + s + "\"");
        }
    }
    read_into(view->find("rest_speed"), w.rest_speed, "world.rest_speed", kNonNegative);
    read_into(view->find("rest_time"), w.rest_time, "world.rest_time", kNonNegative);
    read_into(view->find("character_iterations"), w.character_iterations, "world.character_iterations", whole(1, 16));
}

// ---- bodies ------------------------------------------------------------------------------

void Reader::read_bodies(const Entry* e) {
    if (!e) return;
    const auto view = map(e->value, "bodies", e->key_mark, std::vector<const char*>{});
    if (!view || !not_too_many(view->entries.size(), "bodies", view->mark)) return;
    for (const Entry& b : view->entries) {
        if (b.key.empty()) {
            error(b.key_mark, "bodies: a body needs a name");
            continue;
        }
        read_body_def(b.key, b.key_mark, b.value);
    }
}

void Reader::read_body_def(const std::string& name, SourceMark name_mark, const YAML::Node& n) {
    const std::string path = "bodies." + name;
    t_.base.bodies.emplace_back();
    const int index = static_cast<int>(t_.base.bodies.size()) - 1;
    BodyDef& b = t_.base.bodies.back();
    b.name = name;
    b.mark = name_mark;
    body_index_.emplace(name, index);
    enter(Region::body, index, &b);
    const auto view = map(n, path, name_mark,
                          {"sphere", "box", "capsule", "triangle", "hull", "plane", "position", "velocity", "rotation",
                           "restitution", "friction", "mass", "static", "ccd", "character", "slope_limit"});
    if (!view) return;
    const Entry* shape = nullptr;
    for (const Entry& entry : view->entries) {
        if (std::none_of(std::begin(kShapeKeys), std::end(kShapeKeys), [&](const char* k) { return entry.key == k; }))
            continue;
        if (shape) {
            error(entry.key_mark, path + ": a body has exactly one shape, but it has " + shape->key + " and " + entry.key);
            continue;
        }
        shape = &entry;
    }
    if (!shape) error(view->mark, path + ": no shape (give one of sphere, box, capsule, triangle, hull, plane)");
    else read_shape(*shape, b, path);
    read_vec(view->find("position"), b.position, path + ".position");
    read_vec(view->find("velocity"), b.velocity, path + ".velocity");
    read_rotation(view->find("rotation"), &b.rotation, false, path + ".rotation");
    read_into(view->find("restitution"), b.restitution, path + ".restitution", kUnit);
    read_into(view->find("friction"), b.friction, path + ".friction", kUnit);
    read_into(view->find("mass"), b.mass, path + ".mass", kPositive);
    read_bool(view->find("static"), b.is_static, path + ".static");
    read_bool(view->find("ccd"), b.ccd, path + ".ccd");
    read_bool(view->find("character"), b.character, path + ".character");
    read_into(view->find("slope_limit"), b.slope_limit, path + ".slope_limit", Check{0, 90});
    if (shape && shape->key == "plane" && !b.is_static)
        error(shape->key_mark, path + ": a plane is infinite, so it must be static (add static: true)");
}

void Reader::read_shape(const Entry& e, BodyDef& body, const std::string& body_path) {
    const std::string path = body_path + "." + e.key;
    if (e.key == "sphere") {
        body.shape = Sphere{};
        Sphere& s = std::get<Sphere>(body.shape);
        const auto view = map(e.value, path, e.key_mark, {"radius", "centre"});
        if (!view) return;
        read_into(require(*view, "radius", path), s.radius, path + ".radius", kNonNegative);
        read_vec(view->find("centre"), s.centre, path + ".centre");
    } else if (e.key == "box") {
        const auto view = map(e.value, path, e.key_mark, {"min", "max", "centre", "half", "rotation"});
        if (!view) return;
        const Entry* mn = view->find("min");
        const Entry* mx = view->find("max");
        const Entry* centre = view->find("centre");
        const Entry* half = view->find("half");
        const Entry* rotation = view->find("rotation");
        if ((mn || mx) && (centre || half || rotation)) {
            const Entry* second = centre ? centre : (half ? half : rotation);
            error(second->key_mark, path + ": write a box with min and max, or with centre, half and rotation; not both");
            return;
        }
        if (mn || mx) {
            body.shape = Aabb{};
            Aabb& box = std::get<Aabb>(body.shape);
            const Entry* a = require(*view, "min", path);
            const Entry* b = require(*view, "max", path);
            const std::size_t ops_before = t_.ops.size();
            const bool ok_a = read_vec(a, box.min, path + ".min");
            const bool ok_b = read_vec(b, box.max, path + ".max");
            if (!ok_a || !ok_b) return;
            const SourceMark m = mark_of(b->value, b->key_mark);
            if (t_.ops.size() != ops_before) {
                add_op(OpKind::check_min_max, &box, {0}, m, path);
                return;
            }
            for (std::size_t k = 0; k < 3; ++k)
                if (box.min[k] > box.max[k]) {
                    const char axis = "xyz"[k];
                    error(m, path + " max." + axis + " (" + detail::number_text(box.max[k]) + ") is below min." + axis +
                                 " (" + detail::number_text(box.min[k]) + ")");
                    return;
                }
            return;
        }
        const Entry* h = require(*view, "half", path);
        if (!h) return;
        std::vector<Num> c{Num{true}, Num{true}, Num{true}};
        if (centre) {
            const auto cv = vec3(centre->value, path + ".centre", centre->key_mark);
            if (!cv) return;
            c = *cv;
        }
        const auto hv = vec3(h->value, path + ".half", h->key_mark, kNonNegative);
        if (!hv) return;
        if (!rotation) {
            body.shape = Aabb{value_of(c) - value_of(*hv), value_of(c) + value_of(*hv)};
            if (any_dep(c) || any_dep(*hv))
                add_op(OpKind::aabb_centre_half, &std::get<Aabb>(body.shape),
                       {slot_of(c[0]), slot_of(c[1]), slot_of(c[2]), slot_of((*hv)[0]), slot_of((*hv)[1]),
                        slot_of((*hv)[2])},
                       mark_of(h->value, h->key_mark), path);
            return;
        }
        body.shape = Obb{};
        Obb& box = std::get<Obb>(body.shape);
        const SourceMark cm = centre ? mark_of(centre->value, centre->key_mark) : view->mark;
        const SourceMark hm = mark_of(h->value, h->key_mark);
        for (std::size_t k = 0; k < 3; ++k) {
            set(c[k], box.centre[k], path + ".centre[" + std::to_string(k) + "]", cm);
            set((*hv)[k], box.half[k], path + ".half[" + std::to_string(k) + "]", hm);
        }
        read_rotation(rotation, &box.axes, true, path + ".rotation");
    } else if (e.key == "capsule") {
        body.shape = Capsule{};
        Capsule& c = std::get<Capsule>(body.shape);
        const auto view = map(e.value, path, e.key_mark, {"a", "b", "radius"});
        if (!view) return;
        read_vec(require(*view, "a", path), c.a, path + ".a");
        read_vec(require(*view, "b", path), c.b, path + ".b");
        read_into(require(*view, "radius", path), c.radius, path + ".radius", kNonNegative);
    } else if (e.key == "triangle") {
        body.shape = Triangle{};
        Triangle& tri = std::get<Triangle>(body.shape);
        const auto view = map(e.value, path, e.key_mark, {"a", "b", "c"});
        if (!view) return;
        read_vec(require(*view, "a", path), tri.a, path + ".a");
        read_vec(require(*view, "b", path), tri.b, path + ".b");
        read_vec(require(*view, "c", path), tri.c, path + ".c");
    } else if (e.key == "hull") {
        body.shape = Hull{};
        Hull& hull = std::get<Hull>(body.shape);
        const auto view = map(e.value, path, e.key_mark, {"points"});
        if (!view) return;
        const Entry* p = require(*view, "points", path);
        if (!p) return;
        const std::string what = path + ".points";
        const SourceMark m = mark_of(p->value, p->key_mark);
        if (!p->value.IsSequence()) {
            error(m, what + ": expected a list of points [[x, y, z], ...], got " + describe(p->value));
            return;
        }
        if (p->value.size() < 3 || p->value.size() > static_cast<std::size_t>(kHullMaxPoints)) {
            error(m, what + ": a hull needs 3 to " + std::to_string(kHullMaxPoints) + " points, got " +
                         std::to_string(p->value.size()));
            return;
        }
        hull.count = static_cast<int>(p->value.size());
        for (std::size_t i = 0; i < p->value.size(); ++i) {
            const std::string pw = what + "[" + std::to_string(i) + "]";
            const YAML::Node point = p->value[i];
            const auto v = vec3(point, pw, m);
            if (!v) continue;
            const SourceMark pm = mark_of(point, m);
            for (std::size_t k = 0; k < 3; ++k)
                set((*v)[k], hull.points[i][k], pw + "[" + std::to_string(k) + "]", pm);
        }
    } else if (e.key == "plane") {
        body.shape = Plane{};
        Plane& plane = std::get<Plane>(body.shape);
        const auto view = map(e.value, path, e.key_mark, {"normal", "offset"});
        if (!view) return;
        read_unit(require(*view, "normal", path), plane.normal, path + ".normal");
        read_into(view->find("offset"), plane.offset, path + ".offset", kAny);
    }
}

// ---- log ---------------------------------------------------------------------------------

void Reader::read_log(const Entry* e) {
    if (!e) return;
    const SourceMark m = mark_of(e->value, e->key_mark);
    if (e->value.IsNull()) return;
    if (!e->value.IsSequence()) {
        error(m, "log: expected a list of entries (- first_contact: { ... }), got " + describe(e->value));
        return;
    }
    if (!not_too_many(e->value.size(), "log", m)) return;
    std::vector<std::pair<std::string, SourceMark>> explicit_ids; // per entry; empty name: none given
    for (std::size_t i = 0; i < e->value.size(); ++i) read_log_entry(e->value[i], i, explicit_ids);

    // ids: an explicit id must be unique; the others default to the kind, then kind_2, kind_3, …
    std::unordered_map<std::string, int> taken; // id → line of the entry that has it
    for (const auto& [id, mark] : explicit_ids) {
        if (id.empty()) continue;
        if (const auto [it, inserted] = taken.emplace(id, mark.line); !inserted)
            error(mark, "log: id '" + id + "' is already the id of the entry at line " + std::to_string(it->second));
    }
    std::unordered_map<std::string, int> next_suffix; // kind → the next _N to try
    for (LogDef& def : t_.base.log) {
        if (!def.id.empty()) continue;
        const std::string kind(kind_name(def.request));
        std::string id = kind;
        for (int& k = next_suffix.try_emplace(kind, 2).first->second; taken.count(id) != 0; ++k)
            id = kind + "_" + std::to_string(k);
        taken.emplace(id, def.mark.line);
        def.id = id;
    }
}

void Reader::read_log_entry(const YAML::Node& n, std::size_t index,
                            std::vector<std::pair<std::string, SourceMark>>& ids) {
    const std::string path = "log[" + std::to_string(index) + "]";
    std::vector<const char*> allowed(std::begin(kLogKinds), std::end(kLogKinds));
    for (const char* option : {"id", "label", "note", "decimals"}) allowed.push_back(option);
    const SourceMark m = mark_of(n, {1, 1});
    if (!n.IsMap()) {
        error(m, path + ": expected a mapping such as { first_contact: { body: a, with: b } }, got " + describe(n));
        return;
    }
    const std::size_t problems_before = diagnostics.size();
    const auto view = map(n, path, m, allowed);
    if (!view) return;
    const bool unknown_keys = diagnostics.size() != problems_before;
    const Entry* kind = nullptr;
    for (const Entry& entry : view->entries) {
        if (std::none_of(std::begin(kLogKinds), std::end(kLogKinds), [&](const char* k) { return entry.key == k; }))
            continue;
        if (kind) {
            error(entry.key_mark, path + ": one kind per log entry, but it has " + kind->key + " and " + entry.key);
            continue;
        }
        kind = &entry;
    }
    std::string id;
    SourceMark id_mark = m;
    if (const Entry* e = view->find("id")) {
        id_mark = mark_of(e->value, e->key_mark);
        if (read_string(e, id, path + ".id", false) && !is_identifier(id)) {
            error(id_mark, path + ".id: '" + id + "' is not a name (letters, digits and '_', not starting with a digit)");
            id.clear();
        }
    }
    if (!kind) {
        if (!unknown_keys) // an unknown key already said what is wrong (usually a misspelt kind)
            error(view->mark, path + ": no log kind (give one of " +
                              join(std::vector<std::string>(std::begin(kLogKinds), std::end(kLogKinds))) + ")");
        if (!id.empty()) dropped_ids_.insert(id);
        return;
    }
    t_.base.log.emplace_back();
    const int entry_index = static_cast<int>(t_.base.log.size()) - 1;
    LogDef& def = t_.base.log.back();
    def.mark = mark_of(n, m);
    def.id = id;
    ids.emplace_back(id, id_mark);
    enter(Region::log, entry_index, &def);
    read_string(view->find("label"), def.label, path + ".label", true);
    read_string(view->find("note"), def.note, path + ".note", true);
    read_into(view->find("decimals"), def.decimals, path + ".decimals", whole(0, 12));
    read_request(kind->key, *kind, def, path + "." + kind->key);
}

void Reader::read_request(const std::string& kind, const Entry& e, LogDef& def, const std::string& path) {
    const auto fields = [&](std::initializer_list<const char*> allowed) { return map(e.value, path, e.key_mark, allowed); };
    if (kind == "apex") {
        def.request = ApexLog{};
        ApexLog& r = std::get<ApexLog>(def.request);
        const auto v = fields({"body", "bounces", "drop_height", "floor"});
        if (!v) return;
        read_body(*v, "body", r.body, path);
        if (const Entry* b = v->find("bounces")) {
            const Num n = constant(b->value, path + ".bounces", b->key_mark, whole(1, 100));
            if (n.ok) r.bounces = static_cast<int>(n.value);
        }
        read_into(v->find("drop_height"), r.drop_height, path + ".drop_height", kNonNegative);
        if (const Entry* f = v->find("floor")) {
            const BodyIndex b = body_ref(f, path + ".floor");
            if (b >= 0) r.floor = b;
        }
    } else if (kind == "first_contact") {
        def.request = FirstContactLog{};
        FirstContactLog& r = std::get<FirstContactLog>(def.request);
        const auto v = fields({"body", "with"});
        if (!v) return;
        read_body(*v, "body", r.body, path);
        read_body(*v, "with", r.with, path);
    } else if (kind == "axis_overlaps" || kind == "contact" || kind == "separating_axis") {
        BodyIndex a = 0, b = 0;
        const auto v = fields({"a", "b"});
        if (kind == "axis_overlaps") def.request = AxisOverlapsLog{};
        else if (kind == "contact") def.request = ContactLog{};
        else def.request = SeparatingAxisLog{};
        if (!v) return;
        read_body(*v, "a", a, path);
        read_body(*v, "b", b, path);
        std::visit(
            [&](auto& r) {
                if constexpr (requires { r.a = a; r.b = b; }) {
                    r.a = a;
                    r.b = b;
                }
            },
            def.request);
    } else if (kind == "push_out") {
        def.request = PushOutLog{};
        PushOutLog& r = std::get<PushOutLog>(def.request);
        const auto v = fields({"a", "b", "from", "skin"});
        if (!v) return;
        read_body(*v, "a", r.a, path);
        read_body(*v, "b", r.b, path);
        r.has_from = read_vec(v->find("from"), r.from, path + ".from");
        if (const Entry* s = v->find("skin")) {
            read_into(s, r.skin, path + ".skin", kNonNegative);
        } else {
            r.skin = t_.base.world.skin;
            if (skin_dep_) add_op(OpKind::copy_world_skin, &r.skin, {0}, e.key_mark, path + ".skin");
        }
    } else if (kind == "split") {
        def.request = SplitLog{};
        SplitLog& r = std::get<SplitLog>(def.request);
        const auto v = fields({"velocity", "normal", "surface_degrees"});
        if (!v) return;
        read_vec(require(*v, "velocity", path), r.velocity, path + ".velocity");
        read_surface(*v, r.normal, path);
    } else if (kind == "respond") {
        def.request = RespondLog{};
        RespondLog& r = std::get<RespondLog>(def.request);
        const auto v = fields({"velocity", "normal", "surface_degrees", "restitution", "friction"});
        if (!v) return;
        read_vec(require(*v, "velocity", path), r.velocity, path + ".velocity");
        read_surface(*v, r.normal, path);
        read_into(v->find("restitution"), r.restitution, path + ".restitution", kUnit);
        read_into(v->find("friction"), r.friction, path + ".friction", kUnit);
    } else if (kind == "slope") {
        def.request = SlopeLog{};
        SlopeLog& r = std::get<SlopeLog>(def.request);
        const auto v = fields({"normal", "surface_degrees", "limit"});
        if (!v) return;
        read_surface(*v, r.normal, path);
        read_into(v->find("limit"), r.limit, path + ".limit", Check{0, 90});
    } else if (kind == "final" || kind == "at_rest") {
        BodyIndex body = 0;
        const auto v = fields({"body"});
        if (kind == "final") def.request = FinalLog{};
        else def.request = AtRestLog{};
        if (!v) return;
        read_body(*v, "body", body, path);
        if (auto* f = std::get_if<FinalLog>(&def.request)) f->body = body;
        if (auto* r = std::get_if<AtRestLog>(&def.request)) r->body = body;
    } else if (kind == "max_overlap") {
        def.request = MaxOverlapLog{};
        fields({});
    } else if (kind == "raycast") {
        def.request = RaycastLog{};
        RaycastLog& r = std::get<RaycastLog>(def.request);
        const auto v = fields({"from", "direction", "targets", "max_distance"});
        if (!v) return;
        read_vec(require(*v, "from", path), r.origin, path + ".from");
        read_unit(require(*v, "direction", path), r.direction, path + ".direction");
        if (const Entry* t = require(*v, "targets", path)) {
            const SourceMark m = mark_of(t->value, t->key_mark);
            if (!t->value.IsSequence() || t->value.size() == 0) {
                error(m, path + ".targets: expected a list of body names, got " + describe(t->value));
            } else {
                for (std::size_t i = 0; i < t->value.size(); ++i) {
                    const Entry item{"", mark_of(t->value[i], m), t->value[i]};
                    const BodyIndex b = body_ref(&item, path + ".targets[" + std::to_string(i) + "]");
                    if (b >= 0) r.targets.push_back(b);
                }
            }
        }
        read_into(v->find("max_distance"), r.max_distance, path + ".max_distance", kPositive);
    }
}

// ---- expect ------------------------------------------------------------------------------

void Reader::read_expect(const Entry* e) {
    if (!e) return;
    const SourceMark m = mark_of(e->value, e->key_mark);
    if (e->value.IsNull()) return;
    if (!e->value.IsSequence()) {
        error(m, "expect: expected a list of conditions (- { value: ID.FIELD, equals: ... }), got " + describe(e->value));
        return;
    }
    if (!not_too_many(e->value.size(), "expect", m)) return;
    const Layout layout = layout_of(t_.base);
    std::vector<std::string> ids;
    std::unordered_map<std::string, int> entry_of; // log id → entry index
    for (const LogDef& d : t_.base.log) {
        entry_of.emplace(d.id, static_cast<int>(ids.size()));
        ids.push_back(d.id);
    }
    // The field index of "ID.FIELD" (or of a FIELD only one entry has), or −1.
    const auto find = [&](const std::string& text) {
        const auto dot = text.rfind('.');
        if (dot == std::string::npos) return is_identifier(text) ? layout.find(t_.base, text) : -1;
        const auto it = entry_of.find(text.substr(0, dot));
        return it == entry_of.end() ? -1 : layout.find(it->second, std::string_view(text).substr(dot + 1));
    };
    const auto refers_to_dropped = [&](const std::string& text) {
        const auto dot = text.rfind('.');
        return dot != std::string::npos && dropped_ids_.count(text.substr(0, dot)) != 0;
    };
    // "ID.FIELD" resolved against the log, or an error at the node.
    const auto logged = [&](const YAML::Node& n, const std::string& what, SourceMark fallback) -> bool {
        const SourceMark nm = mark_of(n, fallback);
        if (!n.IsScalar() || n.IsNull()) {
            error(nm, what + ": expected a logged value ID.FIELD, got " + describe(n));
            return false;
        }
        const std::string& text = n.Scalar();
        if (find(text) >= 0) return true;
        if (!refers_to_dropped(text))
            error(nm, what + ": no logged value '" + text + "' (" +
                          (ids.empty() ? std::string("the log is empty") : "log ids: " + join(ids)) + ")");
        return false;
    };
    for (std::size_t i = 0; i < e->value.size(); ++i) {
        const std::string path = "expect[" + std::to_string(i) + "]";
        const YAML::Node item = e->value[i];
        const SourceMark im = mark_of(item, m);
        if (!item.IsMap()) {
            error(im, path + ": expected a mapping { value: ID.FIELD, equals: ... }, got " + describe(item));
            continue;
        }
        const auto view = map(item, path, im, {"value", "equals", "at_most", "at_least", "tolerance"});
        if (!view) continue;
        t_.base.expect.emplace_back();
        ExpectDef& x = t_.base.expect.back();
        enter(Region::expect, static_cast<int>(t_.base.expect.size()) - 1, &x);
        x.mark = im;
        const Entry* value = require(*view, "value", path);
        if (value && logged(value->value, path + ".value", value->key_mark)) x.value = value->value.Scalar();
        const Entry* cmp = nullptr;
        for (const char* key : {"equals", "at_most", "at_least"}) {
            const Entry* c = view->find(key);
            if (!c) continue;
            if (cmp) {
                error(c->key_mark, path + ": give one of equals, at_most or at_least, not both " + cmp->key + " and " + c->key);
                continue;
            }
            cmp = c;
        }
        if (!cmp) {
            error(view->mark, path + ": missing the comparison (equals, at_most or at_least)");
            continue;
        }
        x.op = cmp->key == "equals" ? ExpectOp::equals : (cmp->key == "at_most" ? ExpectOp::at_most : ExpectOp::at_least);
        const std::string cwhat = path + "." + cmp->key;
        const YAML::Node& cv = cmp->value;
        std::string rhs;
        if (cv.IsScalar() && !cv.IsNull() && cv.Tag() == "?" &&
            (cv.Scalar() == "true" || cv.Scalar() == "false" || cv.Scalar() == "True" || cv.Scalar() == "False")) {
            x.number = (cv.Scalar()[0] == 't' || cv.Scalar()[0] == 'T') ? 1 : 0;
            rhs = cv.Scalar();
        } else if (cv.IsScalar() && !cv.IsNull() && find(cv.Scalar()) >= 0) {
            x.other = cv.Scalar();
            rhs = x.other;
        } else if (cv.IsScalar() && !cv.IsNull() && cv.Scalar().find('$') == std::string::npos &&
                   !detail::parse_plain_number(cv.Scalar(), x.number) && cv.Scalar().find('.') != std::string::npos &&
                   is_identifier(cv.Scalar().substr(0, cv.Scalar().rfind('.')))) {
            logged(cv, cwhat, cmp->key_mark); // looks like ID.FIELD: say which value is missing
            continue;
        } else {
            const Num n = number(cv, cwhat, cmp->key_mark, kAny);
            set(n, x.number, cwhat, mark_of(cv, cmp->key_mark));
            if (!n.ok) continue;
            rhs = cv.Scalar();
        }
        std::string tolerance_text;
        if (const Entry* tol = view->find("tolerance")) {
            read_into(tol, x.tolerance, path + ".tolerance", kNonNegative);
            if (tol->value.IsScalar()) tolerance_text = " within " + tol->value.Scalar();
        }
        const char* symbol = x.op == ExpectOp::equals ? " = " : (x.op == ExpectOp::at_most ? " <= " : " >= ");
        x.text = x.value + symbol + rhs + tolerance_text;
    }
}

/// Deepest nesting of block and flow collections a scenario may use.
constexpr int kMaxScenarioNesting = 64;

/// The first reason raw `text` cannot be a scenario's YAML, or nothing. Binary content (a NUL
/// byte, invalid UTF-8) is reported at 1:1 (the file as a whole is wrong) with the offending
/// position in the message; nesting too deep is reported where the limit is crossed.
std::optional<Diagnostic> check_scenario_text(std::string_view text, const std::string& shown) {
    const auto at = [](const TextPosition& p) {
        return "line " + std::to_string(p.line) + ", column " + std::to_string(p.column);
    };
    if (const auto nul = find_nul_byte(text))
        return Diagnostic{shown, 1, 1, "not a YAML text file: NUL byte at " + at(*nul)};
    if (const auto bad = find_invalid_utf8(text))
        return Diagnostic{shown, 1, 1, "not a YAML text file: invalid UTF-8 at " + at(*bad)};
    if (const auto deep = find_nesting_deeper_than(text, kMaxScenarioNesting))
        return Diagnostic{shown, deep->line, deep->column,
                          "nesting deeper than " + std::to_string(kMaxScenarioNesting) +
                              " levels: a scenario is a shallow mapping (refusing to parse)"};
    return std::nullopt;
}

bool mark_before(const Diagnostic& a, const Diagnostic& b) {
    return a.line != b.line ? a.line < b.line : a.column < b.column;
}

} // namespace

ScenarioTemplate parse_scenario_template(std::string_view text, const std::string& file) {
    auto data = std::make_shared<TemplateData>();
    data->file = file;
    const std::string shown = display_name(file);
    if (auto problem = check_scenario_text(text, shown)) throw InputError({std::move(*problem)});

    YAML::Node root;
    try {
        root = YAML::Load(std::string(text)); // the first document only: LoadAll can hang (NOTES.md)
    } catch (const YAML::Exception& e) {
        const SourceMark m = to_mark(e.mark);
        std::string message = e.msg;
        if (message.find("bad file") != std::string::npos) message = "the YAML nests too deeply to be read";
        throw InputError({{shown, m.line > 0 ? m.line : 1, m.column > 0 ? m.column : 1, "YAML: " + message}});
    } catch (const std::exception& e) {
        throw InputError({{shown, 1, 1, std::string("cannot parse YAML: ") + e.what()}});
    }
    const std::optional<int> second = second_document_line(text);
    if (!root.IsDefined() || (root.IsNull() && !second)) {
        const auto content = first_content(text);
        if (!content) throw InputError({{shown, 1, 1, "empty scenario"}});
        throw InputError({{shown, content->line, content->column,
                           "a scenario must be a mapping (name:, world:, bodies:, ...), but this reads as nothing"}});
    }

    Reader reader(*data);
    if (second) reader.error({*second, 1}, "a scenario file holds one YAML document; another one starts here");
    try {
        if (!root.IsNull()) reader.read(root);
    } catch (const YAML::Exception& e) {
        reader.error(to_mark(e.mark), std::string("YAML: ") + e.msg);
    } catch (const mu::ParserError& e) {
        reader.error({1, 1}, "expression: " + e.GetMsg());
    }
    if (!reader.diagnostics.empty()) {
        std::stable_sort(reader.diagnostics.begin(), reader.diagnostics.end(), mark_before);
        throw InputError(std::move(reader.diagnostics));
    }
    // Dependent fields hold their default-param values in the base.
    detail::run_ops(*data, data->slot_init.data(), data->base, nullptr);
    ScenarioTemplate result;
    result.data_ = std::move(data);
    return result;
}

} // namespace collide
