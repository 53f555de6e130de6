#pragma once
/// \file
/// A sweep model whose cells are worked out in closed form, so the grid, threads, shards and
/// formats can be tested without the world: the tunnel of scenarios/tunnel.yaml (a 0.3 m sphere
/// from x = −3 at `speed` toward a 10 cm wall, frames at t = (k + offset)/60, k = 0 … 39).
/// Discrete: the first frame whose centre lies inside the 70 cm window −0.35 < x < 0.35. Swept:
/// always caught at x = −0.35, time 2.65/speed.

#include <cmath>
#include <limits>
#include <stdexcept>

#include "sweep/executor.h"

namespace collide::test {

/// The discrete outcome of the tunnel: the first frame k with the centre in the window, or −1.
inline int tunnel_discrete_frame(double speed, double offset) {
    for (int k = 0; k < 40; ++k) {
        const double x = -3 + (k + offset) * speed / 60;
        if (-0.35 < x && x < 0.35) return k;
    }
    return -1;
}

class ClosedFormTunnel : public CellWorker {
public:
    /// `fail_speed`: a speed at which compute() throws (to test failure handling); NaN: never.
    explicit ClosedFormTunnel(double fail_speed) : fail_speed_(fail_speed) {}
    void compute(std::span<const double> p, std::size_t /*engine*/, Detection mode, std::span<double> v) override {
        const double speed = p[0], offset = p[1];
        if (speed == fail_speed_) throw std::runtime_error("speed rejected");
        const double nan = std::numeric_limits<double>::quiet_NaN();
        if (mode == Detection::swept) {
            const double t = 2.65 / speed;
            v[0] = 1, v[1] = std::max(0.0, std::ceil(t * 60 - offset)), v[2] = t, v[3] = -0.35, v[4] = 0, v[5] = 0;
            return;
        }
        const int k = tunnel_discrete_frame(speed, offset);
        if (k < 0) {
            v[0] = 0, v[1] = nan, v[2] = nan, v[3] = nan, v[4] = nan, v[5] = nan;
            return;
        }
        v[0] = 1, v[1] = k, v[2] = (k + offset) / 60, v[3] = -3 + (k + offset) * speed / 60, v[4] = 0, v[5] = 0;
    }

private:
    double fail_speed_;
};

/// The closed-form tunnel as a sweep model (params speed, offset, rate; log first_contact).
inline SweepModel closed_form_tunnel(double fail_speed = std::numeric_limits<double>::quiet_NaN()) {
    SweepModel m;
    m.name = "tunnel";
    m.file = "tunnel.yaml";
    m.param_names = {"speed", "offset", "rate"};
    m.default_params = {60, 0, 60};
    m.columns = {"hit", "frame", "time", "x", "y", "z"};
    m.fields = {{"hit", "", FieldType::boolean}, {"frame", "", FieldType::integer}, {"time", "s", FieldType::number},
                {"x", "m", FieldType::number},   {"y", "m", FieldType::number},     {"z", "m", FieldType::number}};
    m.body_names = {"wall", "bullet"};
    m.make_worker = [fail_speed] { return std::make_unique<ClosedFormTunnel>(fail_speed); };
    return m;
}

} // namespace collide::test
