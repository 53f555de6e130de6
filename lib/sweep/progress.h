#pragma once
/// \file
/// Progress of long work on stderr — a sweep's cells, a big scene's loading and stepping, a
/// big suite's scenarios. On a terminal, a line that overwrites itself — the phase, done of
/// total, the rate and the time left (`sim: stepping 12 / 60 frames, 3.1 frames/s, 16 s left`)
/// — at most five times a second once the work has run for half a second; nothing on a pipe.
/// A sweep then prints one summary line, on a terminal or a pipe alike:
/// `sweep: N cells in T s (R cells/s)`.

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace collide {

/// Reports the progress of one command on a stream (normally stderr).
class Progress {
public:
    /// Progress of `command` ("sim", "check") on `out`; live lines only when `terminal`.
    Progress(std::string command, bool terminal, std::FILE* out);
    /// A sweep of `total` rows (counted as cells), on `out`.
    Progress(std::uint64_t total, bool terminal, std::FILE* out);
    /// Clears a live line left by work that failed before finish(), so errors start clean.
    ~Progress();
    Progress(const Progress&) = delete;
    Progress& operator=(const Progress&) = delete;

    /// Starts phase `name` ("loading", "stepping", "writing"; empty for a single-phase command)
    /// of `total` items of `unit` ("frames", "scenarios", "MB": then items are bytes, shown in
    /// MB). `already` of them were done before this run (a resumed sweep): they count as done
    /// but not in the rate. A live line already drawn shows the new phase at once.
    void phase(std::string name, std::uint64_t total, std::string unit, std::uint64_t already = 0);
    /// Notes that `done` items of the phase are finished; redraws the live line when due.
    void update(std::uint64_t done);
    /// Clears the live line and prints a sweep's summary line (nothing for other commands).
    void finish();

private:
    using Clock = std::chrono::steady_clock;
    void draw(Clock::time_point now);
    void clear();

    std::string command_;
    std::string phase_;
    std::string unit_ = "cells";
    std::uint64_t total_ = 0;
    std::uint64_t already_ = 0;
    std::uint64_t done_ = 0;
    bool summary_ = false;
    bool terminal_;
    bool drawn_ = false;
    std::FILE* out_;
    Clock::time_point start_;
    Clock::time_point phase_start_;
    Clock::time_point last_draw_;
};

} // namespace collide
