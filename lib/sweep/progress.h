#pragma once
/// \file
/// Progress of a long sweep on stderr: on a terminal a line that overwrites itself (cells done
/// of total, cells/s, time left) at most five times a second once the sweep has run for half a
/// second; then, on a terminal or a pipe alike, one summary line
/// `sweep: N cells in T s (R cells/s)`.

#include <chrono>
#include <cstdint>
#include <cstdio>

namespace collide {

/// Reports a sweep's progress on a stream (normally stderr).
class Progress {
public:
    /// `total` rows; `terminal`: whether `out` is a terminal (live line) or not (summary only).
    Progress(std::uint64_t total, bool terminal, std::FILE* out);
    /// Clears a live line left by a sweep that failed before finish(), so errors start clean.
    ~Progress();
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;
    /// Notes that `done` rows are finished; redraws the live line when due.
    void update(std::uint64_t done);
    /// Clears the live line and prints the summary.
    void finish();

private:
    using Clock = std::chrono::steady_clock;
    std::uint64_t total_;
    std::uint64_t done_ = 0;
    bool terminal_;
    bool drawn_ = false;
    std::FILE* out_;
    Clock::time_point start_;
    Clock::time_point last_draw_;
};

} // namespace collide
