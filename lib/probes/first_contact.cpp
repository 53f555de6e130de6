#include "probes/first_contact.h"

#include "model/log_kinds.h"

namespace collide {

void FirstContactProbes::clear() {
    watched_.clear();
    open_ = 0;
}

void FirstContactProbes::watch(int body, int with, std::span<double> out) {
    out[FirstContactLog::hit] = 0;
    watched_.push_back({body, with, out, false});
    ++open_;
}

void FirstContactProbes::on_contact(const EngineView& world, const ContactEvent& e) {
    const int i = e.a, j = e.b;
    const double time = e.time;
    if (open_ == 0) return;
    for (Watched& w : watched_) {
        if (w.found) continue;
        if (!((w.body == i && w.with == j) || (w.body == j && w.with == i))) continue;
        w.found = true;
        --open_;
        const Vec3 at = world.state(w.body).position;
        w.out[FirstContactLog::hit] = 1;
        w.out[FirstContactLog::frame] = world.frame();
        w.out[FirstContactLog::time] = time;
        w.out[FirstContactLog::x] = at.x;
        w.out[FirstContactLog::y] = at.y;
        w.out[FirstContactLog::z] = at.z;
    }
}

} // namespace collide
