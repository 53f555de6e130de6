// The log of a scenario: each entry is one kind (its name and its keys come from the kind's
// descriptor, model/log_kinds.h, through model/log.h) plus id, label, note and decimals.
#include <algorithm>
#include <array>
#include <span>
#include <string_view>
#include <unordered_map>
#include <utility>

#include "math/overloaded.h"
#include "model/log.h"
#include "scenario/reader_state.h"

namespace collide::reader {

namespace {

/// The keys a log entry accepts besides its kind.
constexpr std::array<std::string_view, 4> kEntryOptions = {"id", "label", "note", "decimals"};

/// True when `key` names a log kind.
bool is_log_kind(std::string_view key) {
    const std::span<const std::string_view> kinds = log_kind_names();
    return std::find(kinds.begin(), kinds.end(), key) != kinds.end();
}

/// The inputs of the request of kind `e.key` into `def.request` (entry `entry` of the log).
void read_request(ReaderState& r, const Entry& e, int entry, LogDef& def, const What& path) {
    def.request = *make_log_request(e.key);
    const auto v = read_map(r.problems, e.value, path, e.key_mark, log_kind_keys(e.key));
    if (!v) return;
    NumberReader& num = r.numbers;
    const auto body = [&](const char* key, BodyIndex& field) { read_body(r, *v, key, field, path); };
    const auto two_bodies = [&](auto& request) {
        body("a", request.a);
        body("b", request.b);
    };
    std::visit(
            Overloaded{
                    [&](ApexLog& q) {
                        body("body", q.body);
                        if (const Entry* b = v->find("bounces")) {
                            const Num n = num.constant(b->value, path + ".bounces", b->key_mark, whole(1, 100));
                            if (n.ok) q.bounces = static_cast<int>(n.value);
                        }
                        num.read_into(v->find("drop_height"), {&ApexLog::drop_height, entry}, path + ".drop_height",
                                      kNonNegative);
                        if (const Entry* f = v->find("floor")) {
                            const BodyIndex b = body_ref(r, f, path + ".floor");
                            if (b >= 0) q.floor = b;
                        }
                    },
                    [&](FirstContactLog& q) {
                        body("body", q.body);
                        body("with", q.with);
                    },
                    [&](TunnelLog& q) {
                        body("body", q.body);
                        body("wall", q.wall);
                    },
                    [&](AxisOverlapsLog& q) { two_bodies(q); },
                    [&](ContactLog& q) { two_bodies(q); },
                    [&](SeparatingAxisLog& q) { two_bodies(q); },
                    [&](PushOutLog& q) {
                        two_bodies(q);
                        q.has_from = num.read_vec(v->find("from"), {&PushOutLog::from, entry}, path + ".from");
                        if (const Entry* s = v->find("skin")) {
                            num.read_into(s, {&PushOutLog::skin, entry}, path + ".skin", kNonNegative);
                        } else {
                            q.skin = r.t.base.world.skin;
                            if (r.skin_dep)
                                num.add_op(OpKind::copy_world_skin, {&PushOutLog::skin, entry}, {0}, e.key_mark,
                                           path + ".skin");
                        }
                    },
                    [&](SplitLog&) {
                        num.read_vec(require(r.problems, *v, "velocity", path), {&SplitLog::velocity, entry},
                                     path + ".velocity");
                        num.read_surface(*v, {&SplitLog::normal, entry}, path);
                    },
                    [&](RespondLog&) {
                        num.read_vec(require(r.problems, *v, "velocity", path), {&RespondLog::velocity, entry},
                                     path + ".velocity");
                        num.read_surface(*v, {&RespondLog::normal, entry}, path);
                        num.read_into(v->find("restitution"), {&RespondLog::restitution, entry}, path + ".restitution",
                                      kUnit);
                        num.read_into(v->find("friction"), {&RespondLog::friction, entry}, path + ".friction", kUnit);
                    },
                    [&](SlopeLog&) {
                        num.read_surface(*v, {&SlopeLog::normal, entry}, path);
                        num.read_into(v->find("limit"), {&SlopeLog::limit, entry}, path + ".limit", Check{0, 90});
                    },
                    [&](TriggerLog& q) {
                        q.body = q.volume = -1;
                        body("body", q.body);
                        body("volume", q.volume);
                        if (q.body < 0 || q.volume < 0) return;
                        const BodyDef& a = r.t.base.bodies[static_cast<std::size_t>(q.body)];
                        const BodyDef& b = r.t.base.bodies[static_cast<std::size_t>(q.volume)];
                        if (q.body == q.volume)
                            r.problems.error(v->mark, path + ": body and volume are the same body ('" + a.name +
                                                              "'): name two bodies");
                        else if (a.is_static && b.is_static)
                            r.problems.error(v->mark, path + ": '" + a.name + "' and '" + b.name +
                                                              "' are both static: they never move, so nothing can "
                                                              "enter or leave (make one of them move)");
                    },
                    [&](FinalLog& q) { body("body", q.body); },
                    [&](AtRestLog& q) { body("body", q.body); },
                    [&](CharacterLog& q) { body("body", q.body); },
                    [&](MaxOverlapLog&) {},
                    [&](EnergyLog&) {},
                    [&](RaycastLog& q) {
                        num.read_vec(require(r.problems, *v, "from", path), {&RaycastLog::origin, entry},
                                     path + ".from");
                        num.read_unit(require(r.problems, *v, "direction", path), {&RaycastLog::direction, entry},
                                      path + ".direction");
                        if (const Entry* t = require(r.problems, *v, "targets", path)) {
                            const SourceMark m = mark_of(t->value, t->key_mark);
                            if (!t->value.is_sequence() || t->value.size() == 0) {
                                r.problems.error(m, path + ".targets: expected a list of body names, got " +
                                                            describe(t->value));
                            } else {
                                for (std::size_t i = 0; i < t->value.size(); ++i) {
                                    const Entry item{"", mark_of(t->value[i], m), t->value[i]};
                                    const BodyIndex b =
                                            body_ref(r, &item, path + ".targets[" + std::to_string(i) + "]");
                                    if (b >= 0) q.targets.push_back(b);
                                }
                            }
                        }
                        num.read_into(v->find("max_distance"), {&RaycastLog::max_distance, entry},
                                      path + ".max_distance", kPositive);
                    },
            },
            def.request);
}

/// Entry `index` of `log:`; its explicit id (empty when none) and where it was written go to `ids`.
void read_log_entry(ReaderState& r, const Node& n, std::size_t index,
                    std::vector<std::pair<std::string, SourceMark>>& ids) {
    const std::string path = "log[" + std::to_string(index) + "]";
    const std::span<const std::string_view> kinds = log_kind_names();
    std::vector<std::string_view> allowed(kinds.begin(), kinds.end());
    allowed.insert(allowed.end(), kEntryOptions.begin(), kEntryOptions.end());
    const SourceMark m = mark_of(n, {1, 1});
    if (!n.is_map()) {
        r.problems.error(m, path + ": expected a mapping such as { first_contact: { body: a, with: b } }, got " +
                                    describe(n));
        return;
    }
    const std::size_t problems_before = r.problems.diagnostics.size();
    const auto view = read_map(r.problems, n, path, m, allowed);
    if (!view) return;
    const bool unknown_keys = r.problems.diagnostics.size() != problems_before;
    const Entry* kind = nullptr;
    for (const Entry& entry : view->entries) {
        if (!is_log_kind(entry.key)) continue;
        if (kind) {
            r.problems.error(entry.key_mark,
                             path + ": one kind per log entry, but it has " + kind->key + " and " + entry.key);
            continue;
        }
        kind = &entry;
    }
    std::string id;
    SourceMark id_mark = m;
    if (const Entry* e = view->find("id")) {
        id_mark = mark_of(e->value, e->key_mark);
        if (read_string(r.problems, e, id, path + ".id", false) && !is_identifier(id)) {
            r.problems.error(id_mark, path + ".id: '" + id +
                                              "' is not a name (letters, digits and '_', not starting with a digit)");
            id.clear();
        }
    }
    if (!kind) {
        if (!unknown_keys) // an unknown key already said what is wrong (usually a misspelt kind)
            r.problems.error(view->mark, path + ": no log kind (give one of " +
                                                 join(std::vector<std::string>(kinds.begin(), kinds.end())) + ")");
        if (!id.empty()) r.dropped_ids.insert(id);
        return;
    }
    r.t.base.log.emplace_back();
    const int entry = static_cast<int>(r.t.base.log.size()) - 1;
    LogDef& def = r.t.base.log.back();
    def.mark = mark_of(n, m);
    def.id = id;
    ids.emplace_back(id, id_mark);
    read_string(r.problems, view->find("label"), def.label, path + ".label", true);
    read_string(r.problems, view->find("note"), def.note, path + ".note", true);
    r.numbers.read_into(view->find("decimals"), {&LogDef::decimals, entry}, path + ".decimals", whole(0, 12));
    read_request(r, *kind, entry, def, path + "." + kind->key);
}

} // namespace

void read_log(ReaderState& r, const Entry* e) {
    if (!e) return;
    const SourceMark m = mark_of(e->value, e->key_mark);
    if (e->value.is_null()) return;
    if (!e->value.is_sequence()) {
        r.problems.error(m, "log: expected a list of entries (- first_contact: { ... }), got " + describe(e->value));
        return;
    }
    if (!not_too_many(r.problems, e->value.size(), "log", m)) return;
    std::vector<std::pair<std::string, SourceMark>> explicit_ids; // per entry; empty name: none given
    for (std::size_t i = 0; i < e->value.size(); ++i) read_log_entry(r, e->value[i], i, explicit_ids);

    // ids: an explicit id must be unique; the others default to the kind, then kind_2, kind_3, …
    std::unordered_map<std::string, int> taken; // id → line of the entry that has it
    for (const auto& [id, mark] : explicit_ids) {
        if (id.empty()) continue;
        if (const auto [it, inserted] = taken.emplace(id, mark.line); !inserted)
            r.problems.error(mark, "log: id '" + id + "' is already the id of the entry at line " +
                                           std::to_string(it->second));
    }
    std::unordered_map<std::string, int> next_suffix; // kind → the next _N to try
    for (LogDef& def : r.t.base.log) {
        if (!def.id.empty()) continue;
        const std::string kind(kind_name(def.request));
        std::string id = kind;
        for (int& k = next_suffix.try_emplace(kind, 2).first->second; taken.count(id) != 0; ++k)
            id = kind + "_" + std::to_string(k);
        taken.emplace(id, def.mark.line);
        def.id = id;
    }
}

} // namespace collide::reader
