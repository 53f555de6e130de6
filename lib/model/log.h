#pragma once
/// \file
/// What a scenario's log measures, derived from the kinds' descriptors (model/log_kinds.h):
/// each entry's fields laid out in one flat array of doubles. The probes write measurements
/// there (no strings, no allocation per run); the report layer turns them into text, JSON or
/// CSV; sweeps turn them into columns; `expect:` names them as `ID.FIELD`.

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/log_kinds.h"

namespace collide {

struct Scenario;

/// One measured field of a log entry, as laid out for a whole log.
struct FieldSpec {
    std::string name; ///< e.g. "hit", "frame", "time", "x", "apex_2"
    std::string unit; ///< e.g. "m", "s", "m/s", "deg"; empty when unitless
    FieldType type = FieldType::number;
};

/// The fields of every entry of a scenario's log, laid out in one flat array.
struct Layout {
    std::vector<FieldSpec> fields; ///< every field, entry after entry
    std::vector<int> offset;       ///< offset[i]: first field of log entry i; offset.back() == fields.size()
    /// Index of field `name` of entry `entry`, or −1.
    int find(int entry, std::string_view name) const;
    /// Index of "ID.FIELD" (or just "FIELD" when only one entry has that field), or −1.
    int find(const Scenario& scenario, std::string_view dotted) const;
};

/// The fields one log request measures, in its kind's field order (kFields; apex: apex_1 …
/// apex_n, analytic_1 … analytic_n, bounces).
std::vector<FieldSpec> fields_of(const LogRequest& request);

/// How many fields `fields_of(request)` has, without allocating (for hot paths).
int field_count(const LogRequest& request);

/// The kind name of a request as written in YAML ("apex", "first_contact", …).
std::string_view kind_name(const LogRequest& request);

/// Every kind's YAML name, in LogRequest order.
std::span<const std::string_view> log_kind_names();

/// The keys kind `name`'s YAML mapping accepts; empty when there is no such kind.
std::span<const std::string_view> log_kind_keys(std::string_view name);

/// A default request of kind `name`, or empty when there is no such kind.
std::optional<LogRequest> make_log_request(std::string_view name);

/// The layout of a whole scenario's log.
Layout layout_of(const Scenario& scenario);

} // namespace collide
