#include "probes/energy.h"

#include <algorithm>
#include <cmath>

#include "model/log_kinds.h"
#include "shapes/mass.h"

namespace collide {

BodyInertia inertia_of(const BodyDef& def) {
    const double mass = mass_of(def);
    const MassProperties mp = mass_properties(def.shape, mass);
    return {mass, mp.centre, mp.inertia};
}

double mechanical_energy(const BodyInertia& b, const BodyState& s, const Vec3& gravity) {
    const Vec3 w = rotate_inverse(s.rotation, s.angular_velocity);
    const Vec3 c = s.position + rotate(s.rotation, b.centre);
    return 0.5 * b.mass * dot(s.velocity, s.velocity) + 0.5 * dot(w, b.inertia * w) - b.mass * dot(gravity, c);
}

void EnergyProbes::clear() {
    bodies_.clear();
    inertias_.clear();
    outs_.clear();
    start_ = drift_ = 0;
}

double EnergyProbes::total(const EngineView& world) const {
    const Vec3 g = world.def().gravity;
    double sum = 0;
    for (std::size_t k = 0; k < bodies_.size(); ++k) sum += mechanical_energy(inertias_[k], world.state(bodies_[k]), g);
    return sum;
}

void EnergyProbes::watch(std::span<const BodyDef> bodies, const EngineView& world, std::span<double> out) {
    if (outs_.empty()) {
        for (std::size_t i = 0; i < bodies.size(); ++i) {
            if (body_kind(bodies[i]) != BodyKind::dynamic) continue;
            bodies_.push_back(static_cast<int>(i));
            inertias_.push_back(inertia_of(bodies[i]));
        }
        start_ = total(world);
        drift_ = 0;
    }
    out[EnergyLog::start] = start_;
    outs_.push_back(out);
}

void EnergyProbes::on_frame(const EngineView& world, int, double) {
    drift_ = std::max(drift_, std::fabs(total(world) - start_));
}

void EnergyProbes::finish(const EngineView& world) {
    if (outs_.empty()) return;
    const double end = total(world);
    for (const std::span<double> out : outs_) {
        out[EnergyLog::end] = end;
        out[EnergyLog::change] = end - start_;
        out[EnergyLog::drift] = std::max(drift_, std::fabs(end - start_));
    }
}

} // namespace collide
