// The stage list World::step walks (world/stages.h): every stage once, in the documented order,
// and the stages run one by one on a world's tables give the world's own frames, bit for bit.
#include <catch2/catch.hpp>

#include <algorithm>
#include <vector>

#include "support.h"
#include "world/contacts_update.h"
#include "world/stages.h"

using namespace collide;
using namespace collide::test;

TEST_CASE("a step's stages: each once, in the order world/stages.h lists them", "[world][stages]") {
    const std::vector<std::string_view> names = {"prepare",
                                                 "impacts",
                                                 "integrate velocities",
                                                 "solve",
                                                 "integrate positions",
                                                 "restitution",
                                                 "store impulses",
                                                 "characters",
                                                 "correct positions",
                                                 "update contacts",
                                                 "sleep"};
    REQUIRE(std::size(kStepStages) == names.size());
    for (std::size_t k = 0; k < names.size(); ++k) {
        INFO("stage " << k);
        CHECK(stage_name(kStepStages[k]) == names[k]);
        CHECK(static_cast<std::size_t>(kStepStages[k]) == k); // each stage once
    }
}

TEST_CASE("the stages run one by one on the tables step as World does, bit for bit", "[world][stages]") {
    // A turned crate dropped onto a stack of two boxes beside a ball rolling into it, swept: every
    // stage has work (impacts, solve, continuous, restitution, correction, contacts, sleep).
    WorldDef def = world_def(60, 2.0, Detection::swept);
    std::vector<BodyDef> bodies{ground_at({0, -1, 0}, {10, 1, 10}, {}, 0.5)};
    bodies.push_back(box_at({0, 0.5, 0}, {0.5, 0.5, 0.5}, {}, 0.5, 0.2));
    bodies.push_back(box_at({0, 1.5, 0}, {0.5, 0.5, 0.5}, {}, 0.5, 0.2));
    bodies.push_back(box_at({0.1, 3.2, 0}, {0.4, 0.3, 0.2}, exp_rotation({0.3, 0.2, 0.5}), 0.5, 0.5));
    bodies.push_back(ball_at({-3, 0.25, 0}, 0.25, 0.5, 0.3));
    bodies.back().velocity = {4, 0, 0};
    World world;
    world.reset(def, bodies);
    WorldState w;
    StepScratch scratch;
    reset_world(w, scratch, def, bodies);
    for (int k = 0; k < def.frames; ++k) {
        world.step_frame();
        // World::step_frame's bookkeeping, then the stages in order (phase 0: frame 0 steps nothing).
        if (k > 0) {
            const double h = def.dt;
            w.frame = k;
            w.step_start = (k - 1) * def.dt;
            w.frame_time = k * def.dt;
            w.last_step = w.step > 0 ? w.step : h;
            w.step = h;
            const StepContext ctx = make_step_context(w.def, h, w.up);
            for (const StepStage stage : kStepStages) run_stage(stage, ctx, w, scratch);
        } else { // a frame at t = 0: no time passes; the contacts are found again (no character here)
            w.frame = 0;
            const StepContext ctx = make_step_context(w.def, def.dt, w.up);
            update_contacts(ctx, w, scratch, false);
        }
        w.frames_stepped = k + 1;
        for (int i = 0; i < world.body_count(); ++i) {
            INFO("frame " << k << ", body " << i);
            const BodyState a = world.state(i), b = w.state(i);
            REQUIRE(a.position == b.position);
            REQUIRE(a.velocity == b.velocity);
            REQUIRE(a.rotation == b.rotation);
            REQUIRE(a.angular_velocity == b.angular_velocity);
        }
    }
}
