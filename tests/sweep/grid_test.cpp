// The sweep grid: --vary parsing, cell order, shards.
#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "sweep/grid.h"

using namespace collide;

namespace {
const std::vector<std::string> kParams = {"speed", "offset", "rate"};

std::string error_of(const std::string& vary) {
    try {
        parse_vary(vary, kParams);
    } catch (const InputError& e) {
        return e.diagnostics.front().message;
    }
    return "";
}
} // namespace

TEST_CASE("a range includes TO when it lies on the stride within rounding") {
    const Axis offset = parse_vary("offset=0:0.95:0.05", kParams);
    REQUIRE(offset.values.size() == 20);
    CHECK(offset.param == 1);
    CHECK(offset.values.front() == 0.0);
    CHECK(offset.values[3] == 0.15); // rounded to the written decimals, not 0.15000000000000002
    CHECK(offset.values.back() == 0.95);

    const Axis speed = parse_vary("speed=30:300:15", kParams);
    REQUIRE(speed.values.size() == 19);
    CHECK(speed.values.back() == 300);

    CHECK(parse_vary("offset=0:0.999:0.001", kParams).values.size() == 1000);
    CHECK(parse_vary("speed=0:1:0.3", kParams).values.size() == 4); // 0, 0.3, 0.6, 0.9: TO not on the stride
    CHECK(parse_vary("speed=5:5:1", kParams).values.size() == 1);
}

TEST_CASE("a range counts down with a negative step") {
    const Axis a = parse_vary("speed=1:0:-0.25", kParams);
    CHECK(a.values == std::vector<double>{1, 0.75, 0.5, 0.25, 0});
}

TEST_CASE("a list gives its values in order") {
    CHECK(parse_vary("rate=60, 120,30", kParams).values == std::vector<double>{60, 120, 30});
    CHECK(parse_vary("rate=1e2", kParams).values == std::vector<double>{100});
}

TEST_CASE("a bad --vary is an error naming the argument") {
    CHECK_THAT(error_of("speed"), Catch::Contains("--vary speed:") && Catch::Contains("NAME=FROM:TO:STEP"));
    CHECK_THAT(error_of("speed="), Catch::Contains("no values"));
    CHECK_THAT(error_of("=1:2:1"), Catch::Contains("name is missing"));
    CHECK_THAT(error_of("speed=a:2:1"), Catch::Contains("FROM 'a' is not a number"));
    CHECK_THAT(error_of("speed=1:2"), Catch::Contains("three numbers"));
    CHECK_THAT(error_of("speed=1:2:3:4"), Catch::Contains("three numbers"));
    CHECK_THAT(error_of("speed=1:2:0"), Catch::Contains("the step is 0"));
    CHECK_THAT(error_of("speed=1:0:1"), Catch::Contains("moves away from TO"));
    CHECK_THAT(error_of("speed=0:1:-1"), Catch::Contains("moves away from TO"));
    CHECK_THAT(error_of("speed=nan,1"), Catch::Contains("not a finite number"));
    CHECK_THAT(error_of("speed=0:inf:1"), Catch::Contains("not a finite number"));
    CHECK_THAT(error_of("speed=1,,2"), Catch::Contains("empty value"));
    CHECK_THAT(error_of("speed=1,2x"), Catch::Contains("'2x' is not a number"));
    CHECK_THAT(error_of("speed=0:1e12:1"), Catch::Contains("more than the limit"));
    CHECK_THAT(error_of("sped=1:2:1"),
               Catch::Contains("unknown param 'sped'") && Catch::Contains("speed, offset, rate"));
}

TEST_CASE("a param varied twice is an error") {
    const std::vector<std::string> varies = {"speed=1,2", "offset=0", "speed=3"};
    CHECK_THROWS_WITH(make_grid(varies, kParams), Catch::Contains("'speed' is varied twice"));
}

TEST_CASE("a grid with too many cells is an error, also when the count overflows") {
    const std::vector<std::string> big = {"speed=0:99999:1", "offset=0:99999:1"};
    CHECK_THROWS_WITH(make_grid(big, kParams), Catch::Contains("more than 1000000000 cells"));
    // 10^4 ^ 5 = 10^20 cells: more than 64 bits can count.
    const std::vector<std::string> names = {"a", "b", "c", "d", "e"};
    const std::vector<std::string> huge = {"a=1:10000:1", "b=1:10000:1", "c=1:10000:1", "d=1:10000:1", "e=1:10000:1"};
    CHECK_THROWS_WITH(make_grid(huge, names, ~std::uint64_t{0}), Catch::Contains("more than"));
    const std::vector<std::string> fine = {"speed=0:9:1", "offset=0:9:1"};
    CHECK(make_grid(fine, kParams, 100).cells() == 100);
    CHECK_THROWS_AS(make_grid(fine, kParams, 99), InputError);
}

