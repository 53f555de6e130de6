// "The same bits on every build" (README, Reliability) as a ctest, not only as a CI job: a
// recording of a shipped scenario made by a Clang build of this source
// (tests/determinism/tumble.clang.rec, written by scripts/record-other-build.sh) must be this
// build's run of the same scenario frame for frame, bit for bit (`collide diverge` exits 0).
// When the physics moves on purpose the recording moves with the goldens: run the script and
// commit it in the same commit.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>

#include "app/diverge.h"
#include "app/measure.h"
#include "probes/record_file.h"
#include "support/project_dir.h"

using namespace collide;
using namespace collide::test;

TEST_CASE("a recording from a Clang build is this build's run of the same scenario, bit for bit",
          "[determinism][record]") {
    const std::string dir = COLLIDE_SOURCE_DIR;
    const std::string committed = dir + "/tests/determinism/tumble.clang.rec";
    const std::string scenario = dir + "/scenarios/tumble.yaml";
    const RunInfo other = RunReader(committed).info();
    INFO("recorded by: " << other.build);
    REQUIRE(other.build.find("clang") != std::string::npos); // another compiler's build
    // The scenario it recorded is the one here (else: re-record it, bash scripts/record-other-build.sh).
    REQUIRE(other.digest == fnv1a_hex(read_text(scenario)));

    const ScratchDir scratch("collide_other_build");
    SimOptions options;
    options.record_path = (scratch.path / "this.rec").string();
    measure_scenario(scenario, options);
    DivergeRequest request;
    request.files = {committed, options.record_path};
    std::ostringstream out, err;
    const int code = diverge_command(request, out, err);
    INFO(out.str() << err.str());
    CHECK(code == 0);
    // Every frame of both: 3 s at 60 Hz sampled at t = 0, 1/60, …, 3 s (world.duration) is 181.
    CHECK_THAT(out.str(), Catch::Contains("the same over all 181 frames, bit for bit"));
}
