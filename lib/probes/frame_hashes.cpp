#include "probes/frame_hashes.h"

#include <bit>

#include "probes/record_file.h"

namespace collide {

namespace {

constexpr std::string_view kMagic = "COLLFRM1";

/// MurmurHash3's 64-bit finaliser: every input bit reaches every output bit.
std::uint64_t mix(std::uint64_t h) {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdULL;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ULL;
    h ^= h >> 33;
    return h;
}

/// Folds a body state's 13 doubles into `h`.
std::uint64_t fold_state(std::uint64_t h, const BodyState& s) {
    for (const double x : state_numbers(s)) h = mix(h ^ std::bit_cast<std::uint64_t>(x));
    return h;
}

constexpr std::uint64_t kSeed = 0x636f6c6c69646531ULL; // "collide1"

void put_u32(std::string& out, std::uint32_t v) {
    for (int k = 0; k < 4; ++k) out.push_back(static_cast<char>((v >> (8 * k)) & 0xff));
}

void put_u64(std::string& out, std::uint64_t v) {
    for (int k = 0; k < 8; ++k) out.push_back(static_cast<char>((v >> (8 * k)) & 0xff));
}

std::uint64_t get_u64(std::string_view bytes, std::size_t at) {
    std::uint64_t v = 0;
    for (int k = 7; k >= 0; --k) v = (v << 8) | static_cast<unsigned char>(bytes[at + static_cast<std::size_t>(k)]);
    return v;
}

} // namespace

void FrameHashSink::frame(int frame, double time, std::span<const BodyState> bodies) {
    if (hashes_.bodies.empty()) hashes_.bodies.assign(bodies.size(), kSeed);
    std::uint64_t h = kSeed;
    for (std::size_t k = 0; k < bodies.size(); ++k) {
        h = fold_state(h, bodies[k]);
        if (k < hashes_.bodies.size()) hashes_.bodies[k] = fold_state(hashes_.bodies[k], bodies[k]);
    }
    hashes_.frames.push_back(h);
    hashes_.frame_numbers.push_back(frame);
    hashes_.times.push_back(time);
}

std::string render_frame_hashes(const FrameHashes& hashes) {
    std::string out(kMagic);
    put_u32(out, static_cast<std::uint32_t>(hashes.frames.size()));
    put_u32(out, static_cast<std::uint32_t>(hashes.bodies.size()));
    for (const std::uint64_t h : hashes.frames) put_u64(out, h);
    for (const std::uint64_t h : hashes.bodies) put_u64(out, h);
    put_u64(out, fnv1a(out));
    return out;
}

std::optional<FrameHashes> read_frame_hashes(std::string_view bytes, const std::string& shown, std::string& problem) {
    const auto fail = [&](const std::string& why) -> std::optional<FrameHashes> {
        problem = shown + ": " + why;
        return std::nullopt;
    };
    if (bytes.size() < kMagic.size() + 8 || bytes.substr(0, kMagic.size()) != kMagic)
        return fail("not a frame hashes file (it does not start with COLLFRM1)");
    const auto u32_at = [&](std::size_t at) {
        std::uint32_t v = 0;
        for (int k = 3; k >= 0; --k) v = (v << 8) | static_cast<unsigned char>(bytes[at + static_cast<std::size_t>(k)]);
        return v;
    };
    const std::uint64_t frames = u32_at(8), bodies = u32_at(12);
    const std::uint64_t size = 16 + 8 * (frames + bodies) + 8;
    if (bytes.size() != size)
        return fail("holds " + std::to_string(bytes.size()) + " bytes where " + std::to_string(frames) +
                    " frames and " + std::to_string(bodies) + " bodies take " + std::to_string(size) +
                    " (cut short or edited)");
    if (get_u64(bytes, size - 8) != fnv1a(bytes.substr(0, size - 8)))
        return fail("its digest does not match its bytes (edited or damaged)");
    FrameHashes h;
    h.frames.resize(frames);
    h.bodies.resize(bodies);
    for (std::uint64_t k = 0; k < frames; ++k) h.frames[k] = get_u64(bytes, 16 + 8 * k);
    for (std::uint64_t k = 0; k < bodies; ++k) h.bodies[k] = get_u64(bytes, 16 + 8 * (frames + k));
    return h;
}

FrameDivergence compare_frame_hashes(const FrameHashes& golden, const FrameHashes& run) {
    FrameDivergence d;
    d.golden_frames = static_cast<int>(golden.frames.size());
    d.run_frames = static_cast<int>(run.frames.size());
    d.golden_bodies = static_cast<int>(golden.bodies.size());
    d.run_bodies = static_cast<int>(run.bodies.size());
    const std::size_t both = std::min(golden.frames.size(), run.frames.size());
    for (std::size_t k = 0; k < both; ++k)
        if (golden.frames[k] != run.frames[k]) {
            d.index = static_cast<int>(k);
            if (k < run.frame_numbers.size()) d.frame = run.frame_numbers[k];
            if (k < run.times.size()) d.time = run.times[k];
            break;
        }
    d.bodies_comparable = golden.bodies.size() == run.bodies.size();
    if (d.bodies_comparable)
        for (std::size_t k = 0; k < run.bodies.size(); ++k)
            if (golden.bodies[k] != run.bodies[k]) d.bodies.push_back(static_cast<int>(k));
    return d;
}

} // namespace collide
