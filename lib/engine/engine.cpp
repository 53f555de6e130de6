#include "engine/engine.h"

#include <stdexcept>

namespace collide {

void EngineObserver::on_move(const EngineView&, int, double, const Vec3&) {}
void EngineObserver::on_contact(const EngineView&, const ContactEvent&) {}
void EngineObserver::on_response(const EngineView&, int, const Vec3&, const Vec3&) {}
void EngineObserver::on_frame(const EngineView&, int, double) {}

void CollideEngine::reset(const WorldDef& def, std::span<const BodyDef> bodies) {
    world_.reset(def, bodies);
    observers_ = 0;
}

void CollideEngine::add_observer(EngineObserver& observer, unsigned events) {
    if (observers_ == kMaxObservers) throw std::logic_error("CollideEngine: too many observers");
    Forward& f = forwards_[static_cast<std::size_t>(observers_++)];
    f.bind(*this, observer);
    world_.add_observer(f, events);
}

} // namespace collide
