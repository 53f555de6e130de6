// Frame hashes (probes/frame_hashes.cpp): one bit of one body's state at one frame moves that
// frame's hash and that body's, nothing before it; the file is 8 bytes a frame and a body, reads
// back exactly, and one that is cut short, edited or not one at all is refused.
#include <catch2/catch.hpp>

#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "probes/frame_hashes.h"

using namespace collide;

namespace {

/// Three bodies falling for `frames` frames at 60 Hz (their states made up, not simulated);
/// `flip`, when ≥ 0, flips the lowest bit of body 1's vy from that frame on.
FrameHashes hash_run(int frames, int flip = -1) {
    FrameHashSink sink;
    std::vector<BodyState> bodies(3);
    for (int f = 0; f < frames; ++f) {
        const double t = f / 60.0;
        for (std::size_t k = 0; k < bodies.size(); ++k) {
            bodies[k].position = {static_cast<double>(k), 2 - 4.905 * t * t, 0};
            bodies[k].velocity = {0, -9.81 * t, 0};
        }
        if (flip >= 0 && f >= flip)
            bodies[1].velocity.y = std::bit_cast<double>(std::bit_cast<std::uint64_t>(bodies[1].velocity.y) ^ 1u);
        sink.frame(f, t, bodies);
    }
    return sink.take();
}

} // namespace

TEST_CASE("frame hashes: one bit of one body at frame 7 moves frame 7's hash and that body's, nothing before",
          "[probes][frame_hashes]") {
    const FrameHashes golden = hash_run(20), same = hash_run(20), moved = hash_run(20, 7);
    REQUIRE(golden.frames.size() == 20);
    REQUIRE(golden.bodies.size() == 3);
    CHECK(compare_frame_hashes(golden, same).same());
    const FrameDivergence d = compare_frame_hashes(golden, moved);
    CHECK_FALSE(d.same());
    CHECK(d.index == 7);
    CHECK(d.frame == 7);
    CHECK(d.time == Approx(7 / 60.0));
    CHECK(d.bodies == std::vector<int>{1});
    for (int f = 0; f < 7; ++f)
        CHECK(golden.frames[static_cast<std::size_t>(f)] == moved.frames[static_cast<std::size_t>(f)]);
    for (int f = 7; f < 20; ++f)
        CHECK(golden.frames[static_cast<std::size_t>(f)] != moved.frames[static_cast<std::size_t>(f)]);
    // A run that stops early agrees frame by frame, but not in length (nor in the bodies' motion).
    const FrameDivergence shorter = compare_frame_hashes(golden, hash_run(15));
    CHECK(shorter.index == -1);
    CHECK(shorter.golden_frames == 20);
    CHECK(shorter.run_frames == 15);
    CHECK_FALSE(shorter.same());
}

TEST_CASE("frame hashes: the file is 8 bytes a frame and a body, reads back exactly, and refuses damage",
          "[probes][frame_hashes]") {
    const FrameHashes h = hash_run(20, 3);
    const std::string bytes = render_frame_hashes(h);
    CHECK(bytes.size() == 8 + 8 + 8 * (20 + 3) + 8);
    CHECK(bytes.substr(0, 8) == "COLLFRM1");
    std::string problem;
    const auto back = read_frame_hashes(bytes, "x.frames", problem);
    REQUIRE(back);
    CHECK(problem.empty());
    CHECK(back->frames == h.frames);
    CHECK(back->bodies == h.bodies);

    std::string edited = bytes;
    edited[40] = static_cast<char>(edited[40] ^ 0x10);
    CHECK_FALSE(read_frame_hashes(edited, "x.frames", problem));
    CHECK(problem == "x.frames: its digest does not match its bytes (edited or damaged)");
    CHECK_FALSE(read_frame_hashes(bytes.substr(0, bytes.size() - 1), "x.frames", problem));
    CHECK(problem == "x.frames: holds 207 bytes where 20 frames and 3 bodies take 208 (cut short or edited)");
    CHECK_FALSE(read_frame_hashes("drop.log's text", "x.frames", problem));
    CHECK(problem == "x.frames: not a frame hashes file (it does not start with COLLFRM1)");
    CHECK_FALSE(read_frame_hashes("", "x.frames", problem));
}
