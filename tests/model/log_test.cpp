// The field layout: counts agree with the lists, lookups by ID.FIELD resolve.
#include <catch2/catch.hpp>

#include "model/log.h"
#include "model/scenario.h"

using namespace collide;

TEST_CASE("field_count agrees with fields_of for every log kind") {
    const LogRequest all[] = {ApexLog{0, 4, 2.0, -1}, FirstContactLog{}, AxisOverlapsLog{}, ContactLog{},
                              PushOutLog{},           SplitLog{},        RespondLog{},      SlopeLog{},
                              SeparatingAxisLog{},    FinalLog{},        AtRestLog{},       MaxOverlapLog{},
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
