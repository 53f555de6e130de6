#include "sweep/progress.h"

#include <fmt/format.h>

namespace collide {

Progress::Progress(std::uint64_t total, bool terminal, std::FILE* out)
        : total_(total), terminal_(terminal), out_(out), start_(Clock::now()), last_draw_(start_) {}

Progress::~Progress() {
    if (drawn_ && out_) {
        fmt::print(out_, "\r\033[K");
        std::fflush(out_);
    }
}

void Progress::update(std::uint64_t done) {
    done_ = done;
    if (!terminal_ || !out_) return;
    const auto now = Clock::now();
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    if (elapsed < 0.5 || now - last_draw_ < std::chrono::milliseconds(200)) return;
    last_draw_ = now;
    const double rate = done > 0 ? static_cast<double>(done) / elapsed : 0;
    const double left = rate > 0 ? static_cast<double>(total_ - done) / rate : 0;
    fmt::print(out_, "\rsweep: {} / {} cells, {:.0f} cells/s, {:.0f} s left   ", done, total_, rate, left);
    std::fflush(out_);
    drawn_ = true;
}

void Progress::finish() {
    if (!out_) return;
    const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    const double rate = elapsed > 0 ? static_cast<double>(done_) / elapsed : 0;
    if (drawn_) fmt::print(out_, "\r\033[K");
    drawn_ = false;
    fmt::print(out_, "sweep: {} cells in {:.3g} s ({:.0f} cells/s)\n", done_, elapsed, rate);
    std::fflush(out_);
}

} // namespace collide
