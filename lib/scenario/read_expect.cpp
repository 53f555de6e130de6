// The expectations of a scenario: `expect:` conditions on logged values (ID.FIELD), resolved
// against the log read before them.
#include <unordered_map>

#include "model/log.h"
#include "scenario/expression.h"
#include "scenario/reader_state.h"

namespace collide::reader {

void read_expect(ReaderState& r, const Entry* e) {
    if (!e) return;
    const SourceMark m = mark_of(e->value, e->key_mark);
    if (e->value.is_null()) return;
    if (!e->value.is_sequence()) {
        r.problems.error(m, "expect: expected a list of conditions (- { value: ID.FIELD, equals: ... }), got " +
                                    describe(e->value));
        return;
    }
    if (!not_too_many(r.problems, e->value.size(), "expect", m)) return;
    const Scenario& base = r.t.base;
    const Layout layout = layout_of(base);
    std::vector<std::string> ids;
    std::unordered_map<std::string, int> entry_of; // log id → entry index
    for (const LogDef& d : base.log) {
        entry_of.emplace(d.id, static_cast<int>(ids.size()));
        ids.push_back(d.id);
    }
    // The field index of "ID.FIELD" (or of a FIELD only one entry has), or −1.
    const auto find = [&](const std::string& text) {
        const auto dot = text.rfind('.');
        if (dot == std::string::npos) return is_identifier(text) ? layout.find(base, text) : -1;
        const auto it = entry_of.find(text.substr(0, dot));
        return it == entry_of.end() ? -1 : layout.find(it->second, std::string_view(text).substr(dot + 1));
    };
    const auto refers_to_dropped = [&](const std::string& text) {
        const auto dot = text.rfind('.');
        return dot != std::string::npos && r.dropped_ids.count(text.substr(0, dot)) != 0;
    };
    // "ID.FIELD" resolved against the log, or an error at the node.
    const auto logged = [&](const Node& n, const What& what, SourceMark fallback) -> bool {
        const SourceMark nm = mark_of(n, fallback);
        if (!n.is_scalar() || n.is_null()) {
            r.problems.error(nm, what + ": expected a logged value ID.FIELD, got " + describe(n));
            return false;
        }
        const std::string text(n.scalar());
        if (find(text) >= 0) return true;
        if (!refers_to_dropped(text))
            r.problems.error(nm, what + ": no logged value '" + text + "' (" +
                                         (ids.empty() ? std::string("the log is empty") : "log ids: " + join(ids)) +
                                         ")");
        return false;
    };
    for (std::size_t i = 0; i < e->value.size(); ++i) {
        const std::string path = "expect[" + std::to_string(i) + "]";
        const Node item = e->value[i];
        const SourceMark im = mark_of(item, m);
        if (!item.is_map()) {
            r.problems.error(im, path + ": expected a mapping { value: ID.FIELD, equals: ... }, got " + describe(item));
            continue;
        }
        const auto view =
                read_map(r.problems, item, path, im, {"value", "equals", "at_most", "at_least", "plus", "tolerance"});
        if (!view) continue;
        r.t.base.expect.emplace_back();
        const int index = static_cast<int>(r.t.base.expect.size()) - 1;
        ExpectDef& x = r.t.base.expect.back();
        x.mark = im;
        const Entry* value = require(r.problems, *view, "value", path);
        if (value && logged(value->value, path + ".value", value->key_mark))
            x.value = std::string(value->value.scalar());
        const Entry* cmp = nullptr;
        for (const char* key : {"equals", "at_most", "at_least"}) {
            const Entry* c = view->find(key);
            if (!c) continue;
            if (cmp) {
                r.problems.error(c->key_mark, path + ": give one of equals, at_most or at_least, not both " + cmp->key +
                                                      " and " + c->key);
                continue;
            }
            cmp = c;
        }
        if (!cmp) {
            r.problems.error(view->mark, path + ": missing the comparison (equals, at_most or at_least)");
            continue;
        }
        x.op = cmp->key == "equals" ? ExpectOp::equals : cmp->key == "at_most" ? ExpectOp::at_most : ExpectOp::at_least;
        const std::string cwhat = path + "." + cmp->key;
        const Node& cv = cmp->value;
        std::string rhs;
        if (cv.is_scalar() && !cv.is_null() && cv.is_plain() &&
            (cv.scalar() == "true" || cv.scalar() == "false" || cv.scalar() == "True" || cv.scalar() == "False")) {
            x.number = (cv.scalar()[0] == 't' || cv.scalar()[0] == 'T') ? 1 : 0;
            rhs = std::string(cv.scalar());
        } else if (cv.is_scalar() && !cv.is_null() && find(std::string(cv.scalar())) >= 0) {
            x.other = std::string(cv.scalar());
            rhs = x.other;
        } else if (cv.is_scalar() && !cv.is_null() && cv.scalar().find('$') == std::string_view::npos &&
                   !detail::parse_plain_number(cv.scalar(), x.number) &&
                   cv.scalar().find('.') != std::string_view::npos &&
                   is_identifier(cv.scalar().substr(0, cv.scalar().rfind('.')))) {
            logged(cv, cwhat, cmp->key_mark); // looks like ID.FIELD: say which value is missing
            continue;
        } else {
            const Num n = r.numbers.number(cv, cwhat, cmp->key_mark, kAny);
            r.numbers.set(n, {&ExpectDef::number, index}, cwhat, mark_of(cv, cmp->key_mark));
            if (!n.ok) continue;
            rhs = std::string(cv.scalar());
        }
        if (const Entry* plus = view->find("plus")) {
            if (x.other.empty()) {
                r.problems.error(plus->key_mark, path + ".plus: adds to another logged value (" + cmp->key +
                                                         ": ID.FIELD); to compare with a number, write the sum");
                continue;
            }
            r.numbers.read_into(plus, {&ExpectDef::plus, index}, path + ".plus", kAny);
            if (plus->value.is_scalar()) rhs += " + " + std::string(plus->value.scalar());
        }
        std::string tolerance_text;
        if (const Entry* tol = view->find("tolerance")) {
            r.numbers.read_into(tol, {&ExpectDef::tolerance, index}, path + ".tolerance", kNonNegative);
            if (tol->value.is_scalar()) tolerance_text = " within " + std::string(tol->value.scalar());
        }
        const char* symbol = x.op == ExpectOp::equals ? " = " : (x.op == ExpectOp::at_most ? " <= " : " >= ");
        x.text = x.value + symbol + rhs + tolerance_text;
    }
}

} // namespace collide::reader
