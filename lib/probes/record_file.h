#pragma once
/// \file
/// A run's recording on disk (`sim --record RUN.rec`), and one reader for recordings and CSV
/// traces (`sim --trace`), as `diverge` compares them.
///
/// A recording holds every sampled frame's state of every body, exactly (each double's 64 bits),
/// and the contacts found up to that frame, streamed as the world steps (memory bounded by one
/// frame). Layout, every number little-endian (IEEE 754 doubles, two's-complement integers):
///
///     "COLLREC1"                          8 bytes, the format and its version
///     u32 n, n bytes of text              the header: one `key: value` a line, in this order:
///                                         scenario, digest, engine, build, then `param: NAME=V`
///                                         for each param and `body: NAME` for each body
///     per frame: 'F', i32 frame, f64 time, u32 contacts,
///                contacts × (i32 a, i32 b, f64 point[3], f64 normal[3], f64 depth),
///                bodies × f64[13]         position (m), velocity (m/s), rotation w x y z,
///                                         angular velocity (rad/s, world frame)
///     'E', u64 frames                     the end: a file without it is incomplete
///
/// A body's state takes 104 bytes a frame: 1,000 bodies over 600 frames are 62 MB.

#include <array>
#include <cstdint>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include "io/atomic_file.h"
#include "model/scenario.h"
#include "probes/simulate.h"

namespace collide {

/// A body state's 13 numbers in the recording's order: position (m), velocity (m/s), rotation
/// w x y z, angular velocity (rad/s, world frame).
std::array<double, 13> state_numbers(const BodyState& s);

/// The body state of 13 numbers in that order.
BodyState state_of_numbers(const std::array<double, 13>& v);

/// What a run was: read from a recording's header, or (a trace) from its rows.
struct RunInfo {
    std::string scenario; ///< the scenario's name
    std::string digest;   ///< 16 hex digits of FNV-1a over the scenario file's bytes
    std::string engine;   ///< the engine that ran it
    /// The build: collide's version and the commit it was configured at, the compiler, the build
    /// type and flags, optimization and instruction set (`collide 0.1.0 (commit 1a2b…), gcc 12.2.0,
    /// Release flags "-O2 -DNDEBUG …", optimized, SSE2`).
    std::string build;
    std::vector<std::pair<std::string, double>> params; ///< the params as run (after --set)
    std::vector<std::string> bodies;                    ///< body names, in Scenario::bodies order
};

/// The build this program was compiled by, on one line, as a recording's header and `collide
/// --version` name it: collide's version and the commit it was configured at, the compiler and its
/// version, the build type and flags, optimization and instruction set (`collide 0.1.0 (commit
/// 1a2b…), gcc 12.2.0, Release flags "-O2 -DNDEBUG …", optimized, SSE2`).
std::string describe_build();

/// The header of a run of `scenario` by `engine`, its digest from the scenario file's bytes
/// (`text`; empty when it was read from stdin: then the digest is empty too).
RunInfo run_info_of(const Scenario& scenario, std::string_view engine, std::string_view text);

/// FNV-1a (64 bits) over `bytes`.
std::uint64_t fnv1a(std::string_view bytes);

/// 16 lowercase hex digits of FNV-1a (64 bits) over `bytes`.
std::string fnv1a_hex(std::string_view bytes);

/// A TraceSink that streams the recording to an OutputFile: the header at once, then each
/// sampled frame with the contacts found since the frame before. finish() writes the end mark;
/// the caller commits the output after it.
class RecordFileSink final : public TraceSink {
public:
    /// `out` must outlive the sink.
    RecordFileSink(const RunInfo& info, OutputFile& out);
    void frame(int frame, double time, std::span<const BodyState> bodies) override;
    bool wants_contacts() const override { return true; }
    void contact(const TraceContact& c) override { pending_.push_back(c); }
    /// Writes the end mark (after the last frame).
    void finish();

private:
    OutputFile& out_;
    std::vector<TraceContact> pending_; ///< contacts whose frame is not sampled yet
    std::string bytes_;                 ///< the frame being written (reused)
    std::uint64_t frames_ = 0;
};

/// One sampled frame of a run, as read back.
struct RunFrame {
    int frame = 0;                      ///< the frame's index
    double time = 0;                    ///< its time (s)
    std::vector<BodyState> bodies;      ///< every body's state, in RunInfo::bodies order
    std::vector<TraceContact> contacts; ///< the contacts found since the frame before
};

/// Reads a recording or a CSV trace frame by frame (told apart by their first bytes). Throws
/// InputError (model/diagnostic.h) naming the file — with line and column for a trace, the byte
/// offset for a recording — when it cannot be read, is neither, or is cut short or malformed.
class RunReader {
public:
    explicit RunReader(const std::string& path);
    /// "recording" or "trace".
    const char* kind() const { return binary_ ? "recording" : "trace"; }
    /// The run's header (a trace: its bodies, known once its first frame is read; nothing else).
    const RunInfo& info() const { return info_; }
    /// The next frame into `out`; false at the end of the run.
    bool next(RunFrame& out);

private:
    bool next_binary(RunFrame& out);
    bool next_trace(RunFrame& out);
    [[noreturn]] void fail(const std::string& message) const;
    void read_bytes(void* to, std::size_t n, const char* what);
    double read_f64(const char* what);
    std::uint32_t read_u32(const char* what);

    std::string path_;
    std::ifstream in_;
    bool binary_ = false;
    bool ended_ = false;
    std::uint64_t offset_ = 0; ///< bytes read (a recording)
    int line_ = 0;             ///< lines read (a trace)
    std::string pending_line_; ///< a trace's first row of the next frame, read ahead
    bool have_pending_ = false;
    std::uint64_t frames_ = 0;
    RunInfo info_;
};

} // namespace collide
