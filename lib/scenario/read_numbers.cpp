#include "scenario/read_numbers.h"

#include <algorithm>
#include <cstring>

#include "response/response.h"
#include "scenario/expression.h"

namespace collide::reader {

using detail::field;

Vec3 value_of(const std::vector<Num>& v) { return {v[0].value, v[1].value, v[2].value}; }

bool any_dep(const std::vector<Num>& v) {
    return std::any_of(v.begin(), v.end(), [](const Num& n) { return n.dep; });
}

int NumberReader::constant_slot(double value) {
    t_.slot_init.push_back(value);
    return static_cast<int>(t_.slot_init.size()) - 1;
}

int NumberReader::slot_of(const Num& n) { return n.dep ? n.slot : constant_slot(n.value); }

void NumberReader::add_op(OpKind kind, const Dest& dest, std::initializer_list<int> in, SourceMark mark,
                          std::string what, bool as_mat3) {
    detail::Op op;
    op.kind = kind;
    op.dest = dest;
    std::copy(in.begin(), in.end(), op.in.begin());
    op.as_mat3 = as_mat3;
    op.mark = mark;
    op.what = std::move(what);
    t_.ops.push_back(std::move(op));
}

Num NumberReader::number(const Node& n, const What& what, SourceMark fallback, const Check& check) {
    Num num;
    const SourceMark m = mark_of(n, fallback);
    if (!n.is_defined() || !n.is_scalar()) {
        problems_.error(m, what + ": expected a number, got " + describe(n));
        return num;
    }
    if (n.is_null()) {
        problems_.error(m, what + ": expected a number, got nothing");
        return num;
    }
    const std::string text(n.scalar());
    const bool plain = n.is_plain();
    if (plain && detail::parse_plain_number(text, num.value)) { // (".inf" and ".nan" are no plain numbers)
        if (std::string problem = detail::check_problem(num.value, check); !problem.empty()) {
            problems_.error(m, what + " " + problem + ", got " + text);
            return num;
        }
        num.ok = true;
        return num;
    }
    if (plain && detail::is_yaml_nonfinite(text)) {
        problems_.error(m, what + " must be a finite number, got " + text);
        return num;
    }
    if (plain && (text == "true" || text == "false" || text == "True" || text == "False")) {
        problems_.error(m, what + ": expected a number, got " + text);
        return num;
    }
    // An expression: every $name must be a param.
    const std::vector<detail::ParamReference> refs = detail::param_references(text);
    bool refs_ok = true;
    for (const detail::ParamReference& r : refs) {
        if (std::find(t_.param_names.begin(), t_.param_names.end(), r.name) != t_.param_names.end()) continue;
        problems_.error(m, what + ": unknown param '$" + r.name + "' (" +
                                   (t_.param_names.empty() ? std::string("this scenario has no params")
                                                           : "params: " + join(t_.param_names)) +
                                   ")");
        refs_ok = false;
    }
    if (!refs_ok) return num;
    if (const std::string problem = detail::expression_problem(text); !problem.empty()) {
        problems_.error(m, what + ": " + problem);
        return num;
    }
    std::vector<double> defaults = t_.param_defaults;
    if (defaults.empty()) defaults.push_back(0);
    try {
        num.value = detail::compile_expression(text, t_.param_names, defaults.data())->Eval();
    } catch (const mu::ParserError& e) {
        if (refs.empty() && std::none_of(text.begin(), text.end(), [](char c) { return std::strchr("+-*/^()", c); }))
            problems_.error(m, what + ": expected a number, got " + describe(n));
        else
            problems_.error(m, what + ": cannot read the expression \"" + detail::shortened(text) +
                                       "\": " + detail::shortened(e.GetMsg()));
        return num;
    }
    if (refs.empty()) { // a constant expression such as "1/3"
        if (std::string problem = detail::check_problem(num.value, check); !problem.empty()) {
            problems_.error(m, what + " " + problem + ", but \"" + detail::shortened(text) + "\" gives " +
                                       detail::number_text(num.value));
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
        t_.param_used[static_cast<std::size_t>(std::find(t_.param_names.begin(), t_.param_names.end(), r.name) -
                                               t_.param_names.begin())] = true;
    num.slot = e.slot;
    t_.exprs.push_back(std::move(e));
    num.dep = true;
    num.ok = true;
    return num;
}

Num NumberReader::constant(const Node& n, const What& what, SourceMark fallback, const Check& check) {
    const std::size_t exprs_before = t_.exprs.size();
    Num num = number(n, what, fallback, check);
    if (num.dep) {
        t_.exprs.resize(exprs_before);
        problems_.error(mark_of(n, fallback), what + " must be a plain number, not an expression of params");
        num.ok = false;
    }
    return num;
}

void NumberReader::set(const Num& n, const Dest& dest, const What& what, SourceMark m) {
    if (!n.ok) return;
    if (detail::is_field_of_type<int>(dest)) {
        field<int>(t_.base, dest) = static_cast<int>(n.value);
        if (n.dep) add_op(OpKind::set_int, dest, {n.slot}, m, what);
    } else if (detail::is_field_of_type<bool>(dest)) {
        field<bool>(t_.base, dest) = n.value != 0;
        if (n.dep) add_op(OpKind::set_bool, dest, {n.slot}, m, what);
    } else {
        field<double>(t_.base, dest) = n.value;
        if (n.dep) add_op(OpKind::set_double, dest, {n.slot}, m, what);
    }
}

void NumberReader::read_into(const Entry* e, const Dest& dest, const What& what, const Check& check) {
    if (!e) return;
    const Num n = number(e->value, what, e->key_mark, check);
    set(n, dest, what, mark_of(e->value, e->key_mark));
}

void NumberReader::read_flag(const Entry* e, const Dest& dest, const What& what) {
    if (!e) return;
    // A literal true/false as before; anything else that mentions a param is a number 0 or 1.
    const bool literal = !e->value.is_scalar() || e->value.scalar().find('$') == std::string_view::npos;
    if (literal) {
        read_bool(problems_, e, field<bool>(t_.base, dest), what);
        return;
    }
    const Num n = number(e->value, what + " (a param: 0 false, 1 true)", e->key_mark, whole(0, 1));
    set(n, dest, what, mark_of(e->value, e->key_mark));
}

std::optional<std::vector<Num>> NumberReader::numbers(const Node& n, const What& what, SourceMark fallback,
                                                      std::size_t count, const char* shape, const Check& check) {
    const SourceMark m = mark_of(n, fallback);
    if (!n.is_defined() || !n.is_sequence()) {
        problems_.error(m, what + ": expected a list of " + std::to_string(count) + " numbers " + shape + ", got " +
                                   describe(n));
        return std::nullopt;
    }
    if (n.size() != count) {
        problems_.error(m, what + ": expected " + std::to_string(count) + " numbers " + shape + ", got " +
                                   std::to_string(n.size()));
        return std::nullopt;
    }
    std::vector<Num> nums;
    bool ok = true;
    for (std::size_t i = 0; i < count; ++i) {
        nums.push_back(number(n[i], what.at(i), m, check));
        ok = ok && nums.back().ok;
    }
    if (!ok) return std::nullopt;
    return nums;
}

std::optional<std::vector<Num>> NumberReader::vec3(const Node& n, const What& what, SourceMark fallback,
                                                   const Check& check) {
    return numbers(n, what, fallback, 3, "[x, y, z]", check);
}

bool NumberReader::read_vec(const Entry* e, const Dest& dest, const What& what, const Check& check) {
    if (!e) return false;
    const auto v = vec3(e->value, what, e->key_mark, check);
    if (!v) return false;
    const SourceMark m = mark_of(e->value, e->key_mark);
    for (std::size_t i = 0; i < 3; ++i) set((*v)[i], detail::component(dest, static_cast<int>(i)), what.at(i), m);
    return true;
}

bool NumberReader::read_unit(const Entry* e, const Dest& dest, const What& what) {
    if (!e) return false;
    const auto v = vec3(e->value, what, e->key_mark);
    if (!v) return false;
    const SourceMark m = mark_of(e->value, e->key_mark);
    if (any_dep(*v)) {
        add_op(OpKind::unit_vector, dest, {slot_of((*v)[0]), slot_of((*v)[1]), slot_of((*v)[2])}, m, what);
        return true;
    }
    if (is_zero(value_of(*v))) {
        problems_.error(m, what + " must not be the zero vector");
        return false;
    }
    field<Vec3>(t_.base, dest) = normalize(value_of(*v));
    return true;
}

void NumberReader::read_surface(const MapView& view, const Dest& dest, const What& path) {
    const Entry* n = view.find("normal");
    const Entry* d = view.find("surface_degrees");
    if (n && d) {
        problems_.error(d->key_mark, path + ": give normal or surface_degrees, not both");
        return;
    }
    if (!n && !d) {
        problems_.error(view.mark, path + ": missing required key 'normal' (or 'surface_degrees')");
        return;
    }
    if (n) {
        read_unit(n, dest, path_join(path, "normal"));
        return;
    }
    const std::string what = path_join(path, "surface_degrees");
    const Num deg = number(d->value, what, d->key_mark, kAny);
    if (!deg.ok) return;
    field<Vec3>(t_.base, dest) = surface_normal_tilted(deg.value);
    if (deg.dep) add_op(OpKind::surface_normal, dest, {deg.slot}, mark_of(d->value, d->key_mark), what);
}

void NumberReader::read_rotation(const Entry* e, const Dest& dest, bool as_mat3, const What& what) {
    if (!e) return;
    const auto view = read_map(problems_, e->value, what, e->key_mark, {"axis", "degrees", "quaternion", "euler"});
    if (!view) return;
    const Entry* axis = view->find("axis");
    const Entry* degrees = view->find("degrees");
    const Entry* quaternion = view->find("quaternion");
    const Entry* euler = view->find("euler");
    const int forms = int(axis || degrees) + int(quaternion != nullptr) + int(euler != nullptr);
    if (forms != 1) {
        problems_.error(view->mark,
                        what + (forms == 0 ? ": write a rotation as { axis: [x, y, z], degrees: a }, "
                                             "{ quaternion: [w, x, y, z] } or { euler: [x, y, z] }"
                                           : ": give one of axis + degrees, quaternion or euler, not several"));
        return;
    }
    const auto write = [&](const Quat& q) {
        if (as_mat3)
            field<Mat3>(t_.base, dest) = to_mat3(q);
        else
            field<Quat>(t_.base, dest) = q;
    };
    if (axis || degrees) {
        const Entry* a = require(problems_, *view, "axis", what);
        const Entry* d = require(problems_, *view, "degrees", what);
        if (!a || !d) return;
        const auto av = vec3(a->value, what + ".axis", a->key_mark);
        const Num dv = number(d->value, what + ".degrees", d->key_mark, kAny);
        if (!av || !dv.ok) return;
        const SourceMark am = mark_of(a->value, a->key_mark);
        if (any_dep(*av) || dv.dep) {
            add_op(OpKind::quat_axis, dest, {slot_of((*av)[0]), slot_of((*av)[1]), slot_of((*av)[2]), slot_of(dv)}, am,
                   what + ".axis", as_mat3);
            return;
        }
        if (is_zero(value_of(*av))) {
            problems_.error(am, what + ".axis must not be the zero vector");
            return;
        }
        write(quat_from_axis_degrees(value_of(*av), dv.value));
    } else if (quaternion) {
        const std::string qwhat = what + ".quaternion";
        const auto qv = numbers(quaternion->value, qwhat, quaternion->key_mark, 4, "[w, x, y, z]");
        if (!qv) return;
        const SourceMark qm = mark_of(quaternion->value, quaternion->key_mark);
        if (any_dep(*qv)) {
            add_op(OpKind::quat_raw, dest, {slot_of((*qv)[0]), slot_of((*qv)[1]), slot_of((*qv)[2]), slot_of((*qv)[3])},
                   qm, qwhat, as_mat3);
            return;
        }
        const Quat q{(*qv)[0].value, (*qv)[1].value, (*qv)[2].value, (*qv)[3].value};
        if (q.w == 0 && q.x == 0 && q.y == 0 && q.z == 0) {
            problems_.error(qm, qwhat + " must not be the zero quaternion");
            return;
        }
        write(normalize(q));
    } else {
        const std::string ewhat = what + ".euler";
        const auto ev = vec3(euler->value, ewhat, euler->key_mark);
        if (!ev) return;
        if (any_dep(*ev)) {
            add_op(OpKind::quat_euler, dest, {slot_of((*ev)[0]), slot_of((*ev)[1]), slot_of((*ev)[2])},
                   mark_of(euler->value, euler->key_mark), ewhat, as_mat3);
            return;
        }
        write(quat_from_euler_degrees(value_of(*ev)));
    }
}

} // namespace collide::reader