TEST_CASE("cells are numbered with the first --vary varying slowest") {
    const std::vector<std::string> varies = {"rate=30,60", "speed=1:3:1"};
    const Grid grid = make_grid(varies, kParams);
    REQUIRE(grid.cells() == 6);
    std::vector<double> p = {0, 0.5, 0};
    const double expected[6][2] = {{30, 1}, {30, 2}, {30, 3}, {60, 1}, {60, 2}, {60, 3}};
    for (std::uint64_t c = 0; c < 6; ++c) {
        grid.apply(c, p);
        CHECK(p[2] == expected[c][0]);
        CHECK(p[0] == expected[c][1]);
        CHECK(p[1] == 0.5); // not varied: left alone
    }
}

TEST_CASE("sweep --detection both runs each cell discrete then swept") {
    SweepPlan plan;
    const std::vector<std::string> varies = {"speed=1:5:1"};
    plan.grid = make_grid(varies, kParams);
    plan.modes = modes_of(parse_detection_choice("both"));
    REQUIRE(plan.rows() == 10);
    for (std::uint64_t r = 0; r < 10; ++r) {
        CHECK(plan.cell_of_row(r) == r / 2);
        CHECK(plan.mode_of_row(r) == (r % 2 == 0 ? Detection::discrete : Detection::swept));
    }
    CHECK_THROWS_WITH(parse_detection_choice("sweep"), Catch::Contains("discrete, swept, speculative, both or all"));
}

TEST_CASE("sweep --engine collide,bullet runs each cell engine by engine, each in every mode") {
    SweepPlan plan;
    const std::vector<std::string> varies = {"speed=1:3:1"};
    plan.grid = make_grid(varies, kParams);
    plan.modes = modes_of(parse_detection_choice("both"));
    plan.engines = parse_engine_list("bullet,collide"); // row order: collide first, whatever the order given
    REQUIRE(plan.engines == std::vector<std::string>{"collide", "bullet"});
    REQUIRE(plan.variants() == 4);
    REQUIRE(plan.rows() == 12);
    const char* names[] = {"collide discrete", "collide swept", "bullet discrete", "bullet swept"};
    for (std::uint64_t r = 0; r < 12; ++r) {
        CHECK(plan.cell_of_row(r) == r / 4);
        CHECK(plan.engine_of_row(r) == (r % 4) / 2);
        CHECK(plan.mode_of_row(r) == (r % 2 == 0 ? Detection::discrete : Detection::swept));
        CHECK(plan.variant_name(plan.variant_of_row(r)) == names[r % 4]);
        CHECK(plan.row_of(plan.cell_of_row(r), plan.variant_of_row(r)) == r);
    }
    // One engine: a variant is named by its mode alone, as before.
    CHECK(parse_engine_list("bullet") == std::vector<std::string>{"bullet"});
    plan.engines = {"bullet"};
    CHECK(plan.variant_name(1) == "swept");
    CHECK_THROWS_WITH(parse_engine_list("collide,collide"), Catch::Contains("collide is named twice"));
    CHECK_THROWS_WITH(parse_engine_list("collide,"), Catch::Contains("expected an engine name"));
}

TEST_CASE("shards K/N partition the grid exactly") {
    const std::vector<std::string> varies = {"speed=1:7:1", "offset=0:0.5:0.1"};
    SweepPlan plan;
    plan.grid = make_grid(varies, kParams); // 42 cells
    for (std::uint64_t n = 1; n <= 50; n += (n < 8 ? 1 : 7)) {
        std::multiset<std::uint64_t> seen;
        for (std::uint64_t k = 0; k < n; ++k) {
            plan.shard = Shard{k, n};
            for (std::uint64_t r = 0; r < plan.rows(); ++r) {
                const std::uint64_t cell = plan.cell_of_row(r);
                CHECK(cell % n == k);
                seen.insert(cell);
            }
        }
        INFO("N = " << n);
        REQUIRE(seen.size() == 42);
        std::uint64_t expect = 0;
        for (std::uint64_t c : seen) CHECK(c == expect++);
    }
}

TEST_CASE("sweep --shard is K/N with 1 <= K <= N") {
    const Shard s = parse_shard("3/8");
    CHECK(s.index == 2);
    CHECK(s.count == 8);
    for (const char* bad : {"0/3", "4/3", "1/0", "x", "1/", "/2", "-1/2", "1/2/3", "1.5/3"})
        CHECK_THROWS_WITH(parse_shard(bad), Catch::Contains("--shard"));
}

TEST_CASE("a comma-separated list splits into its parts, each trimmed, empty parts kept") {
    using V = std::vector<std::string_view>;
    CHECK(split_commas("collide,bullet") == V{"collide", "bullet"});
    CHECK(split_commas("collide, bullet") == V{"collide", "bullet"}); // as a grid line lists them
    CHECK(split_commas(" a ,\tb\t, c") == V{"a", "b", "c"});
    CHECK(split_commas("one") == V{"one"});
    CHECK(split_commas("a,,b") == V{"a", "", "b"});
    CHECK(split_commas("") == V{""});
}
