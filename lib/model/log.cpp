#include "model/log.h"

#include <array>
#include <utility>

#include "model/scenario.h"

namespace collide {

namespace {

template <class Kind> constexpr bool kHasFixedFields = requires { Kind::kFields; };

template <std::size_t... I> constexpr auto kind_names(std::index_sequence<I...>) {
    return std::array<std::string_view, sizeof...(I)>{std::variant_alternative_t<I, LogRequest>::kName...};
}
constexpr auto kKindNames = kind_names(std::make_index_sequence<std::variant_size_v<LogRequest>>{});

template <std::size_t... I> constexpr auto kind_keys(std::index_sequence<I...>) {
    return std::array<std::span<const std::string_view>, sizeof...(I)>{
            std::span<const std::string_view>(std::variant_alternative_t<I, LogRequest>::kKeys)...};
}
constexpr auto kKindKeys = kind_keys(std::make_index_sequence<std::variant_size_v<LogRequest>>{});

template <std::size_t... I> constexpr auto kind_makers(std::index_sequence<I...>) {
    return std::array<LogRequest (*)(), sizeof...(I)>{
            +[]() -> LogRequest { return std::variant_alternative_t<I, LogRequest>{}; }...};
}
const auto kKindMakers = kind_makers(std::make_index_sequence<std::variant_size_v<LogRequest>>{});

int kind_index(std::string_view name) {
    for (std::size_t k = 0; k < kKindNames.size(); ++k)
        if (kKindNames[k] == name) return static_cast<int>(k);
    return -1;
}

} // namespace

std::vector<FieldSpec> fields_of(const LogRequest& request) {
    return std::visit(
            [](const auto& r) {
                using Kind = std::decay_t<decltype(r)>;
                std::vector<FieldSpec> out;
                if constexpr (kHasFixedFields<Kind>) {
                    for (const FieldDef& f : Kind::kFields)
                        out.push_back({std::string(f.name), std::string(f.unit), f.type});
                } else { // apex: two numbered groups and a count
                    for (int k = 1; k <= r.bounces; ++k)
                        out.push_back({"apex_" + std::to_string(k), "m", FieldType::number});
                    for (int k = 1; k <= r.bounces; ++k)
                        out.push_back({"analytic_" + std::to_string(k), "m", FieldType::number});
                    out.push_back({"bounces", "", FieldType::integer});
                }
                return out;
            },
            request);
}

int field_count(const LogRequest& request) {
    return std::visit(
            [](const auto& r) {
                using Kind = std::decay_t<decltype(r)>;
                if constexpr (kHasFixedFields<Kind>)
                    return static_cast<int>(Kind::kFields.size());
                else
                    return r.field_count();
            },
            request);
}

std::string_view kind_name(const LogRequest& request) { return kKindNames[request.index()]; }

std::span<const std::string_view> log_kind_names() { return kKindNames; }

std::span<const std::string_view> log_kind_keys(std::string_view name) {
    const int k = kind_index(name);
    return k < 0 ? std::span<const std::string_view>{} : kKindKeys[static_cast<std::size_t>(k)];
}

std::optional<LogRequest> make_log_request(std::string_view name) {
    const int k = kind_index(name);
    if (k < 0) return std::nullopt;
    return kKindMakers[static_cast<std::size_t>(k)]();
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
