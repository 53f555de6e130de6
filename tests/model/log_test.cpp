// The field layout: counts agree with the lists, lookups by ID.FIELD resolve.
#include <catch2/catch.hpp>

#include "model/log.h"
#include "model/scenario.h"

#include <optional>
#include <string_view>
#include <vector>

using namespace collide;

TEST_CASE("field_count agrees with fields_of for every log kind") {
    const LogRequest all[] = {ApexLog{0, 4, 2.0, -1},
                              FirstContactLog{},
                              AxisOverlapsLog{},
                              ContactLog{},
                              PushOutLog{},
                              SplitLog{},
                              RespondLog{},
                              SlopeLog{},
                              SeparatingAxisLog{},
                              FinalLog{},
                              AtRestLog{},
                              MaxOverlapLog{},
                              RaycastLog{}};
    for (const LogRequest& r : all) {
        INFO(kind_name(r));
        CHECK(field_count(r) == static_cast<int>(fields_of(r).size()));
    }
}

TEST_CASE("layout finds ID.FIELD and a bare field only when it is unambiguous") {
    Scenario s;
    s.log.push_back(LogDef{"hit1", "", "", -1, {}, FirstContactLog{}});
    s.log.push_back(LogDef{"hit2", "", "", -1, {}, FirstContactLog{}});
    s.log.push_back(LogDef{"slope", "", "", -1, {}, SlopeLog{}});
    const Layout layout = layout_of(s);
    CHECK(layout.find(s, "hit2.frame") == 7);
    CHECK(layout.find(s, "walkable") == 13);
    CHECK(layout.find(s, "frame") == -1);
    CHECK(layout.find(s, "nope.frame") == -1);
}

namespace {
/// Every kind once (apex with 3 bounces).
std::vector<LogRequest> every_kind() {
    std::vector<LogRequest> all;
    for (const std::string_view name : log_kind_names()) all.push_back(*make_log_request(name));
    return all;
}
} // namespace

TEST_CASE("each kind's field enum matches its field table, name by name") {
    // The enum is what probes write through and the table is what JSON, CSV, sweeps and
    // expectations read: the same position must carry the same name.
    CHECK(ContactLog::kFields[ContactLog::depth].name == "depth");
    CHECK(FirstContactLog::kFields[FirstContactLog::time].name == "time");
    CHECK(FirstContactLog::kFields[FirstContactLog::time].unit == "s");
    CHECK(SeparatingAxisLog::kFields[SeparatingAxisLog::kind].name == "kind");
    CHECK(SeparatingAxisLog::kFields[SeparatingAxisLog::nz].name == "nz");
    CHECK(SplitLog::kFields[SplitLog::sliding_z].name == "sliding_z");
    CHECK(RaycastLog::kFields[RaycastLog::target].type == FieldType::body);
    CHECK(MaxOverlapLog::kFields[MaxOverlapLog::b].name == "b");
    CHECK(AtRestLog::kFields[AtRestLog::rested].type == FieldType::boolean);
    CHECK(FinalLog::kFields[FinalLog::vz].unit == "m/s");
    CHECK(SlopeLog::kFields[SlopeLog::angle].unit == "deg");
    CHECK(RespondLog::kFields[RespondLog::speed].name == "speed");
    CHECK(PushOutLog::kFields[PushOutLog::z].name == "z");
    CHECK(AxisOverlapsLog::kFields[AxisOverlapsLog::y].name == "y");
    CHECK(TriggerLog::kFields[TriggerLog::exit_time].name == "exit_time");
    CHECK(TriggerLog::kFields[TriggerLog::enter_time].unit == "s");
    CHECK(TriggerLog::kFields[TriggerLog::events].type == FieldType::integer);
    CHECK(EnergyLog::kFields[EnergyLog::drift].name == "drift");
    CHECK(EnergyLog::kFields[EnergyLog::change].unit == "J");
}

TEST_CASE("every kind is reachable by its YAML name, and names and field names are unique") {
    const auto names = log_kind_names();
    CHECK(names.size() == std::variant_size_v<LogRequest>);
    for (std::size_t k = 0; k < names.size(); ++k) {
        INFO(names[k]);
        const std::optional<LogRequest> r = make_log_request(names[k]);
        REQUIRE(r);
        CHECK(r->index() == k);
        CHECK(kind_name(*r) == names[k]);
        for (std::size_t other = k + 1; other < names.size(); ++other) CHECK(names[other] != names[k]);
        const std::vector<FieldSpec> fields = fields_of(*r);
        for (std::size_t a = 0; a < fields.size(); ++a)
            for (std::size_t b = a + 1; b < fields.size(); ++b) CHECK(fields[a].name != fields[b].name);
    }
    CHECK_FALSE(make_log_request("apexx"));
    CHECK(log_kind_keys("apexx").empty());
}

TEST_CASE("the reader's keys come from the kinds") {
    const auto keys = log_kind_keys("push_out");
    CHECK(std::vector<std::string_view>(keys.begin(), keys.end()) ==
          std::vector<std::string_view>{"a", "b", "from", "skin"});
    CHECK(log_kind_keys("max_overlap").empty());
    CHECK(log_kind_keys("first_contact").size() == 2);
}

TEST_CASE("apex lays out its numbered fields after its bounce count") {
    const ApexLog apex{0, 3, 2.0, -1};
    const std::vector<FieldSpec> f = fields_of(apex);
    REQUIRE(f.size() == 7);
    CHECK(f[static_cast<std::size_t>(apex.apex(1))].name == "apex_1");
    CHECK(f[static_cast<std::size_t>(apex.apex(3))].name == "apex_3");
    CHECK(f[static_cast<std::size_t>(apex.analytic(2))].name == "analytic_2");
    CHECK(f[static_cast<std::size_t>(apex.bounce_count())].name == "bounces");
    CHECK(f[static_cast<std::size_t>(apex.bounce_count())].type == FieldType::integer);
    int total = 0;
    for (const LogRequest& r : every_kind()) total += field_count(r);
    CHECK(total == 7 + 6 + 3 + 5 + 4 + 9 + 4 + 2 + 10 + 16 + 3 + 3 + 9 + 5 + 7 + 4 + 4); // apex defaults to 3 bounces
}
