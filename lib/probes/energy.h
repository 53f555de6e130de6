#pragma once
/// \file
/// The energy probe: the mechanical energy of the dynamic bodies at the start, at every sampled
/// frame and at the end (EnergyLog).

#include <span>
#include <vector>

#include "engine/engine.h"
#include "math/mat3.h"
#include "model/bodies.h"

namespace collide {

/// What a body's energy needs beyond its state: its mass and, in its own frame, its centre of
/// mass and inertia tensor about it (shapes/mass.h).
struct BodyInertia {
    double mass = 0; ///< kg
    Vec3 centre;     ///< centre of mass (m, body frame)
    Mat3 inertia;    ///< inertia tensor about `centre` (kg·m², body frame)
};

/// The inertia of dynamic body `def` (its mass, or density times its shape's volume).
BodyInertia inertia_of(const BodyDef& def);

/// The mechanical energy (J) of a body of inertia `b` in state `s` under `gravity` (m/s²): ½·m·|v|²
/// (v: the centre of mass's velocity) + ½·ω'·I'·ω' (ω' = Rᵀ·ω, the angular velocity in the body
/// frame; I' = b.inertia) − m·gravity·c, c = position + R·centre (zero potential at the origin).
double mechanical_energy(const BodyInertia& b, const BodyState& s, const Vec3& gravity);

/// Watches the dynamic bodies' total energy and writes EnergyLog's fields: start when watched (at
/// t = 0, the engine just reset), drift at every frame, end and change at finish.
class EnergyProbes final : public EngineObserver {
public:
    /// Forgets every entry and body.
    void clear();
    /// Watches the dynamic bodies of `bodies` (Scenario::bodies, in `world`'s order, just reset)
    /// and writes into `out` (EnergyLog's fields); the start is written now.
    void watch(std::span<const BodyDef> bodies, const EngineView& world, std::span<double> out);
    /// Writes end and change (call once, after the last frame).
    void finish(const EngineView& world);
    /// True when there is nothing to watch.
    bool empty() const { return outs_.empty(); }

    void on_frame(const EngineView& world, int frame, double time) override;

private:
    /// The dynamic bodies' total energy as `world` is now (J), summed in body order.
    double total(const EngineView& world) const;
    std::vector<int> bodies_;             ///< the dynamic bodies, in order
    std::vector<BodyInertia> inertias_;   ///< theirs
    std::vector<std::span<double>> outs_; ///< every energy entry's fields
    double start_ = 0;                    ///< J
    double drift_ = 0;                    ///< J: the largest |E − start| so far
};

} // namespace collide
