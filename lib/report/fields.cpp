#include "report/fields.h"

#include <string_view>

#include "math/overloaded.h"

namespace collide {

namespace {

FieldSpec num(std::string name, std::string unit) { return {std::move(name), std::move(unit), FieldType::number}; }
FieldSpec integer(std::string name) { return {std::move(name), "", FieldType::integer}; }
FieldSpec boolean(std::string name) { return {std::move(name), "", FieldType::boolean}; }
FieldSpec body(std::string name) { return {std::move(name), "", FieldType::body}; }
} // namespace

std::vector<FieldSpec> fields_of(const LogRequest& request) {
    return std::visit(
        Overloaded{
            [](const ApexLog& a) {
                std::vector<FieldSpec> f;
                for (int k = 1; k <= a.bounces; ++k) f.push_back(num("apex_" + std::to_string(k), "m"));
                for (int k = 1; k <= a.bounces; ++k) f.push_back(num("analytic_" + std::to_string(k), "m"));
                f.push_back(integer("bounces"));
                return f;
            },
            [](const FirstContactLog&) {
                return std::vector<FieldSpec>{boolean("hit"), integer("frame"), num("time", "s"),
                                              num("x", "m"),  num("y", "m"),    num("z", "m")};
            },
            [](const AxisOverlapsLog&) {
                return std::vector<FieldSpec>{num("x", "m"), num("y", "m"), num("z", "m")};
            },
            [](const ContactLog&) {
                return std::vector<FieldSpec>{boolean("hit"), num("nx", ""), num("ny", ""), num("nz", ""),
                                              num("depth", "m")};
            },
            [](const PushOutLog&) {
                return std::vector<FieldSpec>{boolean("hit"), num("x", "m"), num("y", "m"), num("z", "m")};
            },
            [](const SplitLog&) {
                return std::vector<FieldSpec>{boolean("heading_in"), num("blocked", "m/s"),  num("sliding", "m/s"),
                                              num("blocked_x", "m/s"), num("blocked_y", "m/s"), num("blocked_z", "m/s"),
                                              num("sliding_x", "m/s"), num("sliding_y", "m/s"), num("sliding_z", "m/s")};
            },
            [](const RespondLog&) {
                return std::vector<FieldSpec>{num("vx", "m/s"), num("vy", "m/s"), num("vz", "m/s"),
                                              num("speed", "m/s")};
            },
            [](const SlopeLog&) { return std::vector<FieldSpec>{num("angle", "deg"), boolean("walkable")}; },
            [](const SeparatingAxisLog&) {
                return std::vector<FieldSpec>{boolean("separated"), integer("axis"), integer("axes"),
                                              integer("kind"),      integer("i"),    integer("j"),
                                              num("gap", "m"),      num("nx", ""),   num("ny", ""),
                                              num("nz", "")};
            },
            [](const FinalLog&) {
                return std::vector<FieldSpec>{num("x", "m"),    num("y", "m"),    num("z", "m"),
                                              num("vx", "m/s"), num("vy", "m/s"), num("vz", "m/s")};
            },
            [](const AtRestLog&) {
                return std::vector<FieldSpec>{boolean("rested"), integer("frame"), num("time", "s")};
            },
            [](const MaxOverlapLog&) { return std::vector<FieldSpec>{num("depth", "m"), body("a"), body("b")}; },
            [](const RaycastLog&) {
                return std::vector<FieldSpec>{boolean("hit"), body("target"), num("distance", "m"),
                                              num("x", "m"),  num("y", "m"),  num("z", "m"),
                                              num("nx", ""),  num("ny", ""),  num("nz", "")};
            },
        },
        request);
}

int field_count(const LogRequest& request) {
    static constexpr int counts[] = {-1, 6, 3, 5, 4, 9, 4, 2, 10, 6, 3, 3, 9};
    static_assert(std::size(counts) == std::variant_size_v<LogRequest>);
    if (const auto* apex = std::get_if<ApexLog>(&request)) return 2 * apex->bounces + 1;
    return counts[request.index()];
}

const char* kind_name(const LogRequest& request) {
    static constexpr const char* names[] = {"apex",  "first_contact",   "axis_overlaps", "contact", "push_out",
                                            "split", "respond",         "slope",         "separating_axis",
                                            "final", "at_rest",         "max_overlap",   "raycast"};
    static_assert(std::size(names) == std::variant_size_v<LogRequest>);
    return names[request.index()];
}

Layout layout_of(const Scenario& scenario) {
    Layout layout;
    for (const LogDef& def : scenario.log) {
        layout.offset.push_back(static_cast<int>(layout.fields.size()));
        for (FieldSpec& f : fields_of(def.request)) layout.fields.push_back(std::move(f));
    }
    layout.offset.push_back(static_cast<int>(layout.fields.size()));
    return layout;
}

int Layout::find(int entry, std::string_view name) const {
    if (entry < 0 || entry + 1 >= static_cast<int>(offset.size())) return -1;
    for (int i = offset[static_cast<std::size_t>(entry)]; i < offset[static_cast<std::size_t>(entry) + 1]; ++i)
        if (fields[static_cast<std::size_t>(i)].name == name) return i;
    return -1;
}

int Layout::find(const Scenario& scenario, std::string_view dotted) const {
    const auto dot = dotted.rfind('.');
    if (dot != std::string_view::npos) {
        const std::string_view id = dotted.substr(0, dot);
        for (std::size_t e = 0; e < scenario.log.size(); ++e)
            if (scenario.log[e].id == id) return find(static_cast<int>(e), dotted.substr(dot + 1));
        return -1;
    }
    int found = -1;
    for (std::size_t e = 0; e < scenario.log.size(); ++e) {
        const int i = find(static_cast<int>(e), dotted);
        if (i >= 0) {
            if (found >= 0) return -1; // ambiguous: more than one entry has it
            found = i;
        }
    }
    return found;
}

} // namespace collide
