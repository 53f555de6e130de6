// Robustness: thousands of mutated copies of the shipped scenarios (fixed seed) either load and
// run to a rendered log, or are refused with FILE:LINE:COLUMN diagnostics — never a crash, a
// hang, another exception, or a NaN where the log promises a number.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "probes/simulate.h"
#include "report/render.h"
#include "scenario/load.h"
#include "support/sample_count.h"

using namespace collide;
namespace fs = std::filesystem;

namespace {

std::vector<std::string> shipped_texts() {
    std::vector<std::string> texts;
    std::vector<fs::path> paths;
    for (const auto& e : fs::directory_iterator(fs::path(COLLIDE_SOURCE_DIR) / "scenarios"))
        if (e.path().extension() == ".yaml") paths.push_back(e.path());
    std::sort(paths.begin(), paths.end());
    for (const fs::path& p : paths) {
        std::stringstream ss;
        ss << std::ifstream(p).rdbuf();
        texts.push_back(ss.str());
    }
    return texts;
}

/// One random edit: flip a byte to YAML punctuation or a digit, delete a span, duplicate a line,
/// or swap two numbers' signs.
std::string mutate(std::string text, std::mt19937_64& rng) {
    static const std::string alphabet = "{}[]:,-#$&*!|>'\"%@` \n\t0123456789.eE+-abcxyz";
    const int edits = 1 + static_cast<int>(rng() % 3);
    for (int k = 0; k < edits && !text.empty(); ++k) {
        const std::size_t at = rng() % text.size();
        switch (rng() % 5) {
        case 0: text[at] = alphabet[rng() % alphabet.size()]; break;
        case 1: text.erase(at, 1 + rng() % 8); break;
        case 2: text.insert(at, 1, alphabet[rng() % alphabet.size()]); break;
        case 3: { // duplicate the line holding `at`
            const std::size_t begin = text.rfind('\n', at) == std::string::npos ? 0 : text.rfind('\n', at) + 1;
            const std::size_t end = text.find('\n', at);
            text.insert(begin, text.substr(begin, end == std::string::npos ? std::string::npos : end - begin + 1));
            break;
        }
        default: { // negate a number
            const std::size_t digit = text.find_first_of("0123456789", at);
            if (digit != std::string::npos) text.insert(digit, 1, '-');
        }
        }
    }
    return text;
}

} // namespace

TEST_CASE("mutated scenarios load and run, or are refused with located diagnostics") {
    const std::vector<std::string> texts = shipped_texts();
    REQUIRE(texts.size() >= 10);
    std::mt19937_64 rng(424242);
    int loaded = 0, refused = 0, ran = 0;
    Workspace workspace;
    const int trials = collide::test::sample_count(3000);
    for (int trial = 0; trial < trials; ++trial) {
        const std::string text = mutate(texts[trial % texts.size()], rng);
        INFO("trial " << trial << ":\n" << text);
        try {
            const ScenarioTemplate t = parse_scenario_template(text, "mutant.yaml");
            auto evaluator = t.make_evaluator();
            Scenario s;
            t.instantiate(t.default_params(), evaluator, s);
            ++loaded;
            // Keep each run short: the mutants may ask for millions of frames.
            if (s.world.frames > 600 || s.bodies.size() > 16) continue;
            const Layout layout = layout_of(s);
            std::vector<double> values(layout.fields.size());
            simulate(s, values, workspace);
            const std::string log = render_text(s, layout, values);
            CHECK(log.find("nan") == std::string::npos);
            CHECK(log.find("inf") == std::string::npos);
            ++ran;
        } catch (const InputError& e) {
            ++refused;
            REQUIRE_FALSE(e.diagnostics.empty());
            for (const Diagnostic& d : e.diagnostics) {
                CHECK(d.line >= 1);
                CHECK(d.column >= 1);
                CHECK_FALSE(d.message.empty());
                CHECK(d.message.find('\n') == std::string::npos);
            }
        }
    }
    // Both outcomes must be exercised, or the test proves nothing.
    CHECK(refused > trials / 30); // 100 of the 3000 (10 of the 300 under ASan)
    CHECK(ran > trials / 30);
    INFO("loaded " << loaded << ", ran " << ran << ", refused " << refused);
}
