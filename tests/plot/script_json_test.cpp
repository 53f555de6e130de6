// The JSON of a page's scripts (plot/script_json.h): nlohmann's text, made safe inside a
// <script> element, numbers as short as they can be and no shorter.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>
#include <string>

#include "plot/script_json.h"

using namespace collide;

TEST_CASE("script_json: no text can close the script element, and it reads back as the same value",
          "[plot][script_json]") {
    const std::string name = "</script><b>&amp;\"\\\n\x01 é";
    const std::string text = script_json(PageJson{{"name", name}});
    CHECK(text == "{\"name\":\"\\u003c/script\\u003e\\u003cb\\u003e\\u0026amp;\\\"\\\\\\n\\u0001 é\"}");
    CHECK(text.find('<') == std::string::npos);
    CHECK(text.find('>') == std::string::npos);
    CHECK(text.find('&') == std::string::npos);
    CHECK(nlohmann::json::parse(text)["name"] == name);
    // Bytes that are not UTF-8 become U+FFFD instead of failing the page.
    CHECK(script_json(PageJson(std::string("a\xff"
                                           "b"))) == "\"a\xef\xbf\xbd"
                                                     "b\"");
    // Keys keep the order they were added in: the same run, the same bytes.
    CHECK(script_json(PageJson{{"z", 1}, {"a", 2}}) == "{\"z\":1,\"a\":2}");
}

TEST_CASE("json_number: whole numbers as integers, others as the shortest text that reads back",
          "[plot][script_json]") {
    CHECK(script_json(json_number(2.0)) == "2");
    CHECK(script_json(json_number(-0.0)) == "0");
    CHECK(script_json(json_number(0.1)) == "0.1");
    CHECK(script_json(json_number(0.1 + 0.2)) == "0.30000000000000004");
    CHECK(std::stod(script_json(json_number(1.0 / 3))) == 1.0 / 3);
    CHECK(script_json(json_number(std::ldexp(1.0, -17))) == "7.62939453125e-06");
    CHECK(script_json(json_number(1e300)) == "1e+300");
    CHECK(script_json(json_number(std::nan(""))) == "null");
    CHECK(script_json(json_number(std::numeric_limits<double>::infinity())) == "null");
    // Six significant digits, as a 2D view needs: rounded, then as short as it reads back.
    CHECK(script_json(json_number(0.123456789, 6)) == "0.123457");
    CHECK(script_json(json_number(123456.789, 6)) == "123457");
    CHECK(script_json(json_number(-9.80665e-7, 3)) == "-9.81e-07");
    CHECK(script_json(json_number(1.0 / 3, 17)) == script_json(json_number(1.0 / 3)));
    CHECK_THROWS_AS(json_number(1.0, 0), std::invalid_argument);
}
