#include "sweep/progress.h"

#include <fmt/format.h>

namespace collide {

Progress::Progress(std::string command, bool terminal, std::FILE* out)
        : command_(std::move(command)), terminal_(terminal), out_(out), start_(Clock::now()), phase_start_(start_),
          last_draw_(start_) {}

Progress::Progress(std::uint64_t total, bool terminal, std::FILE* out) : Progress("sweep", terminal, out) {
    total_ = total;
    summary_ = true;
}

Progress::~Progress() { clear(); }

void Progress::clear() {
    if (!drawn_ || !out_) return;
    fmt::print(out_, "\r\033[K");
    std::fflush(out_);
    drawn_ = false;
}

void Progress::phase(std::string name, std::uint64_t total, std::string unit, std::uint64_t already) {
    phase_ = std::move(name);
    unit_ = std::move(unit);
    total_ = total;
    already_ = done_ = already;
    phase_start_ = Clock::now();
    if (drawn_) draw(phase_start_);
}

void Progress::update(std::uint64_t done) {
    done_ = done;
    if (!terminal_ || !out_) return;
    const auto now = Clock::now();
    if (now - start_ < std::chrono::milliseconds(500) || now - last_draw_ < std::chrono::milliseconds(200)) return;
    draw(now);
}

void Progress::draw(Clock::time_point now) {
    if (!terminal_ || !out_) return;
    last_draw_ = now;
    const double elapsed = std::chrono::duration<double>(now - phase_start_).count();
    const double fresh = static_cast<double>(done_ - std::min(done_, already_));
    const double rate = elapsed > 0 ? fresh / elapsed : 0;
    const double left = rate > 0 ? static_cast<double>(total_ - std::min(total_, done_)) / rate : 0;
    const std::string head = phase_.empty() ? command_ + ":" : command_ + ": " + phase_;
    std::string line;
    if (total_ == 0)
        line = head;
    else if (unit_ == "MB")
        line = fmt::format("{} {:.1f} / {:.1f} MB", head, static_cast<double>(done_) / 1e6,
                           static_cast<double>(total_) / 1e6);
    else
        line = fmt::format("{} {} / {} {}", head, done_, total_, unit_);
    if (total_ != 0 && rate > 0) { // no rate (nor time left) before the first item of the phase is done
        if (unit_ == "MB")
            line += fmt::format(", {:.1f} MB/s", rate / 1e6);
        else
            line += fmt::format(", {:.{}f} {}/s", rate, rate < 10 ? 1 : 0, unit_);
        line += fmt::format(", {:.0f} s left", left);
    }
    line += "   ";
    fmt::print(out_, "\r\033[K{}", line);
    std::fflush(out_);
    drawn_ = true;
}

void Progress::finish() {
    if (!out_) return;
    clear();
    if (!summary_) return;
    const double elapsed = std::chrono::duration<double>(Clock::now() - start_).count();
    const std::uint64_t fresh = done_ - std::min(done_, already_);
    const double rate = elapsed > 0 ? static_cast<double>(fresh) / elapsed : 0;
    fmt::print(out_, "sweep: {} cells in {:.3g} s ({:.0f} cells/s){}\n", fresh, elapsed, rate,
               already_ > 0 ? fmt::format("; {} were done before, in the chunks of an interrupted run", already_)
                            : std::string());
    std::fflush(out_);
}

} // namespace collide
