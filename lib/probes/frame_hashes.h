#pragma once
/// \file
/// Per-frame hashes of a run, kept beside a golden (`golden: { frame_hashes: true }`) so that a
/// check that fails can say *when* the run parted from the golden's, not only what differs at
/// the end.
///
/// A frame's hash covers every body's state at that frame bit for bit: position (m), velocity
/// (m/s), rotation w x y z and angular velocity (rad/s), the 13 doubles of a recording
/// (probes/record_file.h), in Scenario::bodies order. Each body also keeps one hash of its whole
/// motion (its states at every frame), so that the bodies whose motion moved can be named.
/// The hash is 64 bits: each double's bit pattern is folded in as a word, h = mix(h ⊕ word),
/// with mix the finaliser of MurmurHash3 (an odd multiply and shifts, bijective on 64 bits).
///
/// On disk (EXPECTED/NAME.frames; NAME.ENGINE.frames for another engine), little-endian:
///
///     "COLLFRM1"          8 bytes, the format and its version
///     u32 frames, u32 bodies
///     frames × u64        each frame's hash, in the order the frames were stepped
///     bodies × u64        each body's motion hash, in Scenario::bodies order
///     u64 digest          FNV-1a over every byte before it: a file cut short or edited shows
///
/// 8 bytes a frame and 8 a body: 600 frames of 4 bodies are 4.9 kB.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "probes/simulate.h"

namespace collide {

/// A run's hashes: one a frame, one a body.
struct FrameHashes {
    std::vector<std::uint64_t> frames; ///< each sampled frame's hash, in step order
    std::vector<std::uint64_t> bodies; ///< each body's motion hash, in Scenario::bodies order
    std::vector<int> frame_numbers;    ///< the frame index of each hash (this run's; not written)
    std::vector<double> times;         ///< the time (s) of each hash (this run's; not written)
};

/// A TraceSink that hashes every frame it is shown, and every body's motion.
class FrameHashSink final : public TraceSink {
public:
    void frame(int frame, double time, std::span<const BodyState> bodies) override;
    /// The hashes so far (moved out).
    FrameHashes take() { return std::move(hashes_); }

private:
    FrameHashes hashes_;
};

/// The file's bytes for `hashes` (see the file comment).
std::string render_frame_hashes(const FrameHashes& hashes);

/// Reads a frames file (`shown` names it in the message). Returns the hashes (without frame
/// numbers or times), or sets `problem` (a file that is not one, cut short, or whose digest does
/// not match its bytes) and returns nothing.
std::optional<FrameHashes> read_frame_hashes(std::string_view bytes, const std::string& shown, std::string& problem);

/// Where a run parts from a golden's hashes.
struct FrameDivergence {
    int index = -1;                        ///< the first hash that differs (an index into both); −1: the frames agree
    int frame = 0;                         ///< this run's frame number there
    double time = 0;                       ///< and its time (s)
    int golden_frames = 0, run_frames = 0; ///< how many frames each holds
    bool bodies_comparable = true;         ///< false when the body counts differ
    int golden_bodies = 0, run_bodies = 0; ///< how many bodies each holds
    std::vector<int> bodies;               ///< the bodies whose motion hash differs (indices into the run's)
    /// Whether the run's frames are exactly the golden's.
    bool same() const { return index < 0 && golden_frames == run_frames && bodies.empty() && bodies_comparable; }
};

/// Compares a run's hashes with its golden's.
FrameDivergence compare_frame_hashes(const FrameHashes& golden, const FrameHashes& run);

} // namespace collide
